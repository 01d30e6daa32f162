#!/usr/bin/env python3
"""The Python module's numbers (issue 18), each a median over alternating rounds:
  1. facet.project against the seed's NumPy render_all_verts at 10^3 and 10^6 vertices, per
     call, call overhead included (targets: 50x and 20x);
  2. a frame of the default scene rendered from Python against facet-render --bench on the same
     scene, camera, size and stage (target: within 5%);
  3. the same frame through pyrender on OpenGL (EGL; llvmpipe without a GPU), where pyrender is
     installed (PyPI, optional), else skipped with a message (target: facet at least 3x faster).

Run with the interpreter the module was built for, e.g.
  PYTHONPATH=build/python /usr/bin/python3 scripts/python_bench.py [--build build] [--rounds 5]
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import facet

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENE = ROOT / "assets" / "default_scene" / "scene.obj"


def render_all_verts(verts, R, shift, focus):
    """The seed's NumPy vertex stage (scripts/numpy_vertex_baseline.py's `stage`)."""
    d = (verts - shift) @ R.T
    d[:, :2] *= focus / np.abs(d[:, 2:3])
    return d


def per_call(function, calls):
    start = time.perf_counter()
    for _ in range(calls):
        function()
    return (time.perf_counter() - start) / calls


def per_call_cpu(function, calls):
    """Seconds of this process's CPU time per call: for single-threaded calls, what a busy
    machine's other work does not add to (wall time does, when this process waits its turn)."""
    start = time.process_time()
    for _ in range(calls):
        function()
    return (time.process_time() - start) / calls


def bench_project(rounds):
    print("facet.project against the seed's NumPy render_all_verts (identity R, shift (0, 0, 10), focus 5):")
    R, shift, focus = np.eye(3, dtype=np.float32), np.array([0, 0, 10], np.float32), np.float32(5)
    for n, target in ((1000, 50), (10**6, 20)):
        verts = np.random.default_rng(42).uniform(-50, 50, (n, 3)).astype(np.float32)
        out = np.empty_like(verts)
        calls = max(5, 2 * 10**6 // n)
        cases = {"numpy": lambda: render_all_verts(verts, R, shift, focus),
                 "facet": lambda: facet.project(verts, R, shift, focus),
                 "facet out=": lambda: facet.project(verts, R, shift, focus, out)}
        wall, cpu = {name: [] for name in cases}, {name: [] for name in cases}
        for _ in range(rounds):  # alternating, so a busy moment of the machine hits all alike
            for name, function in cases.items():
                function()
                wall[name].append(per_call(function, calls))
                cpu[name].append(per_call_cpu(function, calls))
        numpy_wall, numpy_cpu = statistics.median(wall["numpy"]), statistics.median(cpu["numpy"])
        for name in cases:
            w, c = statistics.median(wall[name]), statistics.median(cpu[name])
            ratio = "" if name == "numpy" else f"  {numpy_wall / w:6.1f}x wall, {numpy_cpu / c:6.1f}x CPU (target {target}x)"
            print(f"  n={n:>8} {name:11} {w * 1e6:12.2f} us per call wall, {c * 1e6:12.2f} CPU{ratio}")


def cli_frame_ms(facet_render, size, frames):
    done = subprocess.run([str(facet_render), str(SCENE), "--stage", "cpu", "--size", f"{size[0]}x{size[1]}",
                           "--bench", str(frames), "-o", "/tmp/facet-bench.png"],
                          check=True, capture_output=True, text=True)
    return float(re.search(r"frame ([0-9.]+) ms", done.stdout).group(1))


def bench_render(facet_render, rounds, frames, size):
    print(f"the default scene, {size[0]}x{size[1]}, CPU, default camera: ms per frame (median of {rounds} rounds "
          f"of {frames} frames)")
    model = facet.load(SCENE)
    camera = facet.Camera.framing(model, size[0] / size[1])
    renderer = facet.Renderer(stage="cpu")
    reused = renderer.render(model, camera, size=size)
    cli, python_out, python_new, inside = [], [], [], []
    for _ in range(rounds):
        cli.append(cli_frame_ms(facet_render, size, frames))
        wall, stats = [], []
        for _ in range(frames):
            start = time.perf_counter()
            frame = renderer.render(model, camera, size=size, out=reused)
            wall.append((time.perf_counter() - start) * 1e3)
            stats.append(frame.stats.frame_ms)
        python_out.append(statistics.median(wall))
        inside.append(statistics.median(stats))
        python_new.append(statistics.median(
            per_call(lambda: renderer.render(model, camera, size=size), 1) * 1e3 for _ in range(frames)))
    base = statistics.median(cli)
    print(f"  facet-render --bench          {base:8.2f} ms ({renderer.threads} threads)")
    for label, values in (("Python render(out=frame)", python_out), ("Python render() new arrays", python_new),
                          ("  (its stats.frame_ms)", inside)):
        ms = statistics.median(values)
        print(f"  {label:28} {ms:8.2f} ms ({(ms / base - 1) * 100:+.1f}% against facet-render; target within 5%)")
    return statistics.median(python_out), model, camera


def bench_pyrender(facet_ms, camera, rounds, frames, size):
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    try:
        import pyrender
        import trimesh
    except ImportError as e:
        print(f"pyrender: skipped, not installed for {sys.executable} ({e}; PyPI: pip install pyrender)")
        return
    try:
        scene = pyrender.Scene.from_trimesh_scene(trimesh.load(str(SCENE), force="scene"), bg_color=[0.13, 0.17, 0.23])
        pose = np.eye(4)
        pose[:3, 0], pose[:3, 1], pose[:3, 2] = camera.right, camera.up, -np.array(camera.forward)
        pose[:3, 3] = camera.eye
        scene.add(pyrender.PerspectiveCamera(yfov=np.radians(camera.fov), aspectRatio=size[0] / size[1],
                                             znear=camera.near, zfar=camera.far), pose=pose)
        renderer = pyrender.OffscreenRenderer(*size)
        flags = pyrender.RenderFlags.FLAT  # textures without lighting, as facet's default
        color, _ = renderer.render(scene, flags=flags)
    except Exception as e:  # EGL or the scene's import failing is a result to report, not a crash
        print(f"pyrender: skipped, it could not render here: {type(e).__name__}: {e}")
        return
    times = []
    for _ in range(rounds):
        times.append(statistics.median(per_call(lambda: renderer.render(scene, flags=flags), 1) * 1e3
                                       for _ in range(frames)))
    ms = statistics.median(times)
    import OpenGL.GL as gl

    print(f"pyrender ({gl.glGetString(gl.GL_RENDERER).decode()}): {ms:8.2f} ms per frame, colour and depth read "
          f"back; facet from Python {ms / facet_ms:.1f}x faster (target 3x)")
    renderer.delete()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", type=pathlib.Path, default=ROOT / "build", help="the build tree with facet-render")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--frames", type=int, default=20)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--skip-project", action="store_true")
    args = p.parse_args()
    size = tuple(int(x) for x in args.size.split("x"))
    print(f"facet {facet.__file__}, numpy {np.__version__}, python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    if not args.skip_project:
        bench_project(args.rounds)
    facet_render = args.build / "apps" / "facet-render"
    if not facet_render.exists():
        print(f"render: skipped, {facet_render} is not built")
        return
    facet_ms, model, camera = bench_render(facet_render, args.rounds, args.frames, size)
    bench_pyrender(facet_ms, camera, args.rounds, args.frames, size)


if __name__ == "__main__":
    main()

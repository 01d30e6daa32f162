"""examples/batch_render.py on a two-worker LocalCluster: a turntable of the default scene and
one view of every mesh in a folder, each frame the picture facet renders in this process."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import facet
from conftest import DEFAULT_SCENE, ROOT, skip_unless_required

try:
    import distributed  # noqa: F401
except ImportError:
    skip_unless_required("FACET_REQUIRE_DASK", "dask.distributed is not installed (Debian: python3-distributed)",
                         allow_module_level=True)

SCRIPT = ROOT / "examples" / "batch_render.py"


def run_batch(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, str(SCRIPT), *map(str, args), "--workers", "2", "--stage", "cpu",
                           "--no-progress"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def script():
    spec = importlib.util.spec_from_file_location("batch_render", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_turntable_on_two_workers(tmp_path, scene):
    out = tmp_path / "frames"
    report = run_batch(DEFAULT_SCENE, "--views", "6", "--size", "96x64", "-o", out)
    assert "wrote 6 frames (96x64)" in report and "on 2 workers" in report
    assert sorted(p.name for p in out.iterdir()) == [f"scene_{i}.png" for i in range(6)]
    renderer = facet.Renderer(stage="cpu")
    clear = renderer.render(scene, facet.Camera(eye=(0, 1e4, 0)), size=(96, 64)).color
    frames = {}
    for i in (0, 2, 3, 5):
        expected = renderer.render(scene, orbit_camera(scene, 96 / 64, 60.0 * i), size=(96, 64)).color
        frames[i] = facet.read_image(out / f"scene_{i}.png")
        assert np.array_equal(frames[i], expected), f"frame {i} is not the framing camera turned {60 * i} degrees"
        assert (expected != clear).any(axis=2).mean() > 0.2  # the orbit keeps the scene in view
    assert not np.array_equal(frames[0], frames[3]), "the turntable's frames do not turn"


def orbit_camera(scene, aspect, degrees):
    """The framing camera carried `degrees` about the vertical axis through the scene's centre
    (counter-clockwise seen from above, as yaw turns), turned as much: the test's own turntable."""
    framing = facet.Camera.framing(scene, aspect)
    low, high = (np.array(corner, dtype=np.float64) for corner in scene.bounds)
    centre = (low + high) / 2
    a = np.radians(degrees)
    about_y = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    eye = centre + about_y @ (np.array(framing.eye, dtype=np.float64) - centre)
    eye[1] = framing.eye[1]
    return facet.Camera(eye=tuple(eye), yaw=framing.yaw + degrees, pitch=framing.pitch, fov=framing.fov,
                        near=framing.near, far=framing.far)


def test_one_view_of_every_mesh_in_a_folder(tmp_path):
    meshes = tmp_path / "meshes"
    meshes.mkdir()
    (meshes / "triangle.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    (meshes / "quad.obj").write_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")
    (meshes / "notes.txt").write_text("not a mesh")
    out = tmp_path / "frames"
    assert "wrote 2 frames" in run_batch(meshes, "--size", "40x30", "-o", out)
    assert sorted(p.name for p in out.iterdir()) == ["quad.png", "triangle.png"]
    quad = facet.load(meshes / "quad.obj")
    expected = facet.Renderer(stage="cpu").render(quad, facet.Camera.framing(quad, 40 / 30), size=(40, 30)).color
    assert np.array_equal(facet.read_image(out / "quad.png"), expected)

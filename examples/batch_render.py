#!/usr/bin/env python3
"""Renders many views with facet on a Dask cluster and writes them as PNGs into a folder.

    batch_render.py MESH.obj --views 36          a turntable of one mesh
    batch_render.py FOLDER                       one view of every mesh in a folder

By default a LocalCluster of --workers processes runs here; --scheduler tcp://HOST:8786 sends
the work to a real cluster instead (workers started there with `dask worker tcp://HOST:8786`,
each with facet installed). Meshes are loaded here, once, and each goes to the workers once
(a turntable's mesh is broadcast to every worker; a folder's meshes are spread over them):
the workers need no access to the files. Each worker thread keeps one facet.Renderer; frames
come back as arrays and are written here, so the cluster needs no shared disk either.
"""
import argparse
import math
import pathlib
import sys
import threading
import time

import facet


def parse_size(text):
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, got '{text}'")
    if w < 1 or h < 1:
        raise argparse.ArgumentTypeError(f"size must be at least 1x1, got '{text}'")
    return w, h


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source", type=pathlib.Path, help="a mesh (turntable) or a folder of meshes (one view each)")
    p.add_argument("-o", "--out", type=pathlib.Path, default=pathlib.Path("frames"), help="folder for the PNGs")
    p.add_argument("--views", type=int, default=36, help="turntable views of one mesh (default 36)")
    p.add_argument("--size", type=parse_size, default=(640, 480), help="WxH (default 640x480)")
    p.add_argument("--filter", default="trilinear", help="nearest | bilinear | trilinear")
    p.add_argument("--light", action="store_true", help="headlight shading")
    p.add_argument("--stage", default="auto", help="where each frame renders: auto | cpu | gpu (as facet-render)")
    p.add_argument("--render-threads", type=int, default=None,
                   help="CPU threads per renderer (default: one per hardware thread)")
    p.add_argument("--scheduler", default=None, help="a Dask scheduler's address; default: a LocalCluster here")
    p.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    p.add_argument("--threads-per-worker", type=int, default=1, help="LocalCluster threads per worker (default 1)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.views < 1:
        p.error("--views must be at least 1")
    return args


def worker_renderer(options):
    """This worker thread's renderer for `options`, made on its first task and kept."""
    from distributed import get_worker

    local = get_worker().__dict__.setdefault("_facet_renderers", threading.local())
    if not hasattr(local, "renderers"):
        local.renderers = {}
    key = tuple(sorted(options.items()))
    if key not in local.renderers:
        local.renderers[key] = facet.Renderer(**options)
    return local.renderers[key]


def render_view(model, camera, size, settings, options):
    """One frame on a worker: the colour array and where it ran."""
    frame = worker_renderer(options).render(model, camera, size=size, **settings)
    return frame.color, frame.stats.placement


def turntable(model, camera, count):
    """`count` cameras orbiting the model's centre about +Y from `camera`, each looking at it."""
    (x0, y0, z0), (x1, y1, z1) = model.bounds
    centre = ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2)
    dx, dz = camera.eye[0] - centre[0], camera.eye[2] - centre[2]
    cameras = []
    for i in range(count):
        angle = 2 * math.pi * i / count  # positive: counter-clockwise seen from above, as yaw turns
        eye = (centre[0] + dx * math.cos(angle) + dz * math.sin(angle), camera.eye[1],
               centre[2] - dx * math.sin(angle) + dz * math.cos(angle))
        cameras.append(facet.Camera(eye=eye, yaw=camera.yaw + math.degrees(angle), pitch=camera.pitch,
                                    fov=camera.fov, near=camera.near, far=camera.far))
    return cameras


def jobs(client, args):
    """(png name, model future, camera) for every frame; each model is sent to the cluster once."""
    aspect = args.size[0] / args.size[1]
    if args.source.is_dir():
        meshes = sorted(p for p in args.source.iterdir() if p.suffix.lower() in facet.model_extensions)
        if not meshes:
            raise SystemExit(f"{args.source}: no mesh ({', '.join(facet.model_extensions)}) in this folder")
        out = []
        for path in meshes:
            model = facet.load(path)
            out.append((path.stem + ".png", client.scatter(model), facet.Camera.framing(model, aspect)))
        return out
    model = facet.load(args.source)
    shared = client.scatter(model, broadcast=True)
    cameras = turntable(model, facet.Camera.framing(model, aspect), args.views)
    digits = len(str(args.views - 1))
    return [(f"{args.source.stem}_{i:0{digits}d}.png", shared, c) for i, c in enumerate(cameras)]


def progress(total, enabled):
    """A tqdm bar where tqdm is installed, else a line per tenth of the frames."""
    if enabled:
        try:
            from tqdm import tqdm

            return tqdm(total=total, unit="frame")
        except ImportError:
            pass

    class Lines:
        def __init__(self):
            self.done = 0

        def update(self, n):
            self.done += n
            if enabled and (self.done == total or self.done % max(1, total // 10) == 0):
                print(f"{self.done}/{total} frames", flush=True)

        def close(self):
            pass

    return Lines()


def open_client(args):
    from distributed import Client, LocalCluster

    if args.scheduler:
        return Client(args.scheduler)
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=args.threads_per_worker, processes=True,
                           dashboard_address=None)
    return Client(cluster)


def main(argv=None):
    args = parse_args(argv)
    from distributed import as_completed

    options = {"stage": args.stage, "threads": args.render_threads}
    settings = {"filter": args.filter, "light": args.light}
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with open_client(args) as client:
        workers = len(client.scheduler_info()["workers"])
        work = jobs(client, args)
        futures = {client.submit(render_view, model, camera, args.size, settings, options, pure=False): name
                   for name, model, camera in work}
        bar = progress(len(futures), not args.no_progress)
        placements = set()
        for future in as_completed(futures):
            color, placement = future.result()
            facet.write_png(args.out / futures[future], color)
            placements.add(placement)
            bar.update(1)
        bar.close()
    seconds = time.perf_counter() - start
    print(f"wrote {len(futures)} frames ({args.size[0]}x{args.size[1]}) to {args.out} in {seconds:.1f} s on "
          f"{workers} workers ({', '.join(sorted(placements))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

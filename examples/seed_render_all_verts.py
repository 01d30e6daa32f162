#!/usr/bin/env python3
"""The seed's vertex stage, render_all_verts, in NumPy beside facet.project: the same numbers,
and how long each takes. d = R (v - shift), then d.xy *= focus / |d.z|.

    seed_render_all_verts.py [--n 1000] [--calls 2000]
"""
import argparse
import time

import numpy as np

import facet


def render_all_verts(verts, R, shift, focus):
    """The seed's NumPy function, as it was written."""
    d = (verts - shift) @ R.T
    d[:, :2] *= focus / np.abs(d[:, 2:3])
    return d


def per_call(function, calls, rounds=5):
    """Median seconds per call over `rounds` rounds of `calls` calls."""
    function()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        times.append((time.perf_counter() - start) / calls)
    return sorted(times)[rounds // 2]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=1000, help="vertices (the seed's workload: 1000)")
    p.add_argument("--calls", type=int, default=None, help="calls per timed round (default: about 10^7 vertices)")
    args = p.parse_args()
    calls = args.calls or max(3, 10**7 // args.n)

    rng = np.random.default_rng(42)
    verts = rng.uniform(-50, 50, (args.n, 3)).astype(np.float32)
    camera = facet.Camera(eye=(0, 0, 10), yaw=20, pitch=-10)
    R, shift, focus = camera.rotation, np.array(camera.eye, np.float32), np.float32(camera.focus)

    seed = render_all_verts(verts, R, shift, focus)
    ours = facet.project(verts, R, shift, focus)
    worst = np.max(np.abs(seed - ours) / np.maximum(np.abs(seed), 1.0))
    # NumPy's matrix product may sum in another order (or fused) than facet's x, y, z order.
    assert np.allclose(seed, ours, rtol=1e-5, atol=1e-5), f"facet.project differs from the seed by {worst}"
    print(f"agree: {args.n} vertices, largest relative difference {worst:.2e}")

    out = np.empty_like(verts)
    t_seed = per_call(lambda: render_all_verts(verts, R, shift, focus), calls)
    t_facet = per_call(lambda: facet.project(verts, R, shift, focus, out), calls)
    print(f"numpy render_all_verts: {t_seed * 1e6:10.2f} us per call")
    print(f"facet.project:          {t_facet * 1e6:10.2f} us per call ({t_seed / t_facet:.1f}x)")


if __name__ == "__main__":
    main()

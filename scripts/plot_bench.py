#!/usr/bin/env python3
"""Plots what `facet-bench --out DIR` measured, from DIR/bench.json:

  vertex_time_per_vertex.png  time per vertex against n for every vertex-stage path (log-log),
                              with the GPU's break-even n marked, or why there is none
  raster_frame_times.png      median frame time per scene and path, one panel per picture size,
                              with the min-max spread as error bars

usage: scripts/plot_bench.py DIR/bench.json [--out PLOT_DIR]   (default: next to bench.json)

Needs matplotlib (Debian: python3-matplotlib); without it, says so and exits 0."""
import argparse
import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if "records" not in data:
        raise ValueError(f"{path}: no 'records' (not written by facet-bench?)")
    return data


def measured(records, section, case=None):
    return [r for r in records
            if r["section"] == section and r["status"] == "ok" and (case is None or r["case"] == case)]


def plot_vertex(plt, data, out_dir):
    records = data["records"]
    sweep = measured(records, "vertex", "sweep")
    if not sweep:
        return None
    fig, ax = plt.subplots(figsize=(8, 5))
    paths = []
    for r in sweep:
        if r["path"] not in paths:
            paths.append(r["path"])
    for path in paths:
        rows = sorted((r for r in sweep if r["path"] == path), key=lambda r: r["n"])
        ax.plot([r["n"] for r in rows], [r["ns_per_item"] for r in rows], marker="o", label=rows[0]["label"])
    break_even = next((r for r in records if r["section"] == "vertex" and r["case"] == "break_even"), None)
    if break_even and break_even["status"] == "ok":
        ax.axvline(break_even["n"], color="black", linestyle="--")
        ax.annotate(f"GPU break-even\nn = {break_even['n']:,}", (break_even["n"], 0.95),
                    xycoords=("data", "axes fraction"), ha="left", va="top")
    elif break_even:
        ax.set_title(f"no break-even: {break_even['note']}", fontsize=7, wrap=True)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("vertices per call (n)")
    ax.set_ylabel("ns per vertex (median)")
    fig.suptitle("Vertex stage: time per vertex")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, "vertex_time_per_vertex.png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_raster(plt, data, out_dir):
    raster = measured(data["records"], "raster")
    if not raster:
        return None
    sizes = []
    for r in raster:
        if (r["width"], r["height"]) not in sizes:
            sizes.append((r["width"], r["height"]))
    fig, axes = plt.subplots(len(sizes), 1, figsize=(10, 4 * len(sizes)), squeeze=False)
    for ax, (w, h) in zip(axes[:, 0], sizes):
        rows = [r for r in raster if (r["width"], r["height"]) == (w, h)]
        scenes, paths = [], []
        for r in rows:
            if r["case"] not in scenes:
                scenes.append(r["case"])
            if r["label"] not in paths:
                paths.append(r["label"])
        width = 0.8 / len(paths)
        for k, label in enumerate(paths):
            xs, ys, lows, highs = [], [], [], []
            for s, scene in enumerate(scenes):
                r = next((r for r in rows if r["case"] == scene and r["label"] == label), None)
                if r is None:
                    continue
                xs.append(s + (k - (len(paths) - 1) / 2) * width)
                ys.append(r["median_ms"])
                lows.append(r["median_ms"] - r["spread_ms"][0])
                highs.append(r["spread_ms"][1] - r["median_ms"])
            ax.bar(xs, ys, width, yerr=[lows, highs], capsize=2, label=label)
        ax.set_xticks(range(len(scenes)))
        ax.set_xticklabels([f"{scene}\n{next(r['n'] for r in rows if r['case'] == scene):,} tris" for scene in scenes],
                           fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("ms per frame (median)")
        ax.set_title(f"{w}x{h}")
        ax.grid(True, axis="y", which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Raster: frame time per scene and path")
    fig.tight_layout()
    path = os.path.join(out_dir, "raster_frame_times.png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main():
    parser = argparse.ArgumentParser(description="Plots facet-bench's bench.json.")
    parser.add_argument("bench_json")
    parser.add_argument("--out", help="directory for the PNG files (default: next to bench.json)")
    args = parser.parse_args()

    try:
        data = load(args.bench_json)
    except (OSError, ValueError) as e:
        print(f"plot_bench: {e}", file=sys.stderr)
        return 1
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"plot_bench: matplotlib is not installed for {sys.executable} (Debian: python3-matplotlib); "
              "no plots written")
        return 0

    out_dir = args.out or os.path.dirname(os.path.abspath(args.bench_json))
    os.makedirs(out_dir, exist_ok=True)
    written = [p for p in (plot_vertex(plt, data, out_dir), plot_raster(plt, data, out_dir)) if p]
    for p in written:
        print("wrote", p)
    if not written:
        print("plot_bench: bench.json has no measured records to plot")
    return 0


if __name__ == "__main__":
    sys.exit(main())

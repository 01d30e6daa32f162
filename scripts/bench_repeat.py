#!/usr/bin/env python3
"""Runs facet-bench several times and merges the runs, for a machine whose load changes from
minute to minute (a shared host): one run's row is ten frames taken within a second, so a
burst of load on the host can move a whole row by half. Each record of the merged result is
the median of the runs' medians, its spread the lowest and highest of them, and its ratio to
OpenGL the ratio of the merged medians.

  DIR/run-K/bench.json, bench.csv   each run, as facet-bench wrote it
  DIR/bench.json                    the merged records, in facet-bench's format (for
                                    scripts/plot_bench.py); the tables are printed

usage: scripts/bench_repeat.py FACET_BENCH --runs N --out DIR [-- FACET_BENCH_ARGS...]"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run_all(bench, runs, out, extra):
    paths = []
    for k in range(1, runs + 1):
        run_dir = os.path.join(out, f"run-{k}")
        print(f"bench_repeat: run {k} of {runs}", file=sys.stderr, flush=True)
        try:
            subprocess.run([bench, "--out", run_dir, *extra], check=True, stdout=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"bench_repeat: run {k} of {bench} failed: {e}")
        paths.append(os.path.join(run_dir, "bench.json"))
    return [read_json(p) for p in paths]


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def key(r):
    return (r["section"], r["case"], r["path"], r["n"], r["width"], r["height"], r["samples"])


def merge_record(versions):
    """One record from its versions in every run; where some run did not measure it, that
    run's version (absent, and why)."""
    unmeasured = [v for v in versions if v["status"] != "ok"]
    if unmeasured:
        return dict(unmeasured[0])
    first = dict(versions[0])
    medians = [v["median_ms"] for v in versions]
    median = statistics.median(medians)
    scale = first["median_ms"] / median
    first["median_ms"] = median
    first["spread_ms"] = [min(medians), max(medians)]
    first["runs"] = len(versions)
    for field, factor in (("ns_per_item", 1 / scale), ("items_per_s", scale), ("pixels_per_s", scale)):
        if first[field] is not None:
            first[field] *= factor
    first["note"] = f"median of {len(versions)} runs' medians (each: {first['note']})"
    return first


def merge(datasets):
    by_key = [{key(r): r for r in d["records"]} for d in datasets]
    missing = [(k, i + 1) for k in by_key[0] for i, d in enumerate(by_key) if k not in d]
    if missing:
        k, run = missing[0]
        sys.exit(f"bench_repeat: run {run} has no record {k}, which run 1 has (different options or builds?)")
    merged = {k: merge_record([d[k] for d in by_key]) for k in by_key[0]}
    for r in merged.values():
        if r["section"] == "raster" and r["status"] == "ok" and r["ratio_to_gl"] is not None:
            gl = merged.get((r["section"], r["case"], "gl", r["n"], r["width"], r["height"], r["samples"]))
            r["ratio_to_gl"] = r["median_ms"] / gl["median_ms"] if gl and gl["status"] == "ok" else None
    out = dict(datasets[0])
    out["records"] = list(merged.values())
    out["spread_kind"] = "min-max of the runs' medians"
    out["interrupted"] = any(d.get("interrupted") for d in datasets)
    return out


def time_text(ms):
    for limit, scale, unit in ((1e-3, 1e6, "ns"), (1.0, 1e3, "us"), (1000.0, 1.0, "ms")):
        if ms < limit:
            return f"{ms * scale:.3g} {unit}"
    return f"{ms * 1e-3:.3g} s"


def per_million(value, scale=1.0):
    """A rate in millions (or, with scale 1e6, a figure as it is), or '-' where there is none."""
    return "-" if value is None else f"{value * scale * 1e-6:.3g}"


def print_tables(data, runs):
    records = [r for r in data["records"] if r["status"] == "ok"]
    print(f"Vertex stage, time per call (median of {runs} runs' medians; spread: their min - max)")
    print(f"{'case':7}{'n':10}{'path':31}{'median':11}{'spread':23}ns/vertex")
    for r in records:
        if r["section"] == "vertex" and r["case"] != "break_even":
            spread = f"{time_text(r['spread_ms'][0])} - {time_text(r['spread_ms'][1])}"
            print(f"{r['case']:7}{r['n']:<10}{r['label']:31}{time_text(r['median_ms']):11}{spread:23}"
                  f"{per_million(r['ns_per_item'], 1e6)}")
    print(f"\nRaster, whole frames (median of {runs} runs' medians; spread: their min - max; "
          "vs GL = frame time / OpenGL's)")
    print(f"{'scene':15}{'triangles':10}{'size':10}{'path':22}{'median':10}{'spread':21}{'Mtri/s':9}"
          f"{'Mpix/s':9}vs GL")
    for r in records:
        if r["section"] == "raster":
            spread = f"{time_text(r['spread_ms'][0])} - {time_text(r['spread_ms'][1])}"
            ratio = f"{r['ratio_to_gl']:.2f}" if r["ratio_to_gl"] is not None else "-"
            print(f"{r['case']:15}{r['n']:<10}{str(r['width']) + 'x' + str(r['height']):10}{r['label']:22}"
                  f"{time_text(r['median_ms']):10}{spread:21}{per_million(r['items_per_s']):9}"
                  f"{per_million(r['pixels_per_s']):9}{ratio}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     usage="%(prog)s FACET_BENCH --runs N --out DIR [-- FACET_BENCH_ARGS...]")
    parser.add_argument("bench", help="the facet-bench program")
    parser.add_argument("--runs", type=int, default=5, help="how many runs (default 5)")
    parser.add_argument("--out", required=True, help="directory for the runs and the merged bench.json")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if args.runs < 1:
        parser.error(f"--runs {args.runs}: at least 1")
    datasets = run_all(args.bench, args.runs, args.out, extra)
    merged = merge(datasets)
    with open(os.path.join(args.out, "bench.json"), "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=1)
    print_tables(merged, args.runs)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A/B of two facet-bench binaries (a change's build against the one before it), or of one binary
under two environments (FACET_ISA=avx2 against the default, say), on a machine whose load changes
from minute to minute: the runs alternate, A B then B A, so a burst of load on the host falls on
both alike, and each pair's ratio (B's frame time / A's, per row) is taken within the pair. A row
is the median of its pairs' ratios, their lowest and highest, and how many pairs B won; the A/A
control (the same binary and environment twice) shows how far the host alone moves a ratio.

  DIR/a-K/, DIR/b-K/   each run's bench.json and bench.csv, as facet-bench wrote them
  DIR/ab.json          every row's ratios and medians

usage: scripts/bench_ab.py A_BENCH B_BENCH --pairs N --out DIR [--env-a NAME=VALUE]...
                           [--env-b NAME=VALUE]... [-- FACET_BENCH_ARGS...]
e.g.   scripts/bench_ab.py old/facet-bench build/apps/facet-bench --pairs 7 --out ab --
           --sections raster --paths cpu --scenes textured_sheet,plaza_close"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def environment(assignments, flag):
    env = dict(os.environ)
    for a in assignments:
        name, eq, value = a.partition("=")
        if not eq or not name:
            sys.exit(f"bench_ab: {flag} expects NAME=VALUE, got '{a}'")
        env[name] = value
    return env


def run(bench, env, out, extra, what):
    print(f"bench_ab: {what}", file=sys.stderr, flush=True)
    try:
        subprocess.run([bench, "--out", out, *extra], check=True, env=env, stdout=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"bench_ab: {what} ({bench}) failed: {e}")
    with open(os.path.join(out, "bench.json")) as f:
        records = json.load(f)["records"]
    return {key(r): r["median_ms"] for r in records if r["status"] == "ok"}


# A row: the same measurement in both runs.
def key(r):
    return (r["section"], r["case"], r["path"], r["n"], r["width"], r["height"], r["samples"])


def pairs_of(args, extra):
    env_a, env_b = environment(args.env_a, "--env-a"), environment(args.env_b, "--env-b")
    ratios, times_a, times_b = {}, {}, {}
    for k in range(1, args.pairs + 1):
        order = [("a", args.a, env_a), ("b", args.b, env_b)]
        if k % 2 == 0:
            order.reverse()
        got = {}
        for tag, bench, env in order:
            what = f"pair {k} of {args.pairs}, {tag.upper()}"
            got[tag] = run(bench, env, os.path.join(args.out, f"{tag}-{k}"), extra, what)
        for row, a in got["a"].items():
            b = got["b"].get(row)
            if b is None or a <= 0:
                continue
            ratios.setdefault(row, []).append(b / a)
            times_a.setdefault(row, []).append(a)
            times_b.setdefault(row, []).append(b)
    return ratios, times_a, times_b


def report(args, ratios, times_a, times_b):
    if not ratios:
        sys.exit("bench_ab: A and B measured no row in common")
    rows = []
    print(f"{'section':8} {'case':15} {'path':14} {'size':10} {'A ms':>9} {'B ms':>9} {'B/A':>6}  {'range':13}"
          " B faster")
    for row in sorted(ratios):
        section, case, path, n, width, height, samples = row
        r = ratios[row]
        a, b = statistics.median(times_a[row]), statistics.median(times_b[row])
        ratio = statistics.median(r)
        faster = sum(x < 1.0 for x in r)
        size = f"{width}x{height}" if section == "raster" else str(n)
        print(f"{section:8} {case:15} {path:14} {size:10} {a:9.3f} {b:9.3f} {ratio:6.3f}  {min(r):.3f}-{max(r):.3f}"
              f"  {faster} of {len(r)}")
        rows.append({"section": section, "case": case, "path": path, "n": n, "width": width, "height": height,
                     "samples": samples, "a_median_ms": a, "b_median_ms": b, "ratio_median": ratio,
                     "ratios": r, "b_faster": faster})
    with open(os.path.join(args.out, "ab.json"), "w") as f:
        json.dump({"a": args.a, "b": args.b, "env_a": args.env_a, "env_b": args.env_b, "pairs": args.pairs,
                   "rows": rows}, f, indent=1)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    p = argparse.ArgumentParser(prog="bench_ab", description="Alternated A/B runs of facet-bench.")
    p.add_argument("a", help="facet-bench A (before)")
    p.add_argument("b", help="facet-bench B (after; may be A itself, with --env-b)")
    p.add_argument("--pairs", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--env-a", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--env-b", action="append", default=[], metavar="NAME=VALUE")
    args = p.parse_args(argv)
    if args.pairs < 1:
        sys.exit(f"bench_ab: --pairs expects at least 1, got {args.pairs}")
    if "--out" in extra:
        sys.exit("bench_ab: give --out to bench_ab, not to facet-bench: each run writes its own folder")
    for bench in (args.a, args.b):
        if not (os.path.isfile(bench) and os.access(bench, os.X_OK)):
            sys.exit(f"bench_ab: {bench} is not an executable file")
    os.makedirs(args.out, exist_ok=True)
    report(args, *pairs_of(args, extra))


if __name__ == "__main__":
    main()

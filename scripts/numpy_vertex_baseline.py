#!/usr/bin/env python3
"""The seed's vertex stage in NumPy, the baseline facet-vertex-bench and facet-bench compare with:
(v - shift) @ R.T, then x, y *= focus / |z|, on float32 vertices in [-50, 50]^3 with identity
rotation, shift (0, 0, 10) and focus 5. Prints the median time per call for each size.

--sizes N,N,...  vertex counts to sweep (default 10^3 .. 10^7)
--seed-calls C   first time the seed's own workload: 1,000 vertices, C calls per run
--max-calls C    at most C calls per run in the sweep (default 10000; a run covers up to 10^7
                 vertices)
--runs R         timed runs per size (default 5); the median run is reported
--json           one JSON object per line instead of text (for facet-bench); when numpy is
                 missing, a single {"absent": reason} line"""
import argparse
import json
import sys
import time


def parse_sizes(text):
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N,N,... got '{text}'")
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"sizes must be positive, got '{text}'")
    return sizes


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got '{text}'")
    return value


def stage(np, v, shift, rotation, focus):
    d = (v - shift) @ rotation.T
    d[:, :2] *= focus / np.abs(d[:, 2:3])
    return d


def measure(np, rng, n, calls, runs):
    shift = np.array([0, 0, 10], np.float32)
    rotation = np.eye(3, dtype=np.float32)
    focus = np.float32(5)
    v = rng.uniform(-50, 50, (n, 3)).astype(np.float32)
    for _ in range(min(calls, 100)):
        stage(np, v, shift, rotation, focus)
    per_call = []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(calls):
            stage(np, v, shift, rotation, focus)
        per_call.append((time.perf_counter() - t) / calls)
    return sorted(per_call)


def main():
    parser = argparse.ArgumentParser(description="The seed's vertex stage in NumPy.")
    parser.add_argument("--sizes", type=parse_sizes, default=[10**3, 10**4, 10**5, 10**6, 10**7])
    parser.add_argument("--seed-calls", type=positive, default=None)
    parser.add_argument("--max-calls", type=positive, default=10000)
    parser.add_argument("--runs", type=positive, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    try:
        import numpy as np
    except ImportError:
        reason = f"numpy is not installed for {sys.executable} (Debian: python3-numpy)"
        print(json.dumps({"absent": reason}) if args.json else "numpy-baseline: " + reason)
        return 0

    rng = np.random.default_rng(42)
    cases = [("seed", 1000, args.seed_calls)] if args.seed_calls else []
    cases += [("sweep", n, max(3, min(args.max_calls, 10**7 // n))) for n in args.sizes]
    for case, n, calls in cases:
        runs = measure(np, rng, n, calls, args.runs)
        median = runs[len(runs) // 2]
        if args.json:
            print(json.dumps({"case": case, "n": n, "calls": calls, "runs": args.runs, "median_s": median,
                              "min_s": runs[0], "max_s": runs[-1], "numpy": np.__version__,
                              "python": sys.executable}), flush=True)
        else:
            print(f"numpy {case:5} n={n:>8}: {median * 1e6:12.2f} us per call, {median * 1e9 / n:8.3f} ns per "
                  f"vertex ({calls} calls x {args.runs} runs, numpy {np.__version__})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

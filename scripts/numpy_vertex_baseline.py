#!/usr/bin/env python3
"""The seed's vertex stage in NumPy, the baseline facet-vertex-bench is compared with:
(v - shift) @ R.T, then x, y *= focus / |z|, on float32 vertices in [-50, 50]^3 with identity
rotation, shift (0, 0, 10) and focus 5. Prints the median time per call for each size."""
import sys
import time

try:
    import numpy as np
except ImportError:
    print("numpy-baseline: numpy is not installed for", sys.executable, "(Debian: python3-numpy)")
    sys.exit(0)


def stage(v, shift, rotation, focus):
    d = (v - shift) @ rotation.T
    d[:, :2] *= focus / np.abs(d[:, 2:3])
    return d


def main():
    rng = np.random.default_rng(42)
    shift = np.array([0, 0, 10], np.float32)
    rotation = np.eye(3, dtype=np.float32)
    focus = np.float32(5)
    for n in (10**3, 10**4, 10**5, 10**6, 10**7):
        v = rng.uniform(-50, 50, (n, 3)).astype(np.float32)
        calls = max(3, min(10000, 10**7 // n))
        for _ in range(min(calls, 100)):
            stage(v, shift, rotation, focus)
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(calls):
                stage(v, shift, rotation, focus)
            runs.append((time.perf_counter() - t) / calls)
        median = sorted(runs)[len(runs) // 2]
        print(f"numpy n={n:>8}: {median * 1e6:12.2f} us per call, {median * 1e9 / n:8.3f} ns per vertex "
              f"({calls} calls x 5 runs, numpy {np.__version__})")


if __name__ == "__main__":
    main()

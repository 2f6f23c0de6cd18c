"""The Python module's overhead per call: the wall time of calib.skce minus the library's own time
(compute_seconds: the estimator, measured inside the call), for a small and a large input, median
of many calls, one thread. The overhead is what the module adds: reading the arrays into calib's
containers and validating them, the options, the result objects (docs/performance.md). The library's
time is measured twice: with the working memory the module keeps between calls (64 MiB, from import) and
with none kept (calib.keep_working_memory(0)); `build/bin/calib-bench python` times the same calls in C++.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py
"""

import statistics
import time

import numpy as np

import calib


def measure(n, m, calls):
    rng = np.random.default_rng(1)
    probs = rng.dirichlet(np.ones(m), size=n)
    labels = rng.integers(0, m, n)
    options = dict(estimator="skce-block", block_size=2, lengthscale=1.0, threads=1)
    walls, overheads = [], []
    for _ in range(calls):
        start = time.perf_counter()
        e = calib.estimate(probs, labels, **options)
        wall = time.perf_counter() - start
        walls.append(wall)
        overheads.append(wall - e.compute_seconds)
    return statistics.median(walls), statistics.median(overheads)


if __name__ == "__main__":
    print(f"calib {calib.__version__}, skce-block (B = 2, lengthscale 1), 1 thread, median of the calls")
    for n, m, calls in ((100, 10, 5000), (10_000, 10, 500), (100_000, 10, 50)):
        wall, overhead = measure(n, m, calls)
        calib.keep_working_memory(0)
        bare_wall, bare_overhead = measure(n, m, calls)
        calib.keep_working_memory(calib.default_working_memory)
        print(f"n = {n:>6}, m = {m}: call {wall * 1e6:9.1f} us, library {1e6 * (wall - overhead):9.1f} us "
              f"({1e6 * (bare_wall - bare_overhead):9.1f} us with no working memory kept), "
              f"module overhead {overhead * 1e6:7.1f} us ({8 * n * m / 1e6:.1f} MB of float64 probabilities)")

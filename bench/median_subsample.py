#!/usr/bin/env python3
"""The block test's level and power with the default median lengthscale of linear-time methods (the
median on a seeded subsample of 2000 observations, calib.linear_median_subsample) beside the exact
median over all n(n-1)/2 pairs, on the same data sets (docs/tests.md, "The median of linear-time
methods"). Also the lengthscales' ratio.

Design (m = 10 classes, n observations, predictions p ~ Dirichlet(0.5, ..., 0.5)):
  calibrated     labels ~ Categorical(p)
  overconfident  labels ~ Categorical(softmax(log(p) / 2)): the model's logits are twice the truth's
  prior shift    labels ~ Categorical(p * w), w_k = 1.3 for k < 5, else 1 (renormalised)
Each cell: REPS data sets (seeds 1..REPS), the block test with B = 2 and B = sqrt(n) at alpha = 0.05,
with the exact median and with the default; rejection rates with 95 % Wilson intervals.

Usage: PYTHONPATH=build/python python3 bench/median_subsample.py [N [REPS]]   (default 10000 300)
"""
import math
import sys
import time

import numpy as np

import calib

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 300
M = 10


def labels_of(rng, q):
    u = rng.uniform(size=len(q))[:, None]
    return np.minimum((np.cumsum(q, axis=1) < u).sum(axis=1), M - 1)


def design(name, seed):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(M, 0.5), N)
    p = np.clip(p, 1e-300, None)
    p /= p.sum(axis=1, keepdims=True)
    if name == "calibrated":
        q = p
    elif name == "overconfident":
        q = np.exp(np.log(p) / 2)
        q /= q.sum(axis=1, keepdims=True)
    else:
        q = p * np.where(np.arange(M) < 5, 1.3, 1.0)
        q /= q.sum(axis=1, keepdims=True)
    return p, labels_of(rng, q)


def wilson(k, n, z=1.959964):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main():
    print(f"calib {calib.__version__ if hasattr(calib, '__version__') else ''} block test, n = {N}, m = {M}, "
          f"{REPS} data sets per cell, alpha = 0.05")
    start = time.process_time()
    print("design          B      median   rejections  rate    95% interval     lengthscale / exact (min, median, max)")
    for name in ("calibrated", "overconfident", "prior shift"):
        counts = {}
        ratios = []
        for seed in range(1, REPS + 1):
            p, y = design(name, seed)
            exact = calib.test(p, y, method="block", block_size=2, median_subsample=0)
            default = calib.test(p, y, method="block", block_size=2)
            ratios.append(default.to_dict()["lengthscale"] / exact.to_dict()["lengthscale"])
            for b in (2, "sqrt"):
                for rule, kwargs in (("exact", {"lengthscale": exact.to_dict()["lengthscale"]}),
                                     ("default", {"lengthscale": default.to_dict()["lengthscale"]})):
                    r = calib.test(p, y, method="block", block_size=b, **kwargs)
                    counts[(b, rule)] = counts.get((b, rule), 0) + int(r.p_value < 0.05)
        for (b, rule), k in counts.items():
            lo, hi = wilson(k, REPS)
            extra = ""
            if rule == "default":
                extra = f"{min(ratios):.4f}, {float(np.median(ratios)):.4f}, {max(ratios):.4f}"
            print(f"{name:15s} {str(b):6s} {rule:8s} {k:5d}/{REPS:<5d} {k / REPS:6.3f}  [{lo:.3f}, {hi:.3f}]   {extra}")
        sys.stdout.flush()
    print(f"CPU seconds: {time.process_time() - start:.1f}")


if __name__ == "__main__":
    main()

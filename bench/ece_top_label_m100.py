#!/usr/bin/env python3
"""The top-label ECE of n = 10^6 predictions of m = 100 classes from Python, beside a NumPy computation
of the same number (docs/performance.md, "The top-label ECE at m = 100"). CPU seconds of each.

Usage: PYTHONPATH=build/python OMP_NUM_THREADS=1 python3 bench/ece_top_label_m100.py
"""
import time

import numpy as np

import calib

rng = np.random.default_rng(0)
n, m = 10**6, 100
p = rng.random((n, m))
p /= p.sum(1, keepdims=True)
y = rng.integers(0, m, n)
start = time.process_time()
value = calib.ece(p, y, mode="top-label")
print(f"calib  {value!r}  {time.process_time() - start:.2f} CPU-s (validation of the 10^8 probabilities included)")
start = time.process_time()
c, right = p.max(1), p.argmax(1) == y
b = np.maximum(np.ceil(c * 10).astype(int), 1)
reference = sum(abs(c[b == k].mean() - right[b == k].mean()) * (b == k).mean() for k in range(1, 11) if (b == k).any())
print(f"numpy  {reference!r}  {time.process_time() - start:.2f} CPU-s")
assert abs(value - reference) <= 1e-12 * reference

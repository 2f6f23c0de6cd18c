#!/usr/bin/env python3
"""The binned ECE of one fixed model at growing n, canonical against top-label (docs/ece.md, "Which ECE
is the default"): the model's predictions p ~ Dirichlet(0.5, ..., 0.5) over m = 10 classes are
overconfident (the true probabilities are softmax(log p / 1.5)); uniform:10 bins, TV, seed 7.

Usage: PYTHONPATH=build/python python3 bench/ece_sample_size.py
"""
import time

import numpy as np

import calib

M = 10


def data(n, seed):
    r = np.random.default_rng(seed)
    p = r.dirichlet(np.full(M, 0.5), n)
    q = np.exp(np.log(np.clip(p, 1e-300, None)) / 1.5)
    q /= q.sum(1, keepdims=True)
    u = r.uniform(size=n)[:, None]
    return p, np.minimum((np.cumsum(q, 1) < u).sum(1), M - 1)


start = time.process_time()
for n in (10**3, 10**4, 10**5, 10**6):
    p, y = data(n, 7)
    print(f"n = {n:>8}: canonical {calib.ece(p, y, mode='canonical'):.4f}  top-label {calib.ece(p, y, mode='top-label'):.4f}")
print(f"CPU seconds: {time.process_time() - start:.1f}")

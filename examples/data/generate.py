#!/usr/bin/env python3
"""Writes the sample data of calib's documentation into this directory (seeded: the same files on
every run; Python's standard library only, so no NumPy is needed):

    python3 examples/data/generate.py [DIR]      (default: this directory)

Every family has a file, drawn from a known model so that the documented results mean something:
  preds.csv        categorical, 10 classes, header p0..p9,label; an overconfident network: labels
                   drawn from the true probabilities, predictions sharpened (temperature 0.6) (800 rows)
  preds.npy        the same predictions as float32 (a PyTorch/NumPy softmax output), and
  labels.npy       their labels as int64, 0..9 (as torch and NumPy write them)
  logits.csv       logits of 3 classes and a 1-based label, no header (300 rows)
  scores.csv       binary: p,y with P(y = 1) = p, calibrated (500 rows)
  a.csv, b.csv     two binary models on the same labels: a calibrated, b overconfident
  lenet.csv, densenet.csv, resnet.csv
                   three categorical models (10 classes) on the same labels, from calibrated to
                   strongly overconfident (600 rows each)
  gauss.csv        normal: mu,sigma,y, calibrated (1500 rows)
  locations.csv    5 normal test locations for the UCME / CME test
  lap.csv          laplace: mu,beta,y, calibrated (400 rows)
  mvd.csv          mvnormal-diag, d = 2: mu_1,mu_2,sigma_1,sigma_2,y_1,y_2 (300 rows)
  mv.csv           mvnormal, d = 2: mu_1,mu_2,S11,S21,S22,y_1,y_2 (300 rows)
  ensemble.csv     mixture-normal, K = 3 equal-weight members: w_1..w_3,mu_1..mu_3,sigma_1..sigma_3,y
                   (300 rows)
"""
import math
import os
import random
import struct
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(OUT, name)


def fmt(x):
    return "%.9g" % x  # 9 digits: rows of probabilities still sum to 1 within 1e-8


def write_csv(name, header, rows):
    with open(path(name), "w", newline="\n") as f:
        if header:
            f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(v if isinstance(v, str) else fmt(v) if isinstance(v, float) else str(v) for v in row) + "\n")


def write_npy(name, dtype, shape, values):
    """A version 1.0 .npy file: dtype '<f4' or '<i8', C order."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        dtype, "(%d,)" % shape[0] if len(shape) == 1 else "(%d, %d)" % shape)
    header += " " * (63 - (len(header) + 10) % 64) + "\n"  # total header length: a multiple of 64
    code = "<%d%s" % (len(values), "f" if dtype == "<f4" else "q")
    with open(path(name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack(code, *values))


def dirichlet(rng, alpha, m):
    while True:
        g = [rng.gammavariate(alpha, 1.0) for _ in range(m)]
        s = sum(g)
        if s > 0:
            return [x / s for x in g]


def draw(rng, p):
    u, c = rng.random(), 0.0
    for k, pk in enumerate(p):
        c += pk
        if u < c:
            return k
    return len(p) - 1


def sharpen(p, t):
    """Temperature t < 1 makes a prediction overconfident: p^(1/t), renormalised."""
    q = [x ** (1.0 / t) for x in p]
    s = sum(q)
    return [x / s for x in q]


def main():
    rng = random.Random(20261125)

    # Categorical: the truth p, an overconfident network sharpen(p, 0.6) evaluated on labels from p.
    rows, probs, labels = [], [], []
    for _ in range(800):
        truth = dirichlet(rng, 0.3, 10)
        y = draw(rng, truth)
        q = sharpen(truth, 0.6)
        rows.append([fmt(x) for x in q] + [y])
        probs.extend(q)
        labels.append(y)
    write_csv("preds.csv", ["p%d" % k for k in range(10)] + ["label"], rows)
    write_npy("preds.npy", "<f4", (800, 10), probs)
    write_npy("labels.npy", "<i8", (800,), labels)

    rows = []
    for _ in range(300):
        z = [rng.gauss(0.0, 2.0) for _ in range(3)]
        e = [math.exp(v - max(z)) for v in z]
        p = [v / sum(e) for v in e]
        rows.append([fmt(v) for v in z] + [draw(rng, p) + 1])
    write_csv("logits.csv", None, rows)

    rows = []
    for _ in range(500):
        p = rng.random()
        rows.append([fmt(p), int(rng.random() < p)])
    write_csv("scores.csv", ["p", "y"], rows)

    a, b = [], []
    for _ in range(500):
        p = rng.random()
        y = int(rng.random() < p)
        a.append([fmt(p), y])
        b.append([fmt(sharpen([1 - p, p], 0.5)[1]), y])
    write_csv("a.csv", ["p", "y"], a)
    write_csv("b.csv", ["p", "y"], b)

    models = {"lenet.csv": 1.0, "densenet.csv": 0.8, "resnet.csv": 0.5}
    tables = {name: [] for name in models}
    for _ in range(600):
        truth = dirichlet(rng, 0.3, 10)
        y = draw(rng, truth)
        for name, t in models.items():
            tables[name].append([fmt(x) for x in sharpen(truth, t)] + [y])
    for name, rows in tables.items():
        write_csv(name, ["p%d" % k for k in range(10)] + ["label"], rows)

    def normal_rows(n):
        out = []
        for _ in range(n):
            mu, sigma = rng.gauss(0.0, 1.0), 0.1 + rng.random()
            out.append([mu, sigma, rng.gauss(mu, sigma)])
        return out
    write_csv("gauss.csv", ["mu", "sigma", "y"], normal_rows(1500))
    write_csv("locations.csv", ["mu", "sigma", "y"], normal_rows(5))

    rows = []
    for _ in range(400):
        mu, beta = rng.gauss(0.0, 1.0), 0.2 + rng.random()
        u = rng.random() - 0.5  # a Laplace draw by the inverse CDF
        rows.append([mu, beta, mu - beta * math.copysign(math.log(1 - 2 * abs(u)), u)])
    write_csv("lap.csv", ["mu", "beta", "y"], rows)

    rows = []
    for _ in range(300):
        mu = [rng.gauss(0.0, 1.0) for _ in range(2)]
        sigma = [0.2 + rng.random() for _ in range(2)]
        rows.append(mu + sigma + [rng.gauss(mu[k], sigma[k]) for k in range(2)])
    write_csv("mvd.csv", ["mu_1", "mu_2", "sigma_1", "sigma_2", "y_1", "y_2"], rows)

    rows = []
    for _ in range(300):
        mu = [rng.gauss(0.0, 1.0) for _ in range(2)]
        l11, l21, l22 = 0.3 + rng.random(), rng.gauss(0.0, 0.3), 0.3 + rng.random()  # Σ = L Lᵀ
        z1, z2 = rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0)
        y = [mu[0] + l11 * z1, mu[1] + l21 * z1 + l22 * z2]
        rows.append(mu + [l11 * l11, l21 * l11, l21 * l21 + l22 * l22] + y)
    write_csv("mv.csv", ["mu_1", "mu_2", "S11", "S21", "S22", "y_1", "y_2"], rows)

    rows = []
    for _ in range(300):
        mus = [rng.gauss(0.0, 1.0) for _ in range(3)]
        sigmas = [0.2 + rng.random() for _ in range(3)]
        k = rng.randrange(3)
        rows.append(["0.3333333333333333"] * 2 + ["0.33333333333333337"] + mus + sigmas + [rng.gauss(mus[k], sigmas[k])])
    write_csv("ensemble.csv", ["w_%d" % k for k in (1, 2, 3)] + ["mu_%d" % k for k in (1, 2, 3)] +
              ["sigma_%d" % k for k in (1, 2, 3)] + ["y"], rows)


if __name__ == "__main__":
    main()

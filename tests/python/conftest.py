"""Shared fixtures of the Python module's tests: the sample data of examples/data and the command-line
tool, to check that Python and the command line give the same numbers. make test runs this suite with
PYTHONPATH=build/python and CALIB_CLI=build/bin/calib."""

import json
import os
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "examples", "data")
CLI = os.environ.get("CALIB_CLI", os.path.join(ROOT, "build", "bin", "calib"))


def data_path(name):
    return os.path.join(DATA, name)


def load(name):
    """A sample file's columns as float64, header skipped when there is one."""
    with open(data_path(name)) as f:
        first = f.readline()
    header = any(c.isalpha() for c in first.replace("e-", "").replace("e+", ""))
    return np.loadtxt(data_path(name), delimiter=",", skiprows=1 if header else 0, ndmin=2)


def run_cli(*args):
    """calib's JSON output for the arguments (exit code 0 required)."""
    out = subprocess.run([CLI, *args, "--quiet"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="session")
def categorical():
    table = load("preds.csv")
    return np.ascontiguousarray(table[:, :-1]), table[:, -1].astype(np.int64)


@pytest.fixture(scope="session")
def binary():
    table = load("scores.csv")
    return table[:, 0].copy(), table[:, 1].astype(np.int64)


def _mv_covariances(table):
    cov = np.empty((table.shape[0], 2, 2))
    cov[:, 0, 0], cov[:, 1, 0], cov[:, 1, 1] = table[:, 2], table[:, 3], table[:, 4]
    cov[:, 0, 1] = cov[:, 1, 0]
    return cov


# Each family's sample file and its arrays, as calib's keyword arguments.
def family_arrays(family):
    if family == "normal":
        t = load("gauss.csv")
        return "gauss.csv", dict(mean=t[:, 0], std=t[:, 1], y=t[:, 2])
    if family == "laplace":
        t = load("lap.csv")
        return "lap.csv", dict(mean=t[:, 0], scale=t[:, 1], y=t[:, 2])
    if family == "mvnormal-diag":
        t = load("mvd.csv")
        return "mvd.csv", dict(mean=t[:, 0:2], std=t[:, 2:4], y=t[:, 4:6])
    if family == "mvnormal":
        t = load("mv.csv")
        return "mv.csv", dict(mean=t[:, 0:2], cov=_mv_covariances(t), y=t[:, 5:7])
    if family == "mixture-normal":
        t = load("ensemble.csv")
        return "ensemble.csv", dict(weights=t[:, 0:3], means=t[:, 3:6], stds=t[:, 6:9], y=t[:, 9])
    if family == "binary":
        t = load("scores.csv")
        return "scores.csv", dict(probs=t[:, 0], labels=t[:, 1].astype(np.int64))
    t = load("preds.csv")
    return "preds.csv", dict(probs=t[:, :-1], labels=t[:, -1].astype(np.int64))


def logistic_newton(design, labels):
    """The coefficients θ maximising the logistic likelihood Σ log σ(±design·θ) of 0/1 labels, by
    Newton's method from 0 (a reference for calib's fits that does not go through calib)."""
    theta = np.zeros(design.shape[1])
    for _ in range(200):
        s = 1 / (1 + np.exp(-design @ theta))
        step = np.linalg.solve(design.T @ (design * (s * (1 - s))[:, None]), design.T @ (labels - s))
        theta += step
        if np.abs(step).max() < 1e-15:
            break
    return theta

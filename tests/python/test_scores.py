"""The CRPS, the calibration ratio and the normalised entropy (docs/math.md §15) against references that do not
go through calib: the CRPS's definition ∫ (F(x) − 1{x ≥ y})² dx integrated numerically with NumPy, and
scikit-learn's log_loss for the normalised entropy; the command line gives the same numbers, and both
front-ends refuse the same data with the same message."""

import math
import os
import subprocess
import tempfile

import numpy as np
import pytest
from sklearn.metrics import log_loss

import calib
from conftest import CLI, run_cli
from test_same_messages import assert_same_error

RNG = np.random.default_rng(2026)
N = 60


def crps_by_integral(cdf, y, lo, hi):
    """∫_lo^y F² + ∫_y^hi (1 − F)², trapezoids on grids fine enough for 1e-7, the tails beyond [lo, hi]
    negligible (the integrand jumps at y, so y ends both grids)."""
    below, above = np.linspace(min(lo, y), y, 200001), np.linspace(y, max(hi, y), 200001)
    return float(np.trapz(cdf(below) ** 2, below) + np.trapz((1 - cdf(above)) ** 2, above))


def normal_cdf(x, m, s):
    return 0.5 * (1 + np.vectorize(math.erf)((x - m) / (s * math.sqrt(2))))


def laplace_cdf(x, m, b):
    return np.where(x < m, 0.5 * np.exp(np.minimum(x - m, 0) / b), 1 - 0.5 * np.exp(-np.maximum(x - m, 0) / b))


def test_crps_normal_and_laplace_against_the_integral():
    mean, scale = RNG.normal(size=5), 0.3 + RNG.random(5)
    y = mean + scale * RNG.standard_normal(5)
    normal = [crps_by_integral(lambda x: normal_cdf(x, m, s), t, m - 14 * s, m + 14 * s) for m, s, t in zip(mean, scale, y)]
    laplace = [crps_by_integral(lambda x: laplace_cdf(x, m, b), t, m - 40 * b, m + 40 * b)
               for m, b, t in zip(mean, scale, y)]
    assert calib.estimate(mean=mean, std=scale, y=y, estimator="crps").estimate == pytest.approx(np.mean(normal), rel=1e-7)
    assert calib.estimate(mean=mean, scale=scale, y=y, estimator="crps").estimate == \
        pytest.approx(np.mean(laplace), rel=1e-7)


def test_crps_mixture_against_the_integral_and_the_cli():
    K = 3
    weights = RNG.dirichlet(np.ones(K), 4)
    means, stds = 2 * RNG.normal(size=(4, K)), 0.2 + RNG.random((4, K))
    y = RNG.normal(size=4)
    cdfs = [lambda x, i=i: sum(weights[i, k] * normal_cdf(x, means[i, k], stds[i, k]) for k in range(K))
            for i in range(4)]
    reference = np.mean([crps_by_integral(cdfs[i], y[i], -20, 20) for i in range(4)])
    got = calib.estimate(weights=weights, means=means, stds=stds, y=y, estimator="crps")
    assert got.estimate == pytest.approx(reference, rel=1e-7)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mixture.csv")
        np.savetxt(path, np.column_stack([weights, means, stds, y]), delimiter=",", fmt="%.17g")
        assert run_cli("estimate", "--family", "mixture-normal", "--input", path, "--estimator", "crps")["estimate"] == \
            got.estimate


def test_calibration_ratio_and_normalized_entropy_float32_with_a_separate_label_file():
    p = RNG.random(N).astype(np.float32)  # float32, as models save them
    y = (RNG.random(N) < p).astype(np.int64)
    r = calib.estimate(p, y, estimator="calibration-ratio")
    assert r.estimate == pytest.approx(p.astype(float).sum() / y.sum(), rel=1e-14)
    assert r.details["events"] == y.sum()
    ne = calib.estimate(p, y, estimator="normalized-entropy")
    base = y.mean()
    entropy = -(base * math.log(base) + (1 - base) * math.log(1 - base))
    assert ne.estimate == pytest.approx(log_loss(y, p.astype(float)) / entropy, rel=1e-12)
    assert ne.details["base_rate_used"] == pytest.approx(base, rel=1e-15)
    given = calib.estimate(p, y, estimator="normalized-entropy", base_rate=0.2)
    assert given.estimate == pytest.approx(log_loss(y, p.astype(float)) / -(0.2 * math.log(0.2) + 0.8 * math.log(0.8)),
                                           rel=1e-12)
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "p.npy"), p)
        np.savetxt(os.path.join(tmp, "y.csv"), y, fmt="%d")  # headerless, a file of its own
        for estimator, value in (("calibration-ratio", r.estimate), ("normalized-entropy", ne.estimate)):
            out = run_cli("estimate", "--family", "binary", "--input", os.path.join(tmp, "p.npy"), "--labels",
                          os.path.join(tmp, "y.csv"), "--estimator", estimator)
            assert out["estimate"] == value, estimator


def test_class_predictions_take_an_event():
    probs = RNG.dirichlet(np.ones(4), N)
    labels = RNG.integers(0, 4, N)
    top = calib.estimate(probs, labels, estimator="calibration-ratio", event="top-label")
    assert top.estimate == pytest.approx(probs.max(1).sum() / (probs.argmax(1) == labels).sum(), rel=1e-14)
    k2 = calib.estimate(probs, labels, estimator="calibration-ratio", event="class:2")
    assert k2.estimate == pytest.approx(probs[:, 2].sum() / (labels == 2).sum(), rel=1e-14)


def test_same_refusals_in_both_front_ends():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "none.csv")
        np.savetxt(path, np.column_stack([[0.2, 0.4, 0.1], [0, 0, 0]]), delimiter=",", fmt="%g")
        p, y = np.array([0.2, 0.4, 0.1]), np.zeros(3, dtype=int)
        for estimator in ("calibration-ratio", "normalized-entropy"):
            assert_same_error(["estimate", "--family", "binary", "--input", path, "--estimator", estimator],
                              lambda: calib.estimate(p, y, estimator=estimator))
        assert_same_error(["estimate", "--family", "binary", "--input", path, "--estimator", "crps"],
                          lambda: calib.estimate(p, y, estimator="crps"))
    with pytest.raises(ValueError, match="base_rate"):
        calib.estimate(p, [0, 1, 0], estimator="normalized-entropy", base_rate=1.5)

"""The binned calibration errors of peers, re-derived here from their documented definitions (no peer code
is copied or installed; scikit-learn's calibration_curve, a test dependency, is called itself), against
the calib options that docs/ece.md's conformance table names for each of them."""

import numpy as np
import pytest

import calib
from sklearn.calibration import calibration_curve


def binned(values, hits, bin_ids):
    """(counts, mean value, hit frequency) of the non-empty bins of the given ids."""
    ids = np.unique(bin_ids)
    counts = np.array([np.sum(bin_ids == b) for b in ids], dtype=float)
    means = np.array([values[bin_ids == b].mean() for b in ids])
    freqs = np.array([hits[bin_ids == b].mean() for b in ids])
    return counts, means, freqs


def aggregates(counts, means, freqs):
    """mean (the ECE), max (MCE) and rms (RMSCE) of the bins' gaps, weighted by their shares."""
    weights, gaps = counts / counts.sum(), np.abs(means - freqs)
    return {"mean": float(np.sum(weights * gaps)), "max": float(gaps.max()),
            "rms": float(np.sqrt(np.sum(weights * gaps**2)))}


def softmax_like(rng, n, m, sharpness):
    logits = sharpness * rng.standard_normal((n, m))
    p = np.exp(logits - logits.max(1, keepdims=True))
    return p / p.sum(1, keepdims=True)


# torchmetrics' docstring examples (CalibrationError, v1.x: functional multiclass_calibration_error and
# binary_calibration_error, printed to 4 decimals). Multiclass is the top-label ECE; binary bins P(Y = 1)
# against Y, which calib's canonical (and class-wise) mode gives for binary data when no p lies on an edge.
def test_torchmetrics_docstring_examples():
    preds = np.array([[0.25, 0.20, 0.55], [0.55, 0.05, 0.40], [0.10, 0.30, 0.60], [0.90, 0.05, 0.05]])
    target = np.array([0, 1, 2, 0])
    published = {"mean": 0.2000, "rms": 0.2082, "max": 0.2333}
    for aggregate, value in published.items():
        got = calib.ece(preds, target, mode="top-label", binning="uniform:3", aggregate=aggregate)
        assert got == pytest.approx(value, abs=5e-5), aggregate
    p, y = np.array([0.25, 0.25, 0.55, 0.75, 0.75]), np.array([0, 0, 1, 1, 1])
    published = {"mean": 0.2900, "rms": 0.2918, "max": 0.3167}
    for mode in ("canonical", "class-wise"):
        for aggregate, value in published.items():
            got = calib.ece(p, y, mode=mode, binning="uniform:2", aggregate=aggregate)
            assert got == pytest.approx(value, abs=5e-5), (mode, aggregate)


# torchmetrics' definition on random data: uniform bins [j/B, (j+1)/B) of the top-label confidence (a
# confidence of exactly 1 alone in an extra bin), the accuracy of each, norms l1, max and l2. Off the edges
# (the confidences here avoid them) calib's right-closed bins are the same bins.
@pytest.mark.parametrize("m,nbins", [(2, 15), (3, 10), (10, 15), (100, 7)])
def test_torchmetrics_definition(m, nbins):
    rng = np.random.default_rng(m * 100 + nbins)
    p = softmax_like(rng, 3000, m, 2.0)
    y = np.array([rng.choice(m, p=row) if rng.random() < 0.8 else 0 for row in p])
    confidence, predicted = p.max(1), p.argmax(1)
    assert np.min(np.abs(confidence * nbins - np.round(confidence * nbins))) > 1e-9  # no confidence on an edge
    reference = aggregates(*binned(confidence, (predicted == y).astype(float), np.floor(confidence * nbins)))
    for aggregate, value in reference.items():
        got = calib.ece(p, y, mode="top-label", binning=f"uniform:{nbins}", aggregate=aggregate)
        assert got == pytest.approx(value, rel=1e-12), aggregate


# scikit-learn's calibration_curve (strategy "uniform" or "quantile") returns each non-empty bin's event
# frequency and mean probability; its bins of P(Y = 1) are calib's uniform:B and quantile:B bins of the
# event. With every P(Y = 1) > 1/2 the top-label event is Y = 1, so calib's top-label ECE is that event's.
@pytest.mark.parametrize("strategy,nbins", [("uniform", 10), ("quantile", 10), ("quantile", 7), ("uniform", 3)])
def test_scikit_learn_calibration_curve(strategy, nbins):
    rng = np.random.default_rng(nbins)
    p1 = 0.5 + 0.5 * rng.beta(2, 3, 2000)
    y = (rng.random(2000) < p1**1.5).astype(int)
    if strategy == "quantile":
        p1[:50] = p1[50]  # ties, some on an edge
    frequency, mean = calibration_curve(y, p1, n_bins=nbins, strategy=strategy)
    # The curve's bins re-derived from its documented rule, to get their counts; they must give its curve.
    edges = (np.percentile(p1, np.linspace(0, 1, nbins + 1) * 100) if strategy == "quantile"
             else np.linspace(0, 1, nbins + 1))
    counts, means, freqs = binned(p1, y.astype(float), np.searchsorted(edges[1:-1], p1))
    np.testing.assert_allclose(means, mean, rtol=1e-13)
    np.testing.assert_array_equal(freqs, frequency)
    binning = f"{strategy}:{nbins}"
    for aggregate, value in aggregates(counts, means, freqs).items():
        got = calib.ece(np.column_stack([1 - p1, p1]), y, mode="top-label", binning=binning, aggregate=aggregate)
        assert got == pytest.approx(value, rel=1e-12), aggregate
    assert calib.ece(np.column_stack([1 - p1, p1]), y, mode="top-label", binning=binning, aggregate="max") == \
        pytest.approx(np.max(np.abs(frequency - mean)), rel=1e-12)


# Kull et al. 2019's class-wise ECE: the mean over classes k of the binned ECE of the event Y = k with
# probability p_k, here with scikit-learn's quantile bins of each class (MAPIE's and TorchUncertainty's
# class-wise errors average the same per-class terms); the MCE is the largest gap of any class's bin.
def test_class_wise_by_calibration_curve():
    rng = np.random.default_rng(7)
    m = 4
    p = softmax_like(rng, 1500, m, 1.5).astype(np.float32)  # float32, as networks save them
    y = np.array([rng.choice(m, p=row / row.sum()) for row in p.astype(float)])
    per_class, gaps = [], []
    for k in range(m):
        pk = p[:, k].astype(float)
        edges = np.percentile(pk, np.linspace(0, 1, 16) * 100)
        counts, means, freqs = binned(pk, (y == k).astype(float), np.searchsorted(edges[1:-1], pk))
        frequency, mean = calibration_curve(y == k, pk, n_bins=15, strategy="quantile")
        np.testing.assert_array_equal(freqs, frequency)
        per_class.append(aggregates(counts, means, freqs)["mean"])
        gaps.append(np.max(np.abs(frequency - mean)))
    assert calib.ece(p, y, mode="class-wise", binning="quantile:15") == pytest.approx(np.mean(per_class), rel=1e-12)
    assert calib.ece(p, y, mode="class-wise", binning="quantile:15", aggregate="max") == \
        pytest.approx(max(gaps), rel=1e-12)


# Kumar, Liang & Ma 2019's equal-mass bins: the sorted values in B parts of sizes differing by at most one
# (the larger first), an edge halfway across each gap.
def test_equal_mass_bins():
    rng = np.random.default_rng(3)
    p = softmax_like(rng, 1003, 5, 1.0)
    y = rng.integers(0, 5, 1003)
    confidence, hit = p.max(1), (p.argmax(1) == y).astype(float)
    order = np.sort(confidence)
    sizes = [len(part) for part in np.array_split(order, 10)]
    ends = np.cumsum(sizes)[:-1]
    edges = (order[ends - 1] + order[ends]) / 2
    reference = aggregates(*binned(confidence, hit, np.searchsorted(edges, confidence)))
    for aggregate, value in reference.items():
        got = calib.ece(p, y, mode="top-label", binning="equal-mass:10", aggregate=aggregate)
        assert got == pytest.approx(value, rel=1e-12), aggregate


def test_refusals_name_the_fix():
    p = np.array([[0.6, 0.4], [0.3, 0.7]])
    with pytest.raises(ValueError, match="use `mode` top-label or class-wise"):
        calib.ece(p, [0, 1], mode="canonical", binning="quantile:3")
    with pytest.raises(ValueError, match="aggregate"):
        calib.ece(p, [0, 1], aggregate="median")
    with pytest.raises(ValueError, match="quantile:NBINS"):
        calib.ece(p, [0, 1], binning="quantile:0")

"""The CORP reliability diagram (calib.corp_diagram, calib.diagram, `calib diagram`): the same numbers
from Python and the command line on a user's files (float32 .npy, labels apart), the curve and the
decomposition against scikit-learn's IsotonicRegression and the scores' definitions, and the bands
against the resampling procedure written here in NumPy with scikit-learn's PAV (independent draws, so
compared in distribution: within Monte Carlo error of each other)."""
import json
import subprocess

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

import calib
from conftest import CLI


def cli_json(*args):
    out = subprocess.run([CLI, "diagram", *args, "--quiet"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def binary_model(n, seed, power=1.3):
    """A binary model whose P(Y = 1) is rounded to 2 decimals (ties, as a binned model's), miscalibrated
    as x**power."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(0.02, 0.98, n), 2)
    y = (rng.uniform(size=n) < x ** power).astype(np.int64)
    return x, y


def test_command_line_and_python_give_the_same_numbers(tmp_path):
    rng = np.random.default_rng(4)
    logits = rng.normal(size=(800, 4)) * 2
    probs = (np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).astype(np.float32)
    labels = np.array([rng.choice(4, p=q / q.sum()) for q in probs.astype(float) ** 0.7])
    np.save(tmp_path / "probs.npy", probs)
    np.save(tmp_path / "labels.npy", labels)
    options = dict(event="top-label", replicates=50, seed=3, band_points=40, level=0.8)
    python = calib.diagram(probs, labels, diagram="corp", **options)
    cli = cli_json("--family", "categorical", "--input", str(tmp_path / "probs.npy"), "--labels",
                   str(tmp_path / "labels.npy"), "--event", "top-label", "--replicates", "50", "--seed", "3",
                   "--band-points", "40", "--level", "0.8")
    assert cli["diagram"] == python.diagram == "corp"
    for name, value in python.details.items():
        assert cli[name] == value, name
    for name, value in python.options.items():
        assert cli[name] == value, name
    assert calib.corp_diagram(probs, labels, **options) == python.details
    assert len(python.details["points"]["x"]) == 40


@pytest.mark.parametrize("score", ["brier", "log"])
def test_curve_and_decomposition_against_scikit_learn(score):
    x, y = binary_model(3000, 7)
    d = calib.corp_diagram(x.astype(np.float32), y, family="binary", score=score, replicates=0)
    x = x.astype(np.float32).astype(float)  # what calib read
    fitted = IsotonicRegression().fit(x, y).predict(x)
    # The curve's pieces cover the forecasts in order; each forecast's piece holds its PAV value.
    lower, value = np.array(d["curve"]["lower"]), np.array(d["curve"]["value"])
    piece = np.searchsorted(lower, x, side="right") - 1
    np.testing.assert_allclose(value[piece], fitted, rtol=0, atol=1e-12)
    assert sum(d["curve"]["count"]) == x.size
    # At the band points (every distinct forecast: fewer than 1000), the PAV value and the count.
    points = d["points"]
    distinct, counts = np.unique(x, return_counts=True)
    np.testing.assert_array_equal(points["x"], distinct)
    np.testing.assert_array_equal(points["count"], counts)
    np.testing.assert_allclose(points["recalibrated"], IsotonicRegression().fit(x, y).predict(distinct), atol=1e-12)
    assert points["consistency_lower"] == [] and points["confidence_upper"] == []

    def mean(p):
        with np.errstate(divide="ignore"):
            s = (p - y) ** 2 if score == "brier" else np.where(y == 1, -np.log(p), -np.log1p(-p))
        return s.mean()

    reference = mean(np.full_like(x, y.mean()))
    assert d["mean_score"] == pytest.approx(mean(x), rel=1e-12)
    assert d["recalibrated_score"] == pytest.approx(mean(fitted), rel=1e-12)
    assert d["mcb"] == pytest.approx(mean(x) - mean(fitted), rel=1e-10)
    assert d["dsc"] == pytest.approx(reference - mean(fitted), rel=1e-10)
    assert d["unc"] == pytest.approx(reference, rel=1e-12)


def numpy_bands(x, y, t, replicates, level, rng):
    """reliabilitydiag's resampling bands, written from Dimitriadis, Gneiting & Jordan (2021): forecasts
    drawn with replacement, outcomes ~ Bernoulli(x*) (consistency) or Bernoulli(x̂(x*)) (confidence),
    scikit-learn's PAV refitted and read as a step function at t, pointwise type-7 quantiles."""
    fitted = IsotonicRegression().fit(x, y).predict(x)
    refits = {"consistency": [], "confidence": []}
    for _ in range(replicates):
        for band, q in (("consistency", x), ("confidence", fitted)):
            i = rng.integers(0, x.size, x.size)
            xs, ys = x[i], (rng.uniform(size=x.size) < q[i]).astype(float)
            knots = np.unique(xs)
            values = IsotonicRegression().fit(xs, ys).predict(knots)
            refits[band].append(values[np.maximum(np.searchsorted(knots, t, side="right") - 1, 0)])
    alpha = (1 - level) / 2
    return {band: np.quantile(np.array(r), [alpha, 1 - alpha], axis=0) for band, r in refits.items()}


def test_bands_agree_with_an_independent_resampling():
    x, y = binary_model(1000, 11)
    d = calib.corp_diagram(x, y, family="binary", replicates=400, seed=8, level=0.9)
    t = np.array(d["points"]["x"])
    expected = numpy_bands(x, y.astype(float), t, 400, 0.9, np.random.default_rng(12))
    for band in ("consistency", "confidence"):
        lower, upper = np.array(d["points"][band + "_lower"]), np.array(d["points"][band + "_upper"])
        # The quantiles of two sets of 400 replicates differ by Monte Carlo error: at the 5 % and 95 %
        # points of refits whose spread is about 0.05 here, a standard deviation of about 0.008.
        assert np.max(np.abs(lower - expected[band][0])) < 0.04, band
        assert np.max(np.abs(upper - expected[band][1])) < 0.04, band
        assert np.mean(np.abs(lower - expected[band][0])) < 0.012, band
        assert np.mean(np.abs(upper - expected[band][1])) < 0.012, band
    # The consistency band lies around the diagonal.
    assert np.mean(np.array(d["points"]["consistency_lower"]) <= t) > 0.95
    assert np.mean(np.array(d["points"]["consistency_upper"]) >= t) > 0.95


def test_a_miscalibrated_model_leaves_the_consistency_band():
    x, y = binary_model(1000, 13, power=2)  # P(Y = 1 | x) = x**2: 0.25 at x = 0.5
    d = calib.corp_diagram(x, y, family="binary", replicates=200, seed=8)
    t, points = np.array(d["points"]["x"]), d["points"]
    outside = np.array(points["recalibrated"]) < np.array(points["consistency_lower"])
    assert outside[(t > 0.3) & (t < 0.8)].mean() > 0.9
    # A calibrated model of the same forecasts stays inside at most points (pointwise level 0.9).
    calibrated = (np.random.default_rng(14).uniform(size=x.size) < x).astype(int)
    c = calib.corp_diagram(x, calibrated, family="binary", replicates=200, seed=8)["points"]
    inside = (np.array(c["recalibrated"]) >= np.array(c["consistency_lower"])) & (
        np.array(c["recalibrated"]) <= np.array(c["consistency_upper"]))
    assert inside.mean() > 0.7


def test_class_wise_and_refusals():
    rng = np.random.default_rng(5)
    probs = rng.dirichlet(np.ones(3), 300)
    labels = np.array([rng.choice(3, p=q) for q in probs])
    d = calib.corp_diagram(probs, labels, event="class-wise", replicates=10)
    assert d["event"] == "class-wise" and [c["event"] for c in d["classes"]] == ["class:0", "class:1", "class:2"]
    single = calib.corp_diagram(probs, labels, event="class:2", replicates=10)
    assert d["classes"][2] == single
    with pytest.raises(ValueError, match="choose the binary event with `event` top-label or class:K"):
        calib.corp_diagram(probs, labels)
    with pytest.raises(TypeError, match="does not apply to `diagram` corp"):
        calib.corp_diagram(probs, labels, event="top-label", bins=5)
    with pytest.raises(ValueError, match="must be an integer in \\[2, 1000000\\]"):
        calib.corp_diagram(probs, labels, event="top-label", band_points=1)

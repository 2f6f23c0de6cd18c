"""The Venn-Abers map (calib.recalibrate_fit(method="venn-abers")) against its definition computed
independently: for each new prediction, scikit-learn's IsotonicRegression refitted on the validation
set with the new point added, labelled 0 (p0) and 1 (p1), read at the new point (Vovk & Petej 2014).
Data shaped as users' are: float32 probabilities with heavy ties, headerless CSV, labels in a
separate file, 1-based labels, logits; the command line's lower/upper columns against Python's."""
import json
import subprocess

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.isotonic import IsotonicRegression

import calib
from conftest import CLI


def brute_force_interval(scores, labels, new):
    """[p0, p1] of each new score by the definition: one isotonic fit per new point and label."""
    out = np.empty((len(new), 2))
    for i, s in enumerate(new):
        x = np.append(scores, s)
        for label in (0, 1):
            fit = IsotonicRegression(out_of_bounds="clip").fit(x, np.append(labels, label))
            out[i, label] = fit.predict([s])[0]
    return out


def binary_outputs(rng, n, decimals=None):
    """An overconfident binary model's two columns (rows summing to 1) and labels drawn from p^2."""
    p = rng.uniform(size=n)
    if decimals is not None:
        p = np.round(p, decimals)
    labels = (rng.uniform(size=n) < p ** 2).astype(np.int64)
    return np.column_stack([1 - p, p]), labels


def new_points(fit_scores, rng):
    """New scores of every kind: fresh ones, ones tied with a validation score, beyond both ends."""
    return np.concatenate([rng.uniform(size=40), fit_scores[:20], [0.0, 1.0, fit_scores.min(), fit_scores.max()]])


@pytest.mark.parametrize("decimals", [None, 1, 2])
def test_intervals_are_the_definitions(decimals):
    rng = np.random.default_rng(21 + (decimals or 0))
    probs, labels = binary_outputs(rng, 400, decimals)
    fitted = calib.recalibrate_fit(probs, labels, method="venn-abers")
    new = new_points(probs[:, 1], rng)
    applied = calib.recalibrate_apply(fitted, np.column_stack([1 - new, new]))
    expected = brute_force_interval(probs[:, 1], labels, new)
    np.testing.assert_allclose(applied["intervals"], expected, rtol=0, atol=1e-12)
    p0, p1 = expected[:, 0], expected[:, 1]
    np.testing.assert_allclose(applied["probs"][:, 1], p1 / (1 - p0 + p1), rtol=0, atol=1e-12)
    np.testing.assert_allclose(applied["probs"].sum(1), 1, rtol=0, atol=1e-15)
    assert np.all(applied["intervals"][:, 0] <= applied["intervals"][:, 1])
    assert len(fitted["parameters"]["scores"]) == len(np.unique(probs[:, 1]))


def test_float32_input_is_read_as_its_values():
    rng = np.random.default_rng(4)
    probs, labels = binary_outputs(rng, 300, 3)
    single = probs.astype(np.float32)
    fitted = calib.recalibrate_fit(single, labels, method="venn-abers")
    scores = single[:, 1].astype(float)
    np.testing.assert_array_equal(fitted["parameters"]["scores"], np.unique(scores))
    new = new_points(scores, rng)
    np.testing.assert_allclose(calib.recalibrate_apply(fitted, np.column_stack([1 - new, new]))["intervals"],
                               brute_force_interval(scores, labels, new), rtol=0, atol=1e-12)


def test_logits_are_read_by_their_log_odds():
    """From logits the score is z1 - z0: a monotone function of p1, so the same intervals."""
    rng = np.random.default_rng(8)
    z = rng.normal(size=(250, 2)) * 3
    labels = (rng.uniform(size=250) < 1 / (1 + np.exp(-(z[:, 1] - z[:, 0]) / 2))).astype(np.int64)
    p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    from_logits = calib.recalibrate_fit(z, labels, logits=True, method="venn-abers")
    assert from_logits["input"] == "logits"
    np.testing.assert_allclose(calib.recalibrate_apply(from_logits, z)["intervals"],
                               brute_force_interval(p[:, 1], labels, p[:, 1]), rtol=0, atol=1e-12)


def test_the_command_line_writes_the_same_intervals(tmp_path):
    """Headerless CSV, labels in their own file, 1-based: fit and apply on the command line give the
    Python map, and apply with --intervals Python's probabilities and intervals bitwise."""
    rng = np.random.default_rng(5)
    probs, labels = binary_outputs(rng, 500, 2)
    np.savetxt(tmp_path / "probs.csv", probs, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "labels.csv", labels + 1, fmt="%d")
    out = tmp_path / "map.json"
    run = subprocess.run([CLI, "recalibrate", "fit", "--family", "categorical", "--input", str(tmp_path / "probs.csv"),
                          "--labels", str(tmp_path / "labels.csv"), "--one-based-labels", "--method", "venn-abers",
                          "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["distinct_scores"] == len(np.unique(probs[:, 1]))
    fitted = calib.recalibrate_fit(probs, labels + 1, one_based_labels=True, method="venn-abers")
    assert json.load(open(out)) == fitted
    new = new_points(probs[:, 1], rng)
    np.save(tmp_path / "new.npy", np.column_stack([1 - new, new]).astype(np.float32))
    applied_file, intervals_file = tmp_path / "applied.csv", tmp_path / "intervals.csv"
    run = subprocess.run([CLI, "recalibrate", "apply", "--map", str(out), "--input", str(tmp_path / "new.npy"),
                          "--output", str(applied_file), "--intervals", str(intervals_file)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for file, header in [(applied_file, "p_1,p_2"), (intervals_file, "lower,upper")]:
        with open(file) as f:
            assert f.readline().strip() == header
    ours = calib.recalibrate_apply(fitted, np.column_stack([1 - new, new]).astype(np.float32))
    assert np.array_equal(np.loadtxt(applied_file, delimiter=",", skiprows=1), ours["probs"])
    assert np.array_equal(np.loadtxt(intervals_file, delimiter=",", skiprows=1), ours["intervals"])


def test_the_estimator_gives_intervals_and_clones():
    rng = np.random.default_rng(6)
    probs, labels = binary_outputs(rng, 200, 2)
    model = calib.Recalibrator("venn-abers").fit(probs, labels)
    fitted = calib.recalibrate_fit(probs, labels, method="venn-abers")
    assert model.map_ == fitted
    applied = calib.recalibrate_apply(fitted, probs)
    assert np.array_equal(model.predict_proba(probs), applied["probs"])
    assert np.array_equal(model.predict_interval(probs), applied["intervals"])
    assert clone(model).get_params() == model.get_params()
    with pytest.raises(ValueError, match="the map is temperature; only a venn-abers map has intervals"):
        calib.Recalibrator("temperature").fit(probs, labels).predict_interval(probs)
    assert "intervals" not in calib.recalibrate_apply(calib.recalibrate_fit(probs, labels, method="isotonic"), probs)


def test_refusals_and_map_checks():
    three = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8]])
    with pytest.raises(ValueError, match="method = venn-abers maps binary predictions \\(m = 2 classes\\), not m = 3"):
        calib.recalibrate_fit(three, np.array([2, 0, 2]), method="venn-abers")
    probs = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5], [0.1, 0.9]])
    labels = np.array([1, 0, 1, 1])
    with pytest.raises(ValueError, match="option `max_iterations` applies only with `method` temperature.*not venn-abers"):
        calib.recalibrate_fit(probs, labels, method="venn-abers", max_iterations=5)
    fitted = calib.recalibrate_fit(probs, labels, method="venn-abers")
    broken = json.loads(json.dumps(fitted))
    broken["parameters"]["scores"] = broken["parameters"]["scores"][::-1]
    with pytest.raises(ValueError, match="scores"):
        calib.recalibrate_apply(broken, probs)
    broken = json.loads(json.dumps(fitted))
    broken["parameters"]["p1_between"] = broken["parameters"]["p1_between"][:-1]
    with pytest.raises(ValueError, match="p1_between"):
        calib.recalibrate_apply(broken, probs)
    with pytest.raises(ValueError):
        calib.recalibrate_apply(fitted, three)

"""Platt's map for m > 2 classes (calib.recalibrate_fit(method="platt")): one-vs-rest, class k's
log-odds s_k = ln(p_k / (1 − p_k)) mapped to σ(a_k s_k + b_k), each (a_k, b_k) a logistic regression of
the indicators of class k on s_k, and each row renormalised. Against fits by other routes (Newton's
method written here, scikit-learn's LogisticRegression without penalty) and the renormalisation
computed here. Data shaped as users' are: float32 probabilities, logits of any offset, headerless
CSV with 1-based labels in their own file, a class that never occurs."""
import json
import subprocess

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

import calib
from conftest import CLI, logistic_newton


def overconfident(rng, n, m):
    """Softmax outputs at twice the true logits' scale, with labels drawn from the true ones."""
    z = rng.normal(size=(n, m)) * 1.5 + np.arange(m) * 0.3
    truth = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    labels = np.array([rng.choice(m, p=t) for t in truth])
    probs = np.exp(2 * z) / np.exp(2 * z).sum(1, keepdims=True)
    return probs, labels


def log_odds(p):
    return np.log(np.maximum(p, 1e-12)) - np.log(np.maximum(1 - p, 1e-12))


def reference_map(s, labels):
    """(a_k, b_k) per class by Newton's method, checked against scikit-learn's unpenalised fit."""
    m = s.shape[1]
    a, b = np.empty(m), np.empty(m)
    for k in range(m):
        y = (labels == k).astype(float)
        a[k], b[k] = logistic_newton(np.column_stack([s[:, k], np.ones(len(y))]), y)
        model = LogisticRegression(penalty=None, tol=1e-12, max_iter=100000).fit(s[:, [k]], y)
        assert model.coef_[0, 0] == pytest.approx(a[k], rel=1e-5) and model.intercept_[0] == pytest.approx(b[k], rel=1e-4, abs=1e-6)
    return a, b


def renormalised(a, b, s):
    q = 1 / (1 + np.exp(-(a * s + b)))
    return q / q.sum(1, keepdims=True)


@pytest.mark.parametrize("m", [3, 10])
def test_each_class_is_a_logistic_regression_on_its_log_odds(m):
    rng = np.random.default_rng(m)
    probs, labels = overconfident(rng, 3000, m)
    probs = probs.astype(np.float32)
    fitted = calib.recalibrate_fit(probs, labels, method="platt", gradient_tolerance=1e-12)
    assert fitted["status"] in ("converged", "line_search_failed") and set(fitted["parameters"]) == {"a", "b"}
    s = log_odds(probs.astype(float))
    a, b = reference_map(s, labels)
    np.testing.assert_allclose(fitted["parameters"]["a"], a, rtol=1e-8)
    np.testing.assert_allclose(fitted["parameters"]["b"], b, rtol=1e-8, atol=1e-10)
    assert np.all(np.array(fitted["parameters"]["a"]) < 0.8)  # the overconfidence shrunk
    new = overconfident(rng, 200, m)[0]
    out = calib.recalibrate_apply(fitted, new)["probs"]
    np.testing.assert_allclose(out, renormalised(np.array(fitted["parameters"]["a"]), np.array(fitted["parameters"]["b"]),
                                                 log_odds(new)), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(out.sum(1), 1, rtol=0, atol=1e-14)
    # The fit's record: the NLL of the inputs and of the map, by their definitions.
    q = renormalised(a, b, s)
    assert fitted["objective_after"] == pytest.approx(-np.log(q[np.arange(len(labels)), labels]).mean(), rel=1e-9)
    p = probs.astype(float)
    assert fitted["objective_before"] == pytest.approx(-np.log(p[np.arange(len(labels)), labels]).mean(), rel=1e-12)
    assert fitted["objective_after"] < fitted["objective_before"]


def test_logits_give_the_exact_log_odds_of_their_softmax():
    """Logits with a row offset and confident rows (p_k = 1 in double precision): the log-odds
    z_k − ln Σ_{j≠k} e^{z_j}, which the floored probabilities would cut at ln(1e12)."""
    rng = np.random.default_rng(8)
    probs, labels = overconfident(rng, 2000, 4)
    logits = np.log(probs) + rng.normal(size=(2000, 1)) * 50
    logits[:20, 0] += 60
    fitted = calib.recalibrate_fit(logits, labels, logits=True, method="platt", gradient_tolerance=1e-12)
    others = [np.log(np.exp(np.delete(z, k) - np.delete(z, k).max()).sum()) + np.delete(z, k).max()
              for z in logits for k in range(4)]
    s = logits - np.array(others).reshape(2000, 4)
    assert s[:20, 0].min() > 40
    a, b = reference_map(s, labels)
    np.testing.assert_allclose(fitted["parameters"]["a"], a, rtol=1e-8)
    np.testing.assert_allclose(fitted["parameters"]["b"], b, rtol=1e-8, atol=1e-10)
    out = calib.recalibrate_apply(fitted, logits[:50])["probs"]
    np.testing.assert_allclose(out, renormalised(a, b, s[:50]), rtol=1e-7)


def test_a_class_that_never_occurs_gets_a_small_probability():
    rng = np.random.default_rng(2)
    probs = rng.dirichlet([2, 2, 1], 400)
    labels = rng.integers(0, 2, 400)  # class 2 never
    fitted = calib.recalibrate_fit(probs, labels, method="platt")
    out = calib.recalibrate_apply(fitted, probs)["probs"]
    assert np.all(np.isfinite(out)) and out[:, 2].max() < 1e-3
    assert fitted["objective_after"] < fitted["objective_before"]


def test_identity_and_file_round_trip():
    rng = np.random.default_rng(1)
    probs, labels = overconfident(rng, 300, 3)
    fitted = calib.recalibrate_fit(probs, labels, method="platt")
    identity = dict(fitted, parameters={"a": [1.0, 1.0, 1.0], "b": [0.0, 0.0, 0.0]})
    np.testing.assert_allclose(calib.recalibrate_apply(identity, probs)["probs"], probs, rtol=1e-12)
    for broken, message in [({"a": [1.0, 1.0], "b": [0.0, 0.0, 0.0]}, "a and b: must have m = 3 values each"),
                            ({"a": [1.0, 1.0, 1.0]}, 'has no "b"'),
                            ({"a": 1.0, "b": 0.0}, '"a" must be an array')]:
        with pytest.raises(ValueError, match=message):
            calib.recalibrate_apply(dict(fitted, parameters=broken), probs)
    with pytest.raises(ValueError, match="one class at a time \\(one-vs-rest\\); the objective nll\\+mmd applies"):
        calib.recalibrate_fit(probs, labels, method="platt", objective="nll+mmd", **{"lambda": 1.0})


def test_the_command_line_gives_python_s_map(tmp_path):
    """Headerless CSV, labels 1, ..., m in their own file: the CLI's map is Python's, and apply on a
    float32 .npy equals Python's bitwise."""
    rng = np.random.default_rng(5)
    probs, labels = overconfident(rng, 500, 5)
    np.savetxt(tmp_path / "probs.csv", probs, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "labels.csv", labels + 1, fmt="%d")
    out = tmp_path / "map.json"
    run = subprocess.run([CLI, "recalibrate", "fit", "--family", "categorical", "--input", str(tmp_path / "probs.csv"),
                          "--labels", str(tmp_path / "labels.csv"), "--one-based-labels", "--method", "platt",
                          "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    fitted = calib.recalibrate_fit(probs, labels + 1, one_based_labels=True, method="platt")
    assert json.load(open(out)) == fitted
    assert json.loads(run.stdout)["parameters"] == fitted["parameters"]
    new = overconfident(rng, 100, 5)[0].astype(np.float32)
    np.save(tmp_path / "new.npy", new)
    applied = tmp_path / "applied.csv"
    run = subprocess.run([CLI, "recalibrate", "apply", "--map", str(out), "--input", str(tmp_path / "new.npy"),
                          "--output", str(applied)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert np.array_equal(np.loadtxt(applied, delimiter=",", skiprows=1), calib.recalibrate_apply(fitted, new)["probs"])


def test_recalibrator_and_auto_take_it():
    rng = np.random.default_rng(9)
    probs, labels = overconfident(rng, 600, 3)
    model = calib.Recalibrator("platt").fit(probs, labels)
    np.testing.assert_array_equal(model.predict_proba(probs),
                                  calib.recalibrate_apply(calib.recalibrate_fit(probs, labels, method="platt"), probs)["probs"])
    chosen = calib.recalibrate_fit(probs, labels, method="auto")
    assert "platt" in chosen.selection["candidates"] and "beta" not in chosen.selection["candidates"]

"""Platt's map (calib.recalibrate_fit(method="platt")): P(class 1) = σ(a·logit p + b) fitted by maximum
likelihood, against fits by other routes: Newton's method (iteratively reweighted least squares) on
the logistic likelihood, written here, to the last digits, and scikit-learn's LogisticRegression
without penalty, whose own stopping rule leaves about 1e-9 in its gradient. Data shaped as users'
are: a binary model's float32 probabilities in two columns, and logits."""
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

import calib
from conftest import logistic_newton


def logistic_fit(feature, labels):
    a, b = logistic_newton(np.column_stack([feature, np.ones_like(feature)]), labels)
    model = LogisticRegression(penalty=None, tol=1e-12, max_iter=100000).fit(feature[:, None], labels)
    assert model.coef_[0, 0] == pytest.approx(a, rel=1e-6) and model.intercept_[0] == pytest.approx(b, rel=1e-6)
    return a, b


def overconfident(rng, n):
    p = rng.uniform(0.02, 0.98, n)
    truth = 1 / (1 + np.exp(-(0.5 * np.log(p / (1 - p)) + 0.3)))  # a = 0.5, b = 0.3 recalibrate it
    return p, (rng.uniform(size=n) < truth).astype(int)


def test_matches_a_logistic_regression_on_the_log_odds():
    rng = np.random.default_rng(17)
    p, y = overconfident(rng, 5000)
    probs = np.column_stack([1 - p, p]).astype(np.float32)
    fitted = calib.recalibrate_fit(probs, y, method="platt", gradient_tolerance=1e-12)
    assert fitted["status"] == "converged" and set(fitted["parameters"]) == {"a", "b"}
    q = probs.astype(float)
    a, b = logistic_fit(np.log(q[:, 1]) - np.log(q[:, 0]), y)
    assert fitted["parameters"]["a"] == pytest.approx(a, rel=1e-10)
    assert fitted["parameters"]["b"] == pytest.approx(b, rel=1e-10, abs=1e-12)
    assert abs(fitted["parameters"]["a"] - 0.5) < 0.1 and abs(fitted["parameters"]["b"] - 0.3) < 0.1
    # Applied: the logistic curve, its rows summing to 1.
    new = np.array([[0.5, 0.5], [0.9, 0.1], [0.01, 0.99]])
    out = calib.recalibrate_apply(fitted, new)["probs"]
    logit = np.log(new[:, 1] / new[:, 0])
    expected = 1 / (1 + np.exp(-(fitted["parameters"]["a"] * logit + fitted["parameters"]["b"])))
    np.testing.assert_allclose(out[:, 1], expected, rtol=1e-14)
    np.testing.assert_allclose(out.sum(1), 1, rtol=0, atol=1e-15)


def test_logits_give_the_log_odds_of_their_softmax():
    rng = np.random.default_rng(4)
    p, y = overconfident(rng, 2000)
    logits = np.column_stack([np.zeros_like(p), np.log(p / (1 - p))]) + rng.normal(size=(p.size, 1))
    fitted = calib.recalibrate_fit(logits, y, logits=True, method="platt", gradient_tolerance=1e-12)
    a, b = logistic_fit(logits[:, 1] - logits[:, 0], y)
    assert fitted["parameters"]["a"] == pytest.approx(a, rel=1e-10)
    assert fitted["parameters"]["b"] == pytest.approx(b, rel=1e-10, abs=1e-12)


def test_a_binary_map_takes_two_columns():
    """m = 2 is the binary map (a, b); m > 2 is one-vs-rest (test_platt_one_vs_rest.py), and a map of
    either takes only its own number of columns."""
    probs = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8]])
    assert len(calib.recalibrate_fit(probs, np.array([2, 0, 1]), method="platt")["parameters"]["a"]) == 3
    fitted = calib.recalibrate_fit(np.array([[0.3, 0.7], [0.6, 0.4], [0.2, 0.8]]), np.array([1, 0, 0]), method="platt")
    with pytest.raises(ValueError, match="probs has 3 columns, the map takes m = 2"):
        calib.recalibrate_apply(fitted, probs)
    changed = dict(fitted, num_classes=3)
    with pytest.raises(ValueError, match="\"a\" must be an array"):  # a map of three classes has lists
        calib.recalibrate_apply(changed, probs)

"""Beta calibration (calib.recalibrate_fit(method="beta"); Kull, Silva Filho & Flach 2017):
P(class 1) = σ(a ln p − b ln(1 − p) + c) with a, b ≥ 0, fitted by maximum likelihood, against fits by
other routes that do not go through calib: Newton's method on the logistic likelihood of the features
(ln p, −ln(1 − p), 1), written here, with the constraint by the faces a = 0, b = 0, a = b = 0, and
scikit-learn's unpenalised LogisticRegression. Data shaped as users' are: float32 probabilities in two
columns, and logits."""
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

import calib
from conftest import logistic_newton


def nll(design, labels, theta):
    logit = design @ theta
    return np.mean(np.logaddexp(0, logit) - labels * logit)


def constrained_beta(p, labels):
    """(a, b, c) of least NLL with a, b >= 0: the free Newton fit, else the best feasible face's."""
    design = np.column_stack([np.log(p), -np.log1p(-p), np.ones_like(p)])
    free = logistic_newton(design, labels)
    if free[0] >= 0 and free[1] >= 0:
        return free
    candidates = []
    for keep in ([1, 2], [0, 2], [2]):
        theta = np.zeros(3)
        theta[keep] = logistic_newton(design[:, keep], labels)
        if theta[0] >= 0 and theta[1] >= 0:
            candidates.append((nll(design, labels, theta), tuple(theta)))
    return np.array(min(candidates)[1])


def data(rng, n, a, b, c):
    p = rng.uniform(0.02, 0.98, n).astype(np.float32).astype(float)
    truth = 1 / (1 + np.exp(-(a * np.log(p) - b * np.log1p(-p) + c)))
    return p, (rng.uniform(size=n) < truth).astype(int)


def fitted_abc(fitted):
    return np.array([fitted["parameters"][k] for k in ("a", "b", "c")])


def test_matches_newton_and_a_logistic_regression_on_the_two_log_features():
    rng = np.random.default_rng(31)
    p, y = data(rng, 5000, 2.0, 0.7, 0.3)
    probs = np.column_stack([1 - p, p]).astype(np.float32)
    fitted = calib.recalibrate_fit(probs, y, method="beta", gradient_tolerance=1e-12)
    assert fitted["status"] == "converged" and set(fitted["parameters"]) == {"a", "b", "c"}
    q = probs.astype(float)[:, 1] / probs.astype(float).sum(1)  # calib's p: the softmax of the log-probabilities
    expected = constrained_beta(q, y)
    np.testing.assert_allclose(fitted_abc(fitted), expected, rtol=1e-9, atol=1e-11)
    model = LogisticRegression(penalty=None, tol=1e-12, max_iter=100000).fit(
        np.column_stack([np.log(q), -np.log1p(-q)]), y)
    np.testing.assert_allclose(fitted_abc(fitted), [*model.coef_[0], model.intercept_[0]], rtol=1e-4)  # its lbfgs stops early
    # Applied: the beta map's curve, its rows summing to 1.
    new = np.array([[0.5, 0.5], [0.9, 0.1], [0.01, 0.99], [1.0, 0.0]])
    out = calib.recalibrate_apply(fitted, new)["probs"]
    a, b, c = fitted_abc(fitted)
    p1 = np.maximum(new[:, 1], 1e-12)
    p0 = np.maximum(new[:, 0], 1e-12)
    curve = 1 / (1 + np.exp(-(a * np.log(p1 / (p0 + p1)) - b * np.log(p0 / (p0 + p1)) + c)))
    np.testing.assert_allclose(out[:, 1], curve, rtol=1e-13)
    np.testing.assert_allclose(out.sum(1), 1, rtol=0, atol=1e-15)


def test_a_free_fit_with_a_negative_coefficient_is_refitted_on_a_face():
    rng = np.random.default_rng(8)
    for a, b in ((-0.5, 1.5), (1.5, -0.4)):
        p, y = data(rng, 4000, a, b, 0.0)
        design = np.column_stack([np.log(p), -np.log1p(-p), np.ones_like(p)])
        assert (logistic_newton(design, y)[:2] < 0).any()  # the free minimum breaks the constraint
        fitted = calib.recalibrate_fit(np.column_stack([1 - p, p]), y, method="beta", gradient_tolerance=1e-12)
        got = fitted_abc(fitted)
        np.testing.assert_allclose(got, constrained_beta(p, y), rtol=1e-9, atol=1e-11)
        assert (got[:2] >= 0).all() and (got[:2] == 0).any()
        assert fitted["objective_after"] == pytest.approx(nll(design, y, got), rel=1e-12)
        grid = np.linspace(0, 1, 201)
        curve = calib.recalibrate_apply(fitted, np.column_stack([1 - grid, grid]))["probs"][:, 1]
        assert (np.diff(curve) >= 0).all()


def test_logits_give_the_map_of_their_softmax():
    rng = np.random.default_rng(5)
    p, y = data(rng, 2000, 1.4, 0.8, -0.2)
    logits = np.column_stack([np.zeros_like(p), np.log(p / (1 - p))]) + rng.normal(size=(p.size, 1))
    from_logits = calib.recalibrate_fit(logits, y, logits=True, method="beta", gradient_tolerance=1e-12)
    probs = np.exp(logits - logits.max(1, keepdims=True))
    probs /= probs.sum(1, keepdims=True)
    from_probs = calib.recalibrate_fit(probs, y, method="beta", gradient_tolerance=1e-12)
    np.testing.assert_allclose(fitted_abc(from_logits), fitted_abc(from_probs), rtol=1e-8)
    np.testing.assert_allclose(calib.recalibrate_apply(from_logits, logits)["probs"],
                               calib.recalibrate_apply(from_probs, probs)["probs"], rtol=1e-8, atol=1e-15)


def test_the_identity_is_a_perfectly_calibrated_models_map():
    """Beta calibration contains the identity (a = b = 1, c = 0), which Platt's map of p does not:
    on calibrated data the fit stays near it."""
    rng = np.random.default_rng(12)
    p, y = data(rng, 20000, 1.0, 1.0, 0.0)
    got = fitted_abc(calib.recalibrate_fit(np.column_stack([1 - p, p]), y, method="beta"))
    assert np.abs(got - [1, 1, 0]).max() < 0.15


def test_beta_is_for_two_classes_and_its_map_file_is_checked():
    probs = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8]])
    with pytest.raises(ValueError, match="method = beta maps binary predictions \\(m = 2 classes\\), not m = 3"):
        calib.recalibrate_fit(probs, np.array([2, 0, 1]), method="beta")
    fitted = calib.recalibrate_fit(np.array([[0.3, 0.7], [0.6, 0.4], [0.2, 0.8], [0.9, 0.1]]), np.array([1, 0, 1, 0]),
                                   method="beta")
    with pytest.raises(ValueError, match="num_classes = 3 does not fit method = beta"):
        calib.recalibrate_apply(dict(fitted, num_classes=3), probs)
    negative = dict(fitted, parameters=dict(fitted["parameters"], b=-0.25))
    with pytest.raises(ValueError, match="b = -0.25, must be >= 0"):
        calib.recalibrate_apply(negative, np.array([[0.5, 0.5]]))


def test_auto_considers_beta_for_two_classes_only():
    rng = np.random.default_rng(3)
    p, y = data(rng, 600, 2.0, 0.5, 0.0)
    two = calib.recalibrate_fit(np.column_stack([1 - p, p]), y, method="auto")
    assert "beta" in two.selection["candidates"]
    three = calib.recalibrate_fit(rng.dirichlet([1, 1, 1], 300), rng.integers(0, 3, 300), method="auto")
    assert "beta" not in three.selection["candidates"] and "platt" in three.selection["candidates"]

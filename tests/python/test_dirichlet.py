"""Dirichlet calibration (calib.recalibrate_fit(method="dirichlet"); Kull et al. 2019):
softmax(W ln p + b) fitted by the mean NLL plus the ODIR penalty λ/(m(m−1)) Σ_{k≠j} W_kj² + μ/m Σ b_k²,
against the same objective written here in NumPy and minimised by SciPy's L-BFGS-B, a route that does
not go through calib. Data shaped as users' are: float32 probabilities of m = 4 classes, and logits."""
import numpy as np
import pytest
from scipy.optimize import minimize

import calib


def log_softmax(z):
    top = z.max(1, keepdims=True)
    return z - top - np.log(np.exp(z - top).sum(1, keepdims=True))


def odir_objective(theta, x, labels, ridge, intercept_ridge):
    """Mean NLL of softmax(x Wᵀ + b) + ODIR, and its gradient; θ = (W row by row, b)."""
    n, m = x.shape
    w, b = theta[: m * m].reshape(m, m), theta[m * m:]
    lp = log_softmax(x @ w.T + b)
    value = -lp[np.arange(n), labels].mean()
    g = np.exp(lp)
    g[np.arange(n), labels] -= 1
    g /= n
    off = ~np.eye(m, dtype=bool)
    value += ridge / (m * (m - 1)) * (w[off] ** 2).sum() + intercept_ridge / m * (b ** 2).sum()
    grad_w = g.T @ x + 2 * ridge / (m * (m - 1)) * np.where(off, w, 0)
    grad_b = g.sum(0) + 2 * intercept_ridge / m * b
    return value, np.concatenate([grad_w.ravel(), grad_b])


def scipy_fit(x, labels, ridge, intercept_ridge):
    m = x.shape[1]
    start = np.concatenate([np.eye(m).ravel(), np.zeros(m)])
    result = minimize(odir_objective, start, args=(x, labels, ridge, intercept_ridge), jac=True, method="L-BFGS-B",
                      options={"maxiter": 100000, "ftol": 1e-15, "gtol": 1e-12})
    return result.x, result.fun


def miscalibrated(rng, n, m):
    probs = rng.dirichlet(np.full(m, 0.7), n).astype(np.float32)
    truth = np.exp(log_softmax(0.6 * np.log(np.maximum(probs.astype(float), 1e-12)) + np.linspace(-0.3, 0.3, m)))
    labels = np.array([rng.choice(m, p=row / row.sum()) for row in truth])
    return probs, labels


def theta_of(fitted):
    return np.concatenate([np.ravel(fitted["parameters"]["matrix"]), fitted["parameters"]["bias"]])


@pytest.mark.parametrize("ridge, intercept_ridge", [(1e-3, 1e-3), (0.5, 2.0)])
def test_matches_the_odir_objective_minimised_by_scipy(ridge, intercept_ridge):
    rng = np.random.default_rng(19)
    probs, labels = miscalibrated(rng, 3000, 4)
    fitted = calib.recalibrate_fit(probs, labels, method="dirichlet", ridge=ridge, intercept_ridge=intercept_ridge,
                                   gradient_tolerance=1e-12)
    # A flat minimum (the ridges are small) can end in a failed line search at the rounding floor.
    assert fitted["status"] in ("converged", "line_search_failed")
    assert fitted["ridge"] == ridge and fitted["intercept_ridge"] == intercept_ridge
    x = log_softmax(np.log(np.maximum(probs.astype(float), 1e-12)))
    theta, value = scipy_fit(x, labels, ridge, intercept_ridge)
    assert fitted["objective_after"] == pytest.approx(value, rel=1e-10)
    assert odir_objective(theta_of(fitted), x, labels, ridge, intercept_ridge)[0] == pytest.approx(value, rel=1e-12)
    np.testing.assert_allclose(theta_of(fitted), theta, atol=2e-5)
    # Applied: softmax(W ln p + b) of new rows, and the penalty-free NLL of recalibrated_nll's.
    new = rng.dirichlet(np.ones(4), 5)
    m = 4
    w, b = theta_of(fitted)[: m * m].reshape(m, m), theta_of(fitted)[m * m:]
    expected = np.exp(log_softmax(log_softmax(np.log(new)) @ w.T + b))
    np.testing.assert_allclose(calib.recalibrate_apply(fitted, new)["probs"], expected, rtol=1e-12)


def test_logits_give_the_map_of_their_softmax_and_without_penalties_it_is_matrix_scaling():
    rng = np.random.default_rng(23)
    probs, labels = miscalibrated(rng, 2000, 3)
    probs = probs.astype(float) / probs.astype(float).sum(1, keepdims=True)
    logits = np.log(np.maximum(probs, 1e-300)) + rng.normal(size=(probs.shape[0], 1))
    from_probs = calib.recalibrate_fit(probs, labels, method="dirichlet", gradient_tolerance=1e-12)
    from_logits = calib.recalibrate_fit(logits, labels, logits=True, method="dirichlet", gradient_tolerance=1e-12)
    assert from_logits["objective_after"] == pytest.approx(from_probs["objective_after"], rel=1e-10)
    np.testing.assert_allclose(calib.recalibrate_apply(from_logits, logits)["probs"],
                               calib.recalibrate_apply(from_probs, probs)["probs"], atol=1e-5)
    # λ = μ = 0 on normalised probabilities: ln softmax(ln p) = ln p, so the map is matrix scaling's
    # without its ridge, fitted to the same minimum.
    free = calib.recalibrate_fit(probs, labels, method="dirichlet", ridge=0, intercept_ridge=0, gradient_tolerance=1e-12)
    matrix = calib.recalibrate_fit(probs, labels, method="matrix", ridge=0, gradient_tolerance=1e-12)
    assert free["objective_after"] == pytest.approx(matrix["objective_after"], rel=1e-10)
    np.testing.assert_allclose(calib.recalibrate_apply(free, probs)["probs"],
                               calib.recalibrate_apply(matrix, probs)["probs"], atol=1e-6)


def test_options_are_checked_and_only_dirichlet_takes_the_intercept_ridge():
    probs = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
    labels = np.array([2, 0, 1, 1])
    with pytest.raises(ValueError, match="intercept_ridge"):
        calib.recalibrate_fit(probs, labels, method="dirichlet", intercept_ridge=-1)
    with pytest.raises(ValueError, match="intercept_ridge"):
        calib.recalibrate_fit(probs, labels, method="matrix", intercept_ridge=0.1)
    fitted = calib.recalibrate_fit(probs, labels, method="dirichlet")
    with pytest.raises(ValueError, match="intercept_ridge = -0.5, must be >= 0"):
        calib.recalibrate_apply(dict(fitted, intercept_ridge=-0.5), probs)

"""Kronecker and two-step KRR (Gruber & Bach, Eqs. 28-32) written here from the paper with NumPy's
LAPACK eigensolver, against calib's fixed-hyperparameter mode on its exact path (krr_tolerance 0) and
its default: an implementation that shares no code with the library. Where calib reports a ridge as
resolved (rounding sensitivity <= 1e-6, docs/squared_ce.md) all three agree; below the floor they may
not, which is why the search leaves those ridges out.

Run as a script it prints the comparison table of docs/squared_ce.md."""

import warnings

import numpy as np
import pytest

import calib

N, M, GAMMA = 500, 10, 1.0
KRONECKER_GRID = [10.0 ** e for e in range(-1, -18, -2)]
TWO_STEP_GRID = [10.0 ** e for e in range(-1, -10, -1)]


def model(seed):
    """Dirichlet predictions, labels drawn from tempered truths (f = P^0.6 renormalised)."""
    rng = np.random.default_rng(seed)
    truth = rng.dirichlet(np.full(M, 0.3), N)
    labels = (truth.cumsum(1) > rng.random(N)[:, None]).argmax(1)
    probs = truth ** 0.6
    return probs / probs.sum(1, keepdims=True), labels


def reduction(probs, labels, notion):
    """Inputs z and residuals r of the paper's reductions (Sec. 2.2-2.3)."""
    if notion == "canonical":
        return probs, probs - np.eye(M)[labels]
    top = probs.argmax(1)
    confidence = probs[np.arange(len(probs)), top][:, None]
    return confidence, confidence - (labels == top)[:, None]


def rbf(a, b):
    return np.exp(-GAMMA * ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))


def spectrum(train, data, notion):
    """K = Q diag(l) Q^T of the training inputs (eigenvalues clipped at 0), R = Q^T r and B = Q^T K_x."""
    z, r = reduction(*train, notion)
    x, _ = reduction(*data, notion)
    ell, q = np.linalg.eigh(rbf(z, z))
    return np.clip(ell, 0, None), q.T @ r, q.T @ rbf(z, x)


def reference(parts, estimator, c):
    """The diagonal mean of h_kkr (29) or h_ukkr (32) over the data, ridges as the authors' code
    (c n^1.5 and c n^0.75)."""
    ell, projected_r, b = parts
    n = len(ell)
    if estimator == "ce-kkr":
        s = (projected_r @ projected_r.T) / (np.outer(ell, ell) + c * n ** 1.5)
        return float(np.einsum("ia,ij,ja->a", b, s, b).mean())
    u = b.T @ (projected_r / (ell + c * n ** 0.75)[:, None])
    return float((u ** 2).sum(1).mean())


def calib_fixed(train, data, notion, estimator, c, tolerance):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", calib.CalibWarning)
        out = calib.estimate(data[0], data[1], estimator=estimator, notion=notion, train=train, ridge_constant=c,
                             krr_tolerance=tolerance)
    return out.estimate, out.details["rounding_sensitivity"]


def rows(notion, estimator):
    train, data = model(1), model(2)
    parts = spectrum(train, data, notion)
    for c in KRONECKER_GRID if estimator == "ce-kkr" else TWO_STEP_GRID:
        ref = reference(parts, estimator, c)
        exact, sensitivity = calib_fixed(train, data, notion, estimator, c, 0)
        default, _ = calib_fixed(train, data, notion, estimator, c, "auto")
        yield c, sensitivity, ref, abs(exact - ref) / abs(ref), abs(default - ref) / abs(ref)


CASES = [(n, e) for n in ("top-label", "canonical") for e in ("ce-kkr", "ce-ukkr")]


@pytest.mark.parametrize("notion,estimator", CASES)
def test_resolved_ridges_agree_with_the_paper_written_in_numpy(notion, estimator):
    resolved = 0
    for c, sensitivity, ref, exact, default in rows(notion, estimator):
        if sensitivity > 1e-6:
            continue
        resolved += 1
        # Measured (docs/squared_ce.md): at most 3.2e-6 relative (the exact path) and 1.6e-6 (the default)
        # over these cases, about 3 and 1.5 times the sensitivity; the bound leaves a margin of 3.
        assert exact <= 1e-5 and default <= 1e-5, (c, sensitivity, exact, default)
    assert resolved >= 4


if __name__ == "__main__":
    print("| notion | estimator | c | sensitivity | reference estimate | exact path | default |")
    print("|---|---|---|---|---|---|---|")
    for notion, estimator in CASES:
        for c, sensitivity, ref, exact, default in rows(notion, estimator):
            print(f"| {notion} | {estimator} | {c:.0e} | {sensitivity:.1e} | {ref:.6g} | {exact:.1e} | {default:.1e} |")

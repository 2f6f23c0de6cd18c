"""The canonical h_kde (Gruber & Bach, Eq. 25, with Popordanoska et al.'s Dirichlet kernel centred at
the training point) written here in NumPy, against calib's fixed-hyperparameter mode; and the
convention of the authors' code, which exponentiates the log-kernel and clamps each query's kernel sum
at 1e-10 before dividing: it differs from Eq. 25 exactly at the queries whose kernel sum is below
1e-10 (far from every training point, at small bandwidths), which is why its canonical estimates can
differ from calib's by about 1e-4 relative while the scalar (Beta-kernel) ones agree to rounding
(docs/squared_ce.md, decision 16)."""

import math
import warnings

import numpy as np
import pytest

import calib

M = 10
lgamma = np.vectorize(math.lgamma)


def sample(rng, n):
    """Dirichlet truths, labels drawn from them, predictions f = P^0.6 renormalised."""
    truth = rng.dirichlet(np.full(M, 0.3), n)
    labels = (truth.cumsum(1) > rng.random(n)[:, None]).argmax(1)
    probs = truth ** 0.6
    return probs / probs.sum(1, keepdims=True), labels


def log_kernel(train, queries, bandwidth):
    """log k(z; z_i) of the Dirichlet density with alpha = z_i / b + 1, queries by rows."""
    alpha = train / bandwidth + 1
    return (lgamma(alpha.sum(1)) - lgamma(alpha).sum(1))[None, :] + np.log(queries) @ (alpha - 1).T


def fitted(train, labels, queries, bandwidth, clamp):
    """g(z): Eq. 25's Nadaraya-Watson estimate, normalised exactly (shifted by each row's maximum), or
    as the authors' code (exp, then the sum clamped at 1e-10); and each query's kernel sum."""
    logk = log_kernel(train, queries, bandwidth)
    if clamp:
        k = np.exp(logk)
        total = np.maximum(k.sum(1), 1e-10)
    else:
        k = np.exp(logk - logk.max(1, keepdims=True))
        total = k.sum(1)
    return (k @ np.eye(M)[labels]) / total[:, None], np.exp(logk).sum(1)


@pytest.mark.parametrize("bandwidth", [0.01, 0.1, 1.0])
def test_canonical_kde_is_equation_25_and_the_clamp_moves_only_isolated_queries(bandwidth):
    rng = np.random.default_rng(1)
    (train, train_labels), (data, data_labels) = sample(rng, 2000), sample(rng, 2000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", calib.CalibWarning)
        ours = calib.estimate(data, data_labels, estimator="ce-kde", notion="canonical", train=(train, train_labels),
                              bandwidth=bandwidth).estimate
    exact, sums = fitted(train, train_labels, data, bandwidth, clamp=False)
    clamped, _ = fitted(train, train_labels, data, bandwidth, clamp=True)
    assert ours == pytest.approx(((data - exact) ** 2).sum(1).mean(), rel=1e-12)
    isolated = sums < 1e-10
    assert np.allclose(clamped[~isolated], exact[~isolated], rtol=1e-12, atol=1e-15)
    assert all(not np.allclose(c, e) for c, e in zip(clamped[isolated], exact[isolated]))
    theirs = ((data - clamped) ** 2).sum(1).mean()
    if bandwidth == 0.01:  # three isolated queries of 2 000: 5.3e-4 relative, the size the issue saw
        assert isolated.sum() == 3 and abs(theirs - ours) / ours == pytest.approx(5.3e-4, rel=0.05)
    else:
        assert not isolated.any() and theirs == pytest.approx(ours, rel=1e-12)

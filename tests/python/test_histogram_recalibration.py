"""The histogram-binning recalibration map (calib.recalibrate_fit(method="histogram")) against its
definition computed here with NumPy: the bins' upper edges by the documented rules (equal-mass:
parts of ceil(n/B) then floor(n/B) sorted predictions, edges halfway between parts; uniform: i/B,
an empty bin joining the one above, the last the one below; distinct), a prediction on an edge in the
bin below (np.searchsorted, side "left"), a bin's value the frequency of the class in it, one-vs-rest
renormalised as the isotonic map. Data shaped as users' are: float32 probabilities with ties."""
import numpy as np
import pytest

import calib


def upper_edges(p, binning, bins):
    if binning == "uniform":
        return np.arange(1, bins + 1) / bins
    s = np.sort(p)
    if binning == "distinct":
        u = np.unique(s)
        edges = list((u[:-1] + u[1:]) / 2)
    else:
        n, B = len(s), min(bins, len(s))
        sizes = [n // B + (1 if b < n % B else 0) for b in range(B)]
        ends = np.cumsum(sizes)[:-1]
        edges = list((s[ends - 1] + s[ends]) / 2)
    return np.unique(np.array(edges + [1.0]))


def column_bins(x, y, binning, bins):
    edges = upper_edges(x, binning, bins)
    b = np.searchsorted(edges, x, side="left")
    counts = np.bincount(b, minlength=len(edges))
    kept = edges[counts > 0]
    kept[-1] = 1.0
    b = np.searchsorted(kept, x, side="left")
    values = np.bincount(b, weights=y, minlength=len(kept)) / np.bincount(b, minlength=len(kept))
    return kept, values


def reference_apply(curves, p):
    n, m = p.shape
    columns = [1] if m == 2 else range(m)
    q = np.zeros((n, m))
    for k, (edges, values) in zip(columns, curves):
        q[:, k] = values[np.minimum(np.searchsorted(edges, p[:, k], side="left"), len(edges) - 1)]
    if m == 2:
        q[:, 0] = 1 - q[:, 1]
        return q
    total = q.sum(1, keepdims=True)
    return np.where(total > 0, q / np.where(total > 0, total, 1), 1 / m)


@pytest.mark.parametrize("m,binning,bins", [(2, "equal-mass", None), (4, "equal-mass", 7), (4, "uniform", 12),
                                            (3, "distinct", None)])
def test_matches_the_definition(m, binning, bins):
    rng = np.random.default_rng(m * 10 + (bins or 0))
    z = rng.normal(size=(900, m)) * 2
    probs = np.round(np.exp(z) / np.exp(z).sum(1, keepdims=True), 2)
    probs = (probs / probs.sum(1, keepdims=True)).astype(np.float32)
    labels = np.array([rng.choice(m, p=np.exp(r / 2) / np.exp(r / 2).sum()) for r in z])
    options = {"binning": binning} | ({"bins": bins} if bins else {})
    fitted = calib.recalibrate_fit(probs[:600], labels[:600], method="histogram", **options)
    B = bins or int(np.ceil(600 ** (1 / 3) - 1e-9))
    assert fitted["bins"] == B and fitted["binning"] == binning
    x = probs[:600].astype(float)
    curves = []
    for k in ([1] if m == 2 else range(m)):
        edges, values = column_bins(x[:, k], (labels[:600] == k).astype(float), binning, B)
        assert fitted["parameters"][f"edges_{k}"] == edges.tolist()
        np.testing.assert_allclose(fitted["parameters"][f"values_{k}"], values, rtol=1e-15, atol=0)
        curves.append((edges, values))
    new = probs[600:].astype(float)
    np.testing.assert_allclose(calib.recalibrate_apply(fitted, probs[600:])["probs"], reference_apply(curves, new),
                               rtol=1e-15, atol=1e-16)


def test_the_bin_count_rule_and_refusals():
    rng = np.random.default_rng(1)
    for n, B in [(1, 1), (27, 3), (28, 4), (1000, 10), (1001, 11)]:
        probs = rng.dirichlet(np.ones(3), size=n)
        assert calib.recalibrate_fit(probs, rng.integers(0, 3, n), method="histogram")["bins"] == B
    probs = rng.dirichlet(np.ones(3), size=50)
    labels = rng.integers(0, 3, 50)
    with pytest.raises(ValueError, match="option `bins` applies only with `method` histogram, not temperature"):
        calib.recalibrate_fit(probs, labels, method="temperature", bins=5)
    with pytest.raises(ValueError, match="option `bins` = '0'"):
        calib.recalibrate_fit(probs, labels, method="histogram", bins=0)
    with pytest.raises(ValueError, match="option `objective` applies only with `method` temperature.*not histogram"):
        calib.recalibrate_fit(probs, labels, method="histogram", objective="nll")
    fitted = calib.recalibrate_fit(probs, labels, method="histogram", bins=4)
    broken = dict(fitted, parameters=dict(fitted["parameters"], edges_1=fitted["parameters"]["edges_1"][:-1] + [0.9]))
    with pytest.raises(ValueError, match="edges_1 ends at 0.9, must end at 1"):
        calib.recalibrate_apply(broken, probs)

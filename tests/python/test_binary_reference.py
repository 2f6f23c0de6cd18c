"""The tests of binary predictions against independent NumPy computations of their textbook formulas:
Spiegelhalter's z and calibration-in-the-large from their sums, the cumulative-difference tests
from the running sums (p-values by the Brownian series with math.erfc), Cox's logistic recalibration by
iteratively reweighted least squares, and Hosmer-Lemeshow as R's
ResourceSelection::hoslem.test computes it (breaks at the type-7 sample quantiles, right-closed
groups, the Pearson chi-squared of the g x 2 table, g - 2 degrees of freedom): the rank grouping on
data where its groups and calib's coincide (n a multiple of g, no ties), grouping="quantile-breaks"
also on tied float32 predictions. The p-values use closed forms (erfc; the
chi-squared's survival function for an even number of degrees of freedom), not calib's Boost calls."""

import math
import warnings

import numpy as np
import pytest

import calib
from conftest import family_arrays


def chi2_survival_even(x, df):
    """P(chi2_df > x) for even df: exp(-x/2) * sum_{j < df/2} (x/2)^j / j!."""
    half = x / 2
    return math.exp(-half) * sum(half ** j / math.factorial(j) for j in range(df // 2))


def r_quantiles(p, g):
    """R's quantile(p, seq(0, 1, 1/g)) (type 7) in R's arithmetic: probabilities k * (1/g), index
    1 + (n - 1) * prob, quantile (1 - h) * x[lo] + h * x[hi]."""
    x = np.sort(p)
    out = []
    for k in range(g + 1):
        index = (len(x) - 1) * (k * (1.0 / g))
        lo, hi = int(np.floor(index)), int(np.ceil(index))
        h = index - lo
        out.append((1 - h) * x[lo] + h * x[hi] if index > lo and x[hi] != x[lo] else x[lo])
    return np.array(out)


def hoslem_like_r(p, y, g):
    breaks = np.unique(r_quantiles(p, g))             # hoslem.test: unique(quantile(yhat, seq(0, 1, 1/g)))
    group = np.searchsorted(breaks, p, side="left")   # (b_{k-1}, b_k], the lowest value in the first
    group[group == 0] = 1
    g = len(breaks) - 1
    observed = np.array([[np.sum(1 - y[group == k]), np.sum(y[group == k])] for k in range(1, g + 1)])
    expected = np.array([[np.sum(1 - p[group == k]), np.sum(p[group == k])] for k in range(1, g + 1)])
    return float(np.sum((observed - expected) ** 2 / expected))


def logistic_recalibration(p, y):
    """Cox's fit logit P(Y = 1) = a + b logit p by iteratively reweighted least squares, its
    log-likelihood's gain over (0, 1), and the standard errors from the inverse information."""
    x = np.log(p / (1 - p))
    design = np.c_[np.ones_like(x), x]
    loglik = lambda t: float(np.sum(y * (design @ t) - np.logaddexp(0, design @ t)))
    theta = np.array([0.0, 1.0])
    for _ in range(50):
        mu = 1 / (1 + np.exp(-(design @ theta)))
        information = design.T @ (design * (mu * (1 - mu))[:, None])
        theta = theta + np.linalg.solve(information, design.T @ (y - mu))
    mu = 1 / (1 + np.exp(-(design @ theta)))
    se = np.sqrt(np.diag(np.linalg.inv(design.T @ (design * (mu * (1 - mu))[:, None]))))
    return theta, se, 2 * (loglik(theta) - loglik(np.array([0.0, 1.0])))


def profile_deviance(p, y, held, value, top):
    """2 (top - the log-likelihood maximised over the other coefficient by Newton's method), with the
    intercept (held = 0) or the slope (held = 1) held at value."""
    x = np.log(p / (1 - p))
    free = 0.0
    covariate = x if held == 0 else np.ones_like(x)  # the free coefficient's column
    eta = lambda f: (value + f * x) if held == 0 else (f + value * x)
    for _ in range(100):
        mu = 1 / (1 + np.exp(-eta(free)))
        free += np.sum(covariate * (y - mu)) / np.sum(covariate ** 2 * mu * (1 - mu))
    return 2 * (top - float(np.sum(y * eta(free) - np.logaddexp(0, eta(free)))))


def data_sets():
    p, y = family_arrays("binary")[1]["probs"], family_arrays("binary")[1]["labels"]
    rng = np.random.default_rng(2026)
    q = rng.beta(0.7, 0.7, 1000)
    sharp = 1 / (1 + np.exp(-1.6 * np.log(q / (1 - q))))  # over-confident: a small p-value
    return [("scores.csv", p, y), ("over-confident", sharp, (rng.uniform(size=1000) < q).astype(np.int64))]


def test_hosmer_lemeshow_quantile_breaks_as_r_on_ties_and_float32():
    # hoslem.test's groups on data where calib's ranks differ from them: float32 predictions rounded to
    # two decimals (many ties, so some breaks coincide), n = 997 (not a multiple of g).
    rng = np.random.default_rng(31)
    p = np.round(rng.beta(2, 3, 997), 2).astype(np.float32)
    y = (rng.uniform(size=997) < p).astype(np.int64)
    for g in (10, 7):
        c = hoslem_like_r(p.astype(np.float64), y, g)
        r = calib.test(p, y, method="hosmer-lemeshow", grouping="quantile-breaks", groups=g, df="development")
        assert r.statistic == pytest.approx(c, rel=1e-12)
        assert r.details["grouping"] == "quantile-breaks"
        ranks = calib.test(p, y, method="hosmer-lemeshow", groups=g, df="development")
        assert ranks.statistic != r.statistic  # the groupings differ here


@pytest.mark.parametrize("name,p,y", data_sets(), ids=[d[0] for d in data_sets()])
def test_against_numpy_formulas(name, p, y):
    w = 1 - 2 * p
    z = np.sum((y - p) * w) / math.sqrt(np.sum(w * w * p * (1 - p)))
    r = calib.test(p, y, method="spiegelhalter")
    assert r.details["z"] == pytest.approx(z, rel=1e-12)
    assert r.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-10, abs=1e-300)
    assert r.estimate == pytest.approx(2 * np.mean((y - p) ** 2), rel=1e-13)
    # The same Brier score as calib's estimator of that name (whose warnings about the kernel
    # density part of its decomposition are not this test's subject).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", calib.CalibWarning)
        brier = calib.estimate(p, y, estimator="brier").estimate
    assert r.estimate == pytest.approx(brier, rel=1e-12)

    z = np.sum(y - p) / math.sqrt(np.sum(p * (1 - p)))
    r = calib.test(p, y, method="citl")
    assert r.details["z"] == pytest.approx(z, rel=1e-12)
    assert r.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-10, abs=1e-300)

    c = hoslem_like_r(p, y, 10)
    r = calib.test(p, y, method="hosmer-lemeshow", df="development")
    assert r.statistic == pytest.approx(c, rel=1e-12)
    assert r.details["df"] == 8
    assert r.p_value == pytest.approx(chi2_survival_even(c, 8), rel=1e-10, abs=1e-300)
    validation = calib.test(p, y, method="hosmer-lemeshow")
    assert validation.statistic == r.statistic and validation.details["df"] == 10
    assert validation.p_value == pytest.approx(chi2_survival_even(c, 10), rel=1e-10, abs=1e-300)

    # The cumulative differences: running sums of y - p over the distinct predictions in increasing order.
    values, inverse = np.unique(p, return_inverse=True)
    path = np.concatenate([[0.0], np.cumsum(np.bincount(inverse, weights=y - p))])
    sigma = math.sqrt(np.sum(p * (1 - p)))
    q = lambda x: 0.5 * math.erfc(x / math.sqrt(2))
    ks = np.max(np.abs(path)) / sigma
    r = calib.test(p, y, method="ks")
    assert (r.estimate, r.statistic) == pytest.approx((np.max(np.abs(path)) / len(p), ks), rel=1e-12)
    assert r.p_value == pytest.approx(4 * sum((-1) ** k * q((2 * k + 1) * ks) for k in range(60)), rel=1e-10)
    kuiper = (path.max() - path.min()) / sigma
    r = calib.test(p, y, method="kuiper")
    assert r.statistic == pytest.approx(kuiper, rel=1e-12)
    assert r.p_value == pytest.approx(8 * sum((-1) ** (k - 1) * k * q(k * kuiper) for k in range(1, 200)), rel=1e-10)

    theta, se, lr = logistic_recalibration(p, y)
    r = calib.test(p, y, method="cox")
    assert (r.details["intercept"], r.details["slope"]) == pytest.approx(tuple(theta), rel=1e-9, abs=1e-12)
    assert (r.details["intercept_se"], r.details["slope_se"]) == pytest.approx(tuple(se), rel=1e-8)
    assert r.statistic == pytest.approx(lr, rel=1e-8, abs=1e-10)
    assert r.p_value == pytest.approx(math.exp(-lr / 2), rel=1e-7)
    # The likelihood-ratio intervals end where the profile deviance is chi-squared(1)'s 0.95 quantile.
    quantile = 3.841458820694124  # R: qchisq(0.95, 1)
    x = np.log(p / (1 - p))
    top = float(np.sum(y * (theta[0] + theta[1] * x) - np.logaddexp(0, theta[0] + theta[1] * x)))
    for held, ends in ((1, ("slope_lr_lower", "slope_lr_upper")), (0, ("intercept_lr_lower", "intercept_lr_upper"))):
        for end in ends:
            assert profile_deviance(p, y, held, r.details[end], top) == pytest.approx(quantile, rel=1e-7)
    citl_top = -profile_deviance(p, y, 1, 1.0, 0) / 2  # the log-likelihood's maximum along slope 1
    for end in ("citl_lr_lower", "citl_lr_upper"):
        a = r.details[end]
        deviance = 2 * (citl_top - float(np.sum(y * (a + x) - np.logaddexp(0, a + x))))
        assert deviance == pytest.approx(quantile, rel=1e-7)
    assert r.statistic == pytest.approx(r.details["citl_statistic"] + r.details["slope_statistic"], rel=1e-12)

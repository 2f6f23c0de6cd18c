"""The CORP score decomposition (calib.estimate(..., estimator="corp")) against one computed here from
scikit-learn's IsotonicRegression and the scores' definitions: an implementation that does not go
through calib's PAV. Data shaped as users' are: float32 probabilities, a binary model's P(Y = 1) and
a 10-class model's top-label event."""
import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

import calib


def scores(score, p, y):
    if score == "brier":
        return (p - y) ** 2
    with np.errstate(divide="ignore"):
        return np.where(y == 1, -np.log(p), -np.log1p(-p))


def decomposition(score, x, y):
    """(mean score, MCB, DSC, UNC) by Dimitriadis, Gneiting & Jordan (2021)'s definitions."""
    recalibrated = IsotonicRegression().fit(x, y).predict(x)
    mean = scores(score, x, y).mean()
    calibrated = scores(score, recalibrated, y).mean()
    reference = scores(score, np.full_like(x, y.mean()), y).mean()
    return mean, mean - calibrated, reference - calibrated, reference


@pytest.mark.parametrize("score", ["brier", "log"])
def test_binary_float32(score):
    rng = np.random.default_rng(21)
    x = np.round(rng.uniform(0.01, 0.99, 3000), 2).astype(np.float32)  # ties, as a binned model's
    y = (rng.uniform(size=x.size) < x.astype(float) ** 1.3).astype(int)
    r = calib.estimate(x, y, family="binary", estimator="corp", score=score)
    mean, mcb, dsc, unc = decomposition(score, x.astype(float), y.astype(float))
    assert r.estimate == pytest.approx(mcb, rel=1e-12, abs=1e-15)
    assert r.details["dsc"] == pytest.approx(dsc, rel=1e-12, abs=1e-15)
    assert r.details["unc"] == pytest.approx(unc, rel=1e-12)
    assert r.details["mean_score"] == pytest.approx(mean, rel=1e-12)
    assert r.details["mean_score"] == pytest.approx(r.estimate - r.details["dsc"] + r.details["unc"], rel=1e-12)


def test_top_label_of_class_predictions():
    rng = np.random.default_rng(22)
    logits = rng.normal(size=(2000, 10)) * 2.5
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    labels = np.array([rng.choice(10, p=q) for q in probs ** 0.8 / (probs ** 0.8).sum(axis=1, keepdims=True)])
    r = calib.estimate(probs, labels, estimator="corp", event="top-label", score="log")
    confidence = probs.max(axis=1)
    correct = (probs.argmax(axis=1) == labels).astype(float)
    _, mcb, dsc, unc = decomposition("log", confidence, correct)
    assert r.estimate == pytest.approx(mcb, rel=1e-11)
    assert r.details["dsc"] == pytest.approx(dsc, rel=1e-11)
    assert r.details["unc"] == pytest.approx(unc, rel=1e-12)


def test_log_score_of_a_contradicted_certainty_is_refused():
    # A forecast of 0 for an event that happened: the mean log score and MCB are +inf, which an estimate
    # is not; the refusal names the row and what to do. The Brier score of the same data is finite.
    x = np.array([0.0, 0.2, 0.5, 0.9, 1.0])
    y = np.array([1, 0, 1, 1, 0])
    with pytest.raises(ValueError, match="the forecasts of row 0 and 1 other rows give probability 0 to the outcome "
                                         "that happened, so the mean log score and MCB are infinite"):
        calib.estimate(x, y, family="binary", estimator="corp", score="log")
    r = calib.estimate(x, y, family="binary", estimator="corp")
    assert r.estimate == pytest.approx(decomposition("brier", x, y.astype(float))[1], rel=1e-12)

"""The isotonic recalibration map (calib.recalibrate_fit(method="isotonic")) against scikit-learn's
CalibratedClassifierCV(method="isotonic", cv="prefit") on the same predictions: fitted here, applied
to held-out predictions there and here. Data shaped as users' are: float32 probabilities with ties,
a binary model's two columns, a 10-class model, logits, labels that miss a class."""
import json

import numpy as np
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.isotonic import IsotonicRegression

import calib


class Given:
    """A "classifier" whose predict_proba returns the rows it is given: scikit-learn's calibration
    then sees exactly the predictions calib sees."""

    def __init__(self, m):
        self.classes_ = np.arange(m)

    def fit(self, probs, labels):
        return self

    def predict_proba(self, X):
        return np.asarray(X, dtype=float)


def sklearn_isotonic(fit_probs, fit_labels, new_probs):
    m = fit_probs.shape[1]
    model = CalibratedClassifierCV(Given(m), method="isotonic", cv="prefit").fit(fit_probs, fit_labels)
    return model.predict_proba(new_probs)


def model_outputs(rng, n, m, sharpness=3.0):
    """Overconfident softmax outputs of m classes, rounded to 3 digits (ties), as float32."""
    logits = rng.normal(size=(n, m)) * sharpness
    labels = np.array([rng.choice(m, p=row) for row in np.exp(logits / 2) / np.exp(logits / 2).sum(1, keepdims=True)])
    probs = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    probs = np.round(probs, 3)
    probs /= probs.sum(1, keepdims=True)
    return probs.astype(np.float32), labels, logits


@pytest.mark.parametrize("m", [2, 3, 10])
def test_matches_scikit_learn_on_held_out_predictions(m):
    rng = np.random.default_rng(7 + m)
    probs, labels, _ = model_outputs(rng, 2000, m)
    fit, new = slice(0, 1200), slice(1200, None)
    fitted = calib.recalibrate_fit(probs[fit], labels[fit], method="isotonic")
    ours = calib.recalibrate_apply(fitted, probs[new])["probs"]
    theirs = sklearn_isotonic(probs[fit].astype(float), labels[fit], probs[new].astype(float))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    # Beyond the fitted range and exactly at its knots as well.
    edges = np.tile(np.array([0.0, 1.0, 0.5] + [0.0] * (m - 3))[:m], (1, 1))
    edges = np.vstack([edges / edges.sum(), np.full((1, m), 1.0 / m)])
    np.testing.assert_allclose(calib.recalibrate_apply(fitted, edges)["probs"],
                               sklearn_isotonic(probs[fit].astype(float), labels[fit], edges), rtol=0, atol=1e-12)


def test_curves_are_scikit_learns_thresholds():
    """Binary: the map's one curve (x_1, y_1) is IsotonicRegression's X_thresholds_, y_thresholds_."""
    rng = np.random.default_rng(3)
    p = np.round(rng.uniform(size=1500), 2)
    y = (rng.uniform(size=p.size) < p ** 2).astype(int)
    fitted = calib.recalibrate_fit(np.column_stack([1 - p, p]), y, method="isotonic")
    assert set(fitted["parameters"]) == {"x_1", "y_1"}
    iso = IsotonicRegression(out_of_bounds="clip").fit(p, y)
    np.testing.assert_array_equal(fitted["parameters"]["x_1"], iso.X_thresholds_)
    np.testing.assert_allclose(fitted["parameters"]["y_1"], iso.y_thresholds_, rtol=0, atol=1e-15)
    # The recalibrated fitting rows are the PAV fit; the NLL after is theirs.
    q = calib.recalibrate_apply(fitted, np.column_stack([1 - p, p]))["probs"][:, 1]
    np.testing.assert_allclose(q, iso.predict(p), rtol=0, atol=1e-15)
    nll = -np.mean(np.log(np.maximum(np.where(y == 1, q, 1 - q), 1e-12)))
    assert fitted["objective_after"] == pytest.approx(nll, rel=1e-13)
    assert fitted["iterations"] == 0 and fitted["status"] == "converged"


def test_logits_are_mapped_through_their_softmax():
    rng = np.random.default_rng(5)
    _, labels, logits = model_outputs(rng, 800, 4)
    from_logits = calib.recalibrate_fit(logits, labels, logits=True, method="isotonic")
    softmax = np.exp(logits - logits.max(1, keepdims=True))
    softmax /= softmax.sum(1, keepdims=True)
    from_probs = calib.recalibrate_fit(softmax, labels, method="isotonic")
    assert from_logits["input"] == "logits"
    for k in range(4):
        np.testing.assert_allclose(from_logits["parameters"][f"x_{k}"], from_probs["parameters"][f"x_{k}"],
                                   rtol=1e-14, atol=1e-300)
    np.testing.assert_allclose(calib.recalibrate_apply(from_logits, logits)["probs"],
                               calib.recalibrate_apply(from_probs, softmax)["probs"], rtol=0, atol=1e-12)


def test_a_class_never_seen_and_rows_every_curve_calls_zero():
    """A class absent from the fitting labels gets the constant curve 0; a row that every curve maps to
    0 becomes the uniform row (scikit-learn's rule)."""
    rng = np.random.default_rng(11)
    probs = rng.dirichlet(np.ones(3), size=300)
    labels = np.where(probs[:, 0] > probs[:, 1], 0, 1)  # class 2 never occurs
    fitted = calib.recalibrate_fit(probs, labels, method="isotonic")
    assert set(fitted["parameters"]["y_2"]) == {0.0}
    applied = calib.recalibrate_apply(fitted, probs)["probs"]
    np.testing.assert_allclose(applied.sum(1), 1, rtol=0, atol=1e-15)
    assert np.all(applied[:, 2] == 0)
    zero = np.array([[0.0, 0.0, 1.0]])  # below every fitted p_0 and p_1 that saw a positive
    np.testing.assert_allclose(calib.recalibrate_apply(fitted, zero)["probs"],
                               sklearn_isotonic(probs, labels, zero), rtol=0, atol=1e-12)


def test_one_row_and_a_constant_model():
    one = calib.recalibrate_fit(np.array([[0.3, 0.7]]), np.array([1]), method="isotonic")
    assert one["parameters"] == {"x_1": [0.7], "y_1": [1.0]}
    assert np.array_equal(calib.recalibrate_apply(one, np.array([[0.9, 0.1]]))["probs"], [[0.0, 1.0]])
    constant = calib.recalibrate_fit(np.full((4, 2), 0.5), np.array([0, 1, 1, 1]), method="isotonic")
    assert constant["parameters"] == {"x_1": [0.5], "y_1": [0.75]}


def test_refusals_and_map_checks():
    probs = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5], [0.1, 0.9]])
    labels = np.array([1, 0, 1, 1])
    with pytest.raises(ValueError, match="option `objective` applies only with `method` temperature.*not isotonic"):
        calib.recalibrate_fit(probs, labels, method="isotonic", objective="nll+mmd", lambda_=1)
    with pytest.raises(ValueError, match="option `max_iterations` applies only with `method` temperature.*not isotonic"):
        calib.recalibrate_fit(probs, labels, method="isotonic", max_iterations=5)
    fitted = calib.recalibrate_fit(probs, labels, method="isotonic")
    broken = json.loads(json.dumps(fitted))
    broken["parameters"]["x_1"] = broken["parameters"]["x_1"][::-1]
    with pytest.raises(ValueError, match="x_1\\[1\\].*must be larger than x_1\\[0\\]"):
        calib.recalibrate_apply(broken, probs)
    broken = json.loads(json.dumps(fitted))
    broken["parameters"]["y_1"] = broken["parameters"]["y_1"][:-1]
    with pytest.raises(ValueError, match="x_1 and y_1 have"):
        calib.recalibrate_apply(broken, probs)
    broken = json.loads(json.dumps(fitted))
    broken["objective"] = "nll+mmd"
    with pytest.raises(ValueError, match="does not fit method = isotonic"):
        calib.recalibrate_apply(broken, probs)

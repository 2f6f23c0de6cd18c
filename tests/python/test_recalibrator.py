"""calib.Recalibrator, the recalibration map as a scikit-learn estimator: the same numbers as the
functions, scikit-learn's conventions (clone, get_params/set_params, classes_, predict), a drop-in for
CalibratedClassifierCV-style code, and no scikit-learn import with calib."""
import pickle
import subprocess
import sys

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold

import calib
from conftest import data_path, family_arrays


def test_the_same_numbers_as_the_functions():
    _, arrays = family_arrays("categorical")
    probs, labels = arrays["probs"], arrays["labels"]
    for method, options in [("temperature", {}), ("matrix", {"ridge": 0.01}), ("isotonic", {})]:
        model = calib.Recalibrator(method, **options).fit(probs, labels)
        fitted = calib.recalibrate_fit(probs, labels, method=method, **options)
        assert model.map_ == fitted
        assert np.array_equal(model.predict_proba(probs), calib.recalibrate_apply(fitted, probs)["probs"])
        assert np.array_equal(model.classes_, np.arange(probs.shape[1])) and model.n_features_in_ == probs.shape[1]
        assert np.array_equal(model.predict(probs), np.argmax(model.predict_proba(probs), axis=1))


def test_scikit_learns_conventions():
    model = calib.Recalibrator("vector", objective="nll+mmd", lambda_=0.5, notion="top-label")
    assert model.get_params() == {"method": "vector", "logits": False, "one_based_labels": False,
                                  "objective": "nll+mmd", "lambda_": 0.5, "notion": "top-label"}
    assert model.lambda_ == 0.5 and model.method == "vector"
    copy = clone(model)
    assert copy is not model and copy.get_params() == model.get_params() and not hasattr(copy, "map_")
    assert model.set_params(method="temperature", lambda_=2) is model
    assert model.get_params()["lambda_"] == 2 and model.method == "temperature"
    assert "lambda_=2" in repr(model)
    _, arrays = family_arrays("categorical")
    fitted = calib.Recalibrator("temperature").fit(arrays["probs"], arrays["labels"])
    back = pickle.loads(pickle.dumps(fitted))
    assert np.array_equal(back.predict_proba(arrays["probs"]), fitted.predict_proba(arrays["probs"]))


def test_logits_and_one_based_labels():
    table = np.loadtxt(data_path("logits.csv"), delimiter=",")
    model = calib.Recalibrator("temperature-bias", logits=True, one_based_labels=True).fit(table[:, :3], table[:, 3])
    fitted = calib.recalibrate_fit(table[:, :3], table[:, 3], logits=True, one_based_labels=True,
                                   method="temperature-bias")
    assert model.map_ == fitted and np.array_equal(model.classes_, [1, 2, 3])
    assert set(model.predict(table[:, :3])) <= {1, 2, 3}


def test_a_grid_search_chooses_a_method():
    """GridSearchCV clones, sets parameters, fits and scores it (by the mean log-likelihood here)."""
    _, arrays = family_arrays("categorical")

    def log_likelihood(estimator, probs, labels):
        q = estimator.predict_proba(probs)
        return np.mean(np.log(np.maximum(q[np.arange(len(labels)), labels], 1e-12)))

    search = GridSearchCV(calib.Recalibrator(), {"method": ["temperature", "vector", "isotonic"]},
                          scoring=log_likelihood, cv=KFold(3, shuffle=True, random_state=0))
    search.fit(arrays["probs"], arrays["labels"])
    assert search.best_params_["method"] in ("temperature", "vector", "isotonic")
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))


def test_errors():
    with pytest.raises(ValueError, match="not fitted yet"):
        calib.Recalibrator().predict_proba(np.array([[0.5, 0.5]]))
    with pytest.raises(ValueError, match="option `method` = spline"):
        calib.Recalibrator("spline").fit(np.array([[0.5, 0.5], [0.2, 0.8]]), np.array([0, 1]))
    with pytest.raises(TypeError, match="option `kernel_y` does not apply"):
        calib.Recalibrator(kernel_y="sign").fit(np.array([[0.5, 0.5], [0.2, 0.8]]), np.array([0, 1]))
    with pytest.raises(AttributeError, match="no attribute 'ridge'"):
        calib.Recalibrator().ridge


def test_calib_does_not_import_scikit_learn():
    out = subprocess.run([sys.executable, "-c", "import sys, calib; calib.Recalibrator(); print('sklearn' in sys.modules)"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "False", out.stderr

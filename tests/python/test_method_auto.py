"""recalibrate fit --method auto: the cross-validated choice of a method. With as many folds as rows
(leave-one-out) the folds do not depend on the seed, so each candidate's score is computed here
independently, by a fit per left-out row through calib.recalibrate_fit and the score's definition;
the choice is the smallest, and the map is the chosen method's fit on every row."""
import json
import subprocess

import numpy as np
import pytest

import calib
from conftest import CLI, data_path, family_arrays


def loo_scores(probs, labels, methods, score):
    out = {}
    n = len(labels)
    for method in methods:
        total = 0.0
        for i in range(n):
            keep = np.arange(n) != i
            fitted = calib.recalibrate_fit(probs[keep], labels[keep], method=method)
            q = calib.recalibrate_apply(fitted, probs[i:i + 1])["probs"][0]
            total += -np.log(max(q[labels[i]], 1e-12)) if score == "log" else np.sum((q - np.eye(len(q))[labels[i]]) ** 2)
        out[method] = total / n
    return out


@pytest.mark.parametrize("m,score", [(3, "log"), (2, "brier")])
def test_leave_one_out_scores_by_their_definition(m, score):
    rng = np.random.default_rng(m)
    logits = rng.normal(size=(40, m)) * 2.5
    probs = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    labels = np.array([rng.choice(m, p=np.exp(z / 2) / np.exp(z / 2).sum()) for z in logits])
    fitted = calib.recalibrate_fit(probs, labels, method="auto", folds=40, selection_score=score)
    methods = ["temperature", "temperature-bias", "platt"] + (["beta"] if m == 2 else []) + \
        ["vector", "matrix", "dirichlet", "isotonic", "top-label-isotonic", "histogram"] + (["venn-abers"] if m == 2 else [])
    assert list(fitted.selection["candidates"]) == methods
    expected = loo_scores(probs, labels, methods, score)
    for method in methods:
        assert fitted.selection["candidates"][method] == pytest.approx(expected[method], rel=1e-9), method
    chosen = min(methods, key=lambda k: fitted.selection["candidates"][k])
    assert fitted.selection["chosen"] == chosen == fitted["method"]
    assert fitted == calib.recalibrate_fit(probs, labels, method=chosen)
    assert fitted.selection["folds"] == 40 and fitted.selection["score"] == score


def test_the_command_line_gives_the_same_choice(tmp_path):
    file, arrays = family_arrays("categorical")
    fitted = calib.recalibrate_fit(**arrays, method="auto", folds=3, cv_seed=7)
    out = tmp_path / "map.json"
    run = subprocess.run([CLI, "recalibrate", "fit", "--family", "categorical", "--input", data_path(file), "--method",
                          "auto", "--folds", "3", "--cv-seed", "7", "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["selection"] == fitted.selection
    assert json.load(open(out)) == fitted
    # Another seed, other folds: the scores move.
    other = calib.recalibrate_fit(**arrays, method="auto", folds=3, cv_seed=8)
    assert other.selection["candidates"] != fitted.selection["candidates"]


def test_a_temperature_is_found_on_a_tempered_model():
    """Labels drawn from softmax(z / 2) and predictions softmax(z), n = 3000: the one-parameter map that
    generated the miscalibration wins over the ones with more parameters."""
    rng = np.random.default_rng(12)
    z = rng.normal(size=(3000, 5)) * 3
    labels = np.array([rng.choice(5, p=np.exp(r / 2) / np.exp(r / 2).sum()) for r in z])
    fitted = calib.recalibrate_fit(z, labels, logits=True, method="auto")
    assert fitted.selection["chosen"] in ("temperature", "temperature-bias"), fitted.selection
    assert fitted["parameters"]["temperature"] == pytest.approx(2, rel=0.1)


def test_refusals():
    probs = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5], [0.1, 0.9]])
    labels = np.array([1, 0, 1, 1])
    with pytest.raises(ValueError, match="`folds` 5 with n = 4 rows: method auto needs 2 <= folds <= n"):
        calib.recalibrate_fit(probs, labels, method="auto")
    with pytest.raises(ValueError, match="option `folds` applies only with `method` auto, not vector"):
        calib.recalibrate_fit(probs, labels, method="vector", folds=3)
    with pytest.raises(ValueError, match="option `ridge` applies only with `method` matrix|dirichlet, not auto"):
        calib.recalibrate_fit(probs, labels, method="auto", ridge=1)
    with pytest.raises(ValueError, match="option `method` = auto, must be one of affine or affine-features"):
        calib.recalibrate_fit(mean=np.zeros(4), std=np.ones(4), y=np.ones(4), method="auto")
    assert calib.recalibrate_fit(probs, labels, method="temperature").selection is None


def test_candidates_restrict_the_choice_and_keep_the_simplest_first_order():
    _, arrays = family_arrays("categorical")
    every = calib.recalibrate_fit(**arrays, method="auto", folds=3)
    some = calib.recalibrate_fit(**arrays, method="auto", folds=3, candidates="matrix,vector,temperature")
    assert list(some.selection["candidates"]) == ["temperature", "vector", "matrix"]
    for method, score in some.selection["candidates"].items():
        assert score == every.selection["candidates"][method]  # the same folds, the same fits
    one = calib.recalibrate_fit(**arrays, method="auto", folds=3, candidates="histogram")
    assert one["method"] == "histogram" and list(one.selection["candidates"]) == ["histogram"]
    with pytest.raises(ValueError, match="`candidates` lists beta, which maps binary predictions \\(m = 2 classes\\)"):
        calib.recalibrate_fit(**arrays, method="auto", candidates="temperature,beta")
    with pytest.raises(ValueError, match="unknown: 'affine'"):
        calib.recalibrate_fit(**arrays, method="auto", candidates="temperature,affine")
    with pytest.raises(ValueError, match="'vector' is listed twice"):
        calib.recalibrate_fit(**arrays, method="auto", candidates="vector,vector")
    with pytest.raises(ValueError, match="option `candidates` applies only with `method` auto"):
        calib.recalibrate_fit(**arrays, method="vector", candidates="vector")


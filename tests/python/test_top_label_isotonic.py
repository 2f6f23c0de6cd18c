"""The top-label isotonic map (calib.recalibrate_fit(method="top-label-isotonic")): Gupta & Ramdas's
(2022) top-label calibration with PAV as the binary calibrator — for each class c, scikit-learn's
IsotonicRegression of 1{y = c} on p_c over the rows whose top class is c, fitted here independently
and read at new rows; the other classes' shares of the rest (proportional, each below the top
class) by their definition. Data shaped as users' are: float32 probabilities with ties, logits, headerless CSV with 1-based labels in their own file,
a class that no row predicts, rows with p = 1."""
import json
import subprocess

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

import calib
from conftest import CLI


def overconfident(rng, n, m, decimals=None):
    z = rng.normal(size=(n, m)) * 1.5
    truth = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    labels = np.array([rng.choice(m, p=t) for t in truth])
    probs = np.exp(2.5 * z) / np.exp(2.5 * z).sum(1, keepdims=True)
    if decimals is not None:
        probs = np.round(probs, decimals)
        probs /= probs.sum(1, keepdims=True)
    return probs, labels


def shares(rest_p, rest, cap):
    """The other classes' shares by their definition: min(cap, λ p_j) summing to rest, λ found by
    bisection; what the classes of p_j > 0 cannot take, split equally among those of p_j = 0."""
    positive = rest_p > 0
    if cap * positive.sum() <= rest:
        out = np.where(positive, cap, 0.0)
        out[~positive] = min(cap, (rest - cap * positive.sum()) / max((~positive).sum(), 1))
        return out
    low, high = 0.0, cap / rest_p[positive].min()
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if np.minimum(cap, mid * rest_p).sum() < rest else (low, mid)
    return np.minimum(cap, high * rest_p)


def reference(probs, labels, new):
    """The map by its definition: one scikit-learn isotonic fit per predicted class; the others share
    1 − q_c in proportion, each below q_c (the largest double below it) when q_c > 1/m, else equal."""
    m = probs.shape[1]
    top, new_top = probs.argmax(1), new.argmax(1)
    curves = {c: IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1).fit(probs[top == c, c], labels[top == c] == c)
              for c in range(m) if (top == c).any()}
    out = np.empty_like(new)
    for i, c in enumerate(new_top):
        q = curves[c].predict(new[i, c:c + 1])[0] if c in curves else new[i, c]
        even = (1 - q) / (m - 1)
        others = np.arange(m) != c
        out[i, others] = shares(new[i, others], 1 - q, max(even, np.nextafter(q, 0)) if q > even else even)
        out[i, c] = q
    return out


@pytest.mark.parametrize("m,decimals", [(3, None), (10, None), (4, 2), (2, None)])
def test_against_scikit_learn_per_predicted_class(m, decimals):
    rng = np.random.default_rng(m)
    probs, labels = overconfident(rng, 2000, m, decimals)
    probs = probs.astype(np.float32).astype(float)
    fitted = calib.recalibrate_fit(probs, labels, method="top-label-isotonic")
    assert sorted(fitted["parameters"]) == sorted([f"{v}_{k}" for k in range(m) for v in "xy"])
    new = np.vstack([overconfident(rng, 500, m, decimals)[0], probs[:50]])
    out = calib.recalibrate_apply(fitted, new)["probs"]
    np.testing.assert_allclose(out, reference(probs, labels, new), rtol=0, atol=1e-12)
    np.testing.assert_allclose(out.sum(1), 1, rtol=0, atol=1e-12)
    # The predicted class stays the only largest entry where its probability is above 1/m.
    rows = np.arange(len(new))
    top = out[rows, new.argmax(1)]
    kept = top > 1 / m
    assert kept.any() and np.all(out.argmax(1)[kept] == new.argmax(1)[kept])
    assert np.all(np.sort(out[kept], 1)[:, -2] < top[kept])
    # On its own rows the top class's probability is calibrated given the predicted class: within each
    # PAV block the mean of 1{y = c} equals the value (the fit's definition), so the top-label ECE
    # over the blocks is 0 and the overconfident inputs' is not.
    own = calib.recalibrate_apply(fitted, probs)["probs"]
    top = probs.argmax(1)
    for c in range(m):
        rows = top == c
        for value in np.unique(own[rows, c]):
            block = rows & (own[:, c] == value)
            assert np.mean(labels[block] == c) == pytest.approx(value, abs=1e-12)
    assert fitted["objective_after"] < fitted["objective_before"]


def test_logits_and_edges():
    rng = np.random.default_rng(3)
    probs, labels = overconfident(rng, 800, 3)
    logits = np.log(probs) + rng.normal(size=(800, 1)) * 20
    from_logits = calib.recalibrate_fit(logits, labels, logits=True, method="top-label-isotonic")
    soft = np.exp(logits - logits.max(1, keepdims=True))
    soft /= soft.sum(1, keepdims=True)
    np.testing.assert_allclose(calib.recalibrate_apply(from_logits, logits[:100])["probs"],
                               reference(soft, labels, soft[:100]), rtol=0, atol=1e-12)
    # A class that no row predicts keeps the identity; a row with p_c = 1 shares 1 − q_c equally.
    never = np.column_stack([probs[:, :2] + probs[:, 2:] / 2, np.zeros(800)])
    never[:, :2] /= never[:, :2].sum(1, keepdims=True)
    fitted = calib.recalibrate_fit(never, labels % 2, method="top-label-isotonic")
    assert fitted["parameters"]["x_2"] == [0, 1] and fitted["parameters"]["y_2"] == [0, 1]
    certain = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    out = calib.recalibrate_apply(fitted, certain)["probs"]
    assert out[0].tolist() == [0.0, 0.0, 1.0]
    assert out[1, 1] == out[1, 2] == pytest.approx((1 - out[1, 0]) / 2)
    with pytest.raises(ValueError, match="x_1 and y_1 have [0-9]+ and 1 values"):
        calib.recalibrate_apply(dict(fitted, parameters=dict(fitted["parameters"], y_1=[0.5])), certain)
    with pytest.raises(ValueError, match="option `objective` applies only with `method` temperature.*, not top-label-isotonic"):
        calib.recalibrate_fit(probs, labels, method="top-label-isotonic", objective="nll+mmd", **{"lambda": 1.0})


def test_the_command_line_gives_python_s_map(tmp_path):
    rng = np.random.default_rng(5)
    probs, labels = overconfident(rng, 500, 4, 2)
    np.savetxt(tmp_path / "probs.csv", probs, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "labels.csv", labels + 1, fmt="%d")
    out = tmp_path / "map.json"
    run = subprocess.run([CLI, "recalibrate", "fit", "--family", "categorical", "--input", str(tmp_path / "probs.csv"),
                          "--labels", str(tmp_path / "labels.csv"), "--one-based-labels", "--method", "top-label-isotonic",
                          "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    fitted = calib.recalibrate_fit(probs, labels + 1, one_based_labels=True, method="top-label-isotonic")
    assert json.load(open(out)) == fitted
    new = overconfident(rng, 100, 4)[0].astype(np.float32)
    np.save(tmp_path / "new.npy", new)
    applied = tmp_path / "applied.csv"
    run = subprocess.run([CLI, "recalibrate", "apply", "--map", str(out), "--input", str(tmp_path / "new.npy"),
                          "--output", str(applied)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert np.array_equal(np.loadtxt(applied, delimiter=",", skiprows=1), calib.recalibrate_apply(fitted, new)["probs"])
    model = calib.Recalibrator("top-label-isotonic").fit(probs, labels)
    np.testing.assert_array_equal(model.predict_proba(new), calib.recalibrate_apply(calib.recalibrate_fit(probs, labels, method="top-label-isotonic"), new)["probs"])

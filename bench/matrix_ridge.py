#!/usr/bin/env python3
"""Matrix and vector scaling on small validation sets: the held-out NLL of maps fitted with several
ridges (docs/recalibration.md, "The ridge of matrix scaling on small validation sets").

scikit-learn's bundled digits (1797 images, 10 classes) split 50/25/25 (seed 0) into training,
validation (449 rows: the maps are fitted there) and test (450 rows: the NLL is measured there); the
models are scikit-learn's LogisticRegression and MLPClassifier trained on the training part; the
maps take log max(p, 1e-12) of their predict_proba as calib does.

Usage: PYTHONPATH=build/python python3 bench/matrix_ridge.py   (needs python3-sklearn: make deps-bench)
"""
import warnings

import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier

import calib


def nll(p, y):
    return float(-np.mean(np.log(np.maximum(p[np.arange(len(y)), y], 1e-300))))


x, y = load_digits(return_X_y=True)
x_train, x_rest, y_train, y_rest = train_test_split(x, y, test_size=0.5, random_state=0, stratify=y)
x_val, x_test, y_val, y_test = train_test_split(x_rest, y_rest, test_size=450, random_state=0, stratify=y_rest)
models = {"logistic regression": LogisticRegression(max_iter=5000),
          "MLP": MLPClassifier(hidden_layer_sizes=(100,), max_iter=2000, random_state=0)}
print(f"validation n = {len(y_val)}, test n = {len(y_test)}; test NLL")
ridges = [1e-3, 1e-2, 1e-1, 1.0, 10.0]
print(f"{'model':22s} {'none':>8s} {'temp':>8s} {'vector':>8s} " + " ".join(f"{'matrix ' + format(r, 'g'):>13s}" for r in ridges))
for name, model in models.items():
    model.fit(x_train, y_train)
    p_val, p_test = model.predict_proba(x_val), model.predict_proba(x_test)
    row = [nll(p_test, y_test)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", calib.CalibWarning)
        for method in ("temperature", "vector"):
            m = calib.recalibrate_fit(p_val, y_val, method=method)
            row.append(nll(calib.recalibrate_apply(m, p_test)["probs"], y_test))
        for r in ridges:
            m = calib.recalibrate_fit(p_val, y_val, method="matrix", ridge=r)
            row.append(nll(calib.recalibrate_apply(m, p_test)["probs"], y_test))
    print(f"{name:22s} " + " ".join(f"{v:8.4f}" if i < 3 else f"{v:13.4f}" for i, v in enumerate(row)))
# What the fit says on the validation rows alone: with holdout=0.3 the map is judged on 30 % of them.
with warnings.catch_warnings(record=True) as said:
    warnings.simplefilter("always")
    for name, model in models.items():
        p_val = model.predict_proba(x_val)
        for method in ("temperature", "vector", "matrix"):
            said.clear()
            m = calib.recalibrate_fit(p_val, y_val, method=method, holdout=0.3)
            h = m.holdout
            print(f"{name:22s} {method:12s} held-out NLL {h['nll_before']:.4f} -> {h['nll_after']:.4f}; "
                  f"status {m['status']}; warned: {'worse than the identity' in ' '.join(map(str, (w.message for w in said)))}")

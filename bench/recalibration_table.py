#!/usr/bin/env python3
"""Every recalibration method before and after, on held-out rows (docs/recalibration.md, "Held-out
comparison"): the NLL (exact, and with probabilities clipped at 1e-12), the Brier score and the
top-label ECE (20 equal-width bins) of the maps fitted on one part of a data set, judged on another.

Data sets:
- the sample models examples/data/{lenet,resnet}.csv (10 classes, 600 rows): fitted on 300 rows
  drawn with seed 2026, judged on the other 300;
- a binary model whose miscalibration is not a temperature: p ~ Beta(2, 2), P(Y = 1 | p) = 0.6 p
  below 1/2 and 0.3 + 1.4 (p - 1/2) above, float32, seed 2026; 10 000 rows fitted, 10 000 judged;
- real models trained with scikit-learn: Gaussian naive Bayes on the breast-cancer data (569 rows,
  binary; naive Bayes is the distortion beta calibration was designed for) and an MLP on the digits
  (1797 images, 10 classes), each split 50/25/25 (seed 0, stratified) into training, fitting and
  judging rows.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/recalibration_table.py   (needs python3-sklearn)
"""
import os
import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neural_network import MLPClassifier

import calib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
METHODS = ("temperature", "temperature-bias", "platt", "beta", "vector", "matrix", "dirichlet", "isotonic",
           "top-label-isotonic", "histogram", "venn-abers", "auto")


def scores(q, y):
    """NLL, NLL clipped at 1e-12, Brier (Σ_k (q_k − 1{y = k})², and (q₁ − y)² for two classes), top-label ECE
    (20 bins), accuracy."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an isotonic map's zeros: nll = inf, as reported
        exact = calib.metrics(q, y)
    clipped = calib.metrics(q, y, nll_clip=1e-12)
    onehot = np.eye(q.shape[1])[y]
    brier = float(np.mean(((q - onehot) ** 2).sum(1))) / (2 if q.shape[1] == 2 else 1)
    return exact["nll"], clipped["nll"], brier, exact["ece_top_label"], exact["accuracy"]


def rows(name, fit_p, fit_y, test_p, test_y):
    out = [(name, "none") + scores(test_p, test_y)]
    for method in METHODS:
        if method in ("beta", "venn-abers") and fit_p.shape[1] != 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a fit that did not converge: its status goes in the table
            fitted = calib.recalibrate_fit(fit_p, fit_y, method=method)
        label = method if method != "auto" else "auto (chose %s)" % fitted["method"]
        if fitted.get("status", "converged") not in ("converged", "line_search_failed"):
            label += " (%s)" % fitted["status"]
        out.append((name, label) + scores(calib.recalibrate_apply(fitted, test_p)["probs"], test_y))
    return out


def sample_model(name):
    table = np.loadtxt(os.path.join(ROOT, "examples", "data", name + ".csv"), delimiter=",", skiprows=1)
    p, y = table[:, :-1], table[:, -1].astype(int)
    order = np.random.default_rng(2026).permutation(len(y))
    fit, test = order[:300], order[300:]
    return rows(name, p[fit], y[fit], p[test], y[test])


def binary_synthetic():
    rng = np.random.default_rng(2026)
    p = rng.beta(2, 2, 20000).astype(np.float32).astype(float)
    truth = np.where(p < 0.5, 0.6 * p, 0.3 + 1.4 * (p - 0.5))
    y = (rng.uniform(size=p.size) < truth).astype(int)
    probs = np.column_stack([1 - p, p])
    return rows("binary Beta(2, 2)", probs[:10000], y[:10000], probs[10000:], y[10000:])


def trained(name, data, model):
    x, y = data(return_X_y=True)
    x_train, x_rest, y_train, y_rest = train_test_split(x, y, test_size=0.5, random_state=0, stratify=y)
    x_fit, x_test, y_fit, y_test = train_test_split(x_rest, y_rest, test_size=0.5, random_state=0, stratify=y_rest)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(x_train, y_train)
    return rows(name, model.predict_proba(x_fit), y_fit, model.predict_proba(x_test), y_test)


def main():
    table = sample_model("lenet") + sample_model("resnet") + binary_synthetic()
    table += trained("naive Bayes, breast cancer", load_breast_cancer, GaussianNB())
    table += trained("MLP, digits", load_digits, MLPClassifier(hidden_layer_sizes=(32,), max_iter=300, random_state=0))
    print("| data | map | NLL | NLL (clip 1e-12) | Brier | ECE | accuracy |")
    print("|---|---|---|---|---|---|---|")
    for name, label, nll, clipped, brier, ece, accuracy in table:
        print("| %s | %s | %.4f | %.4f | %.4f | %.4f | %.3f |" % (name, label, nll, clipped, brier, ece, accuracy))


if __name__ == "__main__":
    main()

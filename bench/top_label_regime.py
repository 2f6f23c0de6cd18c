#!/usr/bin/env python3
"""Top-label isotonic recalibration in its regime, many rows per class (docs/recalibration.md,
"Top-label isotonic needs rows per class"): a 10-class model overconfident by a temperature of 2.5
(true logits z ~ N(0, 1.5²) per class, labels drawn from softmax(z), predictions softmax(2.5 z); seed 1),
fitted on 3 000 and on 30 000 rows and judged on 20 000 others. For each map: the top-label ECE (20
equal-width bins), the share of held-out rows whose top class the map changes, and the NLL.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/top_label_regime.py   (about 10 s)
"""
import warnings

import numpy as np

import calib


def overconfident(rng, n, m):
    z = rng.normal(size=(n, m)) * 1.5
    truth = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    labels = np.array([rng.choice(m, p=t) for t in truth])
    probs = np.exp(2.5 * z) / np.exp(2.5 * z).sum(1, keepdims=True)
    return probs, labels


def main():
    warnings.simplefilter("ignore")  # an isotonic map's zeros: its exact NLL is inf; the table clips
    print("| fitting rows | map | top-label ECE | top class changed | NLL (clip 1e-12) |")
    print("|---|---|---|---|---|")
    for n in (3000, 30000):
        rng = np.random.default_rng(1)
        fit_p, fit_y = overconfident(rng, n, 10)
        test_p, test_y = overconfident(rng, 20000, 10)
        top = test_p.argmax(1)
        print("| %d | none | %.4f | 0 | %.4f |" % (n, calib.metrics(test_p, test_y)["ece_top_label"],
                                                  calib.metrics(test_p, test_y, nll_clip=1e-12)["nll"]))
        for method in ("top-label-isotonic", "isotonic", "temperature"):
            q = calib.recalibrate_apply(calib.recalibrate_fit(fit_p, fit_y, method=method), test_p)["probs"]
            print("| %d | %s | %.4f | %.2f %% | %.4f |" % (n, method, calib.metrics(q, test_y)["ece_top_label"],
                                                         100 * np.mean(q.argmax(1) != top),
                                                         calib.metrics(q, test_y, nll_clip=1e-12)["nll"]))


if __name__ == "__main__":
    main()

"""The squared-CE study's population values (apps/study-squared-ce/run.py; docs/squared_ce.md, "Which
estimator to trust"): the binned conditional expectation against the closed forms of two classes, the
order CCE2^2 >= class-wise, top-label that every model obeys, zero for a calibrated model; and the
study's quick run end to end."""

import importlib.util
import json
import os

import numpy as np
import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("study", os.path.join(ROOT, "apps", "study-squared-ce", "run.py"))
study = importlib.util.module_from_spec(spec)
spec.loader.exec_module(study)


def test_two_classes_match_their_closed_forms():
    # m = 2: max P and P_1 determine P, so every notion is a function of E(P_1 - q_1)^2 — top-label
    # it, class-wise and canonical twice it; the binned values must find that without knowing it.
    model = (2, 1.5, 1.0, 1.7)
    size = 100_000
    values, _ = study.population(model, size, seed=3, bins=316)
    probs, q, _ = study.draw(np.random.default_rng(3), size, model)
    exact = float(((probs[:, 0] - q[:, 0]) ** 2).mean())
    assert values["top-label"] == pytest.approx(exact, rel=1e-3)
    assert values["class-wise"] == pytest.approx(2 * exact, rel=1e-3)
    assert values["canonical"] == pytest.approx(2 * exact, rel=1e-12)


@pytest.mark.parametrize("setting", list(study.SETTINGS))
def test_population_values_are_ordered(setting):
    values, shape = study.population(setting, 20_000, seed=5, bins=141)
    if study.SETTINGS[setting][3] == 1:  # beta = 1: calibrated, every notion is exactly 0
        assert values == {"canonical": 0.0, "top-label": 0.0, "class-wise": 0.0}
    else:
        assert values["canonical"] >= values["class-wise"] > 0
        assert values["canonical"] >= values["top-label"] > 0
        assert shape["confidence"] > shape["accuracy"]  # over-confident


def test_quick_run(tmp_path):
    path = study.run(str(tmp_path), quick=True)
    rows = [json.loads(line) for line in open(path)]
    cells = {(r["setting"], r["notion"], r["estimator"]) for r in rows}
    expected = {(s, notion, e) for s, _, _, notions in study.plan(True) for notion in notions
                for e in study.ESTIMATORS if study.applies(e, notion)}
    assert cells == expected
    assert all(np.isfinite(r["estimate"]) and r["seed"] and r["calib"] for r in rows)
    again = study.run(str(tmp_path), quick=True)  # recorded replicates are not recomputed
    assert sum(1 for _ in open(again)) == len(rows)

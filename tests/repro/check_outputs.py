"""Checks the outputs of one reproduction app run (tests/repro/run.sh):
    python3 check_outputs.py APP DIR
Every CSV must be well-formed and have a JSON sidecar with the documented keys; the files each app
documents must exist with the expected number of rows. Prints one line per problem; exit 1 if any."""
import csv
import glob
import json
import math
import os
import sys

app, directory = sys.argv[1], sys.argv[2]
problems = []

SIDECAR_KEYS = ["app", "experiment", "cell", "seed", "reps", "quick", "parameters", "threads",
                "wall_time_seconds", "calib_version", "git_revision", "compiler", "eigen_version",
                "boost_version", "command_line", "rows", "fingerprint"]

# Files each app must write (name -> expected data rows, or None for "at least one").
EXPECTED = {
    "repro-neurips2019": {"M1": 40, "M2": 40, "M3": 40, "truth_M1": 20, "truth_M2": 20, "truth_M3": 20,
                          "estimates": 12, "test_errors": 3 * 6 * 101, "tests_published": 3 * 6 * 3},
    "repro-iclr2021-synthetic": {"truth_d1": 10, "truth_d10": 10, "cme_locations_d1": 10,
                                 "cme_locations_d10": 10, "calibrated_d1_n4": 20, "uncalibrated_d10_n64": 20,
                                 "calibrated_d10_n16_times": 20, "cme_study_d1": 2 * 3, "cme_study_d10": 2 * 3,
                                 "estimators": 2 * 2 * 3 * 4, "tests": 2 * 2 * 3 * 6},
    "repro-iclr2021-ols": {"experiment": 1, "repetitions": 20, "summary": 4, "ols_train": 100,
                           "ols_validation": 50, "ols_curves": 201, "quantile_curve": 101},
    # --quick: 3 networks + the ensemble, iterations 0, 10, ..., 300 (31), 2 sets.
    "repro-iclr2021-friedman": {"training": 31 * 4 * 2, "summary": 31 * 2, "claims": 6 * 2},
    # levels: 2 designs x 6 sizes x 10 tests x 3 alphas; cme: 27 (n, J) cells of each of 2 designs and 24
    # of the binary design, x 2 references x 3 alphas.
    "repro-validity": {"levels_categorical_n8": 40, "levels_normal_n256": 40, "cme_categorical_n60": 4 * 40,
                       "cme_normal_n1000": 8 * 40, "cme_binary_n200": 3 * 40, "cme_binary_n5000": 6 * 40,
                       "levels_summary": 2 * 6 * 10 * 3, "smallest_n": 2 * 10, "cme_summary": (2 * 27 + 24) * 2 * 3},
    # --quick: 3 replicates; 2 families x 6 designs x 3 sizes; 17 tests x 3 alphas each.
    "repro-arena": {"arena_binary_calibrated_n50": 3, "arena_categorical_feature_n1000_times": 3 * 17,
                    "arena_summary": 2 * 6 * 3 * 17 * 3, "arena_times": 2 * 3 * 17},
    # 200 theta values; --quick: 4 replicates x 8 (notion, estimator) cases.
    "repro-gruber-bach": {"risk": 200, "risk_argmin": 4, "truth": 2, "estimates": 4 * 8, "estimates_summary": 8,
                          "runtime_times": 8},
    # --quick: 3 replicates; regression 9 methods, classification 9; replicate 0's curves on 81 x values.
    "repro-marx": {"regression": 3 * 9, "regression_base": 3, "regression_times": 3 * 9, "regression_summary": 9,
                   "regression_curves": 81, "classification": 3 * 9, "classification_kernels": 3,
                   "classification_times": 3 * 9, "classification_summary": 9},
}


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def check_csv(path):
    name = os.path.basename(path)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or not rows[0] or any(not c for c in rows[0]):
        problems.append("%s: no header or an empty column name" % name)
        return 0
    header = rows[0]
    if len(set(header)) != len(header):
        problems.append("%s: duplicate column names" % name)
    for k, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            problems.append("%s: line %d has %d cells, the header %d" % (name, k, len(row), len(header)))
            return len(rows) - 1
    for c, column in enumerate(header):
        values = [number(r[c]) for r in rows[1:]]
        numeric = sum(v is not None for v in values)
        if 0 < numeric < len(values):
            problems.append("%s: column %s mixes numbers and text" % (name, column))
        if column.startswith("p_") or column in ("error", "rejection_rate", "published_error"):
            for v in values:
                if v is None or not (math.isnan(v) or 0 <= v <= 1):
                    problems.append("%s: column %s has a value outside [0, 1]: %r" % (name, column, v))
                    break
        if "time" in column and column != "wall_time":
            for v in values:
                if v is None or not (math.isnan(v) or v >= 0):
                    problems.append("%s: column %s has a negative or non-numeric time: %r" % (name, column, v))
                    break
    return len(rows) - 1


csvs = sorted(glob.glob(os.path.join(directory, "*.csv")))
if not csvs:
    problems.append("no CSV written in %s" % directory)
for path in csvs:
    rows = check_csv(path)
    meta_path = path[:-4] + ".meta.json"
    try:
        with open(meta_path) as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("%s: sidecar missing or not JSON: %s" % (os.path.basename(meta_path), e))
        continue
    missing = [k for k in SIDECAR_KEYS if k not in meta]
    if missing:
        problems.append("%s: sidecar lacks %s" % (os.path.basename(meta_path), missing))
        continue
    if meta["app"] != app or meta["rows"] != rows or meta["quick"] is not True:
        problems.append("%s: sidecar app/rows/quick = %r/%r/%r, expected %s/%d/true"
                        % (os.path.basename(meta_path), meta["app"], meta["rows"], meta["quick"], app, rows))

names = {os.path.basename(p)[:-4] for p in csvs}
for name, expected_rows in EXPECTED.get(app, {}).items():
    if name not in names:
        problems.append("%s.csv missing" % name)
        continue
    with open(os.path.join(directory, name + ".csv")) as f:
        rows = sum(1 for _ in f) - 1
    if expected_rows is not None and rows != expected_rows:
        problems.append("%s.csv: %d rows, expected %d" % (name, rows, expected_rows))
    if expected_rows is None and rows < 1:
        problems.append("%s.csv: no rows" % name)
# Gruber & Bach Fig. 1: paired within replicates, theta = 1 beats every theta outside [0.5, 2].
if app == "repro-gruber-bach" and "risk" in names:
    with open(os.path.join(directory, "risk.csv"), newline="") as f:
        far = [r for r in csv.DictReader(f) if not 0.5 <= float(r["theta"]) <= 2]
    if not far or any(float(r["diff_mean"]) <= 0 for r in far):
        problems.append("risk.csv: theta = 1 is not better than every theta outside [0.5, 2] (paired)")



def rows_of(name):
    with open(os.path.join(directory, name + ".csv"), newline="") as f:
        return list(csv.DictReader(f))


# repro-marx (docs/reproduction.md, "Marx, Zalouk & Ermon"): values that must hold on the --quick run.
if app == "repro-marx" and {"regression", "classification"} <= names:
    reg = rows_of("regression")
    by = lambda rows, method: [r for r in rows if r["method"] == method]
    for r in reg:
        # QCE = TV between the PIT histogram (20 bins) and the uniform: in [0, 1 - 1/20]; DCE in [0, sqrt 2].
        if not 0 <= float(r["qce"]) <= 0.95 or not 0 <= float(r["dce"]) <= math.sqrt(2):
            problems.append("regression.csv: QCE or DCE out of range: %r" % r)
    base, features = by(reg, "base"), by(reg, "features")
    # The constant-sigma forecaster is wrong in x (sd 0.2 at x = 0, 0.8 at |x| = 2): the individual MMD
    # test rejects it at the quick n_test = 800 (40 of 40 seeds at the 5% level, largest p 0.035).
    if not base or any(float(r["p_mmd_rbf"]) >= 0.05 for r in base):
        problems.append("regression.csv: the MMD test does not reject the constant-sigma forecaster in every replicate")
    # The affine-features map can make sigma grow with |x|: s1 > 0, and the held-out NLL falls (by 0.13
    # on average, per-replicate sd 0.03 over 40 seeds).
    if len(features) != len(base) or any(float(f["s1"]) <= 0 or float(f["nll"]) >= float(b["nll"])
                                         for f, b in zip(features, base)):
        problems.append("regression.csv: affine-features does not lower the held-out NLL with s1 > 0 in every replicate")
    # The penalty-method inequalities of exact minimisers of NLL + lambda MMD^2 on the recalibration
    # split: for 0 < small < large, the training NLL does not fall and the training (block) MMD^2 of the
    # fit's own kernel does not rise. They test that the fit minimises what the app computes with the
    # same kernel, lengthscales and threshold (held in 60 of 60 replicate-target pairs of 20 seeds).
    for rep in sorted({r["replicate"] for r in reg}):
        at = {r["method"]: r for r in reg if r["replicate"] == rep}
        for target, column in (("rbf", "train_mmd2_rbf"), ("sign", "train_mmd2_sign"), ("sign-q70", "train_mmd2_sign_q70")):
            chain = [at.get("features"), at.get("features-%s-small" % target), at.get("features-%s-large" % target)]
            if None in chain:
                problems.append("regression.csv: replicate %s lacks the %s fits" % (rep, target))
                continue
            nll = [float(r["train_nll"]) for r in chain]
            mmd = [float(r[column]) for r in chain]
            tol = 1e-9
            if not (nll[0] <= nll[1] + tol and nll[1] <= nll[2] + tol and mmd[0] + tol >= mmd[1] and mmd[1] + tol >= mmd[2]):
                problems.append("regression.csv: replicate %s, %s: training NLL %r / MMD^2 %r not monotone in lambda"
                                % (rep, target, nll, mmd))
    cls = rows_of("classification")
    cbase, temp, tb = by(cls, "base"), by(cls, "temperature"), by(cls, "temperature-bias")
    # Labels follow softmax(z/2 + beta) and the model is softmax(z): overconfident, so the fitted T > 1
    # (about 2), the SKCE test rejects the base model, and the held-out ECE and NLL fall with T.
    if not cbase or len(temp) != len(cbase) or any(
            float(b["p_skce"]) >= 0.05 or not 1.5 < float(t["temperature"]) < 3 or float(t["ece"]) >= float(b["ece"])
            or float(t["nll"]) >= float(b["nll"]) for b, t in zip(cbase, temp)):
        problems.append("classification.csv: base not rejected, or temperature scaling not T in (1.5, 3) with lower ECE and NLL")
    # The class-prior shift beta is beyond a temperature and within temperature + bias: the held-out
    # canonical MMD^2 is lower with the bias in every replicate (0.0017 against 0.020 over 40 seeds).
    if len(tb) != len(temp) or any(float(b["mmd2_canonical"]) >= float(t["mmd2_canonical"]) for b, t in zip(tb, temp)):
        problems.append("classification.csv: temperature + bias does not lower the canonical MMD^2 below temperature alone")

if not os.listdir(directory) or glob.glob(os.path.join(directory, "*.tmp")):
    problems.append("temporary files left in %s" % directory)

for p in problems:
    print("  %s: %s" % (app, p))
sys.exit(1 if problems else 0)

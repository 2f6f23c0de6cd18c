"""The command line and Python say the same thing about the same bad input: the same error message and
the same warning text, with options spelled for each front-end (--one-based-labels on the command line,
`one_based_labels` in Python; render_message in the library). A file's position (`p.csv: line 1,
column 1: `) and an array's (`labels[0]: `) are where each front-end says the problem is; the text after
them must be equal. A CLI warning is a calib.CalibWarning in Python."""

import json
import re
import subprocess
import warnings

import numpy as np
import pytest

import calib
from conftest import CLI, data_path, family_arrays


def for_cli(python_text):
    """A Python message as the command line writes it: `one_based_labels` -> --one-based-labels."""
    return re.sub(r"`([a-z0-9_]+)`", lambda m: "--" + m.group(1).replace("_", "-"), python_text)


def without_array_position(python_text):
    return re.sub(r"^[a-z_]+\[\d+\]: ", "", python_text)


def cli(*args):
    """Exit code and stderr (--quiet: no progress bar, for the commands that draw one)."""
    quiet = ["--quiet"] if args[0] in ("estimate", "test", "rank") else []
    out = subprocess.run([CLI, *args, *quiet], capture_output=True, text=True)
    return out.returncode, out.stderr.strip()


def python_error(call):
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    return str(info.value)


def python_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if issubclass(w.category, calib.CalibWarning)]


def assert_same_error(cli_args, call):
    code, stderr = cli(*cli_args)
    message = python_error(call)
    assert code == 2, stderr
    core = for_cli(without_array_position(message))
    assert len(core) > 20 and stderr.startswith("calib: ") and stderr.endswith(core), \
        f"\n  command line: {stderr}\n  Python:       {message}"


RNG = np.random.default_rng(7)
N, M = 400, 10
PROBS = RNG.dirichlet(np.ones(M), N)


def save(tmp_path, name, array, fmt="%.17g"):
    path = tmp_path / name
    np.savetxt(path, array, delimiter=",", fmt=fmt)
    return str(path)


def categorical_case(tmp_path, probs, labels, *flags, **reading):
    args = ["estimate", "--family", "categorical", "--input", save(tmp_path, "p.csv", probs),
            "--labels", save(tmp_path, "y.csv", labels, "%.17g"), "--estimator", "ece", *flags]
    return args, lambda: calib.ece(probs, labels, **reading)


ONE_BASED = RNG.integers(1, M, N)  # 1-based labels with the top label absent


def one_based_operations(tmp_path):
    """Every operation that reads class labels: its command line and its Python call."""
    p, y = save(tmp_path, "p.csv", PROBS), save(tmp_path, "y.csv", ONE_BASED, "%d")
    q = save(tmp_path, "q.csv", PROBS[::-1])
    data = ["--family", "categorical", "--input", p, "--labels", y]
    return {
        "estimate": (["estimate", *data, "--estimator", "ece"], lambda: calib.ece(PROBS, ONE_BASED)),
        "test": (["test", *data, "--method", "consistency", "--estimator", "ece", "--replicates", "10"],
                 lambda: calib.test(PROBS, ONE_BASED, method="consistency", estimator="ece", replicates=10)),
        "metrics": (["metrics", *data], lambda: calib.metrics(PROBS, ONE_BASED)),
        "rank": (["rank", "--family", "categorical", "--input", p, q, "--labels", y, "--estimators", "ece",
                  "--replicates", "10"],
                 lambda: calib.rank([PROBS, PROBS[::-1]], ONE_BASED, estimators="ece", replicates=10)),
        "recalibrate fit": (["recalibrate", "fit", *data, "--method", "temperature", "--out",
                             str(tmp_path / "map.json")],
                            lambda: calib.recalibrate_fit(PROBS, ONE_BASED, method="temperature")),
    }


@pytest.mark.parametrize("operation", ["estimate", "test", "metrics", "rank", "recalibrate fit"])
def test_labels_that_look_one_based_warn_alike(operation, tmp_path):
    """Read as 0-based, 1-based labels with the top label absent are all in range but label 0 never
    occurs: every operation that reads labels warns, with the same text in both front-ends."""
    args, call = one_based_operations(tmp_path)[operation]
    code, stderr = cli(*args)
    assert code == 0, stderr
    said = python_warnings(call)
    assert said and len(set(said)) == 1
    assert "label 0 never occurs among 400 observations of 10 classes" in said[0]
    expected = "calib: warning: " + str(tmp_path / "y.csv") + ": " + for_cli(said[0])
    assert stderr.splitlines() == [expected] * len(said), stderr


def test_labels_declared_one_based_or_with_a_zero_do_not_warn():
    assert python_warnings(lambda: calib.ece(PROBS, ONE_BASED, one_based_labels=True)) == []
    assert python_warnings(lambda: calib.ece(PROBS, ONE_BASED - 1)) == []


BAD_LABELS = [
    ("labels 1..m read as 0-based", lambda: RNG.permutation(np.arange(N) % M + 1), {}),
    ("a label that is not an integer", lambda: np.r_[2.5, np.zeros(N - 1)], {}),
    ("a label 0 with one_based_labels", lambda: np.r_[0, np.ones(N - 1)], {"one_based_labels": True}),
    ("a negative label", lambda: np.r_[np.zeros(N - 1), -1], {}),
]


@pytest.mark.parametrize("case,labels,reading", BAD_LABELS, ids=[c[0] for c in BAD_LABELS])
def test_bad_labels_are_refused_alike(case, labels, reading, tmp_path):
    y = labels()
    flags = ["--one-based-labels"] if reading else []
    assert_same_error(*categorical_case(tmp_path, PROBS, y, *flags, **reading))


def logits():
    return RNG.normal(size=(N, M))


def scores_off_by(factor):
    p = PROBS.copy()
    p[3] *= factor
    return p


BAD_PROBABILITIES = [
    ("logits given as probabilities", logits, "use --logits"),
    ("unnormalised scores", lambda: scores_off_by(1.05), "--renormalize"),
    ("a row just off the simplex", lambda: scores_off_by(1 + 1e-4), "--simplex-tolerance"),
]


@pytest.mark.parametrize("case,probs,hint", BAD_PROBABILITIES, ids=[c[0] for c in BAD_PROBABILITIES])
def test_bad_probabilities_are_refused_alike(case, probs, hint, tmp_path):
    p = probs()
    args, call = categorical_case(tmp_path, p, np.arange(N) % M)
    assert_same_error(args, call)
    assert hint in cli(*args)[1]


def test_binary_targets_are_refused_alike(tmp_path):
    p = RNG.uniform(size=N)
    y = np.r_[2, np.zeros(N - 1)]
    args = ["estimate", "--family", "binary", "--input", save(tmp_path, "p.csv", p), "--labels",
            save(tmp_path, "y.csv", y), "--estimator", "ece"]
    assert_same_error(args, lambda: calib.ece(p, y))


def test_a_metric_that_is_not_finite_warns_alike(tmp_path):
    mean, std, y = np.zeros(30), np.ones(30), np.r_[np.zeros(29), 1e308]
    path = save(tmp_path, "normal.csv", np.c_[mean, std, y])
    code, stderr = cli("metrics", "--family", "normal", "--input", path)
    said = python_warnings(lambda: calib.metrics(mean=mean, std=std, y=y))
    assert code == 0 and said == ["nll = inf"]
    assert stderr == "calib: warning: nll = inf, written null (JSON has no infinity)"


def test_a_test_statistic_that_is_not_finite_warns_alike(tmp_path):
    # Constant predictions, constant labels: every block estimate is the same positive number, the
    # standard error 0, z = +inf and p = 0 (degenerate).
    probs, labels = np.tile([0.2, 0.3, 0.5], (20, 1)), np.zeros(20, dtype=int)
    path = save(tmp_path, "constant.csv", np.c_[probs, labels])
    code, stderr = cli("test", "--family", "categorical", "--input", path, "--method", "block", "--lengthscale", "1")
    said = python_warnings(lambda: calib.test(probs, labels, method="block", lengthscale=1))
    assert code == 0 and said == ["statistic = inf"]
    assert stderr == "calib: warning: statistic = inf, written null (JSON has no infinity)"
    with pytest.warns(calib.CalibWarning, match="statistic = inf"):
        result = calib.test(probs, labels, method="block", lengthscale=1)
    assert result.statistic == np.inf and result.p_value == 0 and result.details["degenerate"]


PREDS = ["--family", "categorical", "--input", data_path("preds.csv")]
OPTIONS = [
    ("a value out of range", ["estimate", "--estimator", "skce-block", "--block-size", "1"],
     lambda p, y: calib.estimate(p, y, estimator="skce-block", block_size=1)),
    ("a test's value out of range", ["test", "--method", "bootstrap", "--replicates", "0"],
     lambda p, y: calib.test(p, y, method="bootstrap", replicates=0)),
    ("an option of another estimator", ["estimate", "--estimator", "ece", "--bins", "3"],
     lambda p, y: calib.estimate(p, y, estimator="ece", bins=3)),
    ("an option whose condition does not hold", ["estimate", "--estimator", "ckce", "--features", "3"],
     lambda p, y: calib.estimate(p, y, estimator="ckce", features=3)),
    ("an option of the kernel that does not apply", ["test", "--method", "block", "--block-size", "2",
                                                      "--lengthscale", "0.5", "--median-subsample", "10"],
     lambda p, y: calib.test(p, y, method="block", block_size=2, lengthscale=0.5, median_subsample=10)),
    # calib rank (the registry's ComparisonSetup); PREDS gives the first model, the second follows.
    ("rank: replicates out of range", ["rank", data_path("preds.csv"), "--replicates", "0"],
     lambda p, y: calib.rank([p, p], y, replicates=0)),
    ("rank: an unknown estimator", ["rank", data_path("preds.csv"), "--estimators", "ckce,skce"],
     lambda p, y: calib.rank([p, p], y, estimators="ckce,skce")),
    ("rank: a level out of range", ["rank", data_path("preds.csv"), "--level", "1.5"],
     lambda p, y: calib.rank([p, p], y, level=1.5)),
    ("rank: a CKCE option without the CKCE", ["rank", data_path("preds.csv"), "--estimators", "ece", "--lambda", "1"],
     lambda p, y: calib.rank([p, p], y, estimators="ece", **{"lambda": 1})),
    # The tests of binary predictions on ten classes, and their options.
    ("a binary test on ten classes", ["test", "--method", "spiegelhalter"],
     lambda p, y: calib.test(p, y, method="spiegelhalter")),
    ("Hosmer-Lemeshow with one group", ["test", "--method", "hosmer-lemeshow", "--groups", "1"],
     lambda p, y: calib.test(p, y, method="hosmer-lemeshow", groups=1)),
    ("Hosmer-Lemeshow with the kernel's options", ["test", "--method", "hosmer-lemeshow", "--lengthscale", "1"],
     lambda p, y: calib.test(p, y, method="hosmer-lemeshow", lengthscale=1)),
    # The event of class predictions, and the loess's span.
    ("an event of a class that does not exist", ["test", "--method", "cox", "--event", "class:10"],
     lambda p, y: calib.test(p, y, method="cox", event="class:10")),
    ("an event that is not one", ["test", "--method", "ks", "--event", "bottom-label"],
     lambda p, y: calib.test(p, y, method="ks", event="bottom-label")),
    ("class-wise for an estimate", ["estimate", "--estimator", "smooth-ece", "--event", "class-wise"],
     lambda p, y: calib.estimate(p, y, estimator="smooth-ece", event="class-wise")),
    ("a span out of range", ["estimate", "--estimator", "ici", "--event", "top-label", "--span", "1.5"],
     lambda p, y: calib.estimate(p, y, estimator="ici", event="top-label", span=1.5)),
    ("the Brier score alone with a ce-kde option", ["estimate", "--estimator", "brier", "--score-only", "--folds", "3"],
     lambda p, y: calib.estimate(p, y, estimator="brier", score_only=True, folds=3)),
]


@pytest.mark.parametrize("case,args,call", OPTIONS, ids=[c[0] for c in OPTIONS])
def test_bad_options_are_refused_alike(case, args, call, categorical):
    probs, labels = categorical
    assert_same_error([args[0], *PREDS, *args[1:]], lambda: call(probs, labels))


def test_cme_outside_the_range_of_two_classes_is_refused_alike():
    # 500 binary predictions: J = 2 locations leave 498 observations, J^2 = 4 > 0.002 * 498 (docs/tests.md).
    table = np.loadtxt(data_path("scores.csv"), delimiter=",", skiprows=1)
    args = ["test", "--family", "binary", "--input", data_path("scores.csv"), "--method", "cme", "--locations", "2"]
    call = lambda: calib.test(table[:, 0], table[:, 1].astype(int), family="binary", method="cme", locations=2)
    assert_same_error(args, call)
    assert "for predictions of two classes (J^2 <= 0.002 n" in python_error(call)


# Recalibration fits: the registry's RecalibrationSetup gives both front-ends their options and rules.
FITS = [
    ("a method of the other family", "categorical", ["--method", "affine"], {"method": "affine"}),
    ("nll+mmd without lambda", "categorical", ["--method", "vector", "--objective", "nll+mmd"],
     {"method": "vector", "objective": "nll+mmd"}),
    ("a notion of the other family", "normal", ["--method", "affine", "--objective", "nll+mmd", "--lambda", "1",
                                                "--notion", "canonical"],
     {"method": "affine", "objective": "nll+mmd", "lambda_": 1, "notion": "canonical"}),
    ("too many Monte-Carlo samples", "normal", ["--method", "affine", "--objective", "nll+mmd", "--lambda", "1",
                                                "--marginalisation", "mc-paired", "--samples", "1000001"],
     {"method": "affine", "objective": "nll+mmd", "lambda_": 1, "marginalisation": "mc-paired",
      "samples": 1000001}),
    ("a seed the map file cannot hold", "normal", ["--method", "affine", "--objective", "nll+mmd", "--lambda", "1",
                                                   "--marginalisation", "mc-paired", "--mc-seed", "1000000000000001"],
     {"method": "affine", "objective": "nll+mmd", "lambda_": 1, "marginalisation": "mc-paired",
      "mc_seed": 1000000000000001}),
    ("Monte-Carlo samples with the sign kernel", "normal",
     ["--method", "affine", "--objective", "nll+mmd", "--lambda", "1", "--kernel-y", "sign", "--marginalisation",
      "mc-paired"],
     {"method": "affine", "objective": "nll+mmd", "lambda_": 1, "kernel_y": "sign", "marginalisation": "mc-paired"}),
    ("an option of the normal maps for a categorical one", "categorical", ["--method", "temperature", "--kernel-y",
                                                                           "sign"],
     {"method": "temperature", "kernel_y": "sign"}),
    ("a ridge without matrix scaling", "categorical", ["--method", "vector", "--ridge", "1"],
     {"method": "vector", "ridge": 1}),
    ("features the method does not take", "normal", ["--method", "affine", "--features", data_path("gauss.csv")],
     {"method": "affine", "features": np.zeros((300, 1))}),
    ("affine-features without features", "normal", ["--method", "affine-features"], {"method": "affine-features"}),
    ("a probability floor out of range", "categorical", ["--method", "temperature", "--probability-floor", "1"],
     {"method": "temperature", "probability_floor": 1}),
]


@pytest.mark.parametrize("case,family,args,options", FITS, ids=[c[0] for c in FITS])
def test_bad_recalibration_options_are_refused_alike(case, family, args, options, categorical, tmp_path):
    if family == "categorical":
        probs, labels = categorical
        data, arrays = data_path("preds.csv"), {"probs": probs, "labels": labels}
    else:
        table = np.loadtxt(data_path("gauss.csv"), delimiter=",", skiprows=1)
        data, arrays = data_path("gauss.csv"), {"mean": table[:, 0], "std": table[:, 1], "y": table[:, 2]}
    cli_args = ["recalibrate", "fit", "--family", family, "--input", data, *args, "--out", str(tmp_path / "m.json")]
    assert_same_error(cli_args, lambda: calib.recalibrate_fit(**arrays, **options))
    assert not (tmp_path / "m.json").exists()


# Metrics: the registry's MetricsSetup gives both front-ends their options and rules.
METRICS = [
    ("bins out of range", "categorical", ["--bins", "0"], {"bins": 0}),
    ("a univariate option for class predictions", "categorical", ["--threshold", "0.5"], {"threshold": 0.5}),
    ("an unknown QCE binning", "normal", ["--qce-binning", "ceil"], {"qce_binning": "ceil"}),
    ("a threshold that is not a number", "normal", ["--threshold", "high"], {"threshold": "high"}),
    ("an LCE lengthscale without features", "normal", ["--lce-lengthscale", "0.5"], {"lce_lengthscale": 0.5}),
    ("a multivariate family", "mvnormal-diag", [], {}),
]


@pytest.mark.parametrize("case,family,args,options", METRICS, ids=[c[0] for c in METRICS])
def test_bad_metrics_options_are_refused_alike(case, family, args, options):
    file, arrays = family_arrays(family)
    assert_same_error(["metrics", "--family", family, "--input", data_path(file), *args],
                      lambda: calib.metrics(family=family, **arrays, **options))


def test_metrics_features_with_the_wrong_rows_are_refused_alike(tmp_path):
    file, arrays = family_arrays("normal")
    x = np.zeros((3, 2))
    path = save(tmp_path, "x.csv", x)
    code, stderr = cli("metrics", "--family", "normal", "--input", data_path(file), "--features", path)
    message = python_error(lambda: calib.metrics(**arrays, features=x))
    assert code == 2 and message == "`features` has 3 rows, but the input has n = 1500 observations; give one row " \
                                    "per observation"
    assert stderr == "calib: --features " + path + " has 3 rows, but the input has n = 1500 observations; give one " \
                     "row per observation"


SQUARED_CE_SEARCHES = [
    ("a Kronecker ridge below the rounding floor", ["--estimator", "ce-kkr", "--grid", "1e-1,1e-17"],
     dict(estimator="ce-kkr", grid="1e-1,1e-17"), "smallest that its fits resolve"),
    ("a fixed ridge below the rounding floor", ["--estimator", "ce-kkr", "--train", "TRAIN", "--ridge-constant", "1e-17"],
     dict(estimator="ce-kkr", ridge_constant=1e-17), "below the rounding floor of the fit"),
    ("an unsettled canonical choice", ["--estimator", "ce-ukkr", "--notion", "canonical"],
     dict(estimator="ce-ukkr", notion="canonical"), "the data do not settle the ridge constant"),
    ("a canonical estimate below its top-label bound", ["--estimator", "ce-kkr", "--notion", "canonical"],
     dict(estimator="ce-kkr", notion="canonical"), "is below the top-label estimate"),
]


@pytest.mark.parametrize("case,args,options,text", SQUARED_CE_SEARCHES, ids=[c[0] for c in SQUARED_CE_SEARCHES])
def test_squared_ce_search_warnings_alike(case, args, options, text, tmp_path):
    """The search's warnings (docs/squared_ce.md): the same text on stderr and as CalibWarning, and the
    same facts in the JSON's and the Python details' `search`."""
    probs, labels = np.load(data_path("preds.npy")), np.load(data_path("labels.npy"))
    train = save(tmp_path, "train.csv", np.c_[probs[:400], labels[:400]])
    if "TRAIN" in args:
        args = [train if a == "TRAIN" else a for a in args]
        options = dict(options, train=(probs[:400], labels[:400]))
    out = subprocess.run([CLI, "estimate", "--family", "categorical", "--input", data_path("preds.npy"),
                          "--labels", data_path("labels.npy"), "--quiet", *args], capture_output=True, text=True)
    said = python_warnings(lambda: calib.estimate(probs, labels, **options))
    printed = [line.removeprefix("calib: warning: ") for line in out.stderr.splitlines()]
    assert out.returncode == 0 and any(text in w for w in said), (out.stderr, said)
    assert printed == [for_cli(w) for w in said]
    if "--train" not in args:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", calib.CalibWarning)
            assert json.loads(out.stdout)["search"] == calib.estimate(probs, labels, **options).details["search"]


def test_bad_presets_are_refused_alike():
    """An unknown preset and a preset of class predictions given normal forecasts: the same words from
    estimate/test (--preset, preset=) and from reproduce, on both front-ends."""
    gauss = ["--family", "normal", "--input", data_path("gauss.csv")]
    _, normal = family_arrays("normal")
    _, classes = family_arrays("categorical")
    assert_same_error(["test", *PREDS, "--method", "block", "--preset", "nips"],
                      lambda: calib.test(**classes, method="block", preset="nips"))
    assert_same_error(["test", *gauss, "--method", "block", "--preset", "neurips2019"],
                      lambda: calib.test(**normal, method="block", preset="neurips2019"))
    assert_same_error(["reproduce", "neurips2019", *gauss],
                      lambda: calib.reproduce("neurips2019", **normal))
    assert_same_error(["reproduce", "nips", *PREDS], lambda: calib.reproduce("nips", **classes))


# Reading options: the registry's ReadingSetup gives both front-ends the options of each family and their rules.
READING = [
    ("a tolerance out of range", "categorical", ["--simplex-tolerance", "1"], {"simplex_tolerance": 1}),
    ("a tolerance that is not a number", "categorical", ["--simplex-tolerance", "tight"], {"simplex_tolerance": "tight"}),
    ("renormalize with logits", "categorical", ["--logits", "--renormalize"], {"logits": True, "renormalize": True}),
    ("logits of normal forecasts", "normal", ["--logits"], {"logits": True}),
    ("1-based labels of binary predictions", "binary", ["--one-based-labels"], {"one_based_labels": True}),
    ("a tolerance for Laplace forecasts", "laplace", ["--simplex-tolerance", "0.1"], {"simplex_tolerance": 0.1}),
]


@pytest.mark.parametrize("case,family,args,options", READING, ids=[c[0] for c in READING])
def test_bad_reading_options_are_refused_alike(case, family, args, options):
    file, arrays = family_arrays(family)
    assert_same_error(["estimate", "--family", family, "--input", data_path(file), "--estimator", "skce-block", *args],
                      lambda: calib.estimate(family=family, estimator="skce-block", **arrays, **options))


def test_a_zero_simplex_tolerance_is_taken_alike(tmp_path):
    """0 is in [0, 1) on both front-ends: exact sums are then required (float rows are usually off by an ulp)."""
    p = np.array([[0.5, 0.5], [0.25, 0.75], [1.0, 0.0]])
    y = np.array([0, 1, 1])
    args, call = categorical_case(tmp_path, p, y, "--simplex-tolerance", "0", simplex_tolerance=0)
    code, stderr = cli(*args)
    assert code == 0, stderr
    assert call() == pytest.approx(calib.ece(p, y))


# The commands' own options (CommandSetup): threads everywhere, the test's alpha; and methods or commands
# of class predictions given other data (check_classes).
COMMANDS = [
    ("threads out of range", ["estimate", "--estimator", "ece", "--threads", "-1"],
     lambda p, y: calib.estimate(p, y, estimator="ece", threads=-1)),
    ("threads not an integer", ["rank", "--input", data_path("preds.csv"), "--threads", "1.5"],
     lambda p, y: calib.rank([p, p], y, threads=1.5)),
    ("alpha out of range", ["test", "--method", "block", "--alpha", "1.5"],
     lambda p, y: calib.test(p, y, method="block", alpha=1.5)),
    ("alpha not a number", ["test", "--method", "block", "--alpha", "often"],
     lambda p, y: calib.test(p, y, method="block", alpha="often")),
    ("metrics: threads out of range", ["metrics", "--threads", "65"], lambda p, y: calib.metrics(p, y, threads=65)),
]


@pytest.mark.parametrize("case,args,call", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_bad_command_options_are_refused_alike(case, args, call, categorical):
    probs, labels = categorical
    assert_same_error([args[0], *PREDS, *args[1:]], lambda: call(probs, labels))


REPRODUCE = [
    ("threads out of range", ["--threads", "-1"], {"threads": -1}),
    ("a tolerance out of range", ["--simplex-tolerance", "1"], {"simplex_tolerance": 1}),
    ("renormalize with logits", ["--logits", "--renormalize"], {"logits": True, "renormalize": True}),
]


@pytest.mark.parametrize("case,args,options", REPRODUCE, ids=[c[0] for c in REPRODUCE])
def test_bad_reproduce_options_are_refused_alike(case, args, options, categorical):
    """calib reproduce PRESET takes the command's and the reading options: refused in the same words."""
    probs, labels = categorical
    assert_same_error(["reproduce", "neurips2019", "--input", data_path("preds.csv"), *args],
                      lambda: calib.reproduce("neurips2019", probs, labels, **options))


def test_class_methods_on_other_data_are_refused_alike():
    gauss = ["--family", "normal", "--input", data_path("gauss.csv")]
    _, normal = family_arrays("normal")
    assert_same_error(["estimate", *gauss, "--estimator", "ece"], lambda: calib.estimate(**normal, estimator="ece"))
    assert_same_error(["test", *gauss, "--method", "consistency", "--estimator", "ece"],
                      lambda: calib.test(**normal, method="consistency", estimator="ece"))
    assert_same_error(["test", *gauss, "--method", "citl"], lambda: calib.test(**normal, method="citl"))
    assert_same_error(["rank", "--family", "normal", "--input", data_path("gauss.csv"), data_path("gauss.csv")],
                      lambda: calib.rank([normal["mean"], normal["mean"]], normal["y"], family="normal"))


def test_recalibration_map_features_are_refused_alike(tmp_path):
    """apply: features given to a map that takes none, and none given to one that needs them."""
    probs, labels = np.load(data_path("preds.npy")), np.load(data_path("labels.npy"))
    fitted = calib.recalibrate_fit(probs, labels, method="temperature")
    path = tmp_path / "t.json"
    path.write_text(json.dumps(fitted))
    x = save(tmp_path, "x.csv", np.zeros(len(probs)))
    assert_same_error(["recalibrate", "apply", "--map", str(path), "--input", data_path("preds.npy"), "--features", x,
                       "--output", str(tmp_path / "out.csv")],
                      lambda: calib.recalibrate_apply(fitted, probs, features=np.zeros(len(probs))))
    table = np.loadtxt(data_path("gauss.csv"), delimiter=",", skiprows=1)
    x = save(tmp_path, "x.csv", table[:, 0])
    hetero = calib.recalibrate_fit(mean=table[:, 0], std=table[:, 1], y=table[:, 2], method="affine-features",
                                   features=table[:, 0])
    path.write_text(json.dumps(hetero))
    assert_same_error(["recalibrate", "apply", "--map", str(path), "--input", data_path("gauss.csv"),
                       "--output", str(tmp_path / "out.csv")],
                      lambda: calib.recalibrate_apply(hetero, mean=table[:, 0], std=table[:, 1]))


def test_a_ranking_of_one_model_is_refused_alike(categorical):
    probs, labels = categorical
    assert_same_error(["rank", *PREDS], lambda: calib.rank([probs], labels))


@pytest.mark.parametrize("case,probs,hint", BAD_PROBABILITIES[1:], ids=[c[0] for c in BAD_PROBABILITIES[1:]])
def test_apply_refuses_probabilities_off_the_simplex_alike(case, probs, hint, tmp_path):
    """recalibrate apply checks a map's probabilities as every reader does, in the same words."""
    fitted = calib.recalibrate_fit(PROBS, np.arange(N) % M, method="temperature")
    path = tmp_path / "t.json"
    path.write_text(json.dumps(fitted))
    p = probs()
    args = ["recalibrate", "apply", "--map", str(path), "--input", save(tmp_path, "p.csv", p),
            "--output", str(tmp_path / "out.csv")]
    assert_same_error(args, lambda: calib.recalibrate_apply(fitted, p))
    assert hint in cli(*args)[1]


def test_fit_warnings_alike(tmp_path):
    """A fit stopped by max_iterations warns in the same words, and both records say so."""
    labels = np.arange(N) % M
    path = save(tmp_path, "p.csv", np.c_[PROBS, labels])
    out = subprocess.run([CLI, "recalibrate", "fit", "--family", "categorical", "--input", path, "--method", "vector",
                          "--max-iterations", "2", "--out", str(tmp_path / "m.json")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    said = python_warnings(lambda: calib.recalibrate_fit(PROBS, labels, method="vector", max_iterations=2))
    assert len(said) == 1 and out.stderr.strip() == "calib: warning: " + for_cli(said[0])
    assert "max_iterations" in said[0] and json.loads(out.stdout)["warnings"] == [for_cli(said[0])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", calib.CalibWarning)
        fitted = calib.recalibrate_fit(PROBS, labels, method="vector", max_iterations=2)
    assert fitted["status"] == "max_iterations" and fitted.warnings == said

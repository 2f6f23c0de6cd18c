"""Python and the command line give the same numbers on the same data: every estimator and every test
method (categorical, and each other family for an estimator and a test), bitwise for every field the
two outputs share (estimates, statistics, p-values with the same seed, the options and the kernel as
used). The command line's options are written from the Python keyword arguments (block_size="sqrt" as
--block-size sqrt), so the correspondence of names and values is checked too."""

import re

import numpy as np
import pytest

import calib
from conftest import data_path, family_arrays, run_cli


def cli_args(options):
    args = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append(flag)
        else:
            args += [flag, str(value)]
    return args


# Fields that depend on the moment: times, and the automatic memory budget (half of the memory
# available now).
MOMENTARY = {"memory_budget", "compute_seconds"}


def same_fields(python, cli):
    """Every field of the Python result's dict is in the command line's JSON with the same value."""
    for name, value in python.items():
        if name in MOMENTARY:
            continue
        assert name in cli, f"{name} is not in the command line's output"
        expected = cli[name]
        if name == "low_power":  # a message: options in backquotes in Python, as --options on the command line
            value = re.sub(r"`([a-z0-9_]+)`", lambda m: "--" + m.group(1).replace("_", "-"), value)
        if isinstance(value, float) and not np.isfinite(value):  # JSON has no NaN or inf: null
            assert expected is None, name
        else:
            assert value == expected, f"{name}: Python {value!r}, command line {expected!r}"


ESTIMATES = [
    ("categorical", "skce-biased", {}),
    ("categorical", "skce-unbiased", {}),
    ("categorical", "skce-unbiased", {"kernel_p": "sqexp", "metric": "euclidean", "lengthscale": "median-full"}),
    ("categorical", "skce-block", {"block_size": "sqrt"}),
    ("categorical", "skce-biased", {"preset": "neurips2019"}),
    ("categorical", "skce-biased", {"preset": "neurips2019", "lengthscale": 0.5}),
    ("categorical", "skce-block", {"block_size": 10, "lengthscale": 0.5}),
    ("categorical", "ece", {}),
    ("categorical", "ece", {"binning": "uniform:15", "mode": "top-label", "distance": "l1"}),
    ("categorical", "ckce", {}),
    ("categorical", "ckce", {"ckce_method": "rff", "features": 50, "seed": 3}),
    ("categorical", "ce-bins", {}),
    ("categorical", "ce-bins", {"notion": "class-wise", "bin_scheme": "equal-mass", "grid": "5,10"}),
    ("categorical", "ce-kde", {"notion": "canonical", "grid": "0.01,0.1", "seed": 3}),
    ("categorical", "brier", {"score_only": True}),
    ("categorical", "ce-kkr", {"grid": "1e-3,1e-1", "ridge_preset": "paper-text"}),
    ("categorical", "ce-ukkr", {"notion": "class-wise", "class_aggregation": "mean", "folds": 3}),
    ("categorical", "mmd", {}),
    ("categorical", "mmd", {"notion": "class-wise"}),
    ("categorical", "mmd", {"notion": "top-label", "kernel_p": "exp", "lengthscale": 0.2}),
    ("categorical", "mmd", {"notion": "marginal", "kernel_y": "sqexp", "lengthscale_y": 0.5}),
    ("binary", "skce-unbiased", {}),
    ("binary", "ckce", {"lengthscale": 0.3}),
    ("binary", "ici", {}),
    ("categorical", "ici", {"event": "top-label"}),
    ("binary", "ici", {"span": 0.5, "degree": 1, "surface": "direct", "replicates": 30, "seed": 5}),
    ("normal", "skce-unbiased", {}),
    ("normal", "mmd", {"notion": "distribution", "kernel_y": "sqexp", "lengthscale_y": 2}),
    ("normal", "mmd", {"notion": "marginal", "kernel_y": "sign", "threshold": 0.3}),
    ("normal", "mmd", {"notion": "quantile", "kernel_y": "pit", "lengthscale_y": 0.5}),
    ("normal", "mmd", {"notion": "threshold", "kernel_y": "pit", "thresholds": "0:0.5,1:0.2"}),
    ("normal", "mmd", {"notion": "decision", "kernel_y": "tanh", "threshold": "median", "tau": 0.5}),
    ("normal", "mmd", {"notion": "marginal", "kernel_y": "laplacian", "lengthscale_y": 0.7}),
    ("normal", "skce-unbiased", {"kernel_y": "sqexp", "lengthscale_y": 2}),
    ("laplace", "skce-block", {"block_size": 4}),
    ("mvnormal-diag", "skce-unbiased", {}),
    ("mvnormal", "skce-unbiased", {}),
    ("mixture-normal", "skce-biased", {}),
]


# The squared-CE searches on these small grids warn (an edge, an unsettled choice); the warnings
# themselves are compared in test_same_messages.py.
@pytest.mark.filterwarnings("ignore::calib.CalibWarning")
@pytest.mark.parametrize("family,estimator,options", ESTIMATES)
def test_estimate_matches_cli(family, estimator, options):
    file, arrays = family_arrays(family)
    python = calib.estimate(estimator=estimator, family=family, **arrays, **options)
    cli = run_cli("estimate", "--family", family, "--input", data_path(file), "--estimator", estimator,
                  *cli_args(options))
    assert python.estimate == cli["estimate"]
    same_fields(python.to_dict(), cli)


FIXED = [
    ("ce-bins", {"bins": 10}),
    ("ce-kde", {"bandwidth": 0.1, "notion": "canonical"}),
    ("ce-kkr", {"ridge_constant": 1e-3}),
    ("ce-ukkr", {"ridge_constant": 0.01, "notion": "class-wise"}),
]


@pytest.mark.parametrize("estimator,options", FIXED)
def test_fixed_hyperparameter_mode_matches_cli(estimator, options, tmp_path):
    """train= and validation= take arrays where the command line takes --train and --validation files."""
    rng = np.random.default_rng(5)
    sets = {}
    for name, n in (("train", 120), ("validation", 80), ("data", 100)):
        probs = rng.dirichlet(np.ones(4), size=n)
        labels = np.array([rng.choice(4, p=q) for q in probs])
        np.savetxt(tmp_path / f"{name}.csv", np.column_stack([probs, labels]), delimiter=",", fmt="%.17g")
        sets[name] = (probs, labels)
    python = calib.estimate(*sets["data"], estimator=estimator, train=sets["train"],
                            validation=dict(zip(("probs", "labels"), sets["validation"])), **options)
    cli = run_cli("estimate", "--family", "categorical", "--input", str(tmp_path / "data.csv"), "--estimator",
                  estimator, "--train", str(tmp_path / "train.csv"), "--validation",
                  str(tmp_path / "validation.csv"), *cli_args(options))
    assert (python.estimate, python.details["validation_risk"]) == (cli["estimate"], cli["validation_risk"])
    assert python.options["train"] == python.options["validation"] == "arrays"
    same_fields({k: v for k, v in python.to_dict().items() if k not in ("train", "validation")}, cli)


def test_ucme_with_test_locations_matches_cli():
    file, arrays = family_arrays("normal")
    loc = np.loadtxt(data_path("locations.csv"), delimiter=",", skiprows=1)
    estimate = calib.ucme(**arrays, test_locations=(loc[:, 0], loc[:, 1], loc[:, 2]))
    cli = run_cli("estimate", "--family", "normal", "--input", data_path(file), "--estimator", "ucme",
                  "--test-locations", data_path("locations.csv"))
    assert estimate == cli["estimate"]
    as_dict = calib.ucme(**arrays, test_locations=dict(mean=loc[:, 0], std=loc[:, 1], y=loc[:, 2]))
    assert as_dict == estimate


TESTS = [
    ("categorical", "block", {}),  # B = 2, the estimator's default, with its low_power note
    ("categorical", "block", {"preset": "neurips2019"}),
    ("categorical", "block", {"block_size": "sqrt"}),
    ("categorical", "block", {"block_size": 20, "null_variance": True}),
    ("categorical", "bootstrap", {"replicates": 200, "seed": 7}),
    ("categorical", "bootstrap", {"replicates": 100, "pvalue_rule": "plus-one"}),
    ("categorical", "gamma", {}),
    ("categorical", "spectral", {"replicates": 200}),
    ("categorical", "dfree-biased", {}),
    ("categorical", "dfree-unbiased", {}),
    ("categorical", "dfree-block", {"block_size": "sqrt"}),
    ("categorical", "consistency", {"estimator": "ece", "replicates": 200}),
    ("categorical", "consistency", {"estimator": "skce-block", "block_size": 4, "replicates": 100}),
    ("categorical", "bootstrap", {"estimator": "mmd", "notion": "top-label", "replicates": 100}),
    ("categorical", "gamma", {"estimator": "mmd", "notion": "class-wise"}),
    ("categorical", "block", {"estimator": "mmd", "block_size": "sqrt", "metric": "tv"}),
    ("binary", "bootstrap", {"replicates": 100}),
    ("binary", "spiegelhalter", {}),
    ("binary", "citl", {}),
    ("binary", "hosmer-lemeshow", {}),
    ("binary", "cox", {"level": 0.9}),
    ("binary", "ks", {}),
    ("categorical", "cox", {"event": "top-label"}),
    ("categorical", "kuiper", {"event": "class:3"}),
    ("binary", "kuiper", {}),
    ("binary", "hosmer-lemeshow", {"grouping": "quantile-breaks", "df": "development"}),
    ("binary", "hosmer-lemeshow", {"groups": 8, "grouping": "fixed", "df": "development"}),
    ("normal", "cme", {"locations": 5, "seed": 11}),
    ("normal", "gamma", {}),
    ("normal", "gamma", {"estimator": "mmd", "notion": "distribution", "kernel_y": "pit"}),
    ("laplace", "block", {"block_size": "sqrt"}),
    ("mvnormal-diag", "bootstrap", {"replicates": 100}),
    ("mvnormal", "block", {"block_size": 2}),
    ("mixture-normal", "gamma", {}),
]


@pytest.mark.parametrize("family,method,options", TESTS)
def test_test_matches_cli(family, method, options):
    file, arrays = family_arrays(family)
    python = calib.test(method=method, family=family, alpha=0.05, **arrays, **options)
    cli = run_cli("test", "--family", family, "--input", data_path(file), "--method", method, "--alpha", "0.05",
                  *cli_args(options))
    assert (python.statistic, python.p_value) == (cli["statistic"], cli["p_value"])
    same_fields(python.to_dict(), cli)


def test_reproduce_matches_cli_and_its_columns():
    """calib.reproduce gives `calib reproduce`'s row, and each column is the estimate or p-value of the
    command its help names, with the preset's conventions."""
    file, arrays = family_arrays("categorical")
    python = calib.reproduce("neurips2019", **arrays)
    cli = run_cli("reproduce", "neurips2019", "--input", data_path(file))
    for name in ("preset", "source", "n", "errors", "pvalues", "lengthscale", "family"):
        assert python[name] == cli[name], name
    base = ("--family", "categorical", "--input", data_path(file), "--preset", "neurips2019")
    assert cli["errors"]["ECE_dynamic"] == run_cli("estimate", *base, "--estimator", "ece", "--binning",
                                                   "median-variance:100")["estimate"]
    assert cli["errors"]["SKCEuq_median"] == run_cli("estimate", *base, "--estimator", "skce-unbiased")["estimate"]
    assert cli["pvalues"]["SKCEul_median_asymptotic"] == run_cli("test", *base, "--method", "block")["p_value"]
    assert cli["pvalues"]["ECE_uniform"] == run_cli("test", *base, "--method", "consistency", "--estimator",
                                                    "ece")["p_value"]


def test_mmd_conditioning_files_match_cli(tmp_path):
    """The MMD's --features and --groups files: Python passes their paths through the registry too."""
    file, arrays = family_arrays("categorical")
    n = len(arrays["labels"])
    rng = np.random.default_rng(5)
    np.save(tmp_path / "x.npy", rng.normal(size=(n, 2)))
    np.savetxt(tmp_path / "g.csv", rng.integers(0, 3, size=n), fmt="%d")
    for options in ({"notion": "individual", "features": str(tmp_path / "x.npy")},
                    {"notion": "group", "groups": str(tmp_path / "g.csv")}):
        python = calib.estimate(estimator="mmd", family="categorical", **arrays, **options)
        cli = run_cli("estimate", "--family", "categorical", "--input", data_path(file), "--estimator", "mmd",
                      *cli_args(options))
        assert python.estimate == cli["estimate"]
        same_fields(python.to_dict(), cli)
        test = calib.test(method="gamma", estimator="mmd", family="categorical", **arrays, **options)
        cli = run_cli("test", "--family", "categorical", "--input", data_path(file), "--method", "gamma",
                      "--estimator", "mmd", *cli_args(options))
        assert (test.statistic, test.p_value) == (cli["statistic"], cli["p_value"])


def test_mmd_normal_presets_through_the_registry(tmp_path):
    """The presets of Table 1 for normal forecasts (docs/mmd.md §6): threshold reports each pair and their
    sum; quantile is marginal with the pit target, bitwise; local takes the features file; the tests too."""
    file, arrays = family_arrays("normal")
    threshold = calib.estimate(**arrays, estimator="mmd", notion="threshold", kernel_y="pit",
                               thresholds="0:0.5,1:0.2,-0.5:0.9")
    per_pair = threshold.details["per_threshold"]
    assert list(per_pair) == ["pair_0", "pair_1", "pair_2"]
    assert abs(sum(per_pair.values()) - threshold.estimate) <= 1e-15
    assert threshold.details["kernel"]["conditioning"]["thresholds"]["pair_2"] == {"y0": -0.5, "alpha": 0.9}
    quantile = calib.estimate(**arrays, estimator="mmd", notion="quantile", kernel_y="pit")
    marginal = calib.estimate(**arrays, estimator="mmd", notion="marginal", kernel_y="pit")
    assert quantile.estimate == marginal.estimate
    np.save(tmp_path / "phi.npy", np.column_stack([arrays["mean"], np.arange(len(arrays["y"])) % 3]))
    local = calib.test(**arrays, method="bootstrap", replicates=200, estimator="mmd", notion="local",
                       kernel_y="pit", features=str(tmp_path / "phi.npy"))
    cli = run_cli("test", "--family", "normal", "--input", data_path(file), "--method", "bootstrap",
                  "--replicates", "200", "--estimator", "mmd", "--notion", "local", "--kernel-y", "pit",
                  "--features", str(tmp_path / "phi.npy"))
    assert (local.statistic, local.p_value) == (cli["statistic"], cli["p_value"])
    with pytest.raises(ValueError, match="alpha in \\[0, 1\\]"):
        calib.estimate(**arrays, estimator="mmd", notion="threshold", kernel_y="pit", thresholds="0:1.5")


def test_cme_with_test_locations_matches_cli():
    file, arrays = family_arrays("normal")
    loc = np.loadtxt(data_path("locations.csv"), delimiter=",", skiprows=1)
    python = calib.test(**arrays, method="cme", test_locations=(loc[:, 0], loc[:, 1], loc[:, 2]))
    cli = run_cli("test", "--family", "normal", "--input", data_path(file), "--method", "cme",
                  "--test-locations", data_path("locations.csv"))
    assert python.p_value == cli["p_value"]


def test_reading_options_match_cli():
    """logits and one-based labels (logits.csv: 3 logits and a label 1..3, no header)."""
    table = np.loadtxt(data_path("logits.csv"), delimiter=",")
    python = calib.test(table[:, :3], table[:, 3], logits=True, one_based_labels=True, method="block",
                        block_size="sqrt")
    cli = run_cli("test", "--family", "categorical", "--input", data_path("logits.csv"), "--logits",
                  "--one-based-labels", "--method", "block", "--block-size", "sqrt")
    assert python.p_value == cli["p_value"]
    alias = calib.test(table[:, :3], table[:, 3], logits=True, one_based=True, method="block", block_size="sqrt")
    assert alias.p_value == python.p_value


def test_rank_matches_cli():
    # Named as the command line names them (its file names), the two give the same fields: one record.
    files = [data_path(name + ".csv") for name in ("lenet", "resnet")]
    models, labels = [], None
    for f in files:
        t = np.loadtxt(f, delimiter=",", skiprows=1)
        models.append(t[:, :-1])
        labels = t[:, -1].astype(np.int64)
    python = calib.rank(models, labels, names=files, replicates=50, ckce_method="lowrank").to_dict()
    cli = run_cli("rank", "--family", "categorical", "--input", *files, "--replicates", "50", "--ckce-method", "lowrank")
    for field in ("n", "models", "estimators", "replicates", "seed", "level", "interval", "results", "kernel", "ece",
                  "family"):
        assert python[field] == cli[field], field
    assert python["results"]["ckce"]["comparisons"][0]["verdict"].endswith(("is better calibrated", "no clear difference"))


METRICS = [
    ("categorical", {}),
    ("binary", {}),
    ("normal", {}),
    ("normal", {"threshold": 0.25, "qce_binning": "round", "bins": 10}),
    ("laplace", {}),
    ("mixture-normal", {}),
]


@pytest.mark.parametrize("family,options", METRICS)
def test_metrics_match_cli(family, options):
    """calib.metrics and `calib metrics` give bitwise the same fields."""
    file, arrays = family_arrays(family)
    python = calib.metrics(family=family, **arrays, **options)
    cli = run_cli("metrics", "--family", family, "--input", data_path(file), *cli_args(options))
    assert python["n"] == cli["n"]
    same_fields(python, cli)


def test_metrics_with_features_match_cli(tmp_path):
    """The LCE from features given as an array and as a file (median heuristic and a given lengthscale)."""
    file, arrays = family_arrays("normal")
    x = np.column_stack([arrays["mean"], np.arange(len(arrays["mean"])) % 5])
    np.savetxt(tmp_path / "x.csv", x, delimiter=",", fmt="%.17g")
    for extra in ({}, {"lce_lengthscale": 0.5}):
        python = calib.metrics(family="normal", **arrays, features=x, **extra)
        cli = run_cli("metrics", "--family", "normal", "--input", data_path(file), "--features", str(tmp_path / "x.csv"),
                      *cli_args(extra))
        assert python["lce_total_mean"] == cli["lce_total_mean"]
        same_fields(python, cli)
    with pytest.raises(ValueError, match="`features` has 3 rows, but the input has n = 1500 observations"):
        calib.metrics(family="normal", **arrays, features=x[:3])
    with pytest.raises(TypeError, match="option `lce_lengthscale` does not apply to `family` categorical; its options are `bins`, `features`"):
        calib.metrics(family="categorical", **family_arrays("categorical")[1], features=x[:800], lce_lengthscale=1)
    # A file name works too, as on the command line.
    from_file = calib.metrics(family="normal", **arrays, features=str(tmp_path / "x.csv"))
    from_array = calib.metrics(family="normal", **arrays, features=x)
    assert from_file["lce_total_mean"] == from_array["lce_total_mean"] and from_file["kce"] == from_array["kce"]


def test_metrics_kce_matches_cli(tmp_path):
    """The KCE of class predictions with features: the command line's, and the MMD of the individual
    notion with its defaults (bitwise)."""
    file, arrays = family_arrays("categorical")
    x = np.random.default_rng(9).normal(size=(len(arrays["labels"]), 2))
    np.savetxt(tmp_path / "x.csv", x, delimiter=",", fmt="%.17g")
    python = calib.metrics(family="categorical", **arrays, features=x)
    cli = run_cli("metrics", "--family", "categorical", "--input", data_path(file), "--features", str(tmp_path / "x.csv"))
    assert python["kce"] == cli["kce"] and python["kce_lengthscale"] == cli["kce_lengthscale"]
    same_fields(python, cli)
    mmd = calib.estimate(**arrays, estimator="mmd", notion="individual", features=x)
    assert python["kce"] == mmd.estimate
    assert python["kce_lengthscale"] == mmd.details["kernel"]["conditioning"]["lengthscale"]


@pytest.mark.parametrize("dtype,order", [(np.float64, "C"), (np.float64, "F"), (np.float32, "C"), (np.int64, "F")])
def test_mmd_conditioning_arrays_match_cli(dtype, order, tmp_path):
    """features= and groups= take arrays (any numeric dtype, C or Fortran order, 1-d features as one
    column) with bitwise the numbers of the command line on the same values from files; the options
    record "arrays"."""
    file, arrays = family_arrays("categorical")
    n = len(arrays["labels"])
    rng = np.random.default_rng(8)
    x = np.asarray(rng.normal(size=(n, 3)) * 4, dtype=dtype, order=order)
    groups = np.asarray(rng.integers(-2, 3, size=n), dtype=np.int64 if dtype == np.float32 else dtype)
    np.save(tmp_path / "x.npy", np.ascontiguousarray(x, dtype=np.float64))
    np.save(tmp_path / "x1.npy", np.ascontiguousarray(x[:, :1], dtype=np.float64))
    np.savetxt(tmp_path / "g.csv", groups, fmt="%d")
    cases = [({"notion": "individual", "features": x}, {"features": str(tmp_path / "x.npy")}),
             ({"notion": "individual", "features": x[:, 0]}, {"features": str(tmp_path / "x1.npy")}),
             ({"notion": "group", "groups": groups}, {"groups": str(tmp_path / "g.csv")})]
    for given, files in cases:
        on_files = {**given, **files}
        python = calib.estimate(estimator="mmd", family="categorical", **arrays, **given)
        cli = run_cli("estimate", "--family", "categorical", "--input", data_path(file), "--estimator", "mmd",
                      *cli_args(on_files))
        assert python.estimate == cli["estimate"]
        name = next(iter(files))
        assert python.options[name] == "arrays"
        same_fields({k: v for k, v in python.to_dict().items() if k != name}, cli)
        test = calib.test(method="bootstrap", estimator="mmd", family="categorical", replicates=50, **arrays, **given)
        cli = run_cli("test", "--family", "categorical", "--input", data_path(file), "--method", "bootstrap",
                      "--replicates", "50", "--estimator", "mmd", *cli_args(on_files))
        assert (test.statistic, test.p_value) == (cli["statistic"], cli["p_value"])


def test_mmd_features_array_normal_matches_cli(tmp_path):
    file, arrays = family_arrays("normal")
    n = len(arrays["y"])
    x = np.random.default_rng(3).normal(size=n)
    np.savetxt(tmp_path / "x.csv", x, fmt="%.17g")
    options = {"notion": "individual", "kernel_y": "sqexp"}
    python = calib.estimate(estimator="mmd", family="normal", features=x, **arrays, **options)
    cli = run_cli("estimate", "--family", "normal", "--input", data_path(file), "--estimator", "mmd",
                  "--features", str(tmp_path / "x.csv"), *cli_args(options))
    assert python.estimate == cli["estimate"]


def test_binary_tests_on_users_files(tmp_path):
    """The tests of binary predictions on float32 .npy predictions with the labels apart, and on two-column
    class predictions of the same model: the same numbers from the command line and Python, and the
    same as the binary family's."""
    p, y = family_arrays("binary")[1]["probs"], family_arrays("binary")[1]["labels"]
    p32 = p.astype(np.float32)
    np.save(tmp_path / "p.npy", p32)
    np.save(tmp_path / "y.npy", y.astype(np.int64))
    two = np.c_[1 - p32.astype(np.float64), p32.astype(np.float64)]
    np.save(tmp_path / "two.npy", two)
    for method in ("spiegelhalter", "citl", "hosmer-lemeshow", "cox", "ks", "kuiper"):
        cli = run_cli("test", "--family", "binary", "--input", str(tmp_path / "p.npy"), "--labels",
                      str(tmp_path / "y.npy"), "--method", method)
        python = calib.test(p32, y, method=method)
        assert (python.statistic, python.p_value, python.estimate) == (cli["statistic"], cli["p_value"], cli["estimate"])
        classes = run_cli("test", "--family", "categorical", "--input", str(tmp_path / "two.npy"), "--labels",
                          str(tmp_path / "y.npy"), "--method", method)
        assert classes["p_value"] == pytest.approx(cli["p_value"], rel=1e-12)
        assert classes["statistic"] == pytest.approx(cli["statistic"], rel=1e-12)

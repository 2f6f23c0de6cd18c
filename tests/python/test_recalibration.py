"""Recalibration from Python (calib.recalibrate_fit, calib.recalibrate_apply) against the command line's
`calib recalibrate fit|apply` on the same data: the map (every field of the JSON file) and the applied
predictions bitwise, for each method, on probabilities and logits, by NLL and NLL + lambda MMD^2."""

import json
import subprocess

import numpy as np
import pytest

import calib
from conftest import CLI, data_path, family_arrays, load


def cli_fit(tmp_path, *args):
    """The map file `calib recalibrate fit` writes for the arguments."""
    out = tmp_path / "map.json"
    run = subprocess.run([CLI, "recalibrate", "fit", *args, "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with open(out) as f:
        return json.load(f), out


def cli_apply(tmp_path, map_path, input_path, *args):
    out = tmp_path / "applied.npy"
    run = subprocess.run([CLI, "recalibrate", "apply", "--map", str(map_path), "--input", str(input_path),
                          "--output", str(out), *args], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return np.load(out)


CATEGORICAL = [
    ("temperature", {}, []),
    ("temperature-bias", {}, []),
    ("vector", {"objective": "nll+mmd", "lambda_": 0.5, "notion": "top-label"},
     ["--objective", "nll+mmd", "--lambda", "0.5", "--notion", "top-label"]),
    ("matrix", {"ridge": 0.01}, ["--ridge", "0.01"]),
    ("isotonic", {}, []),
    ("temperature", {"objective": "nll+mmd", "lambda_": 2}, ["--objective", "nll+mmd", "--lambda", "2"]),
    ("temperature-bias", {"objective": "nll+mmd", "lambda_": 1, "notion": "marginal"},
     ["--objective", "nll+mmd", "--lambda", "1", "--notion", "marginal"]),
    ("temperature", {"objective": "nll+mmd", "lambda_": 1, "notion": "class-wise"},
     ["--objective", "nll+mmd", "--lambda", "1", "--notion", "class-wise"]),
    # The optimiser's limits and the floor of log p: options of both front-ends (RecalibrationSetup).
    ("vector", {"max_iterations": 3, "gradient_tolerance": 1e-4, "probability_floor": 1e-6},
     ["--max-iterations", "3", "--gradient-tolerance", "1e-4", "--probability-floor", "1e-6"]),
]


@pytest.mark.parametrize("method,options,args", CATEGORICAL)
@pytest.mark.filterwarnings("ignore::calib.CalibWarning")  # max_iterations 3 warns, as it should
def test_categorical_fit_and_apply_match_cli(method, options, args, tmp_path):
    file, arrays = family_arrays("categorical")
    fitted = calib.recalibrate_fit(**arrays, method=method, **options)
    expected, map_path = cli_fit(tmp_path, "--family", "categorical", "--input", data_path(file), "--method", method,
                                 *args)
    assert fitted == expected
    assert fitted["method"] == method and fitted["objective"] == options.get("objective", "nll")
    applied = calib.recalibrate_apply(fitted, arrays["probs"])["probs"]
    on_cli = cli_apply(tmp_path, map_path, data_path(file), "--labelled")
    assert np.array_equal(applied, on_cli[:, :-1]) and applied.flags.c_contiguous
    assert np.array_equal(on_cli[:, -1], arrays["labels"])  # the labels, checked and copied
    # The map file's path is the same map.
    assert np.array_equal(calib.recalibrate_apply(str(map_path), arrays["probs"])["probs"], applied)


def test_logits_match_cli(tmp_path):
    """logits.csv: 3 logits and a label 1..3, no header."""
    table = np.loadtxt(data_path("logits.csv"), delimiter=",")
    fitted = calib.recalibrate_fit(table[:, :3], table[:, 3], logits=True, one_based_labels=True,
                                   method="temperature-bias")
    expected, map_path = cli_fit(tmp_path, "--family", "categorical", "--input", data_path("logits.csv"), "--logits",
                                 "--one-based-labels", "--method", "temperature-bias")
    assert fitted == expected and fitted["input"] == "logits"
    applied = calib.recalibrate_apply(fitted, np.asfortranarray(table[:, :3]))["probs"]
    on_cli = cli_apply(tmp_path, map_path, data_path("logits.csv"), "--labelled", "--one-based-labels")
    assert np.array_equal(applied, on_cli[:, :3]) and np.array_equal(on_cli[:, 3], table[:, 3])  # labels as given


def test_normal_maps_match_cli(tmp_path):
    file, arrays = family_arrays("normal")
    fitted = calib.recalibrate_fit(**arrays, method="affine")
    expected, map_path = cli_fit(tmp_path, "--family", "normal", "--input", data_path(file), "--method", "affine")
    assert fitted == expected
    applied = calib.recalibrate_apply(fitted, mean=arrays["mean"], std=arrays["std"])
    on_cli = cli_apply(tmp_path, map_path, data_path(file), "--labelled")
    assert np.array_equal(applied["mean"], on_cli[:, 0]) and np.array_equal(applied["std"], on_cli[:, 1])
    assert np.array_equal(on_cli[:, 2], arrays["y"])
    # affine-features, with the feature column as float32 (converted once, like the file's values).
    x = np.random.default_rng(4).normal(size=len(arrays["y"])).astype(np.float32)
    np.savetxt(tmp_path / "x.csv", x.astype(np.float64), fmt="%.17g")
    fitted = calib.recalibrate_fit(**arrays, method="affine-features", features=x)
    expected, map_path = cli_fit(tmp_path, "--family", "normal", "--input", data_path(file), "--method",
                                 "affine-features", "--features", str(tmp_path / "x.csv"))
    assert fitted == expected
    applied = calib.recalibrate_apply(fitted, mean=arrays["mean"], std=arrays["std"], features=x)
    on_cli = cli_apply(tmp_path, map_path, data_path(file), "--labelled", "--features", str(tmp_path / "x.csv"))
    assert np.array_equal(applied["mean"], on_cli[:, 0]) and np.array_equal(applied["std"], on_cli[:, 1])
    # The applied forecasts go on to the tests as they are.
    assert calib.test(**applied, y=arrays["y"], method="block", block_size="sqrt").n == len(x)


@pytest.mark.parametrize("options,args", [
    ({}, []),
    ({"notion": "marginal", "kernel_y": "sign", "threshold": 0.25}, ["--notion", "marginal", "--kernel-y", "sign",
                                                                      "--threshold", "0.25"]),
    ({"kernel_y": "pit", "lengthscale": 0.5, "lengthscale_y": 0.2}, ["--kernel-y", "pit", "--lengthscale", "0.5",
                                                                     "--lengthscale-y", "0.2"]),
    ({"marginalisation": "mc-paired", "samples": 4, "mc_seed": 10**15},
     ["--marginalisation", "mc-paired", "--samples", "4", "--mc-seed", str(10**15)]),
])
def test_normal_nll_mmd_matches_cli(options, args, tmp_path):
    file, arrays = family_arrays("normal")
    fitted = calib.recalibrate_fit(**arrays, method="affine", objective="nll+mmd", lambda_=3, **options)
    expected, _ = cli_fit(tmp_path, "--family", "normal", "--input", data_path(file), "--method", "affine",
                          "--objective", "nll+mmd", "--lambda", "3", *args)
    assert fitted == expected
    assert fitted["notion"] == options.get("notion", "distribution")


def test_normal_individual_notion_takes_features_matching_cli(tmp_path):
    """The individual notion's Z: features n x d (here 2 float32 columns, Fortran order)."""
    file, arrays = family_arrays("normal")
    x = np.asfortranarray(np.random.default_rng(5).normal(size=(len(arrays["y"]), 2)).astype(np.float32))
    np.savetxt(tmp_path / "x2.csv", x.astype(np.float64), fmt="%.17g", delimiter=",")
    fitted = calib.recalibrate_fit(**arrays, method="affine", objective="nll+mmd", lambda_=3, notion="individual",
                                   features=x)
    expected, _ = cli_fit(tmp_path, "--family", "normal", "--input", data_path(file), "--method", "affine",
                          "--objective", "nll+mmd", "--lambda", "3", "--notion", "individual", "--features",
                          str(tmp_path / "x2.csv"))
    assert fitted == expected and fitted["notion"] == "individual"
    with pytest.raises(ValueError, match="option `samples` applies only with `marginalisation` mc-paired\\|mc-all-pairs, not analytic"):
        calib.recalibrate_fit(**arrays, method="affine", objective="nll+mmd", lambda_=3, samples=4)
    for seed in (-1, 2**64, 2.0**64, 0.5):
        with pytest.raises(ValueError, match="mc_seed"):
            calib.recalibrate_fit(**arrays, method="affine", objective="nll+mmd", lambda_=3,
                                  marginalisation="mc-paired", mc_seed=seed)
    with pytest.raises(ValueError, match="`notion` individual needs `features`"):
        calib.recalibrate_fit(**arrays, method="affine", objective="nll+mmd", lambda_=3, notion="individual")


def test_recalibration_errors():
    _, arrays = family_arrays("categorical")
    probs, labels = arrays["probs"], arrays["labels"]
    with pytest.raises(ValueError, match="option `ridge` applies only with `method` matrix|dirichlet, not temperature"):
        calib.recalibrate_fit(probs, labels, method="temperature", ridge=1)
    with pytest.raises(ValueError, match="option `lambda` applies only with `objective` nll\\+mmd, not nll"):
        calib.recalibrate_fit(probs, labels, method="temperature", lambda_=1)
    with pytest.raises(ValueError, match="missing option `lambda` L"):
        calib.recalibrate_fit(probs, labels, method="vector", objective="nll+mmd")
    with pytest.raises(ValueError, match="option `notion` = group, must be one of canonical, top-label, class-wise or marginal"):
        calib.recalibrate_fit(probs, labels, method="vector", objective="nll+mmd", lambda_=1, notion="group")
    with pytest.raises(TypeError, match="option `kernel_y` does not apply to recalibrate fit `method` vector"):
        calib.recalibrate_fit(probs, labels, method="vector", objective="nll+mmd", lambda_=1, kernel_y="sign")
    with pytest.raises(ValueError, match="option `method` = affine, must be one of temperature, temperature-bias, platt, beta, vector, matrix, dirichlet, isotonic, top-label-isotonic, histogram, venn-abers or auto for family categorical"):
        calib.recalibrate_fit(probs, labels, method="affine")
    with pytest.raises(ValueError, match="option `method` = spline, must be one of"):
        calib.recalibrate_fit(probs, labels, method="spline")
    with pytest.raises(TypeError, match="option `alpha` does not apply to recalibrate fit `method` temperature; its options are `method`"):
        calib.recalibrate_fit(probs, labels, method="temperature", alpha=1)
    with pytest.raises(ValueError, match="labels\\[0\\] = 10 is out of range|labels"):
        calib.recalibrate_fit(probs, labels + 10, method="temperature")
    fitted = calib.recalibrate_fit(probs, labels, method="temperature")
    with pytest.raises(ValueError, match="probs has 3 columns, the map takes m = 10 \\(its classes\\)"):
        calib.recalibrate_apply(fitted, probs[:, :3])
    with pytest.raises(ValueError, match="probs has 11 columns, the map takes m = 10"):
        calib.recalibrate_apply(fitted, np.c_[probs, labels])  # the labels beside the probabilities
    off = probs.copy()
    off[4] *= 1.01
    with pytest.raises(ValueError, match="row 4"):
        calib.recalibrate_apply(fitted, off)
    # renormalize: the rows divided by their sums, then mapped.
    assert np.allclose(calib.recalibrate_apply(fitted, off, renormalize=True)["probs"],
                       calib.recalibrate_apply(fitted, off / off.sum(axis=1, keepdims=True))["probs"], rtol=1e-14, atol=0)
    assert calib.recalibrate_apply(fitted, off, simplex_tolerance=0.02)["probs"].shape == (len(probs), 10)
    logit_map = calib.recalibrate_fit(np.log(probs), labels, method="temperature", logits=True)
    with pytest.raises(ValueError, match="`renormalize` applies only to a map fitted on probabilities, not on logits"):
        calib.recalibrate_apply(logit_map, np.log(probs), renormalize=True)
    bad = probs.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="probs\\[2, 1\\] = nan, must be finite"):
        calib.recalibrate_apply(fitted, bad)
    with pytest.raises(ValueError, match="mean does not apply to a map of family categorical, which takes probs"):
        calib.recalibrate_apply(fitted, mean=probs[:, 0], std=probs[:, 1])
    with pytest.raises(ValueError, match="unknown key \"extra\""):
        calib.recalibrate_apply({**fitted, "extra": 1}, probs)
    with pytest.raises(TypeError, match="must be a dict or the path"):
        calib.recalibrate_apply(3, probs)
    _, normal = family_arrays("normal")
    with pytest.raises(ValueError, match="`method` affine-features needs `features`"):
        calib.recalibrate_fit(**normal, method="affine-features")
    with pytest.raises(ValueError, match="`features` applies only with `method` affine-features or `notion` individual"):
        calib.recalibrate_fit(**normal, method="affine", features=normal["y"])
    with pytest.raises(ValueError, match=r"`features` is 5 x 1, must be n = \d+ x 1 \(one value x per observation\)"):
        calib.recalibrate_fit(**normal, method="affine-features", features=normal["y"][:5])


def cli_error(*args):
    """The one line `calib` prints on stderr for arguments that must fail with exit 2, without "calib: "."""
    run = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.count("\n") == 1, (run.returncode, run.stderr)
    return run.stderr.strip().removeprefix("calib: ")


def test_extreme_inputs_give_the_same_error_in_python_and_on_the_command_line(tmp_path):
    """Logits of +-1e308, a mean of 1e308, maps whose transforms overflow, logits given to a map of
    probabilities: one error, the same text from both front-ends; never a map with null parameters or
    non-finite predictions."""
    logits = np.array([[1e308, -1e308, 0], [-1e308, 1e308, 0], [0, 1e308, -1e308], [5, 1, 2]])
    labels = np.array([0, 1, 2, 1])
    np.savetxt(tmp_path / "huge.csv", np.column_stack([logits, labels]), delimiter=",", header="a,b,c,y", comments="")
    with pytest.raises(calib.NumericalError) as python:
        calib.recalibrate_fit(logits, labels, logits=True, method="temperature")
    assert "rescale" in str(python.value)
    assert str(python.value) == cli_error("recalibrate", "fit", "--family", "categorical", "--input",
                                          str(tmp_path / "huge.csv"), "--logits", "--method", "temperature",
                                          "--out", str(tmp_path / "m.json"))
    assert not (tmp_path / "m.json").exists()

    mean, std, y = np.array([1e308, 0, 1, 2, 0.5]), np.array([1.0, 1, 2, 1, 1]), np.array([0, 1, 0.5, 3, 0.2])
    np.savetxt(tmp_path / "normal.csv", np.column_stack([mean, std, y]), delimiter=",")
    for options, args in [({}, []), ({"objective": "nll+mmd", "lambda_": 1}, ["--objective", "nll+mmd", "--lambda", "1"])]:
        with pytest.raises(calib.NumericalError) as python:
            calib.recalibrate_fit(mean=mean, std=std, y=y, method="affine", **options)
        assert str(python.value) == cli_error("recalibrate", "fit", "--family", "normal", "--input",
                                              str(tmp_path / "normal.csv"), "--method", "affine", *args,
                                              "--out", str(tmp_path / "m.json"))

    # A map whose 1/T or exp(s) overflows is refused as a file; a map of probabilities refuses logits.
    probs = np.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    np.savetxt(tmp_path / "p.csv", probs, delimiter=",")
    np.savetxt(tmp_path / "l.csv", logits[3:], delimiter=",")
    fitted = calib.recalibrate_fit(probs, np.array([2, 2]), method="temperature")
    for name, value, data in [("temperature", 5e-324, "p.csv"), ("temperature", 0.5, "l.csv")]:
        changed = {**fitted, "parameters": {name: value}}
        (tmp_path / "t.json").write_text(json.dumps(changed))
        with pytest.raises(ValueError) as python:
            calib.recalibrate_apply(changed, np.loadtxt(tmp_path / data, delimiter=",", ndmin=2))
        message = cli_error("recalibrate", "apply", "--map", str(tmp_path / "t.json"), "--input", str(tmp_path / data),
                            "--output", str(tmp_path / "out.csv"))
        assert message.endswith(str(python.value).split(": ", 1)[1]), (message, str(python.value))
    assert not (tmp_path / "out.csv").exists()


HOLDOUTS = [
    ("categorical", "temperature", {}, []),
    ("categorical", "vector", {"objective": "nll+mmd", "lambda_": 1, "notion": "class-wise"},
     ["--objective", "nll+mmd", "--lambda", "1", "--notion", "class-wise"]),
    ("normal", "affine", {}, []),
]


@pytest.mark.parametrize("family,method,options,args", HOLDOUTS)
def test_holdout_matches_cli(family, method, options, args, tmp_path):
    # The held-out split and its judgement are the library's (RecalibrationSetup::run): the same rows,
    # map and numbers from both front-ends.
    file, arrays = family_arrays(family)
    fitted = calib.recalibrate_fit(**arrays, method=method, holdout=0.3, seed=5, **options)
    out = tmp_path / "map.json"
    run = subprocess.run([CLI, "recalibrate", "fit", "--family", family, "--input", data_path(file), "--method", method,
                          "--holdout", "0.3", "--seed", "5", *args, "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with open(out) as f:
        assert fitted == json.load(f)
    printed = json.loads(run.stdout)
    assert fitted.holdout == printed["holdout"]
    # The fit's options as used are the library's record: printed by the command line beside its other
    # fields (the holdout judgement has the name holdout there), given to Python as the map's options.
    assert fitted.options["max_iterations"] == 1000 and fitted.options["gradient_tolerance"] == 1e-8
    assert fitted.options["method"] == method and fitted.options["seed"] == 5
    assert {k: v for k, v in fitted.options.items() if k != "holdout"} == \
        {k: printed[k] for k in fitted.options if k != "holdout"}
    assert fitted.holdout["n_fit"] + fitted.holdout["n_held_out"] == len(next(iter(arrays.values())))
    assert calib.recalibrate_fit(**arrays, method=method, **options).holdout is None


def test_holdout_refused_alike():
    _, arrays = family_arrays("categorical")
    with pytest.raises(ValueError, match="option `holdout` = '1.5', must be in \\(0, 1\\)"):
        calib.recalibrate_fit(**arrays, method="temperature", holdout=1.5)
    with pytest.raises(ValueError, match="option `seed` applies only with `holdout`"):
        calib.recalibrate_fit(**arrays, method="temperature", seed=3)
    few = {name: value[:6] for name, value in arrays.items()}
    with pytest.raises(ValueError, match="`holdout` 0.2 leaves 1 of 6 rows held out; both parts need at least 2"):
        calib.recalibrate_fit(**few, method="temperature", holdout=0.2)


def test_map_files_are_read_within_a_bound():
    """A map file is read as the command line reads it: /dev/zero stops at 1 GiB with one error."""
    with pytest.raises(ValueError, match="/dev/zero: is larger than 1 GiB: not a map file"):
        calib.recalibrate_apply("/dev/zero", np.full((2, 2), 0.5))
    with pytest.raises(ValueError, match="no/such/map.json: cannot be opened"):
        calib.recalibrate_apply("no/such/map.json", np.full((2, 2), 0.5))


def test_maps_with_a_byte_order_mark_or_nan(tmp_path):
    """A map file saved with a UTF-8 byte-order mark reads as without it; a dict map with a NaN says so."""
    probs = np.full((4, 2), 0.5)
    fitted = calib.recalibrate_fit(probs, np.array([0, 1, 0, 1]), method="temperature")
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(fitted).encode())
    assert np.array_equal(calib.recalibrate_apply(str(path), probs)["probs"], calib.recalibrate_apply(fitted, probs)["probs"])
    broken = {**fitted, "parameters": {"temperature": float("nan")}}
    with pytest.raises(ValueError, match="a value is not a finite number"):
        calib.recalibrate_apply(broken, probs)


def test_alpha_none_is_the_default():
    probs, labels = np.random.default_rng(2).dirichlet(np.ones(2), 40), np.arange(40) % 2
    result = calib.test(probs, labels, method="block", alpha=None)
    assert result.alpha == 0.05 and result.reject == (result.p_value < 0.05)

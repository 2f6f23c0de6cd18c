#!/usr/bin/env python3
"""The edge-input campaign: every operation of calib, from the command line and from Python, on the
inputs at the edges of what a user may give (n = 1, 2, 3; constant predictions; one class; perfectly
wrong one-hot predictions; values near the largest and the smallest doubles; NaN and infinite cells;
an empty file; float32 .npy files; many classes), each held to the rules of docs/cli.md:

- no operation fails as an internal error (exit 1; in Python any other exception) or by a signal;
- a refusal is exit 2 with one line "calib: ..." (besides "calib: warning: ..." lines), and in Python a
  ValueError, a TypeError only for a wrong call, and calib.NumericalError (an ArithmeticError);
- a success prints no null number (JSON has no infinity or NaN) unless a warning says which number
  was written null, and Python returns finite numbers unless it warned (documented exceptions: the
  empty bins of a reliability diagram);
- the two front-ends agree: both refuse or both answer;
- each operation answers at the smallest n of docs/cli.md's table and refuses one observation fewer.

Usage: tests/edges/run.py CALIB_CLI PYTHON_MODULE_DIR   (JOBS=N runs N cases at a time, default 2)
"""

import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np

if len(sys.argv) != 3:
    sys.exit(__doc__)
CLI = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import calib  # noqa: E402 - from the module directory given

CLASS_FAMILIES = ("categorical", "binary")
FAMILIES = ("categorical", "binary", "normal", "laplace", "mvnormal-diag", "mvnormal", "mixture-normal")


# --- data -----------------------------------------------------------------------------------------

def dirichlet_rows(rng, n, m):
    p = rng.dirichlet(np.ones(m), size=n)
    return p / p.sum(axis=1, keepdims=True)


def valid(family, rng, n, m=3):
    """n rows of well-formed predictions with targets, as the Python front-end's arrays."""
    if family == "categorical":
        p = dirichlet_rows(rng, n, m)
        return dict(probs=p, labels=np.array([rng.choice(m, p=row) for row in p], dtype=np.int64))
    if family == "binary":
        p = rng.uniform(0.05, 0.95, n)
        return dict(probs=p, labels=(rng.uniform(size=n) < p).astype(np.int64))
    if family == "normal":
        mu = rng.normal(size=n)
        return dict(mean=mu, std=rng.uniform(0.5, 2, n), y=mu + rng.normal(size=n))
    if family == "laplace":
        mu = rng.normal(size=n)
        return dict(mean=mu, scale=rng.uniform(0.5, 2, n), y=mu + rng.laplace(size=n))
    if family == "mvnormal-diag":
        mu = rng.normal(size=(n, 2))
        return dict(mean=mu, std=rng.uniform(0.5, 2, (n, 2)), y=mu + rng.normal(size=(n, 2)))
    if family == "mvnormal":
        mu = rng.normal(size=(n, 2))
        a = rng.normal(size=(n, 2, 2))
        cov = a @ a.transpose(0, 2, 1) + np.eye(2)
        return dict(mean=mu, cov=cov, y=mu + rng.normal(size=(n, 2)))
    if family == "mixture-normal":
        w = dirichlet_rows(rng, n, 2)
        return dict(weights=w, means=rng.normal(size=(n, 2)), stds=rng.uniform(0.5, 2, (n, 2)), y=rng.normal(size=n))
    raise ValueError(family)


def edge_cases(family):
    """(name, arrays, reading options) of the family's edge inputs."""
    rng = np.random.default_rng(20261127)
    cases = [(f"n={n}", valid(family, rng, n), {}) for n in (1, 2, 3)]
    base = valid(family, rng, 24)
    constant = {k: np.repeat(v[:1], 24, axis=0) for k, v in base.items()}
    cases.append(("constant", constant, {}))
    if family in CLASS_FAMILIES:
        one_class = dict(base, labels=np.zeros(24, dtype=np.int64))
        cases.append(("one-class", one_class, {}))
        labels = base["labels"]
        if family == "categorical":
            wrong = np.zeros((24, 3))
            wrong[np.arange(24), (labels + 1) % 3] = 1.0
            cases.append(("one-hot-wrong", dict(probs=wrong, labels=labels), {}))
            cases.append(("logits-huge", dict(probs=np.where(np.arange(3) == labels[:, None] % 3, 1e308, -1e308)[:, :3],
                                               labels=labels), {"logits": True}))
            tiny = dirichlet_rows(rng, 24, 3)
            tiny[:, 0] = 1e-320
            cases.append(("tiny-probabilities", dict(probs=tiny, labels=labels), {"renormalize": True}))
            many = valid(family, rng, 30, m=300)
            cases.append(("m=300", many, {}))
            # Two classes, for the binary maps (platt, beta, venn-abers): ties, and rows exactly 0 and 1.
            two = valid(family, rng, 24, m=2)
            two["probs"] = np.round(two["probs"], 1)
            cases.append(("m=2 ties", two, {}))
            saturated = np.zeros((24, 2))
            saturated[np.arange(24), np.arange(24) % 2] = 1.0
            cases.append(("m=2 saturated", dict(probs=saturated, labels=labels % 2), {}))
        else:
            cases.append(("one-hot-wrong", dict(probs=1.0 - labels.astype(float), labels=labels), {}))
        nan = dict(base, probs=base["probs"].copy())
        nan["probs"].flat[5] = np.nan
        cases.append(("nan", nan, {}))
    else:
        same_y = dict(base, y=np.zeros_like(base["y"]))
        cases.append(("same-targets", same_y, {}))
        first = "mean" if "mean" in base else "means"
        spread = "std" if "std" in base else "scale" if "scale" in base else "stds" if "stds" in base else None
        huge = {k: v.copy() for k, v in base.items()}
        huge[first] = np.sign(huge[first]) * 1e308
        huge["y"] = -np.sign(huge["y"]) * 1e308
        cases.append(("huge", huge, {}))
        if spread:
            tiny = {k: v.copy() for k, v in base.items()}
            tiny[spread] = np.full_like(tiny[spread], 1e-308)
            cases.append(("tiny-scale", tiny, {}))
        nan = {k: v.copy() for k, v in base.items()}
        nan["y"].flat[5] = np.nan
        cases.append(("nan", nan, {}))
        inf = {k: v.copy() for k, v in base.items()}
        inf[first].flat[3] = np.inf
        cases.append(("inf", inf, {}))
    cases.append(("float32", {k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in base.items()}, {}))
    return cases


def columns(family, arrays):
    """The command line's columns (predictions, then targets) of the Python arrays."""
    n = len(arrays["y"] if "y" in arrays else arrays["labels"])
    flat = lambda a: np.asarray(a, dtype=np.float64).reshape(n, -1)
    if family in CLASS_FAMILIES:
        parts = [arrays["probs"], arrays["labels"]]
    elif family == "mvnormal":
        rows, cols = np.tril_indices(2)
        parts = [arrays["mean"], arrays["cov"][:, rows, cols], arrays["y"]]
    elif family == "mixture-normal":
        parts = [arrays["weights"], arrays["means"], arrays["stds"], arrays["y"]]
    else:
        parts = [arrays["mean"], arrays["std" if "std" in arrays else "scale"], arrays["y"]]
    return np.hstack([flat(a) for a in parts])


# --- operations -----------------------------------------------------------------------------------

def operations(family):
    """(name, CLI arguments after the data, Python call taking (arrays, reading))."""
    classes = family in CLASS_FAMILIES
    ops = []
    # Options without a default for some families: the test locations, the MMD's notion and target
    # kernel for normal forecasts (docs/mmd.md), the consistency test's estimator.
    mmd = {"notion": "distribution", "kernel_y": "sqexp"} if family == "normal" else {}
    required = {"ucme": {"test_locations": "LOCATIONS"}, "cme": {"test_locations": "LOCATIONS"}, "mmd": mmd,
                "consistency": {"estimator": "ece", "replicates": 200}, "bootstrap": {"replicates": 200}}
    flags = lambda options: [a for k, v in options.items() for a in ("--" + k.replace("_", "-"), str(v))]
    for e in calib.estimators():
        if e["classes_only"] and not classes:
            continue
        py_extra = required.get(e["name"], {})
        extra = flags(py_extra)
        ops.append((f"estimate {e['name']}", ["estimate", "--estimator", e["name"]] + extra,
                    ("estimate", dict(estimator=e["name"], **py_extra))))
    for t in calib.methods():
        if t["classes_only"] and not classes:
            continue
        py_extra = required.get(t["name"], {})
        ops.append((f"test {t['name']}", ["test", "--method", t["name"]] + flags(py_extra),
                    ("test", dict(method=t["name"], **py_extra))))
    if family in CLASS_FAMILIES or family == "normal":
        ops.append(("test gamma mmd", ["test", "--method", "gamma", "--estimator", "mmd"] + flags(mmd),
                    ("test", dict(method="gamma", estimator="mmd", **mmd))))
    ops.append(("metrics", ["metrics"], ("metrics", {})))
    if classes:
        ops.append(("rank", ["rank", "--replicates", "50", "--input", "DATA2"], ("rank", {"replicates": 50})))
    ops.append(("report", ["report", "--format", "json", "--replicates", "50"], None))
    ops.append(("report html", ["report", "--replicates", "50", "--output", "HTML"], None))
    if classes:
        ops.append(("diagram corp", ["diagram", "--event", "top-label", "--replicates", "20"],
                    ("diagram", {"event": "top-label", "replicates": 20})))
        ops.append(("diagram reliability", ["diagram", "--diagram", "reliability"], ("diagram", {"diagram": "reliability"})))
    else:
        for diagram in ("pit", "coverage"):
            ops.append((f"diagram {diagram}", ["diagram", "--diagram", diagram], ("diagram", {"diagram": diagram})))
    if classes:
        ops.append(("reliability_diagram", None, ("reliability_diagram", {"smooth_points": 20})))
        ops.append(("reliability_diagram equal-mass", None, ("reliability_diagram", {"binning": "equal-mass"})))
    elif family not in ("mvnormal-diag", "mvnormal"):
        ops.append(("pit", None, ("pit", {})))
    if family == "categorical":
        for method in ("temperature", "temperature-bias", "platt", "beta", "vector", "matrix", "isotonic", "top-label-isotonic", "histogram", "venn-abers", "auto"):
            ops.append((f"recalibrate {method}", ["recalibrate", "fit", "--method", method, "--out", "MAP"],
                        ("recalibrate_fit", dict(method=method))))
    if family == "normal":
        ops.append(("recalibrate affine", ["recalibrate", "fit", "--method", "affine", "--out", "MAP"],
                    ("recalibrate_fit", dict(method="affine"))))
        ops.append(("recalibrate affine nll+mmd", ["recalibrate", "fit", "--method", "affine", "--objective", "nll+mmd",
                                                    "--lambda", "1", "--out", "MAP"],
                    ("recalibrate_fit", {"method": "affine", "objective": "nll+mmd", "lambda_": 1.0})))
    return ops


# --- the rules ------------------------------------------------------------------------------------

failures = []
python_lock = threading.Lock()
counts = {"runs": 0, "refused": 0, "answered": 0}


def fail(case, message):
    failures.append(f"{case}: {message}")


def nulls(value, path=""):
    """The JSON paths whose value is null."""
    if value is None:
        return [path or "."]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in nulls(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in nulls(v, f"{path}[{i}]")]
    return []


def non_finite(value, path=""):
    """The paths of non-finite floats in a Python result (dicts, lists, arrays, result objects)."""
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    if isinstance(value, float):
        return [] if math.isfinite(value) else [path or "."]
    if isinstance(value, np.ndarray):
        return [] if value.dtype.kind != "f" or np.isfinite(value).all() else [path or "."]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in non_finite(v, f"{path}.{k}")]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in non_finite(v, f"{path}[{i}]")]
    return []


def run_cli(case, args):
    """The CLI's verdict: ("refused", message) or ("answered", output)."""
    try:
        done = subprocess.run([CLI] + args, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        fail(case, "CLI: no answer within 120 s")
        return None
    with python_lock:
        counts["runs"] += 1
    errors = [l for l in done.stderr.splitlines() if not l.startswith("calib: warning:")]
    warned = [l for l in done.stderr.splitlines() if l.startswith("calib: warning:")]
    if done.returncode < 0:
        fail(case, f"CLI: killed by signal {-done.returncode}")
        return None
    if done.returncode == 1 or "internal error" in done.stderr:
        fail(case, f"CLI: internal error: {done.stderr.strip()}")
        return None
    if done.returncode == 2:
        if len(errors) != 1 or not errors[0].startswith("calib: "):
            fail(case, f"CLI: a refusal must be one line 'calib: ...', got {errors!r}")
        with python_lock:
            counts["refused"] += 1
        return ("refused", errors[0] if errors else "")
    if done.returncode != 0:
        fail(case, f"CLI: exit {done.returncode}")
        return None
    with python_lock:
        counts["answered"] += 1
    if (args[0] == "recalibrate" and args[1] == "fit") or (args[0] == "report" and "--format" not in args):
        return ("answered", None)
    try:
        output = json.loads(done.stdout)
    except json.JSONDecodeError as e:
        fail(case, f"CLI: output is not JSON ({e})")
        return None
    for path in nulls(output):  # each one named: "calib: warning: models[0].nll = inf, written null ..."
        if not any(w.startswith(f"calib: warning: {path.lstrip('.')} = ") for w in warned):
            fail(case, f"CLI: {path} is null without a warning naming it")
    return ("answered", output)


def run_python(case, call, arrays, reading, family):
    if call is None:
        return None
    name, options = call
    options = {k: (valid(family, np.random.default_rng(5), 2) if v == "LOCATIONS" else v) for k, v in options.items()}
    with python_lock, warnings.catch_warnings(record=True) as caught:  # warnings are the process's
        warnings.simplefilter("always")
        try:
            if name == "pit":
                u = calib.pit(family=family, **arrays)
                result = [u, calib.pit_histogram(u), calib.interval_coverage(u)]
            elif name == "reliability_diagram":
                result = calib.reliability_diagram(arrays["probs"], arrays["labels"], family=family, **reading, **options)
                # Empty bins are NaN by the documented rule (docs/python.md): only filled bins count.
                result = dict(result, bins=[b for b in result["bins"] if b["count"] > 0])
            elif name == "rank":
                models = [arrays["probs"], arrays["probs"][::-1].copy()]
                result = calib.rank(models, arrays["labels"], family=family, **reading, **options)
            else:
                result = getattr(calib, name)(family=family, **arrays, **reading, **options)
        except (ValueError, TypeError, ArithmeticError) as e:
            if isinstance(e, TypeError):
                fail(case, f"Python: TypeError on data: {e}")
            return ("refused", str(e))
        except Exception as e:  # noqa: BLE001 - any other exception breaks the rule
            fail(case, f"Python: {type(e).__name__}: {e}")
            return None
    said = [str(w.message) for w in caught]
    for path in non_finite(result):  # each one named by its field: "statistic = inf"
        field = re.sub(r"(\[\d+\])+$", "", path).rsplit(".", 1)[-1]
        if not any(w.startswith(f"{field} = ") for w in said):
            fail(case, f"Python: {path} is not finite without a warning naming it")
    return ("answered", result)


def check_html(case, path):
    """A report's page draws no NaN or infinite coordinate and shows no 'nan'."""
    with open(path, encoding="utf-8") as f:
        page = f.read()
    bad = re.findall(r'="[^"]*\b(?:nan|inf)\b[^"]*"', page, flags=re.IGNORECASE)
    shown = re.findall(r'>[^<]*\bnan\b[^<]*<', page, flags=re.IGNORECASE)
    if bad or shown:
        fail(case, f"HTML: non-finite numbers in the page: {(bad + shown)[:3]}")


def check_apply(case, folder, data_file, arrays, reading):
    """recalibrate apply of the map just fitted, on the same predictions read the same way (CLI and
    Python): the file's last column is its labels (--labelled)."""
    out = os.path.join(folder, "applied.npy")
    renormalize = reading.get("renormalize") is True
    cli = run_cli(case + " | apply", ["recalibrate", "apply", "--map", os.path.join(folder, "map.json"),
                                      "--input", data_file, "--labelled", "--output", out]
                  + (["--renormalize"] if renormalize else []))
    if cli and cli[0] == "answered":
        values = np.load(out)
        if not np.isfinite(values).all():
            fail(case + " | apply", "CLI: non-finite values written with exit 0")
    with open(os.path.join(folder, "map.json")) as f:
        fitted = json.load(f)
    given = {k: v for k, v in arrays.items() if k in ("probs", "mean", "std")}
    if renormalize:
        given["renormalize"] = True
    try:
        result = calib.recalibrate_apply(fitted, **given)
    except (ValueError, ArithmeticError) as e:
        if cli and cli[0] == "answered":
            fail(case + " | apply", f"Python refuses ({e}) where the CLI answers")
        return
    except Exception as e:  # noqa: BLE001
        fail(case + " | apply", f"Python: {type(e).__name__}: {e}")
        return
    if non_finite(result):
        fail(case + " | apply", "Python: non-finite values")
    if cli and cli[0] == "refused":
        fail(case + " | apply", f"Python answers where the CLI refuses ({cli[1]})")


def command_line(args, family, data, folder, reading_args=()):
    """The CLI arguments of an operation: its command's words, --family and --input, the reading options,
    then its own, with the placeholders LOCATIONS, DATA2, HTML and MAP as files in folder."""
    files = {"LOCATIONS": "locations.csv", "DATA2": "data2.csv", "HTML": "report.html", "MAP": "map.json"}
    args = [os.path.join(folder, files[a]) if a in files else a for a in args]
    words = 2 if args[0] == "recalibrate" else 1
    return args[:words] + ["--family", family, "--input", data, *reading_args] + args[words:]


def run_case(family, case_name, arrays, reading):
    with tempfile.TemporaryDirectory() as folder:
        table = columns(family, arrays)
        dtype = np.float32 if case_name == "float32" else np.float64
        data_file = os.path.join(folder, "data.npy" if case_name == "float32" else "data.csv")
        if case_name == "float32":
            np.save(data_file, table.astype(dtype))
        else:
            np.savetxt(data_file, table, fmt="%.17g", delimiter=",")
        second = table.copy()
        if family in CLASS_FAMILIES:
            second[:, :-1] = second[::-1, :-1]
        np.savetxt(os.path.join(folder, "data2.csv"), second, fmt="%.17g", delimiter=",")
        locations = valid(family, np.random.default_rng(5), 2)
        np.savetxt(os.path.join(folder, "locations.csv"), columns(family, locations), fmt="%.17g", delimiter=",")
        reading_args = [("--" + k.replace("_", "-")) for k, v in reading.items() if v is True]
        for op_name, args, call in operations(family):
            case = f"{family} / {case_name} / {op_name}"
            cli = None
            if args is not None:
                cli = run_cli(case, command_line(args, family, data_file, folder, reading_args))
                if op_name == "report html" and cli and cli[0] == "answered":
                    check_html(case, os.path.join(folder, "report.html"))
            py = run_python(case, call, arrays, reading, family)
            if cli and py and cli[0] != py[0]:
                fail(case, f"front-ends disagree: CLI {cli[0]}{' (' + cli[1] + ')' if cli[0] == 'refused' else ''}, "
                           f"Python {py[0]}{' (' + py[1] + ')' if py[0] == 'refused' else ''}")
            if op_name.startswith("recalibrate") and cli and cli[0] == "answered":
                check_apply(case, folder, data_file, arrays, reading)


def extreme_maps():
    """(name, map, inputs) of fitted maps with parameters pushed to the edges of the doubles, and of
    inputs the map was not fitted on: apply must refuse them or write finite predictions."""
    rng = np.random.default_rng(7)
    probs = dirichlet_rows(rng, 20, 3)
    labels = rng.choice(3, size=20)
    logits = rng.normal(size=(20, 3)) * 30
    mean, std = rng.normal(size=20), rng.uniform(0.5, 2, 20)
    y = mean + rng.normal(size=20)
    maps = []
    for method in ("temperature", "temperature-bias", "vector", "matrix", "isotonic"):
        fitted = calib.recalibrate_fit(probs, labels, method=method)
        maps.append((method, fitted, {"probs": probs}))
        maps.append((method + " given logits", fitted, {"probs": logits}))
        for key, value in fitted["parameters"].items():
            for extreme in (5e-324, 1e308, -1e308, 1e-308):
                changed = json.loads(json.dumps(fitted))
                changed["parameters"][key] = (np.full(np.shape(value), extreme).tolist() if np.ndim(value) else extreme)
                maps.append((f"{method} {key} = {extreme:g}", changed, {"probs": probs}))
    fitted = calib.recalibrate_fit(mean=mean, std=std, y=y, method="affine")
    for key in fitted["parameters"]:
        for extreme in (5e-324, 1e308, -1e308, 1000.0, -1000.0):
            changed = json.loads(json.dumps(fitted))
            changed["parameters"][key] = extreme
            maps.append((f"affine {key} = {extreme:g}", changed, {"mean": mean, "std": std}))
    return maps


def run_extreme_maps():
    with tempfile.TemporaryDirectory() as folder:
        for name, recalibration_map, inputs in extreme_maps():
            case = f"apply / {name}"
            map_file = os.path.join(folder, "map.json")
            with open(map_file, "w") as f:
                json.dump(recalibration_map, f)
            data = os.path.join(folder, "input.csv")
            table = inputs["probs"] if "probs" in inputs else np.c_[inputs["mean"], inputs["std"]]
            np.savetxt(data, table, fmt="%.17g", delimiter=",")
            out = os.path.join(folder, "applied.csv")
            cli = run_cli(case, ["recalibrate", "apply", "--map", map_file, "--input", data, "--output", out])
            if cli and cli[0] == "answered":
                written = np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)
                if not np.isfinite(written).all():
                    fail(case, "CLI: non-finite predictions written with exit 0")
            try:
                result = calib.recalibrate_apply(recalibration_map, **inputs)
                py = "answered"
                if non_finite(result):
                    fail(case, "Python: non-finite predictions")
            except (ValueError, ArithmeticError):
                py = "refused"
            except Exception as e:  # noqa: BLE001
                fail(case, f"Python: {type(e).__name__}: {e}")
                continue
            if cli and cli[0] != py:
                fail(case, f"front-ends disagree: CLI {cli[0]}, Python {py}")
            if name.endswith("given logits") and py != "refused":
                fail(case, "a map fitted on probabilities took logits")
            if os.environ.get("EDGES_VERBOSE"):
                print(f"{case}: {py}")


def reader_cases(folder):
    """(name, path, extra options) of files at the edges of the readers: odd encodings and layouts that
    must be read or refused in one line."""
    rng = np.random.default_rng(11)
    p = dirichlet_rows(rng, 12, 3)
    y = rng.choice(3, size=12)
    rows = [",".join(f"{v:.17g}" for v in row) + f",{label}" for row, label in zip(p, y)]
    texts = {
        "crlf.csv": "\r\n".join(rows) + "\r\n",
        "bom.csv": "\ufeffp1,p2,p3,label\n" + "\n".join(rows) + "\n",
        "blank-lines.csv": "\n\n".join(rows) + "\n\n",
        "trailing-delimiter.csv": ",\n".join(rows) + ",\n",
        "quoted.csv": "\n".join('"' + r.replace(",", '","') + '"' for r in rows) + "\n",
        "overflow.csv": "\n".join(rows[:-1] + ["1e400,0,0,0"]) + "\n",
        "hex.csv": "\n".join(rows[:-1] + ["0x1p-1,0x1p-2,0x1p-2,0"]) + "\n",
        "ragged.csv": "\n".join(rows[:-1] + ["0.5,0.5"]) + "\n",
        "fractional-label.csv": "\n".join(rows[:-1] + ["0.5,0.25,0.25,1.5"]) + "\n",
        "huge-label.csv": "\n".join(rows[:-1] + ["0.5,0.25,0.25,18446744073709551617"]) + "\n",
        "whitespace-only.csv": "   \n\t\n",
        "binary-garbage.csv": "\x01\x02\x03",
        "one-column.csv": "\n".join("0.5" for _ in rows) + "\n",
        "long-line.csv": ",".join(["0.001"] * 100000) + ",0\n",
    }
    cases = []
    for name, text in texts.items():
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        cases.append((name, path, []))
    table = np.c_[p, y]
    arrays = {
        "big-endian.npy": table.astype(">f8"),
        "fortran-order.npy": np.asfortranarray(table),
        "float16.npy": table.astype(np.float16),
        "int8-labels.npy": y.astype(np.int8),
        "uint64-labels.npy": y.astype(np.uint64),
        "bool-labels.npy": (y > 0),
        "3d.npy": table.reshape(12, 2, 2),
        "empty-2d.npy": np.zeros((0, 4)),
        "0d.npy": np.array(1.0),
        "strings.npy": np.array([["a", "b"]]),
        "complex.npy": table.astype(np.complex128),
    }
    probs_file = os.path.join(folder, "probs.npy")
    np.save(probs_file, p)
    for name, array in arrays.items():
        path = os.path.join(folder, name)
        np.save(path, array)
        if name.endswith("-labels.npy"):
            cases.append((name, probs_file, ["--labels", path]))
        else:
            cases.append((name, path, []))
    with open(os.path.join(folder, "object.npy"), "wb") as f:
        np.save(f, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    cases.append(("object.npy", os.path.join(folder, "object.npy"), []))
    with open(os.path.join(folder, "truncated.npy"), "wb") as f:
        f.write(open(os.path.join(folder, "big-endian.npy"), "rb").read()[:150])
    cases.append(("truncated.npy", os.path.join(folder, "truncated.npy"), []))
    return cases


def run_readers():
    with tempfile.TemporaryDirectory() as folder:
        for name, path, extra in reader_cases(folder):
            for args in (["estimate", "--estimator", "skce-unbiased"], ["metrics"]):
                run_cli(f"reader / {name} / {args[0]}", [args[0], "--family", "categorical", "--input", path] + extra + args[1:])


def smallest_n_table():
    """The rows of docs/cli.md's "The smallest data each operation takes" as (operation names of
    operations(), smallest n)."""
    docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "cli.md")
    text = open(docs, encoding="utf-8").read()
    section = text[text.index("### The smallest data each operation takes"):]
    rows = []
    for line in section.split("\n## ")[0].splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names, kind = [], None
        for token in re.findall(r"`([^`]+)`", cells[0]):
            words = token.split()
            if words[0] in ("estimate", "test", "recalibrate", "metrics", "rank", "report", "diagram"):
                kind = words[0]
                if kind in ("metrics", "rank", "report"):
                    names.append(kind)
                    continue
                if kind == "diagram":
                    names.append(f"diagram {words[words.index('--diagram') + 1]}")
                    continue
                name = words[words.index("--method" if kind != "estimate" else "--estimator") + 1]
                if "--objective" in words:
                    name += " " + words[words.index("--objective") + 1]
            else:
                name = token
            names.append(f"{kind} {name}")
        rows.append((names, int(re.match(r"\d+", cells[1]).group())))
    if len(rows) < 5:
        fail("docs/cli.md", "the table of the smallest n was not found")
    return rows


def run_smallest_n():
    """Each operation of the table answers at its smallest n and refuses one observation fewer."""
    rows = smallest_n_table()
    with tempfile.TemporaryDirectory() as folder:
        for family in FAMILIES:
            ops = {name: args for name, args, _ in operations(family) if args is not None}
            for names, smallest in rows:
                for name in names:
                    if name not in ops:
                        continue
                    for n in (30, smallest - 1, smallest):  # 30: does the operation take this family at all?
                        if n < 1:
                            continue
                        table = columns(family, valid(family, np.random.default_rng(n), n))
                        data = os.path.join(folder, "data.csv")
                        for path in (data, os.path.join(folder, "data2.csv")):  # rank's second model: the same
                            np.savetxt(path, table, fmt="%.17g", delimiter=",")
                        np.savetxt(os.path.join(folder, "locations.csv"),
                                   columns(family, valid(family, np.random.default_rng(5), 1)), fmt="%.17g", delimiter=",")
                        case = f"{family} / smallest n / {name} at n = {n}"
                        verdict = run_cli(case, command_line(ops[name], family, data, folder))
                        if n == 30 and verdict and verdict[0] == "refused":
                            break
                        expected = "answered" if n >= smallest else "refused"
                        if verdict and verdict[0] != expected:
                            fail(case, f"{verdict[0]}, docs/cli.md says the smallest n is {smallest}")


def run_empty_files():
    with tempfile.TemporaryDirectory() as folder:
        empty = os.path.join(folder, "empty.csv")
        open(empty, "w").close()
        header = os.path.join(folder, "header.csv")
        with open(header, "w") as f:
            f.write("p1,p2,label\n")
        for name, path in (("empty file", empty), ("header only", header)):
            for args in (["estimate", "--estimator", "skce-unbiased"], ["test", "--method", "block"], ["metrics"],
                         ["report", "--format", "json"], ["recalibrate", "fit", "--method", "temperature", "--out", "MAP"],
                         ["diagram", "--event", "top-label"]):
                case = f"categorical / {name} / {' '.join(args[:2])}"
                verdict = run_cli(case, command_line(args, "categorical", path, folder))
                if verdict and verdict[0] == "answered":
                    fail(case, "an empty input was answered")
    for name, options in (("estimate", {"estimator": "skce-unbiased"}), ("test", {"method": "block"}), ("metrics", {})):
        verdict = run_python(f"categorical / n=0 / {name}", (name, options),
                             dict(probs=np.zeros((0, 3)), labels=np.zeros(0, dtype=np.int64)), {}, "categorical")
        if verdict and verdict[0] == "answered":
            fail(f"categorical / n=0 / {name}", "Python answered on no data")


def run_campaign_cases():
    """The defects of the n = 1e6 / mismatched-files / wrong-paths campaign (issue "Nothing lost by a
    typo"): each must now be refused in one line, by both front-ends where both take the input, and
    leave every input as it was."""
    rng = np.random.default_rng(63)
    with tempfile.TemporaryDirectory() as folder:
        path = lambda name: os.path.join(folder, name)
        p = dirichlet_rows(rng, 40, 10)
        y = rng.choice(10, size=40)
        np.savetxt(path("train.csv"), np.c_[p, y], fmt="%.17g", delimiter=",")
        fitted = calib.recalibrate_fit(p, y, method="temperature")
        with open(path("map.json"), "w") as f:
            json.dump(fitted, f)
        # An output over an input: every writer, every input option; the input byte for byte as it was.
        original = open(path("train.csv"), "rb").read()
        writers = [
            ("fit --out = --input", ["recalibrate", "fit", "--family", "categorical", "--input", path("train.csv"),
                                     "--method", "temperature", "--out", path("train.csv")]),
            ("apply --output = --input", ["recalibrate", "apply", "--map", path("map.json"), "--input",
                                          path("train.csv"), "--labelled", "--output", path("train.csv")]),
            ("apply --output = --map", ["recalibrate", "apply", "--map", path("map.json"), "--input",
                                        path("train.csv"), "--labelled", "--output", path("map.json")]),
            ("report --output = --input", ["report", "--family", "categorical", "--input", path("train.csv"),
                                           "--replicates", "10", "--output", path("train.csv")]),
        ]
        for name, args in writers:
            verdict = run_cli("campaign / " + name, args)
            if not verdict or verdict[0] != "refused" or "is the same file as" not in verdict[1]:
                fail("campaign / " + name, f"not refused as an output over an input: {verdict}")
        if open(path("train.csv"), "rb").read() != original or json.load(open(path("map.json"))) != fitted:
            fail("campaign / outputs over inputs", "an input changed")
        # apply: a 10-class map given 11 columns, labels out of range or not integers, rows off the simplex.
        np.savetxt(path("eleven.csv"), np.c_[p, p[:, :1]] / np.c_[p, p[:, :1]].sum(axis=1, keepdims=True),
                   fmt="%.17g", delimiter=",")
        cases = [("11 columns for 10 classes", path("eleven.csv"), [], np.c_[p, p[:, :1]])]
        for label in ("-1", "1.5", "18446744073709551616", "10"):
            rows = open(path("train.csv")).read().splitlines()
            rows[3] = rows[3].rsplit(",", 1)[0] + "," + label
            name = f"label{label}.csv"
            open(path(name), "w").write("\n".join(rows) + "\n")
            cases.append((f"label {label}", path(name), ["--labelled"], None))
        off = p.copy()
        off[5] *= 1.2
        np.savetxt(path("off.csv"), off, fmt="%.17g", delimiter=",")
        cases.append(("a row off the simplex", path("off.csv"), [], off))
        for name, data, extra, array in cases:
            verdict = run_cli("campaign / apply / " + name, ["recalibrate", "apply", "--map", path("map.json"),
                                                             "--input", data, *extra, "--output", path("out.csv")])
            if not verdict or verdict[0] != "refused":
                fail("campaign / apply / " + name, f"the CLI did not refuse it: {verdict}")
            if array is not None:
                try:
                    calib.recalibrate_apply(fitted, array)
                    fail("campaign / apply / " + name, "Python did not refuse it")
                except ValueError:
                    pass
        # The header rule: a malformed cell in a headerless first row is an error at line 1, not a header.
        rows = open(path("train.csv")).read().splitlines()
        rows[0] = rows[0].replace(",", "x,", 1)
        open(path("malformed.csv"), "w").write("\n".join(rows) + "\n")
        verdict = run_cli("campaign / header", ["estimate", "--family", "categorical", "--input", path("malformed.csv"),
                                                "--estimator", "ece"])
        if not verdict or verdict[0] != "refused" or "line 1, column 1" not in verdict[1]:
            fail("campaign / header", f"a malformed first row was not refused at line 1: {verdict}")
        # Cox on saturated predictions (0 and 1): refused with the fix named, answered with it, alike in Python.
        q = rng.uniform(0.05, 0.95, 200)
        outcomes = (rng.uniform(size=200) < q).astype(int)
        q[:2], outcomes[:2] = (0.0, 1.0), (0, 1)
        np.savetxt(path("saturated.csv"), np.c_[q, outcomes], fmt="%.17g", delimiter=",")
        cox = ["test", "--family", "binary", "--input", path("saturated.csv"), "--method", "cox"]
        verdict = run_cli("campaign / cox at 0 and 1", cox)
        if not verdict or verdict[0] != "refused" or "--clip EPS" not in verdict[1]:
            fail("campaign / cox at 0 and 1", f"not refused with the fix named: {verdict}")
        verdict = run_cli("campaign / cox --clip", cox + ["--clip", "1e-15"])
        if not verdict or verdict[0] != "answered" or verdict[1].get("clipped") != 2:
            fail("campaign / cox --clip", f"not answered with 2 predictions clipped: {verdict}")
        try:
            calib.test(q, outcomes, method="cox")
            fail("campaign / cox at 0 and 1", "Python did not refuse it")
        except ValueError as e:
            if "`clip` EPS" not in str(e):
                fail("campaign / cox at 0 and 1", f"Python's refusal does not name the fix: {e}")
        if calib.test(q, outcomes, method="cox", clip=1e-15).details["clipped"] != 2:
            fail("campaign / cox --clip", "Python did not clip 2 predictions")


def main():
    jobs = [(family, *case) for family in FAMILIES for case in edge_cases(family)]
    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as pool:
        list(pool.map(lambda job: run_case(*job), jobs))
    run_empty_files()
    run_smallest_n()
    run_readers()
    run_extreme_maps()
    run_campaign_cases()
    for line in failures:
        print("FAIL", line)
    print(f"edges: {len(jobs)} data sets, {counts['runs']} CLI runs ({counts['answered']} answered, "
          f"{counts['refused']} refused), {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

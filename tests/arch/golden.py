"""The golden set of calib's promise about identical numbers (docs/architecture.md, "Identical
numbers"): one command line per family x estimator, family x test method, and the rank, metrics,
recalibration and diagram commands, run on the sample files of examples/data, and the same numbers from the
Python module. Two runs of it, by builds for different ARCH levels or on different CPUs, must agree
under the promise.

    python3 tests/arch/golden.py run CALIB OUT.json [--python PYTHONPATH]   # record the outputs
    python3 tests/arch/golden.py compare A.json B.json                     # check the promise

`run` also checks that the list names every family, estimator and test method that `calib
estimate --help` and `calib test --help` list (a new one must be added here). `compare` prints the
largest relative difference of each kind of output and one line per number outside the promise,
and exits 1 if there is one."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Relative tolerance between builds (printed_numbers.py holds it for the docs' checks too).
sys.path.insert(0, os.path.join(ROOT, "tests", "docs"))
from printed_numbers import REL_TOL  # noqa: E402

# The input of each family (a file of examples/data) and what it can take.
FAMILIES = {
    "categorical": "preds.csv",
    "binary": "scores.csv",
    "normal": "gauss.csv",
    "laplace": "lap.csv",
    "mvnormal-diag": "mvd.csv",
    "mvnormal": "mv.csv",
    "mixture-normal": "ensemble.csv",
}
CLASSES = ("categorical", "binary")
ESTIMATORS = {
    "skce-biased": "", "skce-unbiased": "", "skce-block": "--block-size sqrt",
    "ece": "", "ckce": "", "mmd": "", "ce-bins": "", "ce-kde": "", "ce-kkr": "", "ce-ukkr": "", "brier": "",
    "ucme": "--test-locations locations.csv", "ici": "--replicates 50",
    "debiased-l2": "--replicates 50", "smooth-ece": "--replicates 20 --curve-points 5", "corp": "--score log",
    "crps": "", "calibration-ratio": "", "normalized-entropy": "",
}
TESTS = {
    "block": "--block-size sqrt", "bootstrap": "--replicates 200", "gamma": "", "spectral": "",
    "dfree-biased": "", "dfree-unbiased": "", "dfree-block": "--block-size sqrt",
    "consistency": "--estimator skce-unbiased --replicates 200", "cme": "--locations 4",
    "spiegelhalter": "", "citl": "", "hosmer-lemeshow": "", "cox": "", "ks": "", "kuiper": "",
    "t-cal": "--replicates 300",
}
# The binary CME test's one test location (p, y), written beside the sample files.
BINARY_LOCATION = ("binary_location.csv", "p,y\n0.3,1\n")
BINARY_ONLY = ("spiegelhalter", "citl", "hosmer-lemeshow", "cox", "ks", "kuiper", "t-cal", "ici", "smooth-ece", "corp",
               "calibration-ratio", "normalized-entropy")
UNIVARIATE = ("normal", "laplace", "mixture-normal")


def applies(family, method):
    if method in BINARY_ONLY:
        return family == "binary"  # preds.csv has ten classes
    if method in ("ece", "ckce", "consistency", "ce-bins", "ce-kde", "ce-kkr", "ce-ukkr", "brier", "debiased-l2"):
        return family in CLASSES
    if method == "mmd":
        return family in CLASSES + ("normal",)
    if method == "ucme":
        return family == "normal"  # locations.csv holds normal predictions
    if method == "crps":
        return family in UNIVARIATE
    return True


def commands():
    """(name, arguments) of every command of the golden set."""
    out = []
    for family, path in FAMILIES.items():
        data = "--family %s --input %s" % (family, path)
        for estimator, options in ESTIMATORS.items():
            if applies(family, estimator):
                if estimator == "mmd" and family == "normal":
                    options = "--notion distribution --kernel-y sqexp"
                out.append(("estimate %s %s" % (family, estimator),
                            "estimate %s --estimator %s %s" % (data, estimator, options)))
        for method, options in TESTS.items():
            if method == "cme" and family == "binary":
                # Two classes: J^2 <= 0.002 n (docs/tests.md). A drawn location would leave 499 of scores.csv's
                # 500 rows, too few for J = 1; one given location keeps the 500.
                options = "--test-locations %s" % BINARY_LOCATION[0]
            if applies(family, method):
                out.append(("test %s %s" % (family, method), "test %s --method %s %s" % (data, method, options)))
        out.append(("metrics %s" % family, "metrics %s" % data) if family in CLASSES + ("normal",) else None)
    out = [c for c in out if c]
    out.append(("test categorical mmd bootstrap",
                "test --family categorical --input preds.csv --method bootstrap --replicates 200 --estimator mmd"))
    out.append(("rank categorical", "rank --family categorical --input lenet.csv resnet.csv --replicates 50"))
    out.append(("estimate categorical logits", "estimate --family categorical --input logits.csv --logits --one-based-labels --estimator skce-unbiased"))
    out.append(("estimate categorical npy", "estimate --family categorical --input preds.npy --labels labels.npy --estimator skce-unbiased"))
    for method in ("temperature", "platt", "vector", "matrix", "isotonic", "top-label-isotonic", "histogram"):
        out.append(("recalibrate categorical %s" % method,
                    "recalibrate fit --family categorical --input preds.csv --method %s --out map.json" % method))
    # At its default ridges Dirichlet calibration of these 10 classes stops at max_iterations, a point on
    # L-BFGS's path that rounding moves (outside the promise); with larger ridges it reaches its minimum.
    out.append(("recalibrate categorical dirichlet", "recalibrate fit --family categorical --input preds.csv "
                "--method dirichlet --ridge 1 --intercept-ridge 1 --out map.json"))
    out.append(("recalibrate normal affine", "recalibrate fit --family normal --input gauss.csv --method affine --out map.json"))
    out.append(("diagram binary corp", "diagram --family binary --input scores.csv --replicates 50 --band-points 25"))
    out.append(("diagram categorical corp top-label", "diagram --family categorical --input preds.csv --event top-label --replicates 50 --band-points 25"))
    out.append(("diagram normal pit", "diagram --family normal --input gauss.csv"))
    return out


# The Python module's values: the same library through the module's arrays.
PYTHON_CALLS = r"""
import json, sys
import numpy as np
import calib
t = np.loadtxt("preds.csv", delimiter=",", skiprows=1)
p, y = t[:, :-1], t[:, -1].astype(int)
g = np.loadtxt("gauss.csv", delimiter=",", skiprows=1)
out = {
    "skce": calib.skce(p, y),
    "ece": calib.ece(p, y),
    "ckce": calib.ckce(p, y),
    "test block": calib.test(p, y, method="block", block_size="sqrt").p_value,
    "test gamma": calib.test(p, y, method="gamma").p_value,
    "test normal": calib.test(mean=g[:, 0], std=g[:, 1], y=g[:, 2], method="bootstrap", replicates=200).p_value,
    "temperature": calib.recalibrate_fit(p, y, method="temperature")["parameters"]["temperature"],
}
json.dump(out, sys.stdout)
"""

# Fields that say where and how a run happened, not what it computed.
IGNORED = {"threads", "compute_seconds", "wall_time_seconds", "calib_version", "memory_budget", "working_memory"}
# Recalibration maps are fitted by L-BFGS, which stops at a tolerance on a minimum that may be flat:
# a last-bit difference can change the iteration counts and move the parameters along the flat
# directions, while the objective at the end stays within REL_TOL (docs/architecture.md).
FIT_TOL = 1e-5
FITS = ("recalibrate",)
# and whether the gradient test held before a line search failed at the rounding floor (the status).
FIT_FREE = {"iterations", "evaluations", "status"}

def listed(help_text, heading):
    """The names listed under a heading of a --help text (two-space indent, then the name)."""
    section = help_text.split(heading, 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"^  ([a-z][a-z0-9-]*)\s", section, re.MULTILINE))


def check_coverage(calib):
    estimate_help = subprocess.run([calib, "estimate", "--help"], capture_output=True, text=True).stdout
    test_help = subprocess.run([calib, "test", "--help"], capture_output=True, text=True).stdout
    families = set(re.findall(r"^  --family ([a-z-]+)", estimate_help, re.MULTILINE))
    missing = (families - set(FAMILIES)) | (listed(estimate_help, "Estimators (--estimator E):") - set(ESTIMATORS)) \
        | (listed(test_help, "Methods (--method M") - set(TESTS))
    if missing:
        sys.exit("golden.py: the golden set lacks %s; add them to tests/arch/golden.py" % ", ".join(sorted(missing)))


def run(calib, out_path, pythonpath):
    calib = os.path.abspath(calib)
    check_coverage(calib)
    results = {}
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "data")
        shutil.copytree(os.path.join(ROOT, "examples", "data"), data)
        with open(os.path.join(data, BINARY_LOCATION[0]), "w") as f:
            f.write(BINARY_LOCATION[1])
        env = dict(os.environ, OMP_NUM_THREADS="2")
        for name, arguments in commands():
            done = subprocess.run([calib] + arguments.split(), cwd=data, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit("golden.py: `calib %s` failed (exit %d): %s" % (arguments, done.returncode, done.stderr.strip()))
            results[name] = json.loads(done.stdout)
            if os.path.exists(os.path.join(data, "map.json")):
                results[name + " map"] = json.load(open(os.path.join(data, "map.json")))
                os.remove(os.path.join(data, "map.json"))
        if pythonpath:
            done = subprocess.run([sys.executable, "-c", PYTHON_CALLS], cwd=data, capture_output=True, text=True,
                                  env=dict(env, PYTHONPATH=os.path.abspath(pythonpath)))
            if done.returncode != 0:
                sys.exit("golden.py: the Python calls failed: %s" % done.stderr.strip()[-2000:])
            results["python"] = json.loads(done.stdout)
    with open(out_path, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    print("golden.py: %d outputs of %s in %s" % (len(results), calib, out_path))


def numbers(value, path="", scale=0.0):
    """(path, number, scale) of every number in a JSON value, ignored fields left out; the scale of
    an element of a list of numbers is the list's largest magnitude (a vector is compared norm-wise)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in IGNORED:
                yield from numbers(item, path + "/" + key)
    elif isinstance(value, list):
        values = [abs(v) for v in value if isinstance(v, (int, float)) and not isinstance(v, bool)]
        for index, item in enumerate(value):
            yield from numbers(item, "%s[%d]" % (path, index), max(values, default=0.0))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, value, scale


def texts(value, free=frozenset()):
    """The JSON value without its numbers (they are compared under the tolerance) and without the
    fields in `free`."""
    if isinstance(value, dict):
        return {k: texts(v, free) for k, v in value.items() if k not in IGNORED and k not in free}
    if isinstance(value, list):
        return [texts(v, free) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0
    return value


def compare(a_path, b_path):
    a, b = json.load(open(a_path)), json.load(open(b_path))
    bad, worst = 0, {}
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            print("only in one run: %s" % name)
            bad += 1
            continue
        fit = name.startswith(FITS)
        free = FIT_FREE if fit else frozenset()
        if texts(a[name], free) != texts(b[name], free):
            print("%s: the outputs differ in more than their numbers" % name)
            bad += 1
            continue
        for (path, x, sx), (_, y, sy) in zip(numbers(a[name]), numbers(b[name])):
            if path.rsplit("/", 1)[-1] in free:
                continue
            kind = "fitted parameters" if fit and "/parameters/" in path else "direct"
            tol = FIT_TOL if kind == "fitted parameters" else REL_TOL
            scale = max(abs(x), abs(y), sx, sy)
            rel = abs(x - y) / scale if scale > 0 else 0.0
            worst[kind] = max(worst.get(kind, (0.0, "")), (rel, name + path))
            exact = isinstance(x, int) and isinstance(y, int)
            if (exact and x != y) or rel > tol:
                print("%s%s: %r vs %r (relative %.2g > %.2g)" % (name, path, x, y, rel, 0 if exact else tol))
                bad += 1
    for kind, (rel, where) in sorted(worst.items()):
        print("largest relative difference, %s outputs: %.3g (%s)" % (kind, rel, where))
    print("golden: %d outputs compared, %d outside the promise" % (len(a), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "run":
        pythonpath = sys.argv[sys.argv.index("--python") + 1] if "--python" in sys.argv else None
        run(sys.argv[2], sys.argv[3], pythonpath)
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)

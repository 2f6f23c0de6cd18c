"""The Python module on users' arrays: every bad array or option raises the documented exception with
a message naming the argument; float32 and other layouts give the values they hold; float64 C arrays
are read without a NumPy copy; results do not depend on the thread count; the GIL is released during
a computation; p-values under a calibrated model are not concentrated near 0; docstrings list every
option of the registry."""

import os
import re
import subprocess
import sys
import threading
import time
import tracemalloc
import warnings

import numpy as np
import pytest

import calib
from conftest import family_arrays, run_cli


def dirichlet_model(n, m, seed, calibrated=True):
    """Predictions from a Dirichlet and labels drawn from them (calibrated) or from sharpened ones."""
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(m), size=n)
    truth = probs if calibrated else np.eye(m)[probs.argmax(1)] * 0.9 + 0.1 / m
    labels = (truth.cumsum(1) < rng.random((n, 1))).sum(1)
    return probs, np.minimum(labels, m - 1)


@pytest.fixture(scope="module")
def data():
    return dirichlet_model(300, 4, seed=1)


# ---- bad arrays: ValueError (or TypeError for a wrong type), never a crash --------------------------

@pytest.mark.parametrize("probs,labels,message", [
    (np.zeros((3, 2, 2)), np.zeros(3), "probs must be a 2-d array"),
    (np.full((4, 3), 1 / 3), np.zeros(5, dtype=int), "labels has 5 rows but probs has 4"),
    (np.full((4, 3), 1 / 3), np.zeros((4, 1), dtype=int), "labels must be a 1-d array"),
    (np.empty((0, 3)), np.empty(0, dtype=int), "probs is empty"),
    (np.array([[0.5, np.nan], [0.5, 0.5]]), np.array([0, 1]), "nan"),
    (np.array([[0.5, 0.6], [0.5, 0.5]]), np.array([0, 1]), "simplex"),
    (np.full((2, 2), 0.5), np.array([0, 2]), "label"),
    (np.full((2, 2), 0.5), np.array([0.0, 1.5]), "labels[1]: label = 1.5, must be an integer"),
    (np.full((2, 2), 0.5), np.array([0, -1]), "labels[1]: label = -1, must be in [0, 1] (0-based labels)"),
    (np.full((2, 2), 0.5), np.array(["a", "b"]), "labels must hold numbers"),
    (np.array([["a", "b"]]), np.array([0]), "probs must hold numbers"),
    (np.full((2, 1), 1.0), np.array([0, 0]), "class"),
])
def test_bad_arrays_raise_value_error(probs, labels, message):
    with pytest.raises(ValueError, match=None) as info:
        calib.skce(probs, labels)
    assert message.lower() in str(info.value).lower()


def test_missing_and_extra_arrays():
    with pytest.raises(ValueError, match="no predictions given"):
        calib.skce()
    with pytest.raises(ValueError, match="missing labels"):
        calib.skce(np.full((2, 2), 0.5))
    with pytest.raises(ValueError, match="missing y"):
        calib.skce(mean=np.zeros(3), std=np.ones(3))
    with pytest.raises(ValueError, match="std does not apply to family categorical"):
        calib.skce(np.full((2, 2), 0.5), [0, 1], std=np.ones(2))
    with pytest.raises(ValueError, match="cov must have shape"):
        calib.skce(mean=np.zeros((3, 2)), cov=np.ones((3, 2, 3)), y=np.zeros((3, 2)))
    with pytest.raises(ValueError, match="std"):
        calib.skce(mean=np.zeros(3), std=-np.ones(3), y=np.zeros(3))


def test_bad_options(data):
    probs, labels = data
    with pytest.raises(TypeError, match="option `blocksize` does not apply to `estimator` skce-unbiased; its options are `kernel_p`, `metric`"):
        calib.skce(probs, labels, blocksize=3)
    with pytest.raises(ValueError, match="option `replicates` = '0', must be an integer in"):
        calib.test(probs, labels, replicates=0)
    with pytest.raises(ValueError, match="replicates"):
        calib.test(probs, labels, replicates=True)
    with pytest.raises(ValueError, match="option `features` applies only with `ckce_method` rff, not exact"):
        calib.ckce(probs, labels, features=10)
    with pytest.raises(ValueError, match="train takes the arrays of a data set .* not a file name"):
        calib.estimate(probs, labels, estimator="ce-kkr", train="train.csv", ridge_constant=1e-3)
    with pytest.raises(ValueError, match="train must hold 2 arrays"):
        calib.estimate(probs, labels, estimator="ce-kkr", train=(probs,), ridge_constant=1e-3)
    with pytest.raises(ValueError, match="option `seed` takes a value, not arrays"):
        calib.estimate(probs, labels, estimator="ce-kkr", seed=(1, 2))
    with pytest.raises(ValueError, match="train has 2 classes but data has"):
        calib.estimate(probs, labels, estimator="ce-bins", train=(np.full((4, 2), 0.5), [0, 1, 0, 1]), bins=3)
    with pytest.raises(ValueError, match="missing option `estimator` ece\\|skce-unbiased"):
        calib.test(probs, labels, method="consistency")
    with pytest.raises(ValueError, match="unknown"):
        calib.test(probs, labels, method="nonsense")
    with pytest.raises(ValueError, match="alpha"):
        calib.test(probs, labels, alpha=1.5)
    with pytest.raises(ValueError, match="option `logits` applies only to `family` categorical, not normal"):
        calib.skce(mean=np.zeros(3), std=np.ones(3), y=np.zeros(3), logits=True)
    with pytest.raises(ValueError, match="`estimator` ece applies only to `family` categorical or binary, not normal"):
        calib.ece(mean=np.zeros(3), std=np.ones(3), y=np.zeros(3))
    with pytest.raises(ValueError, match="threads"):
        calib.skce(probs, labels, threads=-1)
    with pytest.raises(ValueError, match="option `threads` = '1.5', must be an integer in"):
        calib.skce(probs, labels, threads=1.5)
    with pytest.raises(ValueError, match="missing option `test_locations`"):
        calib.estimate(probs, labels, estimator="ucme")
    with pytest.raises(ValueError, match="block_size"):
        calib.skce(probs, labels, estimator="block", block_size=1000)


def test_numerical_error_is_an_arithmetic_error():
    """A CME test at J identical locations has a singular covariance: calib.NumericalError."""
    rng = np.random.default_rng(2)
    mean, std = rng.normal(size=200), np.ones(200)
    y = mean + rng.normal(size=200)
    same = (np.zeros(3), np.ones(3), np.zeros(3))
    with pytest.raises(calib.NumericalError, match="singular") as info:
        calib.test(mean=mean, std=std, y=y, method="cme", test_locations=same)
    assert isinstance(info.value, ArithmeticError)


# ---- dtypes and layouts -------------------------------------------------------------------------------

def test_float32_gives_the_values_it_holds(data):
    probs, labels = data
    p32 = probs.astype(np.float32)
    assert calib.skce(p32, labels) == calib.skce(p32.astype(np.float64), labels)
    # float32 softmax rows sum to 1 only within float32 rounding: accepted by the default tolerance.
    logits = np.random.default_rng(3).normal(size=(300, 1000)).astype(np.float32)
    soft = np.exp(logits - logits.max(1, keepdims=True))
    soft /= soft.sum(1, keepdims=True)
    y = np.random.default_rng(4).integers(0, 1000, 300)
    assert np.isfinite(calib.skce(soft, y))


def test_layouts_and_dtypes_agree(data):
    probs, labels = data
    reference = calib.skce(probs, labels)
    fortran = np.asfortranarray(probs)
    strided = np.zeros((300, 8))
    strided[:, ::2] = probs
    assert calib.skce(fortran, labels) == reference
    assert calib.skce(strided[:, ::2], labels) == reference
    assert calib.skce(probs.tolist(), labels.tolist()) == reference
    assert calib.skce(probs, labels.astype(np.uint8)) == reference
    assert calib.skce(probs, labels.astype(np.float32)) == reference


def test_brier_score_alone_is_numpys_and_the_decompositions(data):
    """estimator="brier", score_only=True: (1/n) sum ||p - e_y||^2 as NumPy computes it, the decomposition's
    estimate bitwise, float32 the values it holds, in any layout; no fields of the decomposition."""
    probs, labels = data
    alone = calib.estimate(probs, labels, estimator="brier", score_only=True)
    numpy = np.mean(np.sum((probs - np.eye(probs.shape[1])[labels]) ** 2, axis=1))
    assert alone.estimate == pytest.approx(numpy, rel=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", calib.CalibWarning)  # the ce-kde search may choose a grid edge here
        assert alone.estimate == calib.estimate(probs, labels, estimator="brier").estimate
    assert "calibration" not in alone.to_dict() and alone.to_dict()["score_only"] is True
    p32 = probs.astype(np.float32)
    assert calib.estimate(p32, labels, estimator="brier", score_only=True).estimate == \
        calib.estimate(np.asfortranarray(p32.astype(np.float64)), labels, estimator="brier", score_only=True).estimate


def test_brier_binary_is_the_binary_convention():
    """Two classes: brier_binary is (1/n) sum (p - y)^2 of P(Y = 1) as NumPy computes it (scikit-learn's
    brier_score_loss), half the multi-class score; the binary family and two-class categorical data give
    the same; more classes have no such field."""
    rng = np.random.default_rng(12)
    p = rng.uniform(size=500)
    y = (rng.uniform(size=500) < p).astype(int)
    reference = np.mean((p - y) ** 2)
    for score_only in (True, False):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", calib.CalibWarning)
            binary = calib.estimate(p, y, estimator="brier", score_only=score_only)
            two = calib.estimate(np.c_[1 - p, p], y, estimator="brier", score_only=score_only)
        for r in (binary, two):
            assert r.details["brier_binary"] == pytest.approx(reference, rel=1e-14)
            assert r.details["brier_binary"] == pytest.approx(r.estimate / 2, rel=1e-13)
    probs = rng.dirichlet(np.ones(3), 50)
    assert "brier_binary" not in calib.estimate(probs, np.arange(50) % 3, estimator="brier", score_only=True).details


def test_array_like_objects(data):
    """Anything numpy.asarray accepts, e.g. a torch CPU tensor (which has __array__)."""
    probs, labels = data

    class Tensor:
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None):
            return self.a if dtype is None else self.a.astype(dtype)

    assert calib.skce(Tensor(probs), Tensor(labels)) == calib.skce(probs, labels)


def test_float64_c_arrays_are_read_without_a_numpy_copy():
    """No NumPy temporary for float64 C arrays (tracemalloc sees NumPy's allocations; calib's own
    containers are C++ and not counted): the peak stays far below the 80 MB input."""
    probs, labels = dirichlet_model(1_000_000, 10, seed=5)
    tracemalloc.start()
    calib.skce(probs, labels, estimator="block", block_size=2, lengthscale=1.0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1_000_000, peak
    # A dtype that is read through a conversion (int16) does make one: the check can see a copy.
    tracemalloc.start()
    calib.skce(probs, labels.astype(np.int16), estimator="block", block_size=2, lengthscale=1.0)
    _, peak16 = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak16 >= 8_000_000, peak16


# ---- threads and the GIL ------------------------------------------------------------------------------

def test_results_do_not_depend_on_the_thread_count(data):
    probs, labels = data
    one = calib.test(probs, labels, replicates=300, threads=1)
    two = calib.test(probs, labels, replicates=300, threads=2)
    assert (one.p_value, one.statistic) == (two.p_value, two.statistic)
    assert calib.ckce(probs, labels, threads=1) == calib.ckce(probs, labels, threads=2)


def test_the_gil_is_released_during_a_computation():
    probs, labels = dirichlet_model(3000, 5, seed=6)
    done = threading.Event()
    ticks = 0

    def run():
        calib.test(probs, labels, replicates=2000, threads=1)
        done.set()

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.05)
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks > 20, ticks


# Run in a fresh interpreter: in this one, the heap's state after the other tests decides which pages a
# new block reuses. It prints the resident memory a call leaves behind, then what release leaves.
WORKING_MEMORY = """
import sys, numpy as np, calib
def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * __import__("os").sysconf("SC_PAGE_SIZE")
rng = np.random.default_rng(9)
probs, labels = rng.dirichlet(np.ones(10), size=100_000), rng.integers(0, 10, 100_000)
calib.keep_working_memory(int(sys.argv[1]))
calib.release_working_memory()
before = resident()
value = calib.estimate(probs, labels, estimator="skce-block", block_size=2, lengthscale=1.0, threads=1).estimate
kept = resident() - before
calib.release_working_memory()
print(kept, resident() - before, repr(value))
"""


def working_memory_run(bytes_kept):
    done = subprocess.run([sys.executable, "-c", WORKING_MEMORY, str(bytes_kept)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(calib.__file__))))
    assert done.returncode == 0, done.stderr
    kept, released, value = done.stdout.split()
    return int(kept), int(released), value


@pytest.mark.skipif(not calib.can_keep_working_memory(), reason="keeps memory only with glibc")
def test_working_memory_is_kept_between_calls_and_released_on_request():
    # A call's working copies at n = 10^5, m = 10 (two 8 MB matrices) stay in the heap after it ends, so the
    # next call reuses their pages (docs/performance.md), until release_working_memory returns them.
    assert calib.default_working_memory == 64 << 20
    kept, released, value = working_memory_run(calib.default_working_memory)
    assert kept >= 12e6 and released <= kept - 12e6, (kept, released)
    nothing_kept, _, same = working_memory_run(0)  # the same call leaves nothing behind, and the same value
    assert nothing_kept <= 4e6 and same == value, (nothing_kept, same, value)


@pytest.mark.parametrize("value", [-1, 2**31])
def test_working_memory_bound(value):
    with pytest.raises(ValueError, match=re.escape("bytes = %d, must be in [0, 2147483647]" % value)):
        calib.keep_working_memory(value)
    with pytest.raises(TypeError):
        calib.keep_working_memory(1.5)


# ---- statistics ---------------------------------------------------------------------------------------

def test_p_values_under_a_calibrated_model_are_not_concentrated_near_zero():
    """200 calibrated data sets (n = 200, m = 3) with the block test: under the null each p-value is
    about uniform, so the count below 0.05 is Binomial(200, 0.05) (mean 10; P(count > 22) < 1e-3) and
    their mean is near 1/2; a miscalibrated model is rejected every time."""
    p = [calib.test(*dirichlet_model(200, 3, seed=s), method="block", block_size="sqrt").p_value for s in range(200)]
    assert sum(x < 0.05 for x in p) <= 22
    assert 0.4 < np.mean(p) < 0.6
    miscalibrated = [calib.test(*dirichlet_model(200, 3, seed=s, calibrated=False), method="block",
                                block_size="sqrt").p_value for s in range(20)]
    assert max(miscalibrated) < 0.05


# ---- the face of the module ---------------------------------------------------------------------------

def test_result_objects(data):
    probs, labels = data
    r = calib.test(probs, labels, method="block", block_size="sqrt", alpha=0.1)
    assert r.reject == (r.p_value < 0.1)
    assert r.details["block_size"] == 17 and r.options["block_size_rule"] == "sqrt"
    assert "p_value=" in repr(r) and "block" in repr(r)
    d = r.to_dict()
    assert d["alpha"] == 0.1 and d["method"] == "block" and d["lengthscale_rule"] == "median"
    e = calib.estimate(probs, labels, estimator="skce-unbiased")
    assert float(e) == e.estimate == calib.skce(probs, labels)
    assert calib.skce(probs, labels, estimator="biased") == calib.skce(probs, labels, estimator="skce-biased")


def test_rank_result():
    probs, labels = dirichlet_model(300, 3, seed=8)
    sharp = probs ** 3 / (probs ** 3).sum(1, keepdims=True)
    r = calib.rank([probs, sharp], labels, names=["calibrated", "sharp"], replicates=100, estimators="jkce,ece")
    assert list(r.results) == ["jkce", "ece"]
    assert r.results["jkce"]["ranking"][0] == "calibrated"
    assert "calibrated" in repr(r)
    with pytest.raises(ValueError, match="calib rank needs at least 2 models, got 1"):
        calib.rank([probs], labels)
    with pytest.raises(ValueError, match="names has 1 entries"):
        calib.rank([probs, sharp], labels, names=["a"])


def test_docstrings_list_every_option():
    for m in calib.methods():
        for o in m["options"]:
            assert f"{o['name']} :" in calib.test.__doc__, o["name"]
    for m in calib.estimators():
        assert m["name"] + ":" in calib.estimate.__doc__
        for o in m["options"]:
            assert f"{o['name']} :" in calib.estimate.__doc__, o["name"]
    for f in calib.families():
        for o in f["kernel_options"]:
            assert f"{o['name']} :" in calib.skce.__doc__
    assert "replicates :" in calib.rank.__doc__
    assert calib.__version__


def options_named_in(error):
    """The options an unknown keyword's TypeError lists ("...; its options are `a`, `b`")."""
    return re.findall(r"`([a-z_]+)`", str(error.value).split("its options are")[1])


@pytest.mark.parametrize("family", ["categorical", "binary", "normal", "laplace", "mixture-normal"])
def test_metrics_and_fit_docstrings_list_every_option_of_each_family(family):
    """The options each family's setup takes (as its error for an unknown keyword lists them) are all in
    the docstring, generated from the library's descriptions."""
    _, arrays = family_arrays(family)
    with pytest.raises(TypeError) as error:
        calib.metrics(family=family, **arrays, toy=1)
    assert options_named_in(error)
    for name in options_named_in(error):
        assert f"{name} :" in calib.metrics.__doc__, name
    if family in ("categorical", "normal"):
        method = "temperature" if family == "categorical" else "affine"
        with pytest.raises(TypeError) as error:
            calib.recalibrate_fit(**arrays, method=method, toy=1)
        assert options_named_in(error)
        for name in options_named_in(error):
            assert f"{name} :" in calib.recalibrate_fit.__doc__, name


def test_reliability_diagram(data):
    probs, labels = data
    d = calib.reliability_diagram(probs, labels, bins=5)
    assert d["event"] == "top-label" and d["binning"] == "uniform" and len(d["bins"]) == 5
    assert sum(b["count"] for b in d["bins"]) == 300
    correct = int((probs.argmax(1) == labels).sum())
    assert sum(b["events"] for b in d["bins"]) == correct
    gaps = sum(b["count"] / 300 * abs(b["frequency"] - b["mean_confidence"]) for b in d["bins"] if b["count"])
    assert gaps == pytest.approx(calib.ece(probs, labels, mode="top-label", binning="uniform:5"), rel=1e-12)
    c = calib.reliability_diagram(probs, labels, k=1, binning="equal-mass", bins=10, level=0.9)
    assert c["event"] == "class 1" and all(b["count"] == 30 for b in c["bins"])
    assert all(b["interval_lower"] <= b["frequency"] <= b["interval_upper"] for b in c["bins"])
    with pytest.raises(ValueError, match="binning"):
        calib.reliability_diagram(probs, labels, binning="quantile")
    # A bound on the bins keeps a typo from taking gigabytes (each bin is a dict entry).
    with pytest.raises(ValueError, match=r"option `bins` = '?1000000'?, must be an integer in \[1, 100000\]"):
        calib.reliability_diagram(probs, labels, bins=10**6)
    assert len(calib.reliability_diagram(probs, labels, bins=10**5)["bins"]) == 10**5
    with pytest.raises(ValueError, match="k = 4"):
        calib.reliability_diagram(probs, labels, k=4)
    with pytest.raises(ValueError, match="reliability_diagram applies only to `family` categorical or binary, not normal"):
        calib.reliability_diagram(None, None, mean=np.zeros(3), std=np.ones(3), y=np.zeros(3))


def test_pit_histogram_and_coverage():
    rng = np.random.default_rng(9)
    mean, std = rng.normal(size=2000), rng.uniform(0.5, 2, 2000)
    y = mean + std * rng.normal(size=2000)
    u = calib.pit(mean=mean, std=std, y=y)
    assert u.shape == (2000,) and 0 <= u.min() and u.max() <= 1
    from math import erf, sqrt
    assert u[0] == pytest.approx(0.5 * (1 + erf((y[0] - mean[0]) / std[0] / sqrt(2))), rel=1e-12)
    h = calib.pit_histogram(u, bins=10)
    assert sum(h["counts"]) == 2000 and h["band_lower"] < 200 < h["band_upper"]
    c = calib.interval_coverage(u, [0.5, 0.9])
    assert c["nominal"] == [0.5, 0.9] and abs(c["observed"][1] - 0.9) < 0.03
    with pytest.raises(ValueError, match="univariate"):
        calib.pit(mean=np.zeros((3, 2)), std=np.ones((3, 2)), y=np.zeros((3, 2)))


def test_the_reports_pit_figures_are_pythons(tmp_path):
    """calib report's PIT histogram and interval coverage are the objects calib.pit_histogram and
    calib.interval_coverage return for the same data and options (one record of each)."""
    rng = np.random.default_rng(4)
    mean, std = rng.normal(size=300), rng.uniform(0.5, 2, 300)
    y = mean + 1.3 * std * rng.normal(size=300)
    path = tmp_path / "gauss.csv"
    np.savetxt(path, np.column_stack([mean, std, y]), delimiter=",", fmt="%.17g")
    report = run_cli("report", "--family", "normal", "--input", str(path), "--format", "json")
    u = calib.pit(mean=mean, std=std, y=y)
    shown = report["pit_histogram"]
    assert shown == calib.pit_histogram(u, bins=len(shown["counts"]), level=shown["level"])
    coverage = report["interval_coverage"]
    assert coverage == calib.interval_coverage(u, coverage["nominal"], level=coverage["level"])


def test_mmd_conditioning_array_errors():
    """Bad features= and groups= arrays: one-line ValueErrors that name the argument."""
    rng = np.random.default_rng(2)
    probs, labels = rng.dirichlet(np.ones(3), size=30), rng.integers(0, 3, size=30)
    x = rng.normal(size=(30, 2))
    mmd = dict(probs=probs, labels=labels, estimator="mmd")
    with pytest.raises(ValueError, match=r"`features` has 29 rows, but the input has n = 30"):
        calib.estimate(**mmd, notion="individual", features=x[:-1])
    bad = x.copy()
    bad[4, 1] = np.nan
    with pytest.raises(ValueError, match=r"`features`\[4, 1\] = nan, must be finite"):
        calib.estimate(**mmd, notion="individual", features=bad)
    with pytest.raises(ValueError, match="features must hold numbers, got dtype <U1"):
        calib.estimate(**mmd, notion="individual", features=np.array(["a"] * 30))
    with pytest.raises(ValueError, match=r"features must be a 2-d array"):
        calib.estimate(**mmd, notion="individual", features=np.zeros((30, 2, 1)))
    with pytest.raises(ValueError, match=r"`groups`\[0\] = 0.5, must be an integer"):
        calib.estimate(**mmd, notion="group", groups=np.arange(30) + 0.5)
    with pytest.raises(ValueError, match=r"`groups` has 2 columns, must have 1"):
        calib.estimate(**mmd, notion="group", groups=np.zeros((30, 2)))
    with pytest.raises(ValueError, match=r"`groups` has 3 rows"):
        calib.estimate(**mmd, notion="group", groups=[0, 1, 2])
    with pytest.raises(ValueError, match="option `features` applies only with `notion` individual\\|local, not canonical"):
        calib.estimate(**mmd, features=x)
    with pytest.raises(ValueError, match="option `features` takes a value, not arrays"):
        calib.ckce(probs, labels, ckce_method="rff", features=x)


def test_reliability_diagram_smooth_curve_is_the_reports(data, tmp_path):
    """smooth_points=60 gives the curve calib report draws, bitwise; without it there is none."""
    probs, labels = data
    assert "smooth" not in calib.reliability_diagram(probs, labels)
    path = tmp_path / "p.csv"
    np.savetxt(path, np.column_stack([probs, labels]), delimiter=",", fmt="%.17g")
    report = run_cli("report", "--family", "categorical", "--input", str(path), "--format", "json")
    figures = report["reliability_diagrams"]
    top = calib.reliability_diagram(probs, labels, smooth_points=60)["smooth"]
    assert top == figures[0]["models"][0]["smooth"]
    class1 = calib.reliability_diagram(probs, labels, k=1, smooth_points=60)["smooth"]
    assert class1 == figures[3]["models"][0]["smooth"] and figures[3]["event"] == "class 1"
    assert all(lo <= f <= hi for lo, f, hi in zip(top["lower"], top["frequency"], top["upper"]))
    # Every diagram of the report is the object Python returns with its options (one record), but for
    # an empty bin's undefined numbers: NaN in Python, left out of the JSON.
    for figure in figures:
        shown = figure["models"][0]
        event = shown["event"]
        d = calib.reliability_diagram(probs, labels, k=None if event == "top-label" else int(event.split()[1]),
                                      binning=shown["binning"], bins=len(shown["bins"]), level=shown["level"],
                                      smooth_points=60)
        assert list(d) == list(shown)
        assert {key: v for key, v in d.items() if key != "bins"} == {key: v for key, v in shown.items() if key != "bins"}
        defined = [{key: v for key, v in b.items() if not (isinstance(v, float) and np.isnan(v))} for b in d["bins"]]
        assert defined == shown["bins"]


def test_an_option_named_like_an_array_is_an_option():
    """Keywords go to the arrays by name only when they hold arrays: a scalar under the name of another
    family's array (Laplace's scale) is an option of the method, whatever family the data are."""
    probs, labels = np.full((4, 2), 0.5), np.array([0, 1, 0, 1])
    arrays, reading, options = calib._split({"probs": probs, "labels": labels, "scale": 2, "logits": False})
    assert set(arrays) == {"probs", "labels"} and options == {"scale": 2} and reading == {"logits": False}
    with pytest.raises(TypeError, match="option `scale` does not apply to `estimator` ece"):
        calib.ece(probs, labels, scale=2)
    with pytest.raises(ValueError, match="missing y: family normal needs mean, std, y"):
        calib.skce(mean=np.zeros(3), std=np.ones(3), y=1.0)


def test_all_lists_every_public_name_with_its_documentation():
    """__all__ is made from the package's public functions and classes (so none is left out) and each
    has a docstring."""
    import types
    public = {name for name, value in vars(calib).items() if not name.startswith("_") and
              (isinstance(value, types.FunctionType) or
               isinstance(value, type) and value.__module__.startswith("calib"))}
    assert set(calib.__all__) == public and {"metrics", "reproduce", "CalibWarning"} <= public
    assert all(getattr(calib, name).__doc__ for name in calib.__all__)


def test_serial_functions_refuse_threads():
    # docs/python.md: every function takes threads= but the serial ones, which refuse it.
    probs, labels = np.full((4, 2), 0.5), np.array([0, 1, 0, 1])
    u = np.linspace(0.01, 0.99, 20)
    calls = [lambda: calib.reliability_diagram(probs, labels, threads=1),
             lambda: calib.pit(mean=np.zeros(3), std=np.ones(3), y=np.zeros(3), threads=1),
             lambda: calib.pit_histogram(u, threads=1), lambda: calib.interval_coverage(u, threads=1)]
    for call in calls:
        with pytest.raises(TypeError):
            call()
    assert calib.metrics(probs, labels, threads=1)


def test_every_operation_is_a_function_and_the_generic_one_equals_the_hand_written(data):
    """Each operation of the library (calib._calib.operations()) is a function of the package; the
    function made for an operation without a hand-written one runs it as estimate() does: the same
    number, the options refused alike, the record as a calib.Result."""
    probs, labels = data
    names = [o["name"] for o in calib._calib.operations()]
    assert names[:2] == ["estimate", "test"]
    functions = {o["name"]: o["function"] for o in calib._calib.operations()}
    assert functions["recalibrate fit"] == "recalibrate_fit"  # a two-word command, one Python name
    assert all(callable(getattr(calib, functions[name])) for name in names)
    assert all(" " not in name for name in calib.__all__)
    infos = {o["name"]: o for o in calib._calib.operations()}
    generic = calib._operation_function(infos["estimate"])
    r = generic(probs, labels, estimator="ece", binning="uniform:7")
    assert isinstance(r, calib.Result)
    assert r.estimate == calib.ece(probs, labels, binning="uniform:7")
    assert r.fields["estimator"] == "ece" and r.n == len(labels)
    assert r.to_dict()["estimate"] == r.estimate and r.to_dict()["binning"] == "uniform:7"
    with pytest.raises(AttributeError):
        r.no_such_field
    with pytest.raises(TypeError, match="option `blocksize` does not apply to `estimator` ece"):
        generic(probs, labels, estimator="ece", blocksize=3)
    t = calib._operation_function(infos["test"])(probs, labels, method="block", alpha=0.2)
    assert (t.alpha, t.reject) == (0.2, t.p_value < 0.2)
    assert t.p_value == calib.test(probs, labels, method="block", alpha=0.2).p_value
    # An operation of several models: the models as rank() takes them, the same ranking.
    assert (infos["rank"]["min_models"], infos["estimate"]["max_models"]) == (2, 1)
    sharp = probs ** 3 / (probs ** 3).sum(axis=1, keepdims=True)
    ranked = calib._operation_function(infos["rank"])({"a": probs, "b": sharp}, labels, replicates=20, estimators="ece")
    assert ranked.fields["results"] == calib.rank({"a": probs, "b": sharp}, labels, replicates=20,
                                                  estimators="ece").results
    with pytest.raises(ValueError, match="calib rank needs at least 2 models, got 1"):
        calib._operation_function(infos["rank"])([probs], labels)


def test_options_are_checked_before_the_arrays_are_read(data):
    """As the command line checks every option before it reads a file: a bad option is the error even
    when the arrays are bad too (here a NaN in probs), and a missing array is named before the options."""
    probs, labels = data
    bad = np.array(probs, dtype=float)
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="option `replicates` = '0'"):
        calib.test(bad, labels, method="bootstrap", replicates=0)
    with pytest.raises(TypeError, match="option `blocksize` does not apply"):
        calib.estimate(bad, labels, estimator="skce-block", blocksize=3)
    with pytest.raises(ValueError, match="nan"):
        calib.test(bad, labels, method="bootstrap", replicates=10)


def test_metrics_nll_clip_is_scikit_learns_log_loss(data):
    """nll_clip=EPS is scikit-learn's log_loss (1.2: every probability clipped to [eps, 1 - eps], each
    row divided by its sum, then -log of the true class's), here written in NumPy; without it a label of
    probability 0 gives an infinite NLL (with a CalibWarning); univariate forecasts have no such option."""
    probs, labels = data
    p = np.array(probs, dtype=float)
    p[0] = 0
    p[0, (labels[0] + 1) % p.shape[1]] = 1  # the true class of row 0 has probability 0
    eps = np.finfo(float).eps
    clipped = np.clip(p, eps, 1 - eps)
    clipped /= clipped.sum(axis=1, keepdims=True)
    reference = -np.mean(np.log(clipped[np.arange(len(labels)), labels]))
    m = calib.metrics(p, labels, nll_clip=eps)
    assert m["nll"] == pytest.approx(reference, rel=1e-13)
    assert m["nll_clip"] == eps and np.isfinite(m["nll"])
    with pytest.warns(calib.CalibWarning, match="nll = inf"):
        assert calib.metrics(p, labels)["nll"] == float("inf")
    assert "nll_clip" not in calib.metrics(probs, labels)
    with pytest.raises(TypeError, match="option `nll_clip` does not apply to `family` normal"):
        calib.metrics(mean=np.zeros(5), std=np.ones(5), y=np.zeros(5), nll_clip=1e-9)
    with pytest.raises(ValueError, match=r"must be in \[0, 0.5\)"):
        calib.metrics(probs, labels, nll_clip=0.5)


def test_rank_names_the_models_that_differ():
    """rank on models of different classes says which, by the names given, in the command line's words
    (the registry's check_same_labels)."""
    rng = np.random.default_rng(5)
    three, two = rng.dirichlet([1, 1, 1], 50), rng.dirichlet([1, 1], 50)
    y = rng.integers(0, 2, 50)
    with pytest.raises(ValueError, match="^small has 2 classes but big has 3; calib rank compares models evaluated on "
                                         "the same labelled data$"):
        calib.rank({"big": three, "small": two}, y)
    with pytest.raises(ValueError, match="labels has 50 rows but probs has 40"):  # one labels array for all
        calib.rank([three, three[:40]], y)

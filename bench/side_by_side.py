"""calib beside the programs a user would otherwise run, on the same arrays in the same process
(docs/performance.md, "Side by side with the programs users would run instead"): scikit-learn's
calibration_curve and brier_score_loss, and NumPy/SciPy code written here from the definitions — a
binned top-label ECE, the multi-class Brier score, the unbiased quadratic SKCE and the linear (B = 2)
block SKCE of Widmann, Lindsten & Zachariah (NeurIPS 2019). One row per case and size: both wall
times, their ratio peer / calib, both values and their relative difference. The exit status is 1 when
a pair of values differs by more than its tolerance: a ratio means something only if both sides
compute the same quantity.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=build/python /usr/bin/python3 bench/side_by_side.py

`make bench` runs it, `make bench-side` runs it alone; --quick (`make bench-side QUICK=1`) takes
n = 10³ and 10⁴ only and at most 2 runs per side, to check that everything works.
"""

import os

# One thread on both sides: NumPy's BLAS reads these when it is loaded (by the import below), calib is
# given threads=1 explicitly.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse
import datetime
import math
import platform
import sys
import time
import typing

import numpy as np
import scipy
import sklearn
from scipy.spatial.distance import cdist
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

import calib

CLASSES = 10
ALPHA = 0.1  # Dirichlet concentration of the predictions, as in calib-bench's SKCE cases
TEMPER = 0.8  # labels drawn from p^0.8 renormalised: flatter than p, so the predictions are overconfident
SEED = 2026
BINS = 15
LENGTHSCALE = 1.0
# Row blocks of about 2^18 pair entries (2 MiB per temporary) for the NumPy SKCE: at n = 10^4 blocks of 16
# to 64 rows ran 1.6x faster than blocks of 1024 (the temporaries stay in cache).
BLOCK_ENTRIES = 2**18


def make_data(n):
    """n predictions ~ Dir(ALPHA) over CLASSES classes and labels drawn from p^TEMPER renormalised, from
    a stream of its own per n, so that a size gives the same arrays in a quick and in a full run."""
    rng = np.random.default_rng([SEED, n])
    probs = rng.dirichlet(np.full(CLASSES, ALPHA), n)
    truth = probs**TEMPER
    truth /= truth.sum(axis=1, keepdims=True)
    # Inverse CDF; the last class takes what rounding leaves of the cumulative sum.
    labels = np.minimum((rng.random(n)[:, None] > np.cumsum(truth, axis=1)).sum(axis=1), CLASSES - 1)
    return probs, labels


def top_label(probs, labels):
    """The confidence max_k p_k and whether the label is its class (the first argmax on ties, as calib)."""
    return probs.max(axis=1), probs.argmax(axis=1) == labels


# ---- the peers: what a user would run instead ------------------------------------------------------


def sklearn_curve(probs, labels):
    confidence, correct = top_label(probs, labels)
    return calibration_curve(correct, confidence, n_bins=BINS, strategy="uniform")


def sklearn_brier(probs, labels):
    confidence, correct = top_label(probs, labels)
    return brier_score_loss(correct, confidence)


def numpy_brier(probs, labels):
    """(1/n) Σ_i Σ_k (p_ik − 1{y_i = k})²."""
    return np.mean(np.sum((probs - np.eye(probs.shape[1])[labels]) ** 2, axis=1))


def numpy_ece(probs, labels):
    """Σ_b (n_b / n)·|mean confidence_b − accuracy_b| over BINS equal-width bins closed on the right,
    (k/B, (k+1)/B] (the first also holds 0), as calibration_curve bins: n⁻¹ Σ_b |Σ_{i∈b} (c_i − o_i)|."""
    confidence, correct = top_label(probs, labels)
    index = np.searchsorted(np.linspace(0.0, 1.0, BINS + 1)[1:-1], confidence)
    gap = np.bincount(index, weights=confidence, minlength=BINS) - np.bincount(index, weights=correct, minlength=BINS)
    return np.abs(gap).sum() / len(labels)


def numpy_skce_unbiased(probs, labels):
    """(n choose 2)⁻¹ Σ_{i<j} exp(−TV(p_i, p_j)/ℓ)·r_iᵀr_j, r = e_y − p, TV = ½‖p_i − p_j‖₁ (the default
    kernel exp(−TV/ℓ) ⊗ δ: docs/math.md §2-3), over blocks of rows against the columns j ≥ the block's first."""
    n = len(labels)
    residuals = np.eye(probs.shape[1])[labels] - probs
    rows = max(8, BLOCK_ENTRIES // n)
    total = 0.0
    for a in range(0, n, rows):
        b = min(a + rows, n)
        kernel = np.exp(cdist(probs[a:b], probs[a:], "cityblock") * (-0.5 / LENGTHSCALE))
        h = kernel * (residuals[a:b] @ residuals[a:].T)
        total += np.triu(h[:, : b - a], 1).sum() + h[:, b - a :].sum()
    return total / (n * (n - 1) / 2)


def numpy_skce_block2(probs, labels):
    """The linear estimator: the mean of h over the pairs (0, 1), (2, 3), ... (an odd last row dropped)."""
    half = len(labels) // 2
    residuals = np.eye(probs.shape[1])[labels] - probs
    first, second = slice(0, 2 * half, 2), slice(1, 2 * half, 2)
    distance = 0.5 * np.abs(probs[first] - probs[second]).sum(axis=1)
    return np.mean(np.exp(-distance / LENGTHSCALE) * (residuals[first] * residuals[second]).sum(axis=1))


# ---- calib's calls for the same quantities -----------------------------------------------------------


def calib_curve(probs, labels):
    diagram = calib.reliability_diagram(probs, labels, binning="uniform", bins=BINS)  # serial: no `threads`
    full = [b for b in diagram["bins"] if b["count"] > 0]
    return np.array([b["frequency"] for b in full]), np.array([b["mean_confidence"] for b in full])


def calib_brier_top_label(probs, labels):
    # Spiegelhalter's test reports the Brier score of the two-class vectors [1 − c, c]: twice the
    # clinical (and scikit-learn's) mean (o − c)².
    return calib.test(probs, labels, method="spiegelhalter", event="top-label", threads=1).estimate / 2


def calib_brier(probs, labels):
    # The score alone: without score_only the estimator also computes the decomposition, whose
    # calibration term is the canonical ce-kde (O(n²) per bandwidth).
    return calib.estimate(probs, labels, estimator="brier", score_only=True, threads=1).estimate


def calib_ece(probs, labels):
    # distance tv: on the vectors [c, 1 − c] and [acc, 1 − acc] it is |c − acc|, the usual L1 ECE
    # (calib's distance "l1" would give twice that).
    return calib.ece(probs, labels, binning=f"uniform:{BINS}", distance="tv", mode="top-label", threads=1)


def calib_skce_unbiased(probs, labels):
    return calib.skce(probs, labels, estimator="unbiased", lengthscale=LENGTHSCALE, threads=1)


def calib_skce_block2(probs, labels):
    return calib.skce(probs, labels, estimator="block", block_size=2, lengthscale=LENGTHSCALE, threads=1)


# ---- comparing -----------------------------------------------------------------------------------------


def relative_difference(peer, calib_value):
    """The largest |calib − peer| / |peer| over the values (the bins of a reliability curve; where peer is 0,
    as a bin's frequency can be, |calib|); inf when the curves have different numbers of non-empty bins."""
    peer = np.atleast_1d(np.asarray(peer, dtype=float))
    calib_value = np.atleast_1d(np.asarray(calib_value, dtype=float))
    if peer.shape != calib_value.shape:
        return math.inf
    return float(np.max(np.abs(calib_value - peer) / np.where(peer != 0, np.abs(peer), 1.0)))


def curve_difference(peer, calib_value):
    return max(relative_difference(peer[0], calib_value[0]), relative_difference(peer[1], calib_value[1]))


def shown(value):
    """The number printed for a value: the frequency of the highest non-empty bin for a curve."""
    return value[0][-1] if isinstance(value, tuple) else value


class Case(typing.NamedTuple):
    name: str
    peer: typing.Callable  # (probs, labels) -> value
    calib_call: typing.Callable  # (probs, labels) -> value
    difference: typing.Callable  # (peer value, calib value) -> relative difference
    tolerance: float
    sizes: str  # which list of n: "linear" or "quadratic" (the NumPy SKCE)


# Tolerances: the binned quantities and the Brier scores are sums of n terms in different orders (calib sums
# with compensation; NumPy's bincount adds in order, its mean pairwise); the SKCEs are sums of up to n²/2
# terms of both signs.
CASES = [
    Case("calibration_curve vs reliability_diagram", sklearn_curve, calib_curve, curve_difference, 1e-12, "linear"),
    Case("brier_score_loss top-label vs spiegelhalter/2", sklearn_brier, calib_brier_top_label, relative_difference,
         1e-12, "linear"),
    Case("NumPy Brier vs brier --score-only", numpy_brier, calib_brier, relative_difference, 1e-12, "linear"),
    Case("NumPy ECE vs ece top-label uniform:15 tv", numpy_ece, calib_ece, relative_difference, 1e-12, "linear"),
    Case("NumPy/SciPy SKCE unbiased vs skce", numpy_skce_unbiased, calib_skce_unbiased, relative_difference, 1e-9,
         "quadratic"),
    Case("NumPy SKCE block B=2 vs skce block", numpy_skce_block2, calib_skce_block2, relative_difference, 1e-9,
         "linear"),
]


def timed(run, probs, labels):
    start = time.perf_counter()
    value = run(probs, labels)
    return time.perf_counter() - start, value


def compare(case, probs, labels, max_runs, budget):
    """The best wall time of each side over up to max_runs runs, peer and calib alternated (a virtual
    machine's speed drifts: a slow spell then falls on both), fewer once the runs took `budget` seconds."""
    peer_best = calib_best = math.inf
    runs = 0
    start = time.perf_counter()
    while runs < max_runs and (runs == 0 or time.perf_counter() - start < budget):
        seconds, peer_value = timed(case.peer, probs, labels)
        peer_best = min(peer_best, seconds)
        seconds, calib_value = timed(case.calib_call, probs, labels)
        calib_best = min(calib_best, seconds)
        runs += 1
    return peer_best, peer_value, calib_best, calib_value, runs


def cpu_info():
    model, flags = "unknown", set()
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            key, _, value = line.partition(":")
            if key.strip() == "model name" and model == "unknown":
                model = value.strip()
            elif key.strip() == "flags" and not flags:
                flags = set(value.split())
    return model, flags


def blas_libraries():
    """The BLAS libraries mapped into this process (after a product has loaded NumPy's): Debian's
    python3-numpy takes whichever libblas.so.3 the alternatives system selects, the reference BLAS
    (libblas3) unless OpenBLAS or BLIS is installed."""
    np.ones((2, 2)) @ np.ones((2, 2))
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "/" in line}
    return sorted(p for p in paths if os.path.basename(p).startswith(("libblas", "libopenblas", "libblis")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 10^3 and 10^4 only, at most 2 runs per side")
    args = parser.parse_args()
    if args.quick:
        sizes = {"linear": [10**3, 10**4], "quadratic": [10**3, 10**4]}
        max_runs, budget = 2, 5.0
    else:
        sizes = {"linear": [10**3, 10**4, 10**5, 10**6], "quadratic": [10**3, 10**4, 3 * 10**4]}
        max_runs, budget = 5, 20.0

    model, flags = cpu_info()
    now = datetime.datetime.now(datetime.timezone.utc)
    print(f"side by side: calib {calib.__version__} (Python module) against scikit-learn {sklearn.__version__}, "
          f"NumPy {np.__version__}, SciPy {scipy.__version__}; Python {platform.python_version()}")
    print(f"machine: {model}, {os.cpu_count()} cores, AVX-512 {'yes' if 'avx512f' in flags else 'no'}, "
          f"AVX2 {'yes' if 'avx2' in flags else 'no'}; {now:%Y-%m-%d %H:%M} UTC; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"threads: calib threads=1; OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}, "
          f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}; "
          f"NumPy's BLAS: {', '.join(blas_libraries()) or 'none mapped'}")
    print(f"data: m = {CLASSES}, predictions ~ Dirichlet({ALPHA}), labels drawn from p^{TEMPER} renormalised "
          f"(overconfident predictions); float64 (n, m) C order, int64 labels; seed ({SEED}, n)")
    print(f"times: wall seconds, best of up to {max_runs} runs per side (fewer once a case's runs pass "
          f"{budget:.0f} s), peer and calib alternated; ratio = peer / calib (> 1: calib is faster). The peers' "
          "times include taking the confidence and correctness from the probabilities, which calib's calls do "
          f"inside. The quadratic SKCE up to n = {max(sizes['quadratic']):.0e} only (NumPy would take over a minute "
          f"per run at 1e5).")
    header = f"{'case':<46} {'n':>9} {'peer s':>10} {'calib s':>10} {'runs':>4} {'peer/calib':>10}  " \
             f"{'peer value':>23} {'calib value':>23}  {'rel. diff':>9} {'tolerance':>9}"
    print(header)
    print("-" * len(header))
    data = {}
    failures = []
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    for case in CASES:
        for n in sizes[case.sizes]:
            if n not in data:
                data[n] = make_data(n)
            probs, labels = data[n]
            peer_time, peer_value, calib_time, calib_value, runs = compare(case, probs, labels, max_runs, budget)
            difference = case.difference(peer_value, calib_value)
            agrees = difference <= case.tolerance
            print(f"{case.name:<46} {n:>9} {peer_time:>10.5f} {calib_time:>10.5f} {runs:>4} "
                  f"{peer_time / calib_time:>10.3g}  {shown(peer_value):>23.17g} {shown(calib_value):>23.17g}  "
                  f"{difference:>9.1e} {case.tolerance:>9.0e}{'' if agrees else '  DISAGREE'}", flush=True)
            if not agrees:
                failures.append(f"{case.name}, n = {n}: relative difference {difference:.1e} > {case.tolerance:.0e}")
    print("(the curve's value: the frequency of its highest non-empty bin; every bin's frequency and mean "
          "confidence compared)")
    print(f"total: {time.perf_counter() - wall_start:.1f} s wall, {time.process_time() - cpu_start:.1f} CPU-s; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if failures:
        print("side by side: FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("side by side: every pair of values agrees within its tolerance")


if __name__ == "__main__":
    main()

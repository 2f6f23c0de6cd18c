"""calib reads float64 arrays where they are (C or Fortran order, slices with positive steps) and
converts other arrays once: every layout of the same values gives bitwise the same results, for every
family, and a float64 array is not copied (checked by the process's peak memory)."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import calib
from conftest import family_arrays


def strided(a):
    """The values of a as a view with a step of 3 elements along its last axis (read in place)."""
    wide = np.zeros(a.shape + (3,), dtype=a.dtype)
    wide[..., 1] = a
    return wide[..., 1]


def big_endian(a):
    """The same values in the other byte order: not readable in place, so converted (a copy)."""
    return a.astype(a.dtype.newbyteorder(">")) if a.dtype.kind == "f" else a


LAYOUTS = {
    "C order": np.ascontiguousarray,
    "Fortran order": np.asfortranarray,
    "strided view": strided,
    "converted copy": big_endian,
}

CALLS = [
    ("estimate", {"estimator": "skce-unbiased"}),
    ("estimate", {"estimator": "skce-block", "block_size": 2}),
    ("estimate", {"estimator": "ucme"}),  # with the first 5 observations as test locations
    ("test", {"method": "bootstrap", "replicates": 50, "seed": 1}),
]

FAMILIES = ["categorical", "binary", "normal", "laplace", "mvnormal-diag", "mvnormal", "mixture-normal"]


def numbers(result):
    d = result.to_dict()
    return {k: d[k] for k in ("estimate", "statistic", "p_value") if k in d}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_layout_gives_the_same_bits(family):
    _, arrays = family_arrays(family)
    for call, options in CALLS:
        results = {}
        for name, layout in LAYOUTS.items():
            given = {k: layout(v) for k, v in arrays.items()}
            if options.get("estimator") == "ucme":
                options = dict(options, test_locations={k: layout(v[:5]) for k, v in arrays.items()})
            results[name] = numbers(getattr(calib, call)(family=family, **given, **options))
        reference = results["C order"]
        for name, got in results.items():
            assert got == reference, f"{family} {call} {options}: {name} {got} != C order {reference}"
    if family == "categorical":
        for name, layout in LAYOUTS.items():
            assert calib.ece(layout(arrays["probs"]), arrays["labels"]) == calib.ece(**arrays), name
    # Views with a negative step are converted: the same bits as their copies.
    reversed_views = {k: v[::-1] for k, v in arrays.items()}
    reversed_copies = {k: np.ascontiguousarray(v) for k, v in reversed_views.items()}
    for call, options in CALLS[:2] + CALLS[3:]:
        assert numbers(getattr(calib, call)(family=family, **reversed_views, **options)) == \
            numbers(getattr(calib, call)(family=family, **reversed_copies, **options))


PEAK = textwrap.dedent("""
    import resource, sys
    import numpy as np
    import calib
    n, m, chunk = 400_000, 25, 10_000
    rng = np.random.default_rng(1)
    # Filled in chunks so that making the data raises the peak by no more than the data itself: the
    # peak the call reaches is then measured from the resident size just before it, on any machine.
    probs = np.empty((n, m), dtype=sys.argv[1])
    for start in range(0, n, chunk):
        probs[start:start + chunk] = rng.dirichlet(np.ones(m), size=chunk)
    labels = rng.integers(0, m, n)
    page = resource.getpagesize()
    with open("/proc/self/statm") as statm:
        resident = int(statm.read().split()[1]) * page
    calib.skce(probs, labels, estimator="skce-block", block_size=2, lengthscale=1.0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print((peak - resident) / (8 * n * m))
""")


def peak_growth(dtype):
    """How much the peak memory of a fresh interpreter grows during one call, in units of the n×m
    float64 matrix (the estimator's own working copies included)."""
    out = subprocess.run([sys.executable, "-c", PEAK, dtype], capture_output=True, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert out.returncode == 0, out.stderr
    return float(out.stdout)


def test_float64_arrays_are_not_copied():
    """The same call on float32 values, which calib must convert to float64, needs one more n×m matrix
    at its peak than on float64 values, which it reads in place."""
    read_in_place, converted = peak_growth("float64"), peak_growth("float32")
    assert converted - read_in_place > 0.8, (read_in_place, converted)

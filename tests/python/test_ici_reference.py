"""The flexible calibration curve's summaries against an independent NumPy computation of their
definitions (docs/math.md, "The flexible calibration curve"): loess evaluated directly at each
prediction (the q nearest predictions, tricube weights, the weighted least-squares quadratic by
numpy.linalg.lstsq), then ICI, E50, E90 and Emax of |curve - p| with NumPy's default (type 7)
quantiles; on the sample file and on float32 predictions with labels apart."""

import numpy as np
import pytest

import calib
from conftest import family_arrays


def loess_direct(x, y, span=0.75, degree=2):
    n = len(x)
    q = min(n, int(np.floor(n * span + 1e-5)))
    fit = np.empty(n)
    for i, x0 in enumerate(x):
        d = np.abs(x - x0)
        h = np.sort(d)[q - 1]
        w = np.where(d < h, (1 - (d / h) ** 3) ** 3, 0.0)
        design = np.vander(x - x0, degree + 1, increasing=True) * np.sqrt(w)[:, None]
        fit[i] = np.linalg.lstsq(design, y * np.sqrt(w), rcond=None)[0][0]
    return fit


def summaries(curve, p):
    error = np.abs(curve - p)
    return error.mean(), np.quantile(error, 0.5), np.quantile(error, 0.9), error.max()


def data_sets():
    arrays = family_arrays("binary")[1]
    rng = np.random.default_rng(29)
    q = rng.uniform(size=700).astype(np.float32)  # a model's float32 output
    y = (rng.uniform(size=700) < 0.1 + 0.8 * q ** 1.5).astype(np.int64)
    return [("scores.csv", arrays["probs"], arrays["labels"]), ("float32", q, y)]


@pytest.mark.parametrize("name,p,y", data_sets(), ids=[d[0] for d in data_sets()])
@pytest.mark.parametrize("span,degree", [(0.75, 2), (0.4, 1)])
def test_ici_against_numpy(name, p, y, span, degree):
    reference = summaries(loess_direct(p.astype(np.float64), y.astype(np.float64), span, degree), p.astype(np.float64))
    r = calib.estimate(p, y, estimator="ici", surface="direct", span=span, degree=degree)
    got = (r.estimate, r.details["e50"], r.details["e90"], r.details["emax"])
    assert got == pytest.approx(reference, rel=1e-9, abs=1e-12)
    # The default surface (R's interpolation between the k-d tree's vertices) is close to the direct one.
    interpolated = calib.estimate(p, y, estimator="ici", span=span, degree=degree)
    assert interpolated.estimate == pytest.approx(reference[0], rel=0.1, abs=0.005)

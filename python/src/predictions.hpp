// A model's predictions alone (ModelKind::predictions of calib/operation.hpp: recalibrate apply's) from
// Python's arrays and back: the arrays of the family that PredictionReading names, without the
// observations (probs; mean and std), checked as the command line's reader checks a file.
#pragma once

#include <calib/operation.hpp>

#include <pybind11/pybind11.h>

namespace calib::python {

// Throws invalid_argument for an array the reading does not take or lacks, one that is not a table of
// finite numbers, probabilities off the simplex (unless logits) or a column count not the reading's classes.
Predictions prediction_arrays(const PredictionReading& reading, const pybind11::dict& arrays);
// {"probs": (n, m)} or {"mean": (n,), "std": (n,)}: the family's arrays, so that they can be passed on.
pybind11::dict prediction_dict(const PredictionReading& reading, const Predictions& predictions);

}  // namespace calib::python

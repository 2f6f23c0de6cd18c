// Internal: the isotonic recalibration map (recalibration.hpp, RecalibrationMethod::isotonic) — its fit
// by PAV, its application, its NLL and the rule on its curves. fit.cpp and map_json.cpp dispatch here.
#pragma once

#include <calib/recalibration.hpp>

#include <string>

namespace calib::detail {

// Fits the curves of `map` (its num_classes, logits and floor set) on the data, and says how it went.
FitSummary fit_isotonic(RecalibrationMap& map, const CategoricalScores& data);

// The recalibrated probabilities of scores (probabilities in [0, 1], or logits: the map's input).
Matrix apply_isotonic(const RecalibrationMap& map, const Matrix& scores);

// The mean of −log max(q_{i,y_i}, floor) over the data.
double isotonic_nll(const RecalibrationMap& map, const CategoricalScores& data);

// What makes the curves unusable ("" when usable): not one per isotonic column, x and y of different
// lengths or empty, x not strictly increasing in [0, 1], y not nondecreasing in [0, 1].
std::string curves_problem(const RecalibrationMap& map);

}  // namespace calib::detail

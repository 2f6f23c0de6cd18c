// Internal: the isotonic recalibration map (recalibration.hpp, RecalibrationMethod::isotonic) — its fit
// by PAV, its application and the rule on its curves. fit.cpp and map_json.cpp dispatch here.
#pragma once

#include <calib/isotonic.hpp>
#include <calib/recalibration.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// Its row of map_kinds.hpp: the fit (PAV; the options are not used), application and NLL, and the
// curves x_k, y_k in the map file.
FitSummary fit_isotonic(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options);

Matrix apply_isotonic(const RecalibrationMap& map, const Matrix& scores);
std::vector<NamedParameter> isotonic_parameters(const RecalibrationMap& map);
std::vector<std::string> isotonic_parameter_names(int num_classes);
void set_isotonic_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists);

// What makes the curves unusable ("" when usable): not one per isotonic column (one per column of
// `columns`), x and y of different lengths or empty, x not strictly increasing in [0, 1], y not
// nondecreasing in [0, 1].
std::string curves_problem(const RecalibrationMap& map);
std::string curves_problem(const RecalibrationMap& map, const std::vector<int>& columns);

// The curve of a PAV fit (isotonic.hpp): each block's smallest and largest x at its value, so that
// the curve is the step function joined linearly across the gaps between blocks.
MonotoneCurve curve_of(const IsotonicFit& fit);

}  // namespace calib::detail

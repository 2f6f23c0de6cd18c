// Internal: the top-label isotonic map (recalibration.hpp, RecalibrationMethod::top_label_isotonic), Gupta &
// Ramdas's (2022) top-label calibration by the multiclass-to-binary reduction with PAV as the binary
// calibrator: class c's curve is the isotonic regression of 1{y = c} on p_c over the rows whose top class
// is c, so that the reported confidence is calibrated given the predicted class. Its row of map_kinds.hpp.
#pragma once

#include <calib/recalibration.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// The fit (PAV; the options are not used); the curves x_k, y_k for every class k (m = 2 too), the curve
// of a class no row predicts through (0, 0) and (1, 1).
FitSummary fit_top_label_isotonic(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options);
// A row of top class c: q_c = f_c(p_c), the others their share of the rest, (1 − q_c) p_j / Σ_{k≠c} p_k,
// or (1 − q_c) / (m − 1) each when that sum is 0.
Matrix apply_top_label_isotonic(const RecalibrationMap& map, const Matrix& scores);
std::vector<NamedParameter> top_label_isotonic_parameters(const RecalibrationMap& map);
std::vector<std::string> top_label_isotonic_parameter_names(int num_classes);
void set_top_label_isotonic_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists);
std::string top_label_curves_problem(const RecalibrationMap& map);

}  // namespace calib::detail

// Internal: Platt scaling of m > 2 classes (recalibration.hpp, RecalibrationMethod::platt), one-vs-rest:
// class k's log-odds s_k = ln(p_k / (1 − p_k)) mapped to σ(a_k s_k + b_k), each (a_k, b_k) the binary
// Platt map fitted on the indicators of class k, and each row renormalised (one_vs_rest.hpp's
// convention, as scikit-learn's CalibratedClassifierCV(method="sigmoid") does for m > 2). Its row of
// map_kinds.hpp; m = 2 is the binary map of the joint objective (objective.hpp).
#pragma once

#include <calib/recalibration.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// The n×m log-odds s(i, k) of the scores: of probabilities ln max(p, floor) − ln max(1 − p, floor), as
// the binary map floors them; of logits z_k − ln Σ_{j≠k} e^{z_j}, exact (no floor) and finite.
Matrix one_vs_rest_log_odds(const Matrix& scores, bool logits, double floor, const char* function);

// The fit: m binary Platt fits by L-BFGS with the options' iterations and tolerance; its summary's
// objectives are the floored NLL of the inputs and of the map (as the exact maps'), its iterations and
// evaluations the fits' sums, its termination the worst (max_iterations, then line_search_failed).
FitSummary fit_platt_one_vs_rest(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options);
Matrix apply_platt_one_vs_rest(const RecalibrationMap& map, const Matrix& scores);
// The map file's lists a = [a_0 … a_{m−1}] and b = [b_0 … b_{m−1}], held in map.parameters as [a, b].
std::vector<NamedParameter> platt_one_vs_rest_parameters(const RecalibrationMap& map);
std::vector<std::string> platt_one_vs_rest_parameter_names(int num_classes);
void set_platt_one_vs_rest_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists);
// What makes them unusable ("" when usable): lists not of m values, a value not finite.
std::string platt_one_vs_rest_problem(const RecalibrationMap& map);

}  // namespace calib::detail

// Internal: the inductive Venn–Abers map (recalibration.hpp, RecalibrationMethod::venn_abers) — its row
// of map_kinds.hpp (the fit builds the table of venn_abers_table.hpp; apply gives the merged
// probability), and the intervals [p0, p1] that venn_abers_intervals returns.
#pragma once

#include <calib/recalibration.hpp>

#include <string>
#include <vector>

namespace calib::detail {

FitSummary fit_venn_abers(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options);
Matrix apply_venn_abers(const RecalibrationMap& map, const Matrix& scores);
std::vector<NamedParameter> venn_abers_parameters(const RecalibrationMap& map);
std::vector<std::string> venn_abers_parameter_names(int num_classes);
void set_venn_abers_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists);
// What makes the table unusable ("" when usable): scores empty, not finite, not strictly increasing, or
// outside [0, 1] for a map of probabilities; lists of other lengths than G and G + 1; values outside
// [0, 1] or p0 > p1.
std::string venn_abers_problem(const RecalibrationMap& map);

// The n×2 intervals [p0, p1] of scores (the map's input, checked).
Matrix venn_abers_interval_table(const RecalibrationMap& map, const Matrix& scores);

}  // namespace calib::detail

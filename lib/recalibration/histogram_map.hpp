// Internal: the histogram-binning recalibration map (recalibration.hpp, RecalibrationMethod::histogram)
// — its fit, application and the rule on its bins. fit.cpp and map_json.cpp dispatch here.
#pragma once

#include <calib/recalibration.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// Its row of map_kinds.hpp: the fit with the options' binning and bin count, application and NLL, and
// the bins edges_k, values_k in the map file.
FitSummary fit_histogram(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options);
Matrix apply_histogram(const RecalibrationMap& map, const Matrix& scores);
std::vector<NamedParameter> histogram_parameters(const RecalibrationMap& map);
std::vector<std::string> histogram_parameter_names(int num_classes);
void set_histogram_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists);

// What makes the bins unusable ("" when usable): not one set per one-vs-rest column, edges and values
// of different lengths or empty, edges not strictly increasing in (0, 1] with the last 1, values not in
// [0, 1].
std::string bins_problem(const RecalibrationMap& map);

// B of the rule ⌈n^{1/3}⌉ when `bins` is 0.
std::size_t histogram_bin_count(std::size_t bins, std::size_t n);

}  // namespace calib::detail

// The choice of a hyperparameter by its validation risk, and what the front-ends warn about it
// (squared_ce.hpp; docs/squared_ce.md, "The search and its warnings").
#pragma once

#include <calib/squared_ce.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace calib::detail {

// The validation risk, the test diagonal mean, its negative count and the rounding sensitivity of
// each grid value, for one problem and fold.
struct FoldScores {
    std::vector<double> risk, estimate, sensitivity, truncation;
    std::vector<std::size_t> negative;
    void add(double r, const Vector& diagonal, double rounding_sensitivity = 0, double truncation_indicator = 0);
};

// Mean, and std with ddof 1, of a fold series (K ≥ 2 values).
std::pair<double, double> mean_std(const std::vector<double>& x);

// Fills `r` from the folds' scores: the candidates (rounding sensitivity ≤ max_rounding_sensitivity in
// every fold, truncation error within max_truncation_error_in_se; none throws invalid_argument), the least fold-mean criterion among them, the fold series
// of the chosen value, its edge and its unsettled neighbour.
void choose(CeProblemResult& r, const std::vector<FoldScores>& folds, const std::vector<double>& grid,
            CeSelection selection);

}  // namespace calib::detail

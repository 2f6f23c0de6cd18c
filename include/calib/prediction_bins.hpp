// Bins of predicted probabilities in [0, 1], as their upper edges: the debiased L2 calibration error's
// (debiased_l2.hpp), histogram recalibration's (recalibration.hpp) and the ECE's scalar binnings
// (estimators.hpp), one set of rules for all.
//
// equal_mass: the sorted predictions split into B parts of ⌊n/B⌋ or ⌈n/B⌉ (the larger first), edges
//             halfway between neighbouring parts (equal edges merged) [Kumar, Liang & Ma 2019's package];
// quantile:   edges at the empirical quantiles j/B, j = 1 … B−1, of the predictions by linear
//             interpolation at position (n−1)·j/B of the sorted values, computed in NumPy's order of
//             operations (np.percentile(p, 100·np.linspace(0, 1, B + 1)), its default method), so the
//             bins are scikit-learn's calibration_curve(strategy="quantile") bins; equal edges merged;
// uniform:    edges i/B;
// distinct:   one bin per distinct prediction (a binned model's own bins).
// A prediction equal to an edge belongs to the bin below it; the first bin is closed at 0, the last
// edge is 1.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace calib {

enum class PredictionBinning { equal_mass, uniform, distinct, quantile };
std::string to_string(PredictionBinning binning);  // "equal-mass", "uniform", "distinct", "quantile"

// The upper edges, increasing, the last 1 (B ≥ 1 for equal_mass, quantile and uniform; equal_mass uses min(B, n);
// ignored for distinct). p non-empty, in [0, 1].
std::vector<double> bin_upper_edges(const std::vector<double>& p, PredictionBinning binning, std::size_t bins);

// The bin of p: the first upper edge ≥ p.
std::size_t bin_of(const std::vector<double>& upper_edges, double p);

}  // namespace calib

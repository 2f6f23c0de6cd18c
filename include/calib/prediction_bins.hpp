// Bins of predicted probabilities in [0, 1], as their upper edges: the debiased L2 calibration error's
// (debiased_l2.hpp) and histogram recalibration's (recalibration.hpp), one rule for both.
//
// equal_mass: the sorted predictions split into B parts of ⌊n/B⌋ or ⌈n/B⌉ (the larger first), edges
//             halfway between neighbouring parts (equal edges merged) [Kumar, Liang & Ma 2019's package];
// uniform:    edges i/B;
// distinct:   one bin per distinct prediction (a binned model's own bins).
// A prediction equal to an edge belongs to the bin below it; the first bin is closed at 0, the last
// edge is 1.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace calib {

enum class PredictionBinning { equal_mass, uniform, distinct };
std::string to_string(PredictionBinning binning);  // "equal-mass", "uniform", "distinct"

// The upper edges, increasing, the last 1 (B ≥ 1 for equal_mass and uniform, which uses min(B, n);
// ignored for distinct). p non-empty, in [0, 1].
std::vector<double> bin_upper_edges(const std::vector<double>& p, PredictionBinning binning, std::size_t bins);

// The bin of p: the first upper edge ≥ p.
std::size_t bin_of(const std::vector<double>& upper_edges, double p);

}  // namespace calib

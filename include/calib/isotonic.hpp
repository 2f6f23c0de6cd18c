// Isotonic regression by weighted pool-adjacent-violators (PAV) [Ayer, Brunk, Ewing, Reid & Silverman
// 1955; Barlow, Bartholomew, Bremner & Brunk 1972, ch. 1]: the nondecreasing function f of the
// predictions x that minimises Σ w_i (y_i − f(x_i))². The core of the CORP reliability diagram and
// score decomposition (Dimitriadis, Gneiting & Jordan, PNAS 2021), whose PAV-calibrated probabilities
// are f(x_i) for binary outcomes y_i, and of isotonic recalibration.
//
// Ties in x are pooled first — equal predictions get the same value, as CORP requires — into one point
// with the total weight and the weighted mean of their y; PAV then runs on the distinct x in increasing
// order, merging adjacent blocks whose means decrease. Each block's value is its weighted mean of y.
// O(n log n) for the sort (stable: the result does not depend on the order of tied rows beyond the
// summation order within a tie, which is the input's), O(n) after it; serial and deterministic.
#pragma once

#include <cstddef>
#include <vector>

namespace calib {

// One constant piece of the fitted step function: the predictions x in [lower, upper] (the smallest and
// largest x pooled into it), its value, its total weight and its number of observations.
struct IsotonicBlock {
    double lower = 0, upper = 0;
    double value = 0;
    double weight = 0;
    std::size_t count = 0;
};

struct IsotonicFit {
    std::vector<IsotonicBlock> blocks;  // in increasing x, their values strictly increasing
    std::vector<double> fitted;         // f(x_i) for each observation, in the input's order
};

// Throws calib::invalid_argument for n = 0, x and y (or a non-empty w) of different lengths, a value of
// x or y that is not finite, or a weight that is not finite and > 0. Empty w: every weight 1.
IsotonicFit isotonic_regression(const std::vector<double>& x, const std::vector<double>& y,
                                const std::vector<double>& w = {});

}  // namespace calib

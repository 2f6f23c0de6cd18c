// Pool-adjacent-violators' parts, shared by isotonic_regression (isotonic.hpp) and the CORP diagram
// (corp.hpp), which sorts its forecasts once for the fit and for its band points: the sorted order, the
// fit on it, and the merge step (which the diagram's refits on resamples also use: points arrive in
// increasing x, each a tie already pooled).
#pragma once

#include <calib/isotonic.hpp>

#include <cstddef>
#include <vector>

namespace calib::detail {

// A block while PAV runs: its x range, count and the sums its value is the ratio of.
struct PavPool {
    double lower, upper, weight, weighted_y;
    std::size_t count;
    double value() const { return weighted_y / weight; }
};

// Appends `point` (x above every pool's) to `pools`, merging while the previous block's value is not
// below the new one's: the blocks' values then increase strictly, so the blocks are the fitted
// function's maximal constant pieces.
inline void pav_append(std::vector<PavPool>& pools, PavPool point) {
    while (!pools.empty() && pools.back().value() >= point.value()) {
        const PavPool& left = pools.back();
        point = {left.lower, point.upper, left.weight + point.weight, left.weighted_y + point.weighted_y,
                 left.count + point.count};
        pools.pop_back();
    }
    pools.push_back(point);
}

// The rows in increasing x, ties in increasing row (a stable order). O(n log n).
std::vector<std::size_t> sorted_order(const std::vector<double>& x);

// isotonic_regression of y on x with weights w (empty: 1) on checked inputs, `order` their sorted_order.
IsotonicFit isotonic_fit(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w,
                         const std::vector<std::size_t>& order);

}  // namespace calib::detail

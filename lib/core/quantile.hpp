// Sample quantiles: linear interpolation between order statistics (R's type 7), one definition for
// the bootstrap intervals (compare/summaries.hpp) and the smoothed reliability curve's range.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace calib::detail {

// The p-quantile of values already sorted in increasing order (not empty).
inline double sorted_quantile(const std::vector<double>& sorted, double p) {
    const double h = p * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

// The p-quantile of the values (sorted here).
inline double quantile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    return sorted_quantile(values, p);
}

}  // namespace calib::detail

// Summaries of bootstrap replicates shared by the model comparison and the single-model intervals
// (compare.hpp): type-7 quantiles and the replicates' standard deviation.
#pragma once

#include "core/compensated_sum.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace calib::detail {

// The p-quantile of the values with linear interpolation between order statistics (R's type 7).
inline double quantile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    const double h = p * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

// The standard deviation of the replicates (divisor R − 1; 0 for one replicate).
inline double std_error(const std::vector<double>& values) {
    if (values.size() < 2) return 0;
    CompensatedSum sum;
    for (const double v : values) sum.add(v);
    const double mean = sum.value() / static_cast<double>(values.size());
    CompensatedSum squares;
    for (const double v : values) squares.add((v - mean) * (v - mean));
    return std::sqrt(squares.value() / static_cast<double>(values.size() - 1));
}

}  // namespace calib::detail

// Summaries of bootstrap replicates shared by the model comparison and the single-model intervals
// (compare.hpp): type-7 quantiles (core/quantile.hpp) and the replicates' standard deviation.
#pragma once

#include "core/compensated_sum.hpp"
#include "core/quantile.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace calib::detail {

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

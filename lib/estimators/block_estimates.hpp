// The block estimator of a U-statistic from the engine's per-block sums, shared by the SKCE
// (skce.cpp) and the conditional MMD (mmd.cpp).
#pragma once

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "engine/pairwise.hpp"

#include <calib/estimators.hpp>

#include <vector>

namespace calib::detail {

// Each block's unbiased estimate and mean square, and their mean (`fn` names the caller in errors).
inline BlockSkce block_estimates(const char* fn, const std::vector<PairSums>& blocks, std::size_t block_size) {
    const double pairs = 0.5 * static_cast<double>(block_size) * static_cast<double>(block_size - 1);
    BlockSkce result;
    result.block_size = block_size;
    CompensatedSum total;
    for (const PairSums& b : blocks) {
        result.block_estimates.push_back(b.sum.value() / pairs);
        result.block_mean_squares.push_back(b.sum_squares.value() / pairs);
        total.add(result.block_estimates.back());
    }
    result.estimate = check_result(fn, total.value() / static_cast<double>(blocks.size()));
    for (double q : result.block_mean_squares) check_result(fn, q);
    return result;
}

}  // namespace calib::detail

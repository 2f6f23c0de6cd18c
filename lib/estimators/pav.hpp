// The merge step of pool-adjacent-violators, shared by isotonic_regression (isotonic.hpp) and the CORP
// diagram's refits on resamples (corp.hpp): points arrive in increasing x, each a tie already pooled.
#pragma once

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

}  // namespace calib::detail

// The exact median of the pair distances d(z_i, z_j) from their order statistics (the engine's pair
// selection), shared by the median heuristic of the SKCE's prediction kernel (median.cpp) and of the
// MMD's conditioning kernel (mmd_ops.cpp).
#pragma once

#include <calib/kernels.hpp>

#include <cstdint>
#include <vector>

namespace calib::detail {

// The median over the pairs i < j (pairs) or over all n² ordered pairs with the zero diagonal (full);
// distance_ranks(ranks) returns the values of the given ranks (ascending, 0-based) among the pair
// distances {d(z_i, z_j) : i < j}.
template <class DistanceRanks>
double exact_median_of(std::uint64_t n, MedianVariant variant, DistanceRanks&& distance_ranks) {
    // The ranks of the median's one or two middle values, then where they fall among the i < j pairs:
    // in the full n×n matrix the n zeros come first and every off-diagonal distance twice, so rank
    // r ≥ n holds the ((r − n)/2)-th smallest pair distance.
    const std::uint64_t count = variant == MedianVariant::pairs ? n * (n - 1) / 2 : n * n;
    std::vector<std::uint64_t> middle{count / 2};
    if (count % 2 == 0) middle.insert(middle.begin(), count / 2 - 1);
    std::vector<std::uint64_t> pair_ranks;
    for (const std::uint64_t r : middle)
        if (variant == MedianVariant::pairs || r >= n) pair_ranks.push_back(variant == MedianVariant::pairs ? r : (r - n) / 2);
    std::vector<double> pair_values;
    if (!pair_ranks.empty()) pair_values = distance_ranks(pair_ranks);
    // The middle values in order: zeros of the diagonal (full, r < n) first.
    std::vector<double> values(middle.size() - pair_values.size(), 0.0);
    values.insert(values.end(), pair_values.begin(), pair_values.end());
    return values.size() == 1 ? values[0] : 0.5 * (values[0] + values[1]);
}

}  // namespace calib::detail

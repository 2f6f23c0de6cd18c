// The definitions of FamilyOps (family_ops.hpp), included only by the per-family translation units
// family_ops_<family>.cpp, each of which instantiates them for its data family.
#pragma once

#include "core/parallel.hpp"
#include "engine/pair_selection.hpp"
#include "kernels/family.hpp"
#include "kernels/family_ops.hpp"

namespace calib::detail {

template <class Data>
QuadraticSums FamilyOps<Data>::quadratic_sums(const Data& data, const Kernel& kernel, const ParallelOptions& parallel) {
    return with_pair_term(data, kernel, [&](const auto& term) { return detail::quadratic_sums(term, parallel); });
}

template <class Data>
std::vector<PairSums> FamilyOps<Data>::block_pair_sums(const Data& data, const Kernel& kernel, std::size_t block_size,
                                                       const ParallelOptions& parallel) {
    return with_pair_term(data, kernel,
                          [&](const auto& term) { return detail::block_pair_sums(term, block_size, parallel); });
}

template <class Data>
CountForms FamilyOps<Data>::count_forms(const Data& data, const Kernel& kernel, std::size_t replicates,
                                        const CountSource& counts, bool cache, const ParallelOptions& parallel,
                                        bool distinct_pairs) {
    return with_pair_term(data, kernel, [&](const auto& term) {
        return detail::count_forms(term, replicates, counts, cache, parallel, distinct_pairs);
    });
}

template <class Data>
Matrix FamilyOps<Data>::materialise(const Data& data, const Kernel& kernel, const ParallelOptions& parallel) {
    return with_pair_term(data, kernel, [&](const auto& term) { return detail::materialise(term, parallel); });
}

template <class Data>
RowMajorMatrix FamilyOps<Data>::cross(const char* function, const Data& data, const Data& locations,
                                      const Kernel& kernel, const ParallelOptions& parallel) {
    Family<Data>::check_locations(function, data, locations);
    const std::size_t n = data.size(), J = locations.size();
    RowMajorMatrix z(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(J));
    with_cross_term(data, locations, kernel,
                    [&](const auto& term) { detail::cross_rows(term, n, J, z.data(), parallel); });
    return z;
}

// One pair on the two observations alone: O(m) rather than the O(n m) of binding the whole data set
// (the terms precompute per observation).
template <class Data>
Data pair_of(const Data& data, std::size_t i, std::size_t j) {
    return subset(data, i == j ? std::vector<std::size_t>{i} : std::vector<std::size_t>{i, j});
}

template <class Data>
double FamilyOps<Data>::pair(const Data& data, const Kernel& kernel, std::size_t i, std::size_t j) {
    return with_pair_term(pair_of(data, i, j), kernel,
                          [&](const auto& term) { return single_pair(term, 0, i == j ? 0 : 1); });
}

template <class Data>
double FamilyOps<Data>::distance(const Data& data, Metric metric, std::size_t i, std::size_t j) {
    alignas(64) double d[chunk_width];
    const std::size_t other = i == j ? 0 : 1;
    with_prediction_kernel(pair_of(data, i, j), metric, [&](const auto& pk) { pk.distances(0, other, other + 1, d); });
    return d[0];
}

template <class Data>
std::vector<double> FamilyOps<Data>::distance_ranks(const Data& data, Metric metric,
                                                    const std::vector<std::uint64_t>& ranks,
                                                    const ParallelOptions& parallel) {
    return with_prediction_kernel(data, metric, [&](const auto& pk) {
        const auto term = function_term(
            [&](std::size_t i, std::size_t j0, std::size_t j1, double* out) { pk.distances(i, j0, j1, out); },
            data.size());
        return select_pair_ranks(term, ranks, parallel);
    });
}

template <class Data>
RowMajorMatrix FamilyOps<Data>::prediction_gram_upper(const Data& data, const PredictionKernel& kernel,
                                                      const ParallelOptions& parallel) {
    const std::size_t n = data.size();
    RowMajorMatrix g(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
    with_prediction_kernel(data, kernel, [&](const auto& pk) {
        parallel_for(n, ParallelOptions{parallel.num_threads}, [&](std::size_t i) {
            for (std::size_t j0 = i; j0 < n; j0 += chunk_width)
                pk.values(i, j0, std::min(n, j0 + chunk_width), g.data() + i * n + j0);
        });
    });
    return g;
}

}  // namespace calib::detail

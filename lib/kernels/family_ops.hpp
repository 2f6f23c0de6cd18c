// Every pass of the pairwise engine over the kernels of one data family, compiled once per family
// (family_ops_<family>.cpp instantiate family_ops.ipp): the estimators, tests and the median heuristic
// call these instead of instantiating the engine on the family's terms themselves, so that each
// (engine pass, term) pair is compiled exactly once and the families compile in parallel. The
// kernel must have been validated (validate_kernel) first; every result is bitwise independent of
// the thread count (pairwise.hpp).
#pragma once

#include "engine/count_forms.hpp"
#include "engine/pairwise.hpp"
#include "engine/quadratic_sums.hpp"

#include <calib/data.hpp>
#include <calib/kernels.hpp>
#include <calib/parallel.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace calib::detail {

template <class Data>
struct FamilyOps {
    // Σ_{i<j} h, Σ_{i<j} h², Σ_i h_ii (one pass).
    static QuadraticSums quadratic_sums(const Data& data, const Kernel& kernel, const ParallelOptions& parallel);
    // The sums of each block of B consecutive observations (the last n mod B dropped).
    static std::vector<PairSums> block_pair_sums(const Data& data, const Kernel& kernel, std::size_t block_size,
                                                 const ParallelOptions& parallel);
    // The quadratic forms of the bootstrap's resampling counts with H (count_forms.hpp).
    static CountForms count_forms(const Data& data, const Kernel& kernel, std::size_t replicates,
                                  const CountSource& counts, bool cache, const ParallelOptions& parallel,
                                  bool distinct_pairs = false);
    // The n×n matrix of h (O(n²) memory: the spectral test).
    static Matrix materialise(const Data& data, const Kernel& kernel, const ParallelOptions& parallel);
    // The n×J row-major deviations k_P(p_i, q_j)·w(i, t_j) at test locations (the UCME); throws
    // (naming `function`) when the locations do not live in the predictions' space.
    static RowMajorMatrix cross(const char* function, const Data& data, const Data& locations, const Kernel& kernel,
                                const ParallelOptions& parallel);
    // h(W_i, W_j) of one pair.
    static double pair(const Data& data, const Kernel& kernel, std::size_t i, std::size_t j);
    // d(p_i, p_j) of one pair.
    static double distance(const Data& data, Metric metric, std::size_t i, std::size_t j);
    // The values of the given ranks (ascending, 0-based) among the distances {d(p_i, p_j) : i < j}.
    static std::vector<double> distance_ranks(const Data& data, Metric metric, const std::vector<std::uint64_t>& ranks,
                                              const ParallelOptions& parallel);
    // The upper triangle (j ≥ i) of the prediction kernel's Gram matrix k_P(p_i, p_j), row-major.
    static RowMajorMatrix prediction_gram_upper(const Data& data, const PredictionKernel& kernel,
                                                const ParallelOptions& parallel);
};

}  // namespace calib::detail

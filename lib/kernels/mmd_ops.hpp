// The engine passes over the conditional MMD's pair term (mmd_term.hpp), compiled once in
// mmd_ops.cpp (class predictions) and mmd_gaussian.cpp (Gaussian forecasts), as FamilyOps are for the SKCE's terms: the estimators and tests call these. The spec
// must have been validated (validate_mmd) first; every result is bitwise independent of the thread
// count (pairwise.hpp).
#pragma once

#include "engine/count_forms.hpp"
#include "engine/pairwise.hpp"
#include "engine/quadratic_sums.hpp"

#include "core/check.hpp"

#include <calib/mmd.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace calib::detail {

// Throws (naming `function`) unless the lengthscale `what` is finite and > 0.
inline void check_mmd_lengthscale(const char* function, const char* what, double l) {
    if (!(std::isfinite(l) && l > 0)) fail(function, what, " = ", format_value(l), ", must be finite and > 0");
}

// Throws unless the individual notion's features have n rows, a column at least, and finite values.
inline void check_mmd_features(const char* function, const Matrix& features, std::size_t n) {
    if (features.rows() != static_cast<Eigen::Index>(n) || features.cols() < 1)
        fail(function, "the individual notion needs features of n = ", n, " rows (one per observation) and at least "
             "one column; got ", features.rows(), " x ", features.cols());
    for (Eigen::Index j = 0; j < features.cols(); ++j)
        for (Eigen::Index i = 0; i < features.rows(); ++i)
            check_finite(function, "features", static_cast<long>(i), static_cast<long>(j), features(i, j));
}

// The exact median of the distances between the rows of `points` (L1 or Euclidean, times scale) over
// the pairs i < j or all n² pairs (options.variant), on a subsample when asked: the median heuristic of
// k_Z. Throws (naming fn, and `where` the block) for a median of 0 or ∞.
double median_of_rows(const char* fn, const Matrix& points, bool l1, double scale, const MedianOptions& options,
                      const std::string& where = "");

// part_unbiased: the unbiased estimate of each conditioning block (class-wise's classes, threshold's
// (y0, α) pairs; one for the other notions), mmd_components(data, spec) of them.
struct MmdOps {
    static QuadraticSums quadratic_sums(const CategoricalData& data, const MmdSpec& spec,
                                        const ParallelOptions& parallel);
    // One fused engine pass over the pairs for all blocks (part_pair_sums).
    static std::vector<double> part_unbiased(const CategoricalData& data, const MmdSpec& spec,
                                             const ParallelOptions& parallel);
    static std::vector<PairSums> block_pair_sums(const CategoricalData& data, const MmdSpec& spec,
                                                 std::size_t block_size, const ParallelOptions& parallel);
    static CountForms count_forms(const CategoricalData& data, const MmdSpec& spec, std::size_t replicates,
                                  const CountSource& counts, bool cache, const ParallelOptions& parallel);
    static double pair(const CategoricalData& data, const MmdSpec& spec, std::size_t i, std::size_t j);
    // The unbiased estimate's gradient in q (n×m) for every notion of class predictions (the spec must
    // pass detail::mmd_gradient_unsupported), by Gram products of the engine (docs/mmd.md §8):
    // O(n² m) (class-wise: m passes of two columns), bitwise the same for any thread count.
    static Matrix unbiased_gradient(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel);
    // Gaussian forecasts; the finite-rank targets without k_Z (marginal, decision) by the O(n r) path
    // (mmd_finite_rank.hpp), the rest by the engine; part_unbiased (threshold's blocks, whose PIT
    // target has no finite rank) by one engine pass.
    static QuadraticSums quadratic_sums(const NormalData& data, const GaussianMmdSpec& spec,
                                        const ParallelOptions& parallel);
    static std::vector<double> part_unbiased(const NormalData& data, const GaussianMmdSpec& spec,
                                             const ParallelOptions& parallel);
    // The same always by the engine's O(n²) pass: the reference of the O(n r) path's tests.
    static QuadraticSums pairwise_sums(const NormalData& data, const GaussianMmdSpec& spec,
                                       const ParallelOptions& parallel);
    static CountForms count_forms(const NormalData& data, const GaussianMmdSpec& spec, std::size_t replicates,
                                  const CountSource& counts, bool cache, const ParallelOptions& parallel);
    static std::vector<PairSums> block_pair_sums(const NormalData& data, const GaussianMmdSpec& spec,
                                                 std::size_t block_size, const ParallelOptions& parallel);
};

}  // namespace calib::detail

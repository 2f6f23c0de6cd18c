// The engine passes over the conditional MMD's pair term (mmd_term.hpp), compiled once in
// mmd_ops.cpp, as FamilyOps are for the SKCE's terms: the estimators and tests call these. The spec
// must have been validated (validate_mmd) first; every result is bitwise independent of the thread
// count (pairwise.hpp).
#pragma once

#include "engine/count_forms.hpp"
#include "engine/pairwise.hpp"
#include "engine/quadratic_sums.hpp"

#include <calib/mmd.hpp>

#include <cstddef>
#include <vector>

namespace calib::detail {

// `component`: the sums of one conditioning block (a class of class-wise), or of all (npos).
struct MmdOps {
    static constexpr std::size_t all = static_cast<std::size_t>(-1);
    static QuadraticSums quadratic_sums(const CategoricalData& data, const MmdSpec& spec,
                                        const ParallelOptions& parallel, std::size_t component = all);
    static std::vector<PairSums> block_pair_sums(const CategoricalData& data, const MmdSpec& spec,
                                                 std::size_t block_size, const ParallelOptions& parallel);
    static CountForms count_forms(const CategoricalData& data, const MmdSpec& spec, std::size_t replicates,
                                  const CountSource& counts, bool cache, const ParallelOptions& parallel);
    static double pair(const CategoricalData& data, const MmdSpec& spec, std::size_t i, std::size_t j);
    // Gaussian forecasts.
    static QuadraticSums quadratic_sums(const NormalData& data, const GaussianMmdSpec& spec,
                                        const ParallelOptions& parallel);
    static CountForms count_forms(const NormalData& data, const GaussianMmdSpec& spec, std::size_t replicates,
                                  const CountSource& counts, bool cache, const ParallelOptions& parallel);
};

}  // namespace calib::detail

// The paper's JKCE baseline: the SKCE with the CKCE's simplex and label kernels, on the pairwise
// engine (ckce.hpp).
#include "ckce/jkce_term.hpp"
#include "engine/quadratic_sums.hpp"

namespace calib {

namespace {

detail::QuadraticSums jkce_sums(const char* fn, const CategoricalData& data, const SimplexKernel& kernel,
                                const TargetKernel& target, const ParallelOptions& parallel) {
    return detail::with_jkce_term(fn, data, kernel, target,
                                  [&](const auto& term) { return detail::quadratic_sums(term, parallel); });
}

}  // namespace

double jkce_unbiased(const CategoricalData& data, const SimplexKernel& kernel, const TargetKernel& target,
                     const ParallelOptions& parallel) {
    if (data.size() < 2) detail::fail("jkce_unbiased", "n = ", data.size(), ", needs at least 2 observations");
    return jkce_sums("jkce_unbiased", data, kernel, target, parallel).unbiased();
}

double jkce_biased(const CategoricalData& data, const SimplexKernel& kernel, const TargetKernel& target,
                   const ParallelOptions& parallel) {
    return jkce_sums("jkce_biased", data, kernel, target, parallel).biased();
}

}  // namespace calib

// The paper's JKCE baseline: the SKCE with the CKCE's simplex and target kernels, on the pairwise
// engine (ckce.hpp); its engine passes are compiled here only (ckce/detail.hpp).
#include "ckce/jkce_term.hpp"
#include "engine/count_forms.hpp"
#include "engine/quadratic_sums.hpp"

namespace calib {

namespace detail {

QuadraticSums jkce_sums(const char* fn, const CategoricalData& data, const SimplexKernel& kernel,
                        const TargetKernel& target, const ParallelOptions& parallel) {
    return with_jkce_term(fn, data, kernel, target, [&](const auto& term) { return quadratic_sums(term, parallel); });
}

CountForms jkce_count_forms(const char* fn, const CategoricalData& data, const SimplexKernel& kernel,
                            const TargetKernel& target, std::size_t replicates, const CountSource& counts, bool cache,
                            const ParallelOptions& parallel) {
    return with_jkce_term(fn, data, kernel, target, [&](const auto& term) {
        return count_forms(term, replicates, counts, cache, parallel);
    });
}

}  // namespace detail

double jkce_unbiased(const CategoricalData& data, const SimplexKernel& kernel, const TargetKernel& target,
                     const ParallelOptions& parallel) {
    detail::check_min_size("jkce_unbiased", data.size(), 2);
    return detail::jkce_sums("jkce_unbiased", data, kernel, target, parallel).unbiased();
}

double jkce_biased(const CategoricalData& data, const SimplexKernel& kernel, const TargetKernel& target,
                   const ParallelOptions& parallel) {
    return detail::jkce_sums("jkce_biased", data, kernel, target, parallel).biased();
}

}  // namespace calib

// The conditional MMD's estimators (calib/mmd.hpp): sums over pairs come from the pairwise engine.
#include <calib/mmd.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "estimators/block_estimates.hpp"
#include "kernels/mmd_ops.hpp"

namespace calib {

using detail::fail;

namespace {
// The unbiased estimate. With several conditioning blocks reported one by one (class-wise's classes,
// threshold's (y0, α) pairs: `parts`), every block's sums from one pass; the estimate is their
// compensated sum, the U-statistic of the summed h (the tests' statistic), without a further pass.
template <class Data, class Spec>
MmdEstimate unbiased(const Data& data, const Spec& spec, const ParallelOptions& parallel,
                     std::vector<double> MmdEstimate::*parts) {
    const char* fn = "mmd_unbiased";
    validate_mmd(data, spec, fn);
    const std::size_t n = data.size();
    detail::check_min_size(fn, n, 2);
    MmdEstimate result;
    result.n = n;
    if (!parts) {
        result.estimate = detail::check_result(fn, detail::MmdOps::quadratic_sums(data, spec, parallel).unbiased());
        return result;
    }
    detail::CompensatedSum total;
    for (double part : detail::MmdOps::part_unbiased(data, spec, parallel)) {
        (result.*parts).push_back(detail::check_result(fn, part));
        total.add((result.*parts).back());
    }
    result.estimate = total.value();
    return result;
}
}  // namespace

MmdEstimate mmd_unbiased(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel) {
    return unbiased(data, spec, parallel, spec.notion == MmdNotion::class_wise ? &MmdEstimate::per_class : nullptr);
}

MmdEstimate mmd_unbiased(const NormalData& data, const GaussianMmdSpec& spec, const ParallelOptions& parallel) {
    return unbiased(data, spec, parallel, spec.notion == MmdNotion::threshold ? &MmdEstimate::per_threshold : nullptr);
}

namespace {
template <class Data, class Spec>
BlockSkce block(const Data& data, const Spec& spec, std::size_t block_size, const ParallelOptions& parallel) {
    const char* fn = "mmd_block";
    validate_mmd(data, spec, fn);
    const std::size_t n = data.size();
    if (block_size < 2 || block_size > n) fail(fn, "block_size = ", block_size, ", must be in [2, n = ", n, "]");
    return detail::block_estimates(fn, detail::MmdOps::block_pair_sums(data, spec, block_size, parallel), block_size);
}
}  // namespace

BlockSkce mmd_block(const CategoricalData& data, const MmdSpec& spec, std::size_t block_size,
                    const ParallelOptions& parallel) {
    return block(data, spec, block_size, parallel);
}
BlockSkce mmd_block(const NormalData& data, const GaussianMmdSpec& spec, std::size_t block_size,
                    const ParallelOptions& parallel) {
    return block(data, spec, block_size, parallel);
}

double mmd_core(const CategoricalData& data, const MmdSpec& spec, std::size_t i, std::size_t j) {
    const char* fn = "mmd_core";
    validate_mmd(data, spec, fn);
    if (i >= data.size() || j >= data.size())
        fail(fn, "index (", i, ", ", j, ") out of range for n = ", data.size());
    return detail::MmdOps::pair(data, spec, i, j);
}

}  // namespace calib

// SKCE estimators (estimators.hpp): sums over pairs come from the pairwise engine.
#include <calib/estimators.hpp>

#include "core/check.hpp"
#include "data/family_list.hpp"
#include "estimators/block_estimates.hpp"
#include "kernels/family_ops.hpp"

#include <cmath>

namespace calib {

using detail::fail;

template <class Data>
double skce_biased(const Data& data, const Kernel& kernel, const ParallelOptions& parallel) {
    validate_kernel(data, kernel, "skce_biased");
    return detail::check_result("skce_biased", detail::FamilyOps<Data>::quadratic_sums(data, kernel, parallel).biased());
}

template <class Data>
double skce_unbiased(const Data& data, const Kernel& kernel, const ParallelOptions& parallel) {
    validate_kernel(data, kernel, "skce_unbiased");
    const std::size_t n = data.size();
    detail::check_min_size("skce_unbiased", n, 2);
    return detail::check_result("skce_unbiased",
                                detail::FamilyOps<Data>::quadratic_sums(data, kernel, parallel).unbiased());
}

template <class Data>
BlockSkce skce_block(const Data& data, const Kernel& kernel, std::size_t block_size,
                     const ParallelOptions& parallel) {
    validate_kernel(data, kernel, "skce_block");
    const std::size_t n = data.size();
    if (block_size < 2 || block_size > n)
        fail("skce_block", "block_size = ", block_size, ", must be in [2, n = ", n, "]");
    return detail::block_estimates("skce_block", detail::FamilyOps<Data>::block_pair_sums(data, kernel, block_size, parallel),
                                   block_size);
}

std::size_t sqrt_block_size(std::size_t n) {
    auto b = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
    while (b * b > n) --b;  // exact ⌊√n⌋ despite rounding of the double square root
    while ((b + 1) * (b + 1) <= n) ++b;
    return std::max<std::size_t>(2, b);
}

#define CALIB_INSTANTIATE(Data)                                                                   \
    template double skce_biased<Data>(const Data&, const Kernel&, const ParallelOptions&);        \
    template double skce_unbiased<Data>(const Data&, const Kernel&, const ParallelOptions&);      \
    template BlockSkce skce_block<Data>(const Data&, const Kernel&, std::size_t, const ParallelOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

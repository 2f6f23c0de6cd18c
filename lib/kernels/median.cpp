// Median heuristic for the prediction lengthscale (kernels.hpp).
#include <calib/kernels.hpp>

#include "core/check.hpp"
#include "data/family_list.hpp"
#include "kernels/family_traits.hpp"
#include "kernels/family_ops.hpp"
#include "kernels/median_ranks.hpp"

#include <calib/tool/random.hpp>

#include <cmath>

namespace calib {

using detail::fail;

namespace {

// The exact median of the distances d(p_i, p_j) over the pairs i < j, or over all n² ordered pairs
// with the zero diagonal (full).
template <class Data>
double exact_median(const Data& data, Metric metric, MedianVariant variant, const ParallelOptions& parallel) {
    return detail::exact_median_of(data.size(), variant, [&](const std::vector<std::uint64_t>& ranks) {
        return detail::FamilyOps<Data>::distance_ranks(data, metric, ranks, parallel);
    });
}

}  // namespace

template <class Data>
double median_distance(const Data& data, Metric metric, const MedianOptions& options) {
    const char* fn = "median_distance";
    const std::size_t n = data.size();
    detail::check_min_size(fn, n, 2, "pairwise distances");
    if (options.subsample == 1) fail(fn, "subsample = 1, must be 0 (use all points) or >= 2");
    detail::check_metric<Data>(fn, metric);
    double median = 0;
    if (options.subsample != 0 && n > options.subsample) {
        Rng rng(options.seed);
        median = exact_median(subset(data, sample_without_replacement(n, options.subsample, rng)), metric,
                              options.variant, options.parallel);
    } else {
        median = exact_median(data, metric, options.variant, options.parallel);
    }
    if (!(median > 0))
        fail(fn, "the median distance between predictions is ", detail::format_value(median),
             " (most predictions coincide), so it cannot serve as a lengthscale; give the lengthscale explicitly");
    if (!std::isfinite(median))
        fail(fn, "the median distance between predictions is ", detail::format_value(median),
             " (the predictions are too far apart to be represented), so it cannot serve as a lengthscale; give the "
             "lengthscale explicitly");
    return median;
}

#define CALIB_INSTANTIATE(Data) template double median_distance<Data>(const Data&, Metric, const MedianOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

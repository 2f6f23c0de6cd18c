// Median heuristic for the prediction lengthscale (kernels.hpp).
#include <calib/kernels.hpp>

#include "core/check.hpp"
#include "data/families.hpp"
#include "kernels/family_traits.hpp"
#include "kernels/family_ops.hpp"

#include <calib/tool/random.hpp>

#include <cmath>

namespace calib {

using detail::fail;

namespace {

// The exact median of the distances d(p_i, p_j) over the pairs i < j, or over all n² ordered pairs
// with the zero diagonal (full).
template <class Data>
double exact_median(const Data& data, Metric metric, MedianVariant variant, const ParallelOptions& parallel) {
    const std::uint64_t n = data.size();
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
    if (!pair_ranks.empty())
        pair_values = detail::FamilyOps<Data>::distance_ranks(data, metric, pair_ranks, parallel);
    // The middle values in order: zeros of the diagonal (full, r < n) first.
    std::vector<double> values(middle.size() - pair_values.size(), 0.0);
    values.insert(values.end(), pair_values.begin(), pair_values.end());
    return values.size() == 1 ? values[0] : 0.5 * (values[0] + values[1]);
}

}  // namespace

template <class Data>
double median_distance(const Data& data, Metric metric, const MedianOptions& options) {
    const char* fn = "median_distance";
    const std::size_t n = data.size();
    if (n < 2) fail(fn, "n = ", n, ", needs at least 2 observations for pairwise distances");
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

// Median heuristic for the prediction lengthscale (kernels.hpp).
#include <calib/kernels.hpp>

#include "families.hpp"
#include "check.hpp"
#include "kernel_checks.hpp"
#include "pair_terms.hpp"
#include "parallel.hpp"

#include <calib/random.hpp>

#include <algorithm>
#include <numeric>

namespace calib {

using detail::fail;

namespace {

// The k-th smallest (0-based) of values; reorders values.
double kth_smallest(std::vector<double>& values, std::size_t k) {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
}

// All distances d(p_i, p_j), i < j, of one data set, row by row (rows in parallel: each row has its
// own slot range, so the result does not depend on the thread count).
template <class Data>
std::vector<double> pair_distances(const Data& data, Metric metric) {
    const std::size_t n = data.size();
    std::vector<double> d(n * (n - 1) / 2);
    detail::with_prediction_kernel(data, metric, [&](const auto& pk) {
        detail::parallel_for(n - 1, 0, [&](std::size_t i) {
            double* out = d.data() + i * n - i * (i + 1) / 2;  // pairs of rows 0..i-1 come first
            for (std::size_t j0 = i + 1; j0 < n; j0 += detail::chunk_width)
                pk.distances(i, j0, std::min(n, j0 + detail::chunk_width), out + (j0 - i - 1));
        });
    });
    return d;
}

template <class Data>
double median_of_all(const Data& data, Metric metric, MedianVariant variant) {
    const std::size_t n = data.size();
    std::vector<double> d = pair_distances(data, metric);
    if (variant == MedianVariant::pairs) {
        const std::size_t count = d.size();
        const double upper = kth_smallest(d, count / 2);
        if (count % 2) return upper;
        // The lower middle value is the largest of the part nth_element left below `upper`.
        return 0.5 * (upper + *std::max_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(count / 2)));
    }
    // Full n×n matrix: n zeros, then every off-diagonal distance twice. Rank r ≥ n holds the
    // ((r − n)/2)-th smallest off-diagonal distance.
    const auto at_rank = [&](std::size_t r) { return r < n ? 0.0 : kth_smallest(d, (r - n) / 2); };
    const std::size_t total = n * n;
    return total % 2 ? at_rank(total / 2) : 0.5 * (at_rank(total / 2 - 1) + at_rank(total / 2));
}

}  // namespace

template <class Data>
double median_distance(const Data& data, Metric metric, const MedianOptions& options) {
    const char* fn = "median_distance";
    const std::size_t n = data.size();
    if (n < 2) fail(fn, "n = ", n, ", needs at least 2 observations for pairwise distances");
    if (options.max_points == 1) fail(fn, "max_points = 1, must be 0 (use all points) or >= 2");
    detail::check_metric(fn, metric, data);
    const bool subsample = options.max_points != 0 && n > options.max_points;
    Rng rng(options.seed);
    const double median = subsample
        ? median_of_all(subset(data, sample_without_replacement(n, options.max_points, rng)), metric, options.variant)
        : median_of_all(data, metric, options.variant);
    if (!(median > 0))
        fail(fn, "the median distance between predictions is 0 (most predictions coincide), so it cannot "
                 "serve as a lengthscale; give the lengthscale explicitly");
    return median;
}

#define CALIB_INSTANTIATE(Data) template double median_distance<Data>(const Data&, Metric, const MedianOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

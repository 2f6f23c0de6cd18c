// Bootstrap intervals of one model's estimates on the resamples of compare_models (compare.hpp).
#include <calib/compare.hpp>

#include "compare/summaries.hpp"
#include "core/check.hpp"
#include "core/memory_guard.hpp"
#include "hypothesis/p_values.hpp"
#include "core/parallel.hpp"
#include "data/family_list.hpp"
#include "engine/count_forms.hpp"
#include "kernels/family_ops.hpp"


#include <algorithm>
#include <numeric>

namespace calib {

using detail::fail;

namespace {

void check_options(const char* fn, std::size_t n, const IntervalOptions& o) {
    if (n == 0) fail(fn, "n = 0, needs at least 1 observation");
    detail::check_replicates(fn, o.replicates);
    if (!(o.level > 0 && o.level < 1)) fail(fn, "level = ", detail::format_value(o.level), ", must be in (0, 1)");
}

BootstrapInterval summarise(double estimate, std::vector<double> replicates, double level) {
    BootstrapInterval out;
    out.estimate = estimate;
    const double tail = (1 - level) / 2;
    out.lower = detail::quantile(replicates, tail);
    out.upper = detail::quantile(replicates, 1 - tail);
    out.std_error = detail::std_error(replicates);
    out.replicates = std::move(replicates);
    return out;
}

}  // namespace

template <class Data>
BootstrapInterval skce_unbiased_interval(const Data& data, const Kernel& kernel, const IntervalOptions& options) {
    const char* fn = "skce_unbiased_interval";
    validate_kernel(data, kernel, fn);
    const std::size_t n = data.size(), R = options.replicates;
    detail::check_min_size(fn, n, 2);
    check_options(fn, n, options);
    const double budget = detail::resolve_memory_budget(fn, options.memory_budget);
    const detail::CountFormsMemory memory = detail::count_forms_memory(n, R);
    const double working = memory.working + 16 * double(R);  // with the distinct-pair forms
    if (working > budget)
        fail(fn, "n = ", n, " and ", R, " replicates need ", detail::format_bytes(working),
             " of working memory, more than `memory_budget` = ", detail::format_bytes(budget), "; raise the budget");
    const bool cache = working + memory.cache <= budget;
    const auto counts = [&](std::size_t r0, std::size_t, auto&& out) {
        detail::resampling_counts(options.seed, 1 + r0, out, options.parallel);
    };
    const detail::CountForms f =
        detail::FamilyOps<Data>::count_forms(data, kernel, R, counts, cache, options.parallel, true);
    // All n draws of one observation a (probability n^(1−n)) leave no pair of distinct observations:
    // then the replicate is h(s_a, s_a), the resample's only value of h.
    std::vector<double> replicates(R);
    const double n2 = double(n) * double(n);
    for (std::size_t r = 0; r < R; ++r)
        replicates[r] = f.squared_counts[r] == n2 ? f.squared_diagonal[r] / n2
                                                  : (f.quadratic[r] - f.squared_diagonal[r]) / (n2 - f.squared_counts[r]);
    return summarise(f.sums.unbiased(), std::move(replicates), options.level);
}

std::vector<BootstrapInterval> resample_intervals(
    std::size_t n, std::size_t k, const std::function<std::vector<double>(const std::vector<std::size_t>&)>& statistics,
    const IntervalOptions& options) {
    check_options("resample_intervals", n, options);
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), std::size_t{0});
    const std::vector<double> estimates = statistics(all);
    if (estimates.size() != k)
        fail("resample_intervals", "the statistics gave ", estimates.size(), " values, not k = ", k);
    std::vector<std::vector<double>> replicates(k, std::vector<double>(options.replicates));
    // Replicate r: the resample of stream r + 1, as resampling_counts' column r, expanded in order.
    detail::parallel_for(
        options.replicates, options.parallel,
        [&](std::size_t r) {
            std::vector<std::size_t> counts(n, 0), indices;
            detail::add_resample_counts(options.seed, r + 1, n, counts);
            indices.reserve(n);
            for (std::size_t a = 0; a < n; ++a) indices.insert(indices.end(), counts[a], a);
            const std::vector<double> values = statistics(indices);
            if (values.size() != k)
                fail("resample_intervals", "the statistics gave ", values.size(), " values, not k = ", k);
            for (std::size_t j = 0; j < k; ++j) replicates[j][r] = values[j];
        },
        "bootstrap replicates");
    std::vector<BootstrapInterval> out;
    for (std::size_t j = 0; j < k; ++j) out.push_back(summarise(estimates[j], std::move(replicates[j]), options.level));
    return out;
}

BootstrapInterval basic_interval(BootstrapInterval percentile, double world, double floor) {
    const double lower = percentile.estimate - (percentile.upper - world);
    const double upper = percentile.estimate - (percentile.lower - world);
    percentile.lower = std::max(floor, lower);
    percentile.upper = std::max(floor, upper);
    return percentile;
}

void validate(const Resampling& resampling, const char* function) {
    if (resampling.replicates > 0) detail::check_replicates(function, resampling.replicates);
    if (!(resampling.level > 0 && resampling.level < 1))
        fail(function, "level = ", detail::format_value(resampling.level), ", must be in (0, 1)");
}

std::vector<BootstrapInterval> resample_intervals(
    std::size_t n, std::size_t k, const std::function<std::vector<double>(const std::vector<std::size_t>&)>& statistics,
    const Resampling& resampling, const ParallelOptions& parallel) {
    if (resampling.replicates == 0) return {};
    IntervalOptions options;
    options.replicates = resampling.replicates;
    options.level = resampling.level;
    options.seed = resampling.seed;
    options.parallel = parallel;
    return resample_intervals(n, k, statistics, options);
}

BootstrapInterval resample_interval(std::size_t n, const std::function<double(const std::vector<std::size_t>&)>& statistic,
                                    const IntervalOptions& options) {
    return resample_intervals(
        n, 1, [&](const std::vector<std::size_t>& indices) { return std::vector<double>{statistic(indices)}; },
        options)[0];
}

#define CALIB_INSTANTIATE(Data) \
    template BootstrapInterval skce_unbiased_interval<Data>(const Data&, const Kernel&, const IntervalOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

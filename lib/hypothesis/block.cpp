// Tests built on the block and quadratic estimators with closed-form p-values: the block z-test
// and the distribution-free bounds (hypothesis.hpp).
#include <calib/hypothesis.hpp>

#include "core/check.hpp"
#include "data/family_list.hpp"
#include "hypothesis/p_values.hpp"
#include "hypothesis/statistic_tests.hpp"
#include "engine/pairwise.hpp"

#include <boost/math/distributions/normal.hpp>

#include <cmath>
#include <limits>

namespace calib {

using detail::fail;

void validate(const BlockTestOptions& options, std::size_t n) {
    const char* fn = "block_test";
    const std::size_t b = options.block_size.resolve(n);
    const std::string given = options.block_size.is_sqrt() ? detail::concat("`block_size` sqrt = ", b)
                                                           : detail::concat("`block_size` = ", b);
    if (b < 2 || b > n) fail(fn, given, ", must be in [2, n = ", n, "]");
    if (n / b < 2)
        fail(fn, given, " gives ", n / b, " block of n = ", n,
             " observations; the test needs at least 2 blocks (`block_size` <= n/2)");
    if (!(options.confidence_level > 0 && options.confidence_level < 1))
        fail(fn, "confidence_level = ", detail::format_value(options.confidence_level), ", must be in (0, 1)");
}

namespace detail {

TestResult block_from(std::size_t n, const BlockSkce& block, const BlockTestOptions& options,
                      const std::string& estimator) {
    const std::size_t b = block.block_size, s = n / b;
    const double sd = double(s), estimate = block.estimate;

    double std_error;
    if (options.null_variance) {
        // Remark B.1(ii): Var η_b = E h² / (B choose 2) under H0, E h² estimated within blocks.
        detail::CompensatedSum squares;
        for (double q : block.block_mean_squares) squares.add(q);
        const double pairs = 0.5 * double(b) * double(b - 1);
        std_error = std::sqrt(squares.value() / sd / (sd * pairs));
    } else {
        // Remark B.1(i) / B.3: the sample variance of the block estimates (two-pass).
        detail::CompensatedSum deviations;
        for (double eta : block.block_estimates) deviations.add((eta - estimate) * (eta - estimate));
        const double divisor = options.divisor == VarianceDivisor::s_minus_1 ? sd - 1 : sd;
        std_error = std::sqrt(deviations.value() / divisor / sd);
    }
    const bool degenerate = !(std_error > 0);
    const double z = degenerate ? (estimate > 0 ? std::numeric_limits<double>::infinity()
                                                : -std::numeric_limits<double>::infinity())
                                : estimate / std_error;
    const boost::math::normal standard;
    const double z_level = boost::math::quantile(standard, options.confidence_level);

    TestResult result;
    result.method = "block";
    result.null_approximation = "normal";
    result.estimator = estimator;
    result.estimate = estimate;
    result.statistic = z;
    result.p_value = degenerate ? (estimate > 0 ? 0.0 : 1.0) : boost::math::cdf(boost::math::complement(standard, z));
    result.n = n;
    BlockTestDetails details;
    details.block_size = b;
    details.num_blocks = s;
    details.std_error = std_error;
    details.null_variance = options.null_variance;
    details.variance_divisor =
        options.null_variance ? 0.0 : (options.divisor == VarianceDivisor::s_minus_1 ? sd - 1 : sd);
    details.confidence_level = options.confidence_level;
    details.ci_lower = std::max(0.0, estimate - z_level * std_error);
    details.degenerate = degenerate;
    result.details = details;
    return detail::checked_test_result("block_test", std::move(result));
}

}  // namespace detail

template <class Data>
TestResult block_test(const Data& data, const Kernel& kernel, const BlockTestOptions& options) {
    const std::size_t n = data.size();
    validate(options, n);
    return detail::block_from(n, skce_block(data, kernel, options.block_size.resolve(n), options.parallel), options,
                              "skce-block");
}

namespace {

double resolve_bound(const char* fn, const Kernel& kernel, double bound) {
    if (bound == 0) return skce_core_bound(kernel);
    if (!(std::isfinite(bound) && bound > 0))
        fail(fn, "bound = ", detail::format_value(bound), ", must be > 0 (or 0 for the kernel's bound)");
    return bound;
}

// Hoeffding's bound for the mean of `count` independent terms in [−K, K] (widmann-2019 D_uq/D_ul):
// P(T − SKCE ≥ t) ≤ exp(−count·t²/(2K²)), only meaningful for t > 0.
TestResult hoeffding(const char* fn, const char* method, const char* estimator, double estimate, double count,
                     double bound, std::size_t n) {
    TestResult result;
    result.method = method;
    result.null_approximation = "hoeffding";
    result.estimator = estimator;
    result.estimate = estimate;
    result.statistic = estimate;
    result.p_value = estimate > 0 ? std::exp(-count * estimate * estimate / (2 * bound * bound)) : 1.0;
    result.n = n;
    DistributionFreeDetails details;
    details.bound = bound;
    details.hoeffding_count = count;
    result.details = details;
    return detail::checked_test_result(fn, std::move(result));
}

}  // namespace

template <class Data>
TestResult dfree_biased_test(const Data& data, const Kernel& kernel, const DistributionFreeOptions& options) {
    const double bound = resolve_bound("dfree_biased_test", kernel, options.bound);
    const double estimate = skce_biased(data, kernel, options.parallel);
    const double n = double(data.size());
    // McDiarmid (widmann-2019 D_b): P(SKCE_b ≥ t) ≤ exp(−½ max(0, √(n t / K) − 1)²).
    const double excess = std::max(0.0, std::sqrt(std::max(0.0, n * estimate / bound)) - 1);
    TestResult result;
    result.method = "dfree-biased";
    result.null_approximation = "mcdiarmid";
    result.estimator = "skce-biased";
    result.estimate = estimate;
    result.statistic = estimate;
    result.p_value = std::exp(-0.5 * excess * excess);
    result.n = data.size();
    DistributionFreeDetails details;
    details.bound = bound;
    result.details = details;
    return detail::checked_test_result("dfree_biased_test", std::move(result));
}

template <class Data>
TestResult dfree_unbiased_test(const Data& data, const Kernel& kernel, const DistributionFreeOptions& options) {
    const double bound = resolve_bound("dfree_unbiased_test", kernel, options.bound);
    const double estimate = skce_unbiased(data, kernel, options.parallel);
    return hoeffding("dfree_unbiased_test", "dfree-unbiased", "skce-unbiased", estimate, double(data.size() / 2), bound,
                     data.size());
}

template <class Data>
TestResult dfree_block_test(const Data& data, const Kernel& kernel, std::size_t block_size,
                            const DistributionFreeOptions& options) {
    const double bound = resolve_bound("dfree_block_test", kernel, options.bound);
    const double estimate = skce_block(data, kernel, block_size, options.parallel).estimate;
    // ⌊n/B⌋ blocks, each an average over ⌊B/2⌋ disjoint (independent) pairs at least.
    const double count = double(data.size() / block_size) * double(block_size / 2);
    TestResult result =
        hoeffding("dfree_block_test", "dfree-block", "skce-block", estimate, count, bound, data.size());
    std::get<DistributionFreeDetails>(result.details).block_size = block_size;
    return result;
}

#define CALIB_INSTANTIATE(Data)                                                                                 \
    template TestResult block_test<Data>(const Data&, const Kernel&, const BlockTestOptions&);                  \
    template TestResult dfree_biased_test<Data>(const Data&, const Kernel&, const DistributionFreeOptions&);    \
    template TestResult dfree_unbiased_test<Data>(const Data&, const Kernel&, const DistributionFreeOptions&);  \
    template TestResult dfree_block_test<Data>(const Data&, const Kernel&, std::size_t, const DistributionFreeOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

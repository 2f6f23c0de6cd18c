// The tests of binary predictions (hypothesis.hpp): Spiegelhalter's z, calibration-in-the-large and
// Hosmer–Lemeshow. Each is one pass (plus a sort for Hosmer–Lemeshow's ranks) with compensated sums in
// the order of the data, so results do not depend on the number of threads.
#include <calib/hypothesis.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "hypothesis/p_values.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace calib {

using detail::fail;

namespace {

// The predictions P(Y = 1) of a data set with two classes (a copy: O(n), beside the tests' O(n) passes).
Vector event_probabilities(const char* function, const CategoricalData& data) {
    if (data.num_classes() != 2)
        fail(function, "the data have ", data.num_classes(),
             " classes; the test applies to binary predictions (the binary family, or class predictions with two "
             "classes)");
    detail::check_min_size(function, data.size(), 1);
    return data.probabilities().col(1);
}

// A two-sided z-test of `numerator` (a sum of independent centred terms under calibration) with the
// variance `variance`; the statistic is |z|. A zero variance (every term is fixed) gives p = 1 when the
// numerator is 0 and p = 0 otherwise (an outcome of probability 0 happened).
TestResult two_sided_z(const char* method, const char* estimator, double estimate, double numerator, double variance,
                       double expected, double std_error, std::size_t n) {
    BinaryZDetails details;
    details.degenerate = !(variance > 0);
    details.expected = expected;
    details.std_error = std_error;
    const double infinity = std::numeric_limits<double>::infinity();
    details.z = details.degenerate ? (numerator == 0 ? 0.0 : std::copysign(infinity, numerator))
                                   : numerator / std::sqrt(variance);
    TestResult result;
    result.method = method;
    result.null_approximation = "normal";
    result.estimator = estimator;
    result.estimate = estimate;
    result.statistic = std::abs(details.z);
    result.p_value = details.degenerate ? (numerator == 0 ? 1.0 : 0.0)
                                        : std::min(1.0, 2 * boost::math::cdf(boost::math::complement(
                                                                boost::math::normal(), result.statistic)));
    result.n = n;
    result.details = details;
    return result;
}

// The group (0-based) of each observation: by rank with ties together, or by the fixed cut points k/g.
std::vector<std::size_t> hosmer_lemeshow_groups(const Vector& p, std::size_t g,
                                                HosmerLemeshowGrouping grouping) {
    const std::size_t n = static_cast<std::size_t>(p.size());
    std::vector<std::size_t> group(n);
    if (grouping == HosmerLemeshowGrouping::fixed) {
        for (std::size_t i = 0; i < n; ++i) {
            // The smallest k ≥ 1 with p ≤ k/g, with the cut points as the divisions k/g (so 0.3 is in
            // the third of ten groups, exactly).
            const auto cut = [g](std::size_t k) { return double(k) / double(g); };
            std::size_t k = std::min<std::size_t>(g, std::max<std::size_t>(1, std::size_t(std::ceil(p[i] * g))));
            while (k > 1 && p[i] <= cut(k - 1)) --k;
            while (k < g && p[i] > cut(k)) ++k;
            group[i] = k - 1;
        }
        return group;
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    for (std::size_t start = 0; start < n;) {
        std::size_t end = start + 1;  // [start, end): one run of tied predictions
        while (end < n && p[order[end]] == p[order[start]]) ++end;
        // r = end, the number of predictions ≤ this one; the group ⌈g·r/n⌉ (1-based).
        const std::size_t k = (g * end + n - 1) / n;
        for (std::size_t j = start; j < end; ++j) group[order[j]] = k - 1;
        start = end;
    }
    return group;
}

}  // namespace

std::string to_string(HosmerLemeshowGrouping grouping) {
    return grouping == HosmerLemeshowGrouping::quantiles ? "quantiles" : "fixed";
}
std::string to_string(HosmerLemeshowDf df) { return df == HosmerLemeshowDf::validation ? "validation" : "development"; }

TestResult spiegelhalter_test(const CategoricalData& data) {
    const Vector p = event_probabilities("spiegelhalter_test", data);
    const std::vector<int>& y = data.labels();
    detail::CompensatedSum brier, expected, numerator, variance;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        const double q = p[i], residual = y[std::size_t(i)] - q, w = 1 - 2 * q, v = q * (1 - q);
        brier.add(residual * residual);
        expected.add(v);
        numerator.add(residual * w);
        variance.add(w * w * v);
    }
    // The Brier score of the two-class vectors, (1/n) Σ ‖p − e_y‖² = (2/n) Σ (y − p)² (calib's one Brier
    // score, as `calib estimate --estimator brier`), with its mean and standard deviation under calibration.
    const double scale = 2 / double(p.size());
    return detail::checked_test_result(
        "spiegelhalter_test", two_sided_z("spiegelhalter", "brier", scale * brier.value(), numerator.value(),
                                          variance.value(), scale * expected.value(),
                                          scale * std::sqrt(variance.value()), data.size()));
}

TestResult calibration_in_the_large_test(const CategoricalData& data) {
    const Vector p = event_probabilities("calibration_in_the_large_test", data);
    const std::vector<int>& y = data.labels();
    detail::CompensatedSum observed, predicted, variance;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        observed.add(y[std::size_t(i)]);
        predicted.add(p[i]);
        variance.add(p[i] * (1 - p[i]));
    }
    const double n = double(p.size());
    const double difference = (observed.value() - predicted.value()) / n;
    return detail::checked_test_result(
        "calibration_in_the_large_test",
        two_sided_z("citl", "mean-difference", difference, observed.value() - predicted.value(), variance.value(),
                    predicted.value() / n, std::sqrt(variance.value()) / n, data.size()));
}

void validate(const HosmerLemeshowOptions& options, std::size_t n) {
    if (options.groups < 2 || options.groups > detail::max_histogram_bins)
        fail("hosmer_lemeshow_test", "groups = ", options.groups, ", must be in [2, ", detail::max_histogram_bins, "]");
    if (options.df == HosmerLemeshowDf::development && options.groups < 3)
        fail("hosmer_lemeshow_test", "groups = ", options.groups,
             " leaves no degrees of freedom with the development rule (G - 2); use at least 3 `groups`");
    if (options.grouping == HosmerLemeshowGrouping::quantiles && options.groups > n)
        fail("hosmer_lemeshow_test", "groups = ", options.groups, " with n = ", n,
             " observations; groups of equal size need at most one group per observation (10 groups is the usual "
             "choice)");
}

TestResult hosmer_lemeshow_test(const CategoricalData& data, const HosmerLemeshowOptions& options) {
    const Vector p = event_probabilities("hosmer_lemeshow_test", data);
    validate(options, data.size());
    const std::vector<int>& y = data.labels();
    const std::size_t g = options.groups;
    const std::vector<std::size_t> group = hosmer_lemeshow_groups(p, g, options.grouping);
    std::vector<detail::CompensatedSum> observed(g), expected(g);
    std::vector<std::size_t> size(g, 0);
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        const std::size_t k = group[std::size_t(i)];
        observed[k].add(y[std::size_t(i)]);
        expected[k].add(p[i]);
        ++size[k];
    }
    HosmerLemeshowDetails details;
    details.grouping = options.grouping;
    details.df_rule = options.df;
    details.smallest_expected = std::numeric_limits<double>::infinity();
    detail::CompensatedSum statistic, squared_error;
    const double n = double(data.size());
    for (std::size_t k = 0; k < g; ++k) {
        if (size[k] == 0) continue;
        ++details.groups;
        const double nk = double(size[k]), o = observed[k].value(), e = expected[k].value();
        details.smallest_expected = std::min({details.smallest_expected, e, nk - e});
        const double variance = e * (1 - e / nk), deviation = o - e;
        // All predictions 0 (or all 1): the outcomes are certain under calibration.
        if (variance > 0)
            statistic.add(deviation * deviation / variance);
        else if (deviation != 0)
            statistic.add(std::numeric_limits<double>::infinity());
        squared_error.add(nk / n * (deviation / nk) * (deviation / nk));
    }
    const std::size_t lost = options.df == HosmerLemeshowDf::development ? 2 : 0;
    if (details.groups <= lost)  // only when groups are empty: validate() asked for g ≥ 3
        fail("hosmer_lemeshow_test", "only ", details.groups, " of the ", g,
             " groups hold predictions (tied or concentrated predictions), and the development rule needs at least "
             "3 for G - 2 degrees of freedom; use the other `grouping`, or `df` validation");
    details.df = double(details.groups - lost);

    TestResult result;
    result.method = "hosmer-lemeshow";
    result.null_approximation = "chi2";
    result.estimator = "grouped-squared-ce";
    result.estimate = squared_error.value();
    result.statistic = statistic.value();
    result.p_value = std::isinf(result.statistic)
                         ? 0.0
                         : boost::math::cdf(boost::math::complement(boost::math::chi_squared(details.df),
                                                                    result.statistic));
    result.n = data.size();
    result.details = details;
    return detail::checked_test_result("hosmer_lemeshow_test", std::move(result));
}

}  // namespace calib

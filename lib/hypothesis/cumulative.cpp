// The cumulative-difference tests of binary predictions (hypothesis.hpp): Kolmogorov–Smirnov and Kuiper
// statistics of the running sum of y − p in the order of p, against the suprema of standard Brownian
// motion on [0, 1]. A sort and one pass, serial: results do not depend on the number of threads.
#include <calib/hypothesis.hpp>

#include "core/check.hpp"
#include "hypothesis/event_probabilities.hpp"
#include "hypothesis/p_values.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace calib {

namespace {

// Q(x) = P(N(0, 1) > x).
double normal_tail(double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); }

TestResult cumulative_test(const char* function, const CategoricalData& data, bool kuiper) {
    const Vector p = detail::event_probabilities(function, data);
    const std::vector<int>& y = data.labels();
    const std::size_t n = data.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return p[Eigen::Index(a)] < p[Eigen::Index(b)]; });
    // S_k = Σ (y − p) over the predictions up to the k-th distinct value (tied predictions enter together,
    // so the path does not depend on the rows' order), S_0 = 0.
    double sum = 0, variance = 0, high = 0, low = 0, largest = 0, at = p[Eigen::Index(order[0])];
    for (std::size_t start = 0; start < n;) {
        std::size_t end = start;
        const double value = p[Eigen::Index(order[start])];
        for (; end < n && p[Eigen::Index(order[end])] == value; ++end) {
            sum += y[order[end]] - value;
            variance += value * (1 - value);
        }
        high = std::max(high, sum);
        low = std::min(low, sum);
        if (std::abs(sum) > largest) largest = std::abs(sum), at = value;
        start = end;
    }
    CumulativeDetails details;
    details.std_error = std::sqrt(variance) / double(n);
    details.largest_at = at;
    details.degenerate = !(variance > 0);
    const double deviation = kuiper ? high - low : largest;
    TestResult result;
    result.method = kuiper ? "kuiper" : "ks";
    result.null_approximation = "brownian";
    result.estimator = kuiper ? "cumulative-range" : "cumulative-max";
    result.estimate = deviation / double(n);
    if (details.degenerate) {  // every prediction 0 or 1: the outcomes are certain under calibration
        result.statistic = deviation == 0 ? 0.0 : std::numeric_limits<double>::infinity();
        result.p_value = deviation == 0 ? 1.0 : 0.0;
    } else {
        result.statistic = deviation / std::sqrt(variance);
        result.p_value = kuiper ? brownian_range_tail(result.statistic) : brownian_max_abs_tail(result.statistic);
    }
    result.n = n;
    result.details = details;
    return detail::checked_test_result(function, std::move(result));
}

}  // namespace

double brownian_max_abs_tail(double x) {
    if (!(x > 0)) return 1.0;
    if (x < 0.7) {  // 1 − (4/π) Σ_k (−1)^k/(2k+1) exp(−(2k+1)²π²/(8x²)): fast for small x
        const double pi = 3.14159265358979323846;
        double s = 0;
        for (int k = 0; k < 50; ++k)
            s += (k % 2 ? -1.0 : 1.0) / (2 * k + 1) * std::exp(-(2.0 * k + 1) * (2.0 * k + 1) * pi * pi / (8 * x * x));
        return 1 - 4 / pi * s;
    }
    double s = 0;  // 4 Σ_k (−1)^k Q((2k+1)x): fast for large x, with no cancellation
    for (int k = 0; (2 * k + 1) * x < 40; ++k) s += (k % 2 ? -1.0 : 1.0) * normal_tail((2 * k + 1) * x);
    return std::min(1.0, 4 * s);
}

double brownian_range_tail(double x) {
    if (!(x > 0.1)) return 1.0;  // 1 to double precision: P(range < 0.1) is below 1e-100
    double s = 0;  // 8 Σ_{k≥1} (−1)^(k−1) k Q(kx)
    for (int k = 1; k * x < 40; ++k) s += (k % 2 ? 1.0 : -1.0) * k * normal_tail(k * x);
    return std::clamp(8 * s, 0.0, 1.0);
}

TestResult ks_test(const CategoricalData& data) { return cumulative_test("ks_test", data, false); }
TestResult kuiper_test(const CategoricalData& data) { return cumulative_test("kuiper_test", data, true); }

}  // namespace calib

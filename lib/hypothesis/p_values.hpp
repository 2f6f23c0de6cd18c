// What every test's p-value goes through: the p-value of a resampling test from its replicate
// statistics (hypothesis.hpp, PValueRule), and the final check of a TestResult. A NaN never becomes a
// verdict: counting NaN replicates as "below the statistic" would turn a numerical failure into
// p = 0, so non-finite values raise calib::numerical_error instead.
#pragma once

#include "core/check.hpp"

#include <calib/errors.hpp>
#include <calib/hypothesis.hpp>

#include <cmath>
#include <vector>

namespace calib::detail {

// 1 <= replicates <= max_replicates (hypothesis.hpp): the resampling tests and the model comparison.
inline void check_replicates(const char* function, std::size_t replicates) {
    if (replicates < 1 || replicates > max_replicates)
        fail(function, "replicates = ", replicates, ", must be in [1, ", max_replicates, "]");
}

// #{T* ≥ T}/R, or (1 + #{T* ≥ T})/(1 + R); throws if T or a replicate T* is not finite.
inline double resampling_p_value(const char* function, const std::vector<double>& replicates, double statistic,
                                 PValueRule rule) {
    check_result(function, statistic);
    double count = 0;
    for (std::size_t r = 0; r < replicates.size(); ++r) {
        const double t = replicates[r];
        if (!std::isfinite(t))
            throw numerical_error(concat("calib::", function, ": replicate ", r, " of the null distribution is ",
                                         format_value(t), "; a kernel evaluation or the estimator failed numerically "
                                         "(extreme inputs?), so no p-value can be given"));
        count += t >= statistic;
    }
    const double r = static_cast<double>(replicates.size());
    return rule == PValueRule::count ? count / r : (1 + count) / (1 + r);
}

// Every test returns through here: a finite estimate, a statistic that is not NaN (±∞ is a
// legitimate degenerate z), a p-value in [0, 1] and no NaN detail, or calib::numerical_error.
inline TestResult checked_test_result(const char* function, TestResult result) {
    const auto fail_on = [&](const std::string& what, double value) {
        throw numerical_error(concat("calib::", function, ": the ", what, " is ", format_value(value),
                                     "; a kernel evaluation or the null distribution failed numerically (extreme "
                                     "inputs?), so no p-value can be given"));
    };
    if (!std::isfinite(result.estimate)) fail_on("estimate", result.estimate);
    if (std::isnan(result.statistic)) fail_on("statistic", result.statistic);
    if (!(result.p_value >= 0 && result.p_value <= 1)) fail_on("p-value", result.p_value);
    for (const Field& field : result.record())
        if (const double* value = std::get_if<double>(&field.value); value && std::isnan(*value))
            fail_on(field.name, *value);
    return result;
}

}  // namespace calib::detail

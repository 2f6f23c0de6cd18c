// The quantile calibration errors of the PIT (metrics.hpp): the total variation over bins, with the
// floor or the paper's code's round binning, and Kuleshov et al.'s squared form.
#include <calib/metrics.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"

#include <algorithm>
#include <cmath>

namespace calib {

using detail::fail;

std::string to_string(QceBinning binning) {
    switch (binning) {
        case QceBinning::floor: return "floor";
        case QceBinning::round: return "round";
    }
    fail("to_string", "QceBinning value ", static_cast<int>(binning), " is not a valid binning");
}

QceBinning parse_qce_binning(const std::string& name) {
    for (const QceBinning b : {QceBinning::floor, QceBinning::round})
        if (name == to_string(b)) return b;
    fail("parse_qce_binning", "binning = \"", name, "\", must be one of: floor, round");
}

namespace {

void check_pit(const char* fn, const std::vector<double>& u, std::size_t bins) {
    if (u.empty()) fail(fn, "u is empty; at least one observation is needed");
    detail::check_bins(fn, "bins", bins);
    for (std::size_t i = 0; i < u.size(); ++i)
        if (!(u[i] >= 0 && u[i] <= 1)) fail(fn, "u[", i, "] = ", detail::format_value(u[i]), ", must be in [0, 1]");
}

}  // namespace

double quantile_calibration_error(const std::vector<double>& u, std::size_t bins, QceBinning binning) {
    check_pit("quantile_calibration_error", u, bins);
    const double B = static_cast<double>(bins);
    std::vector<std::size_t> counts(bins, 0);
    for (const double x : u) {
        // nearbyint rounds half to even in the default rounding mode, as the paper's torch.round does.
        const double scaled = binning == QceBinning::floor ? std::floor(x * B) : std::nearbyint(x * B);
        ++counts[std::min(bins - 1, static_cast<std::size_t>(scaled))];
    }
    detail::CompensatedSum sum;
    const double n = static_cast<double>(u.size());
    for (const std::size_t c : counts) sum.add(std::abs(static_cast<double>(c) / n - 1 / B));
    return 0.5 * sum.value();
}

double quantile_calibration_error_squared(const std::vector<double>& u, std::size_t bins) {
    check_pit("quantile_calibration_error_squared", u, bins);
    std::vector<double> sorted = u;
    std::sort(sorted.begin(), sorted.end());
    const double n = static_cast<double>(u.size());
    detail::CompensatedSum sum;
    for (std::size_t j = 1; j <= bins; ++j) {
        const double level = static_cast<double>(j) / static_cast<double>(bins);
        const auto below = std::upper_bound(sorted.begin(), sorted.end(), level) - sorted.begin();  // #{u ≤ level}
        const double diff = level - static_cast<double>(below) / n;
        sum.add(diff * diff);
    }
    return sum.value();
}

}  // namespace calib

// The decision calibration error of eq. (19) for a threshold decision, and its default threshold,
// the median of the targets (metrics.hpp; digest §5.5, A9, A10).
#include <calib/metrics.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "data/family_list.hpp"

#include <algorithm>
#include <cmath>

namespace calib {

namespace {

template <class Data>
double dce(const Data& data, double c) {
    if (!std::isfinite(c)) detail::fail("decision_calibration_error", "threshold = ", detail::format_value(c), ", must be finite");
    // The losses of a = +1 (wrong when y < c) and a = −1 (wrong when y > c), under the data and under
    // the forecasts; a target at c costs ½ under each.
    detail::CompensatedSum data_plus, data_minus, forecast_plus, forecast_minus;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        const double y = data.targets()(r);
        data_plus.add(y < c ? 1 : y == c ? 0.5 : 0);
        data_minus.add(y > c ? 1 : y == c ? 0.5 : 0);
        const double below = data.cdf(r, c);  // Q_i(Ŷ ≤ c) = Q_i(Ŷ < c): continuous
        forecast_plus.add(below);
        forecast_minus.add(1 - below);
    }
    const double n = static_cast<double>(data.size());
    const double plus = (data_plus.value() - forecast_plus.value()) / n;
    const double minus = (data_minus.value() - forecast_minus.value()) / n;
    return std::sqrt(plus * plus + minus * minus);
}

template <class Data>
double median_of_targets(const Data& data) {
    std::vector<double> y;
    y.reserve(data.size());
    for (std::size_t i = 0; i < data.size(); ++i) y.push_back(data.targets()(static_cast<Eigen::Index>(i)));
    const auto middle = y.begin() + static_cast<std::ptrdiff_t>(y.size() / 2);
    std::nth_element(y.begin(), middle, y.end());
    if (y.size() % 2 == 1) return *middle;
    // The two middle values' midpoint, halved first so that ±1e308 does not overflow (the same double
    // as 0.5 · (a + b) whenever that does not overflow: halving is exact).
    return 0.5 * *std::max_element(y.begin(), middle) + 0.5 * *middle;
}

}  // namespace

template <class Data, class>
double decision_calibration_error(const Data& data, double threshold) {
    return dce(data, threshold);
}

template <class Data, class>
double median_target(const Data& data) {
    return median_of_targets(data);
}

#define CALIB_DCE(Data)                                                      \
    template double decision_calibration_error(const Data&, double); \
    template double median_target(const Data&);
CALIB_FOR_EACH_UNIVARIATE_FAMILY(CALIB_DCE)
#undef CALIB_DCE

}  // namespace calib

// The p-value of a resampling test from its replicate statistics (hypothesis.hpp, PValueRule).
#pragma once

#include <calib/hypothesis.hpp>

#include <vector>

namespace calib::detail {

// #{T* ≥ T}/R, or (1 + #{T* ≥ T})/(1 + R).
inline double resampling_p_value(const std::vector<double>& replicates, double statistic, PValueRule rule) {
    double count = 0;
    for (double t : replicates) count += t >= statistic;
    const double r = static_cast<double>(replicates.size());
    return rule == PValueRule::count ? count / r : (1 + count) / (1 + r);
}

}  // namespace calib::detail

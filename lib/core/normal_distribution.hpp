// The standard normal distribution's CDF and its log-density's constant: one definition for every
// layer that evaluates normal forecasts (the data's PIT and NLL, the MMD's targets and closed forms).
#pragma once

#include <cmath>

namespace calib::detail {

// Φ(z) through erfc, accurate in both tails (1 − Φ would lose the upper tail to cancellation).
inline double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// ½·log(2π), of −log N(y; μ, σ²) = ½·log(2π) + log σ + ½z².
inline const double half_log_two_pi = 0.5 * std::log(2 * M_PI);

}  // namespace calib::detail

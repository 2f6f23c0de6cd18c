// The CDF F_i(y) of the i-th univariate predictive distribution at any y: what the PIT evaluates at
// the target (pit.cpp) and the evaluation metrics at a decision threshold (metrics layer: DCE).
#pragma once

#include <calib/data.hpp>

#include <algorithm>
#include <cmath>

namespace calib::detail {

// Φ(z) through erfc, accurate in both tails (1 − Φ would lose the upper tail to cancellation).
inline double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

inline double forecast_cdf(const NormalData& data, Eigen::Index i, double y) {
    return normal_cdf((y - data.mean()(i)) / data.stddev()(i));
}

inline double forecast_cdf(const LaplaceData& data, Eigen::Index i, double y) {
    const double z = (y - data.mean()(i)) / data.scale()(i);
    return z < 0 ? 0.5 * std::exp(z) : 1 - 0.5 * std::exp(-z);
}

inline double forecast_cdf(const MixtureNormalData& data, Eigen::Index i, double y) {
    double sum = 0;
    for (Eigen::Index k = 0; k < data.weights().cols(); ++k)
        sum += data.weights()(i, k) * normal_cdf((y - data.means()(i, k)) / data.stddevs()(i, k));
    return std::min(1.0, sum);  // weights sum to 1 only within the simplex tolerance
}

}  // namespace calib::detail

// The predicted distributions of the univariate families at a point (data.hpp: cdf, nll), which the
// PIT, the mean NLL and the decision calibration error evaluate.
#include <calib/data.hpp>

#include "core/normal_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace calib {

using detail::half_log_two_pi;
using detail::normal_cdf;

double NormalData::cdf(Eigen::Index i, double y) const { return normal_cdf((y - mean()(i)) / stddev()(i)); }

double NormalData::nll(Eigen::Index i, double y) const {
    const double z = (y - mean()(i)) / stddev()(i);
    return half_log_two_pi + std::log(stddev()(i)) + 0.5 * z * z;
}

// ½·exp(z) below the mean, 1 − ½·exp(−z) above, z = (y − μ)/β.
double LaplaceData::cdf(Eigen::Index i, double y) const {
    const double z = (y - mean()(i)) / scale()(i);
    return z < 0 ? 0.5 * std::exp(z) : 1 - 0.5 * std::exp(-z);
}

double LaplaceData::nll(Eigen::Index i, double y) const {
    return std::log(2 * scale()(i)) + std::abs(y - mean()(i)) / scale()(i);
}

double MixtureNormalData::cdf(Eigen::Index i, double y) const {
    double sum = 0;
    for (Eigen::Index k = 0; k < weights().cols(); ++k)
        sum += weights()(i, k) * normal_cdf((y - means()(i, k)) / stddevs()(i, k));
    return std::min(1.0, sum);  // weights sum to 1 only within the simplex tolerance
}

// −log Σ_k π_k N(y; μ_k, σ_k²) through the largest log term, so that far targets do not underflow to log 0.
double MixtureNormalData::nll(Eigen::Index i, double y) const {
    std::vector<double> logs;
    for (Eigen::Index k = 0; k < weights().cols(); ++k) {
        if (weights()(i, k) == 0) continue;  // a zero weight adds nothing (and log 0 would poison the max)
        const double z = (y - means()(i, k)) / stddevs()(i, k);
        logs.push_back(std::log(weights()(i, k)) - half_log_two_pi - std::log(stddevs()(i, k)) - 0.5 * z * z);
    }
    const double top = *std::max_element(logs.begin(), logs.end());
    double sum = 0;
    for (const double l : logs) sum += std::exp(l - top);
    return -(top + std::log(sum));
}

}  // namespace calib

// The mean negative log-likelihood of the targets under the predicted distributions (reliability.hpp).
#include <calib/reliability.hpp>

#include "core/compensated_sum.hpp"
#include "estimators/mahalanobis.hpp"

#include <algorithm>
#include <cmath>

namespace calib {

namespace {

const double half_log_two_pi = 0.5 * std::log(2 * M_PI);

// The mean of term(i) over the n observations, compensated.
template <class Term>
double mean_of(std::size_t n, Term term) {
    detail::CompensatedSum sum;
    for (std::size_t i = 0; i < n; ++i) sum.add(term(static_cast<Eigen::Index>(i)));
    return sum.value() / static_cast<double>(n);
}

}  // namespace

double mean_nll(const NormalData& d) {
    return mean_of(d.size(), [&](Eigen::Index i) {
        const double z = (d.targets()(i) - d.mean()(i)) / d.stddev()(i);
        return half_log_two_pi + std::log(d.stddev()(i)) + 0.5 * z * z;
    });
}

double mean_nll(const LaplaceData& d) {
    return mean_of(d.size(), [&](Eigen::Index i) {
        return std::log(2 * d.scale()(i)) + std::abs(d.targets()(i) - d.mean()(i)) / d.scale()(i);
    });
}

// −log Σ_k π_k N(y; μ_k, σ_k²) through the largest log term, so that far targets do not underflow to log 0.
double mean_nll(const MixtureNormalData& d) {
    const Eigen::Index K = d.weights().cols();
    return mean_of(d.size(), [&](Eigen::Index i) {
        std::vector<double> logs;
        for (Eigen::Index k = 0; k < K; ++k) {
            if (d.weights()(i, k) == 0) continue;  // a zero weight adds nothing (and log 0 would poison the max)
            const double z = (d.targets()(i) - d.means()(i, k)) / d.stddevs()(i, k);
            logs.push_back(std::log(d.weights()(i, k)) - half_log_two_pi - std::log(d.stddevs()(i, k)) - 0.5 * z * z);
        }
        const double top = *std::max_element(logs.begin(), logs.end());
        double sum = 0;
        for (const double l : logs) sum += std::exp(l - top);
        return -(top + std::log(sum));
    });
}

// −log p_i(y_i) of the true class: +inf when the label's probability is 0, which is the value.
double mean_nll(const CategoricalData& d) {
    for (std::size_t i = 0; i < d.size(); ++i)  // the compensated sum would turn +inf into inf − inf = NaN
        if (d.probabilities()(static_cast<Eigen::Index>(i), d.labels()[i]) == 0) return HUGE_VAL;
    return mean_of(d.size(), [&](Eigen::Index i) {
        return -std::log(d.probabilities()(i, d.labels()[static_cast<std::size_t>(i)]));
    });
}

double mean_nll(const MvNormalData& d) {
    const double dim = d.dimension();
    return mean_of(d.size(), [&](Eigen::Index i) {
        const detail::Mahalanobis m = detail::mahalanobis(d, static_cast<std::size_t>(i), "mean_nll");
        return dim * half_log_two_pi + 0.5 * (m.log_det + m.squared_distance);
    });
}

}  // namespace calib

// The CRPS in closed form and the base-rate summaries of binary predictions (scores.hpp).
#include <calib/scores.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "core/normal_distribution.hpp"

#include <cmath>
#include <string>

namespace calib {

using detail::fail;
using detail::format_value;

namespace {

const double inv_sqrt_pi = 1 / std::sqrt(M_PI);
const double inv_sqrt_two_pi = 1 / std::sqrt(2 * M_PI);

double normal_pdf(double z) { return inv_sqrt_two_pi * std::exp(-0.5 * z * z); }

// E|N(m, s²)| = 2s·φ(m/s) + m·(2Φ(m/s) − 1); the m-term is not s·z·(…), so a tiny s (z = ±∞) still
// gives |m|.
double mean_absolute_normal(double m, double s) {
    const double z = m / s;
    return 2 * s * normal_pdf(z) + m * (2 * detail::normal_cdf(z) - 1);
}

void check_nonempty(const char* function, std::size_t n) {
    if (n == 0) fail(function, "n = 0: no observations");
}

// The mean of n per-row scores, each divided by n before the sum so that rows near the largest double
// do not overflow the total. With finite inputs a row's score is not finite only when a difference
// (target − location, or of two mixture locations) overflows; such a row is refused, not approximated.
template <class Row>
double mean_over_rows(std::size_t n, Row&& row) {
    check_nonempty("mean_crps", n);
    detail::CompensatedSum sum;
    for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(n); ++i) {
        const double score = row(i);
        if (!std::isfinite(score))
            fail("mean_crps", "row ", i, ": the target and the forecast's location(s) are too far apart: ",
                 "a difference of them overflows a double, so the closed form has no finite value");
        sum.add(score / static_cast<double>(n));
    }
    return sum.value();
}

}  // namespace

// Both written as a (y − μ)-term plus a scale-term rather than scale·(…z…), so that a tiny scale
// (z = ±∞) gives |y − μ| instead of ∞·0.
double crps_normal(double mean, double stddev, double y) {
    const double d = y - mean, z = d / stddev;
    return d * (2 * detail::normal_cdf(z) - 1) + stddev * (2 * normal_pdf(z) - inv_sqrt_pi);
}

double crps_laplace(double location, double scale, double y) {
    const double d = std::abs(y - location);
    return d + scale * (std::exp(-d / scale) - 0.75);
}

double mean_crps(const NormalData& data) {
    return mean_over_rows(data.size(), [&](Eigen::Index i) {
        return crps_normal(data.mean()(i), data.stddev()(i), data.targets()(i));
    });
}

double mean_crps(const LaplaceData& data) {
    return mean_over_rows(data.size(), [&](Eigen::Index i) {
        return crps_laplace(data.mean()(i), data.scale()(i), data.targets()(i));
    });
}

double mean_crps(const MixtureNormalData& data) {
    const MatrixView &w = data.weights(), &mu = data.means(), &sigma = data.stddevs();
    return mean_over_rows(data.size(), [&](Eigen::Index i) {
        const double y = data.targets()(i);
        double to_target = 0, spread = 0;  // Σ_k π_k A(y − μ_k, σ_k²); Σ_{k,l} π_k π_l A(μ_k − μ_l, σ_k² + σ_l²)
        for (Eigen::Index k = 0; k < w.cols(); ++k) {
            if (w(i, k) == 0) continue;  // a component of weight 0 adds nothing
            to_target += w(i, k) * mean_absolute_normal(y - mu(i, k), sigma(i, k));
            spread += w(i, k) * w(i, k) * mean_absolute_normal(0, std::sqrt(2.0) * sigma(i, k));  // k = l
            for (Eigen::Index l = k + 1; l < w.cols(); ++l)
                if (w(i, l) != 0)
                    spread += 2 * w(i, k) * w(i, l) *
                              mean_absolute_normal(mu(i, k) - mu(i, l), std::hypot(sigma(i, k), sigma(i, l)));
        }
        return to_target - 0.5 * spread;
    });
}

CalibrationRatio calibration_ratio(const CategoricalData& binary) {
    if (binary.num_classes() != 2)
        fail("calibration_ratio", "the data have ", binary.num_classes(), " classes; it takes binary predictions");
    check_nonempty("calibration_ratio", binary.size());
    detail::CompensatedSum predictions;
    std::size_t events = 0;
    for (std::size_t i = 0; i < binary.size(); ++i) {
        predictions.add(binary.probabilities()(static_cast<Eigen::Index>(i), 1));
        events += binary.labels()[i] == 1;
    }
    if (events == 0)
        fail("calibration_ratio", "no event among the ", binary.size(),
             " observations (every label is 0), so the ratio of the predictions' sum ", format_value(predictions.value()),
             " to the events' 0 is undefined");
    CalibrationRatio out;
    out.sum_predictions = predictions.value();
    out.events = static_cast<double>(events);
    out.ratio = out.sum_predictions / out.events;
    out.n = binary.size();
    return out;
}

NormalizedEntropy normalized_entropy(const CategoricalData& binary, std::optional<double> base_rate) {
    if (binary.num_classes() != 2)
        fail("normalized_entropy", "the data have ", binary.num_classes(), " classes; it takes binary predictions");
    const std::size_t n = binary.size();
    check_nonempty("normalized_entropy", n);
    detail::CompensatedSum loss;
    std::size_t events = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const int y = binary.labels()[i];
        const double p = binary.probabilities()(static_cast<Eigen::Index>(i), y);  // the outcome's probability
        if (p == 0)
            fail("normalized_entropy", "row ", i, " gives probability 0 to its outcome (label ", y,
                 "), so the log loss and the normalised entropy are infinite");
        loss.add(-std::log(p));
        events += y == 1;
    }
    NormalizedEntropy out;
    out.n = n;
    out.base_rate_given = base_rate.has_value();
    out.base_rate = base_rate ? *base_rate : static_cast<double>(events) / static_cast<double>(n);
    const double r = out.base_rate;
    if (!(r > 0 && r < 1))
        fail("normalized_entropy", "base rate ", format_value(r),
             base_rate ? " is not in (0, 1)" : (events == 0 ? ": no event in the data" : ": every label is 1"),
             ", so its entropy is 0 and the normalised entropy undefined",
             base_rate ? "" : "; give the base rate (e.g. the training data's)");
    out.log_loss = loss.value() / static_cast<double>(n);
    out.base_entropy = -(r * std::log(r) + (1 - r) * std::log1p(-r));
    out.value = out.log_loss / out.base_entropy;
    return out;
}

}  // namespace calib

// The Brier score and its calibration–sharpness decomposition (paper Eq. 5, digest §2.1 with its
// erratum: the last term is the uncertainty 1 − ‖π‖², not ‖π‖²).
#include "squared_ce/checks.hpp"

#include "core/compensated_sum.hpp"

namespace calib {

double brier_score(const CategoricalData& data) {
    detail::check_min_size("brier_score", data.size(), 1);
    const auto& p = data.probabilities();
    detail::CompensatedSum sum;
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const int y = data.labels()[static_cast<std::size_t>(i)];
        double row = 0;
        for (Eigen::Index k = 0; k < p.cols(); ++k) {
            const double r = p(i, k) - (k == y ? 1.0 : 0.0);
            row += r * r;
        }
        sum.add(row);
    }
    return sum.value() / static_cast<double>(data.size());
}

double binary_brier_score(const CategoricalData& data) {
    detail::check_min_size("binary_brier_score", data.size(), 1);
    if (data.num_classes() != 2)
        detail::fail("binary_brier_score", "the data have ", data.num_classes(), " classes, must have 2");
    const auto& p = data.probabilities();
    detail::CompensatedSum sum;
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const double r = p(i, 1) - (data.labels()[static_cast<std::size_t>(i)] == 1 ? 1.0 : 0.0);
        sum.add(r * r);
    }
    return sum.value() / static_cast<double>(data.size());
}

BrierDecomposition brier_decomposition(const CategoricalData& data, const SquaredCeOptions& options) {
    const double n = static_cast<double>(data.size());
    BrierDecomposition b;
    b.brier = brier_score(data);
    Vector frequency = Vector::Zero(data.num_classes());
    for (int y : data.labels()) frequency(y) += 1 / n;
    b.uncertainty = 1 - frequency.squaredNorm();  // Σ_k π_k (1 − π_k)
    SquaredCeOptions o = options;
    o.notion = CeNotion::canonical;
    b.calibration_fit = squared_ce(data, CeEstimator::kde, o);
    b.calibration = b.calibration_fit.estimate;
    b.resolution = b.calibration + b.uncertainty - b.brier;  // what makes BS = CAL − RES + UNC hold
    return b;
}

}  // namespace calib

// The Brier score and its calibration–sharpness decomposition (paper Eq. 5, digest §2.1 with its
// erratum: the last term is the uncertainty 1 − ‖π‖², not ‖π‖²).
#include "squared_ce/checks.hpp"

namespace calib {

BrierDecomposition brier_decomposition(const CategoricalData& data, const SquaredCeOptions& options) {
    const CeProblem canonical = ce_problems(data, CeNotion::canonical)[0];
    const double n = static_cast<double>(data.size());
    BrierDecomposition b;
    b.brier = canonical.residuals.rowwise().squaredNorm().mean();  // (1/n) Σ ‖p_i − e_{y_i}‖²
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

// The KCE of Marx et al. (metrics.hpp): the conditional MMD's unbiased estimate in the individual notion
// (calib/mmd.hpp), k_Z the RBF on the features with the median heuristic's lengthscale.
#include <calib/metrics.hpp>
#include <calib/mmd.hpp>

#include "core/check.hpp"

namespace calib {

namespace {

template <class Data, class Spec>
KceResult kce(const Data& data, const Matrix& features, Spec spec, const ParallelOptions& parallel) {
    const char* fn = "kernel_calibration_error";
    if (static_cast<std::size_t>(features.rows()) != data.size())
        detail::fail(fn, "features has ", features.rows(), " rows but the data has ", data.size(),
                     " observations; they must match");
    detail::check_min_size(fn, data.size(), 2);
    spec.notion = MmdNotion::individual;
    spec.conditioning = {PredictionKernelShape::sqexp, Metric::euclidean, 1.0};
    spec.features = features;
    validate_mmd(data, spec, fn);  // finite features, at least one column
    MedianOptions median;
    median.parallel = parallel;
    spec.conditioning.lengthscale = mmd_median_lengthscales(data, spec, median).front();
    return {mmd_unbiased(data, spec, parallel).estimate, spec.conditioning.lengthscale};
}

}  // namespace

KceResult kernel_calibration_error(const CategoricalData& data, const Matrix& features, const ParallelOptions& parallel) {
    return kce(data, features, MmdSpec{}, parallel);  // K_T empty: the δ kernel on the labels
}

KceResult kernel_calibration_error(const NormalData& data, const Matrix& features, double target_lengthscale,
                                   const ParallelOptions& parallel) {
    if (!(target_lengthscale > 0 && std::isfinite(target_lengthscale)))
        detail::fail("kernel_calibration_error", "target_lengthscale = ", detail::format_value(target_lengthscale),
                     ", must be finite and > 0");
    GaussianMmdSpec spec;
    spec.target = GaussianTarget::rbf;
    spec.target_lengthscale = target_lengthscale;
    return kce(data, features, spec, parallel);
}

}  // namespace calib

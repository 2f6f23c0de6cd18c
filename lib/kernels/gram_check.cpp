// Numerical PSD check of a prediction kernel: the smallest eigenvalue of its Gram matrix
// (kernels.hpp, gram_min_eigenvalue).
#include <calib/kernels.hpp>

#include "core/check.hpp"
#include "data/families.hpp"
#include "kernels/family_traits.hpp"
#include "kernels/family_ops.hpp"
#include "core/parallel.hpp"

#include <calib/tool/random.hpp>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace calib {

using detail::fail;

namespace {

// G_ij = k_P(p_i, p_j), the upper triangle row by row (rows in parallel), then mirrored.
template <class Data>
double min_eigenvalue_of_all(const Data& data, const PredictionKernel& kernel, const ParallelOptions& parallel) {
    const detail::RowMajorMatrix g = detail::FamilyOps<Data>::prediction_gram_upper(data, kernel, parallel);
    Matrix full = g.triangularView<Eigen::Upper>();
    full.triangularView<Eigen::StrictlyLower>() = full.transpose();
    if (!full.allFinite())
        throw numerical_error("calib::gram_min_eigenvalue: the prediction kernel has a non-finite value");
    return Eigen::SelfAdjointEigenSolver<Matrix>(full, Eigen::EigenvaluesOnly).eigenvalues()(0);
}

}  // namespace

template <class Data>
double gram_min_eigenvalue(const Data& data, const PredictionKernel& kernel, const GramCheckOptions& options) {
    const char* fn = "gram_min_eigenvalue";
    detail::check_metric<Data>(fn, kernel.metric);
    if (!(std::isfinite(kernel.lengthscale) && kernel.lengthscale > 0))
        fail(fn, "prediction lengthscale = ", detail::format_value(kernel.lengthscale), ", must be finite and > 0");
    const std::size_t n = data.size();
    if (options.max_points == 0 || n <= options.max_points)
        return min_eigenvalue_of_all(data, kernel, options.parallel);
    Rng rng(options.seed);
    return min_eigenvalue_of_all(subset(data, sample_without_replacement(n, options.max_points, rng)), kernel,
                                 options.parallel);
}

#define CALIB_INSTANTIATE(Data) \
    template double gram_min_eigenvalue<Data>(const Data&, const PredictionKernel&, const GramCheckOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

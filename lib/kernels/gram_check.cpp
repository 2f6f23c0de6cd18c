// Numerical PSD checks: the smallest eigenvalue of a prediction kernel's Gram matrix (kernels.hpp,
// gram_min_eigenvalue) and the check of a class Gram matrix (class_gram.hpp); the one translation unit
// that compiles Eigen's symmetric eigensolver for them.
#include <calib/kernels.hpp>

#include "core/check.hpp"
#include "data/family_list.hpp"
#include "kernels/class_gram.hpp"
#include "kernels/family_traits.hpp"
#include "kernels/family_ops.hpp"
#include "core/parallel.hpp"

#include <calib/tool/random.hpp>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace calib {

using detail::fail;

namespace detail {

void check_class_gram(const char* function, const Matrix& gram, int m) {
    if (gram.rows() != m || gram.cols() != m)
        fail(function, "the target Gram matrix is ", gram.rows(), "x", gram.cols(), ", must be ", m, "x", m,
             " (one row and column per class)");
    if (!gram.allFinite()) fail(function, "the target Gram matrix has a non-finite entry");
    const double scale = std::max(1.0, gram.cwiseAbs().maxCoeff());
    for (int a = 0; a < m; ++a)
        for (int b = 0; b < a; ++b)
            if (std::abs(gram(a, b) - gram(b, a)) > 1e-12 * scale)
                fail(function, "the target Gram matrix is not symmetric: entry (", a, ", ", b, ") = ",
                     format_value(gram(a, b)), " but (", b, ", ", a, ") = ", format_value(gram(b, a)));
    const double min_eigenvalue = Eigen::SelfAdjointEigenSolver<Matrix>(gram, Eigen::EigenvaluesOnly).eigenvalues()(0);
    if (min_eigenvalue < -1e-10 * scale)
        fail(function, "the target Gram matrix is not positive semidefinite (smallest eigenvalue ",
             format_value(min_eigenvalue), ")");
}

}  // namespace detail

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

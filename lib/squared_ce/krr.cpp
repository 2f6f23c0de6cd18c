// Kronecker KRR h_kkr (28–29) and two-step KRR h_ukkr (32) sharing one eigendecomposition
// (squared_ce.hpp; digest §6.3–6.5).
#include "core/memory_guard.hpp"
#include "core/serial_eigen.hpp"
#include "ridge/dense.hpp"
#include "squared_ce/checks.hpp"
#include "squared_ce/rbf_term.hpp"

#include <calib/squared_ce.hpp>

#include <cmath>

namespace calib {

KrrCeFit::KrrCeFit(const CeProblem& train, double gamma, const ParallelOptions& parallel)
    : points_(train.inputs.transpose()), gamma_(gamma), parallel_(parallel) {
    detail::check_problem("KrrCeFit", "train", train, 1);
    if (!(std::isfinite(gamma) && gamma > 0))
        detail::fail("KrrCeFit", "gamma = ", detail::format_value(gamma), ", must be finite and > 0");
    const double n = static_cast<double>(train.inputs.rows());
    // K, the eigensolver's workspace and Q, then S of kronecker_apply: about three n×n matrices.
    detail::check_memory("KrrCeFit", 24 * n * n, "the Gram matrix, its eigenvectors and the Kronecker weights",
                         "fit on fewer observations (ce-bins and ce-kde need O(n) memory)");
    const int threads = resolve_num_threads(parallel.num_threads);
    const detail::SerialEigenScope serial;
    detail::KernelSpectrum spectrum =
        detail::kernel_spectrum("KrrCeFit", detail::RbfTerm{points_, points_, gamma}, threads);
    eigenvalues_ = std::move(spectrum.eigenvalues);
    eigenvectors_ = std::move(spectrum.eigenvectors);
    projected_residuals_ = eigenvectors_.transpose() * train.residuals;  // R = Qᵀ Δ, so Qᵀ T Q = R Rᵀ
}

Matrix KrrCeFit::project(const Matrix& inputs) const {
    if (inputs.cols() != points_.rows())
        detail::fail("KrrCeFit::project", "inputs has ", inputs.cols(), " columns, must have ", points_.rows(),
                     " as the training inputs");
    if (!inputs.allFinite()) detail::fail("KrrCeFit::project", "inputs has a value that is not finite");
    const Matrix query = inputs.transpose();
    const auto m = static_cast<std::size_t>(inputs.rows());
    // K×ᵀ (m×n) is the column-major view of the row-major n×m cross matrix.
    Matrix cross_t(inputs.rows(), points_.cols());
    detail::cross_rows(detail::RbfTerm{points_, query, gamma_}, size(), m, cross_t.data(), parallel_);
    const detail::SerialEigenScope serial;
    return eigenvectors_.transpose() * cross_t.transpose();
}

Matrix KrrCeFit::kronecker_weights(double rho) const {
    detail::check_ridge("KrrCeFit::kronecker", "rho", rho);
    const auto n = eigenvalues_.size();
    Matrix s = projected_residuals_ * projected_residuals_.transpose();
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) {
            const double denominator = eigenvalues_(i) * eigenvalues_(j) + rho;
            s(i, j) = denominator > 0 ? s(i, j) / denominator : 0.0;
        }
    return s;
}

Matrix KrrCeFit::kronecker_apply(const Matrix& projected, double rho) const {
    const detail::SerialEigenScope serial;
    return kronecker_weights(rho) * projected;
}

Matrix KrrCeFit::kronecker_pairs(const Matrix& projected, double rho) const {
    const Matrix weighted = kronecker_apply(projected, rho);
    const detail::SerialEigenScope serial;
    return projected.transpose() * weighted;
}

Vector KrrCeFit::kronecker_diagonal(const Matrix& projected, double rho) const {
    return projected.cwiseProduct(kronecker_apply(projected, rho)).colwise().sum().transpose();
}

Matrix KrrCeFit::two_step_factor(const Matrix& projected, double mu) const {
    detail::check_ridge("KrrCeFit::two_step_factor", "mu", mu);
    Vector inverse(eigenvalues_.size());
    for (Eigen::Index i = 0; i < inverse.size(); ++i) {
        const double denominator = eigenvalues_(i) + mu;
        inverse(i) = denominator > 0 ? 1 / denominator : 0.0;  // the pseudo-inverse at a zero eigenvalue
    }
    const detail::SerialEigenScope serial;
    return projected.transpose() * (inverse.asDiagonal() * projected_residuals_);
}

namespace {
void check_constant(const char* function, double c, std::size_t n) {
    detail::check_ridge(function, "c", c);
    if (n < 1) detail::fail(function, "n = 0, must be >= 1");
}
}  // namespace

double kronecker_ridge(double c, std::size_t n, RidgePreset preset) {
    check_constant("kronecker_ridge", c, n);
    const double size = static_cast<double>(n);
    return preset == RidgePreset::reference_code ? c * std::pow(size, 1.5) : c * std::sqrt(size) * size * size;
}

double two_step_ridge(double c, std::size_t n, RidgePreset preset) {
    check_constant("two_step_ridge", c, n);
    const double size = static_cast<double>(n);
    return preset == RidgePreset::reference_code ? c * std::pow(size, 0.75) : c * std::sqrt(size) * size;
}

}  // namespace calib

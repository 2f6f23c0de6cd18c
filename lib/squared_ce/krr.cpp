// Kronecker KRR h_kkr (28–29) and two-step KRR h_ukkr (32) sharing one eigendecomposition
// (squared_ce.hpp; digest §6.3–6.5).
#include "core/memory_guard.hpp"
#include "core/serial_eigen.hpp"
#include "ridge/dense.hpp"
#include "ridge/low_rank.hpp"
#include "squared_ce/checks.hpp"
#include "squared_ce/rbf_term.hpp"

#include <calib/squared_ce.hpp>

#include <Eigen/QR>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace calib {

namespace {

// f(c0, width) on the strips of 256 columns of a matrix with `cols` columns, one thread per strip in
// parallel. The strips depend on `cols` only and Eigen runs serially inside each, so a product
// computed strip by strip is bitwise the same for any thread count.
template <class F>
void column_strips(Eigen::Index cols, int threads, F f) {
    constexpr Eigen::Index strip = 256;
    const Eigen::Index strips = (cols + strip - 1) / strip;
    const detail::SerialEigenScope serial;
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (Eigen::Index s = 0; s < strips; ++s) f(s * strip, std::min(strip, cols - s * strip));
}

// K ≈ G Gᵀ by the pivoted incomplete Cholesky factorisation (ridge/low_rank.hpp) to the relative
// residual trace `tolerance`; G = Q₁R by Householder QR and R Rᵀ = W diag(ℓ) Wᵀ, so G Gᵀ = (Q₁W) diag(ℓ)
// (Q₁W)ᵀ with orthonormal columns Q₁W to rounding (the QR avoids forming GᵀG, whose eigenvectors
// would lose accuracy with its squared condition number). Eigen serial (the caller's scope).
detail::KernelSpectrum low_rank_spectrum(const detail::RbfTerm& term, double tolerance, std::size_t max_rank,
                                         int threads, double& residual_trace) {
    detail::PivotedCholesky<detail::RbfTerm> cholesky(term, threads);
    cholesky.grow(tolerance, max_rank);
    residual_trace = cholesky.result().residual_trace;
    const Matrix g = cholesky.factor(cholesky.rank());
    const Eigen::Index n = g.rows(), r = g.cols();
    const Eigen::HouseholderQR<Matrix> qr(g);
    const Matrix upper = qr.matrixQR().topRows(r).triangularView<Eigen::Upper>();
    const Eigen::SelfAdjointEigenSolver<Matrix> es(upper * upper.transpose());
    if (es.info() != Eigen::Success)
        throw numerical_error("calib::KrrCeFit: the eigendecomposition of the low-rank factor did not converge");
    // Q = Q₁W = H₁⋯H_r [W; 0], the reflections applied to fixed strips of columns in parallel.
    Matrix q = Matrix::Zero(n, r);
    q.topRows(r) = es.eigenvectors();
    const auto reflections = qr.householderQ();
    column_strips(r, threads, [&](Eigen::Index c0, Eigen::Index width) {
        Matrix strip = q.middleCols(c0, width);
        strip.applyOnTheLeft(reflections);
        q.middleCols(c0, width) = strip;
    });
    return {es.eigenvalues().cwiseMax(0.0), std::move(q)};
}

}  // namespace

double default_krr_tolerance(Eigen::Index n, Eigen::Index input_dimension) {
    if (input_dimension == 1) return std::numeric_limits<double>::epsilon();
    return n <= exact_krr_limit ? 0.0 : 1e-6;
}

KrrCeFit::KrrCeFit(const CeProblem& train, double gamma, const ParallelOptions& parallel, double tolerance)
    : points_(train.inputs.transpose()), gamma_(gamma), parallel_(parallel) {
    detail::check_problem("KrrCeFit", "train", train, 1);
    if (!(std::isfinite(gamma) && gamma > 0))
        detail::fail("KrrCeFit", "gamma = ", detail::format_value(gamma), ", must be finite and > 0");
    if (!(tolerance < 1))
        detail::fail("KrrCeFit", "tolerance = ", detail::format_value(tolerance),
                     ", must be < 1 (0: the exact dense path, < 0: the default)");
    if (tolerance < 0) tolerance = default_krr_tolerance(train.inputs.rows(), train.inputs.cols());
    const double n = static_cast<double>(train.inputs.rows());
    const int threads = resolve_num_threads(parallel.num_threads);
    const detail::SerialEigenScope serial;
    const detail::RbfTerm term{points_, points_, gamma};
    detail::KernelSpectrum spectrum;
    if (tolerance > 0) {
        // The factor's columns, its QR and Q: about 24 n r bytes. Its rank stops where two fits at once
        // (the pipeline's folds run in parallel) would exceed half the machine's memory; a factor cut
        // short leaves more out, which the truncation indicator reports. The cap depends on the
        // machine's memory only, so a run is repeatable on it.
        const double budget = detail::physical_memory_bytes() / 4;
        const auto max_rank = static_cast<std::size_t>(std::max(1.0, std::floor(budget / (24 * n))));
        spectrum = low_rank_spectrum(term, tolerance, max_rank, threads, residual_trace_);
    } else {
        // K, the eigensolver's workspace and Q, then S of kronecker_apply: about three n×n matrices.
        detail::check_memory("KrrCeFit", 24 * n * n, "the Gram matrix, its eigenvectors and the Kronecker weights",
                             "use the low-rank path (`krr_tolerance` > 0 or auto) or fewer observations");
        spectrum = detail::kernel_spectrum("KrrCeFit", term, threads);
    }
    eigenvalues_ = std::move(spectrum.eigenvalues);
    eigenvectors_ = std::move(spectrum.eigenvectors);
    projected_residuals_ = eigenvectors_.transpose() * train.residuals;  // R = Qᵀ Δ, so Qᵀ T Q = R Rᵀ
}

namespace {
// ℓ_min, ℓ_max of a fit: ℓ_min = 0 when the factor leaves directions out.
std::pair<double, double> spectrum_range(const Vector& eigenvalues, std::size_t n) {
    const double largest = eigenvalues.size() ? eigenvalues.maxCoeff() : 0.0;
    const bool complete = static_cast<std::size_t>(eigenvalues.size()) == n;
    return {complete && eigenvalues.size() ? eigenvalues.minCoeff() : 0.0, largest};
}
constexpr double infinite = std::numeric_limits<double>::infinity();
}  // namespace

double KrrCeFit::kronecker_sensitivity(double rho) const {
    detail::check_ridge("KrrCeFit::kronecker_sensitivity", "rho", rho);
    const auto [low, high] = spectrum_range(eigenvalues_, training_size());
    // max over ℓ_i of ℓ_i ρ/(ℓ_i ℓ_min + ρ)², at ℓ_i = ρ/ℓ_min within the spectrum's range.
    const double x = low > 0 ? std::clamp(rho / low, low, high) : high;
    const double denominator = x * low + rho;
    return denominator > 0 ? std::numeric_limits<double>::epsilon() * high * x * rho / (denominator * denominator)
                           : infinite;
}

double KrrCeFit::two_step_sensitivity(double mu) const {
    detail::check_ridge("KrrCeFit::two_step_sensitivity", "mu", mu);
    const auto [low, high] = spectrum_range(eigenvalues_, training_size());
    const double denominator = low + mu;
    return denominator > 0 ? std::numeric_limits<double>::epsilon() * high * mu / (denominator * denominator) : infinite;
}

// A factor leaves nothing above rounding out when it is complete or the trace it leaves out, a bound on
// every eigenvalue it drops, is within a few rounding errors ε ℓ_max (what the rounding sensitivity
// already covers).
bool KrrCeFit::reaches_floor() const {
    return static_cast<std::size_t>(rank()) == training_size() ||
           residual_trace_ <= 16 * std::numeric_limits<double>::epsilon() * eigenvalues_.maxCoeff();
}

double KrrCeFit::kronecker_truncation(double rho) const {
    detail::check_ridge("KrrCeFit::kronecker_truncation", "rho", rho);
    if (reaches_floor()) return 0;
    const double weight = eigenvalues_.size() ? eigenvalues_.maxCoeff() * eigenvalues_.minCoeff() : 0.0;
    return rho > 0 ? weight / rho : infinite;
}

double KrrCeFit::two_step_truncation(double mu) const {
    detail::check_ridge("KrrCeFit::two_step_truncation", "mu", mu);
    if (reaches_floor()) return 0;
    const double smallest = eigenvalues_.size() ? eigenvalues_.minCoeff() : 0.0;
    return mu > 0 ? smallest / mu : infinite;
}

Matrix KrrCeFit::project(const Matrix& inputs) const {
    if (inputs.cols() != points_.rows())
        detail::fail("KrrCeFit::project", "inputs has ", inputs.cols(), " columns, must have ", points_.rows(),
                     " as the training inputs");
    if (!inputs.allFinite()) detail::fail("KrrCeFit::project", "inputs has a value that is not finite");
    // The evaluation points in blocks of 1 024, so that the cross matrix K×ᵀ takes O(n) memory however
    // many there are; the product's strips of 256 columns are the same as without blocks.
    constexpr Eigen::Index block = 1024;
    const int threads = resolve_num_threads(parallel_.num_threads);
    Matrix b(rank(), inputs.rows());
    for (Eigen::Index a0 = 0; a0 < inputs.rows(); a0 += block) {
        const Eigen::Index w = std::min(block, inputs.rows() - a0);
        const Matrix query = inputs.middleRows(a0, w).transpose();
        // K×ᵀ (w×n) is the column-major view of the row-major n×w cross matrix.
        Matrix cross_t(w, points_.cols());
        detail::cross_rows(detail::RbfTerm{points_, query, gamma_}, training_size(), static_cast<std::size_t>(w),
                           cross_t.data(), parallel_);
        column_strips(w, threads, [&](Eigen::Index c0, Eigen::Index width) {
            b.middleCols(a0 + c0, width).noalias() = eigenvectors_.transpose() * cross_t.middleRows(c0, width).transpose();
        });
    }
    return b;
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
    const Matrix s = kronecker_weights(rho);
    Matrix out(s.rows(), projected.cols());
    column_strips(out.cols(), resolve_num_threads(parallel_.num_threads), [&](Eigen::Index c0, Eigen::Index width) {
        out.middleCols(c0, width).noalias() = s * projected.middleCols(c0, width);
    });
    return out;
}

Matrix KrrCeFit::kronecker_pairs(const Matrix& projected, double rho) const {
    const Matrix weighted = kronecker_apply(projected, rho);
    Matrix h(projected.cols(), projected.cols());
    column_strips(h.cols(), resolve_num_threads(parallel_.num_threads), [&](Eigen::Index c0, Eigen::Index width) {
        h.middleCols(c0, width).noalias() = projected.transpose() * weighted.middleCols(c0, width);
    });
    return h;
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

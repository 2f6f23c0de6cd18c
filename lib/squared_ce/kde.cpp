// The kernel-density (Nadaraya–Watson) estimation function h_kde (25) and the in-sample estimator
// (11) (squared_ce.hpp; digest §6.2).
#include "core/compensated_sum.hpp"
#include "core/exp_nonpositive.hpp"
#include "core/serial_eigen.hpp"
#include "squared_ce/checks.hpp"

#include <calib/squared_ce.hpp>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>

namespace calib {

namespace {

// Queries are processed in blocks of this many: fixed blocks keep the products' rounding
// independent of the thread count.
constexpr Eigen::Index query_block = 256;

// A point of the simplex the kernel lives on: the probability vector (canonical) or (z, 1 − z) for
// a scalar, where the Dirichlet kernel is the Beta kernel.
Matrix simplex_points(const Matrix& inputs) {
    if (inputs.cols() > 1) return inputs;
    Matrix x(inputs.rows(), 2);
    x.col(0) = inputs.col(0);
    x.col(1) = (1 - inputs.col(0).array()).matrix();
    return x;
}

void check_kde(const char* function, const CeProblem& p, long min_rows, double bandwidth) {
    detail::check_problem(function, "train", p, min_rows);
    if (p.inputs.cols() != p.residuals.cols())
        detail::fail(function, "train has ", p.inputs.cols(), " input and ", p.residuals.cols(),
                     " residual columns, must have as many of each (inputs − residuals are the labels)");
    if (!(std::isfinite(bandwidth) && bandwidth > 0))
        detail::fail(function, "bandwidth = ", detail::format_value(bandwidth), ", must be finite and > 0");
    for (Eigen::Index i = 0; i < p.inputs.rows(); ++i)
        for (Eigen::Index k = 0; k < p.inputs.cols(); ++k)
            if (!(p.inputs(i, k) >= 0 && p.inputs(i, k) <= 1))
                detail::fail_at(i, k, function, "inputs(", i, ", ", k, ") = ", detail::format_value(p.inputs(i, k)),
                                ", must be in [0, 1]");
}

}  // namespace

KdeCeFunction::KdeCeFunction(const CeProblem& train, double bandwidth, const ParallelOptions& parallel)
    : bandwidth_(bandwidth), parallel_(parallel) {
    check_kde("KdeCeFunction", train, 1, bandwidth);
    inputs_ = train.inputs;
    centres_ = simplex_points(train.inputs);
    labels_ = train.inputs - train.residuals;  // e_Y, or b for a scalar problem
    // log of Γ(Σα)/ΠΓ(α_k) with α = z_i/b + 1 (the kernel centred at training point i).
    log_normaliser_.resize(centres_.rows());
    for (Eigen::Index i = 0; i < centres_.rows(); ++i) {
        double sum = 0, log_gammas = 0;
        for (Eigen::Index k = 0; k < centres_.cols(); ++k) {
            const double alpha = centres_(i, k) / bandwidth + 1;
            sum += alpha;
            log_gammas += std::lgamma(alpha);
        }
        log_normaliser_(i) = std::lgamma(sum) - log_gammas;
    }
}

Matrix KdeCeFunction::factor(const Matrix& inputs) const { return factor_excluding(inputs, false); }

Matrix KdeCeFunction::leave_one_out_factor() const { return factor_excluding(inputs_, true); }

Vector KdeCeFunction::diagonal(const Matrix& inputs) const { return factor(inputs).rowwise().squaredNorm(); }

Matrix KdeCeFunction::factor_excluding(const Matrix& inputs, bool leave_one_out) const {
    if (inputs.cols() != labels_.cols())
        detail::fail("KdeCeFunction::factor", "inputs has ", inputs.cols(), " columns, must have ", labels_.cols(),
                     " as the training inputs");
    // Queries clipped to [ε, 1]: log z finite, so that a coordinate 0 (or a confidence of exactly 1.0)
    // contributes (α − 1) log ε instead of 0 · log 0 = NaN (digest ambiguity 14).
    constexpr double epsilon = 1e-12;
    const Matrix log_query = simplex_points(inputs).array().max(epsilon).log().matrix();
    const double inverse_bandwidth = 1 / bandwidth_;
    Matrix u(inputs.rows(), labels_.cols());
    const Eigen::Index blocks = (inputs.rows() + query_block - 1) / query_block;
    const int threads = resolve_num_threads(parallel_.num_threads);
    const detail::SerialEigenScope serial;
    std::exception_ptr error;
#pragma omp parallel num_threads(threads) if (threads > 1 && !omp_in_parallel())
    {
        // One workspace per thread for all its blocks: a fresh n×256 matrix per block cost more in page
        // faults (system time) than its product (issue 12's n = 10 000 benchmark, docs/performance.md).
        Matrix log_weight(centres_.rows(), query_block), averaged(labels_.cols(), query_block);
#pragma omp for schedule(dynamic)
        for (Eigen::Index block = 0; block < blocks; ++block) {
            try {
                const Eigen::Index a0 = block * query_block, len = std::min(query_block, inputs.rows() - a0);
                // log k(z_a; z_i) = log normaliser_i + Σ_k (α_ik − 1) log z_ak, α_ik − 1 = z_ik / b: one product.
                auto weights = log_weight.leftCols(len);
                weights.noalias() = centres_ * log_query.middleRows(a0, len).transpose();
                weights *= inverse_bandwidth;
                weights.colwise() += log_normaliser_;
                for (Eigen::Index c = 0; c < len; ++c) {
                    if (leave_one_out) weights(a0 + c, c) = -INFINITY;
                    // Nadaraya–Watson in log space: weights shifted by their maximum, so the denominator is ≥ 1.
                    auto w = weights.col(c);
                    w.array() -= w.maxCoeff();
                    detail::exp_nonpositive(w.data(), static_cast<std::size_t>(w.size()));
                }
                // The weighted label sums of the whole block in one product (Σ_i w_ia e_{y_i}).
                auto sums = averaged.leftCols(len);
                sums.noalias() = labels_.transpose() * weights;
                for (Eigen::Index c = 0; c < len; ++c)
                    u.row(a0 + c) = inputs.row(a0 + c) - sums.col(c).transpose() / weights.col(c).sum();
            } catch (...) {
#pragma omp critical(calib_kde_error)
                if (!error) error = std::current_exception();
            }
        }
    }
    if (error) std::rethrow_exception(error);
    if (!u.allFinite())
        throw numerical_error("calib::KdeCeFunction::factor: a kernel-density estimate is not finite");
    return u;
}

double kde_squared_ce(const CeProblem& problem, double bandwidth, const ParallelOptions& parallel) {
    check_kde("kde_squared_ce", problem, 2, bandwidth);
    const Vector d = KdeCeFunction(problem, bandwidth, parallel).leave_one_out_factor().rowwise().squaredNorm();
    detail::CompensatedSum s;
    for (Eigen::Index i = 0; i < d.size(); ++i) s.add(d(i));
    return s.value() / static_cast<double>(d.size());
}

}  // namespace calib

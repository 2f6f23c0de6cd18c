// The empirical calibration-estimation risk (20), full and low-rank, and its linear-time variant on
// consecutive pairs (squared_ce.hpp; digest §4.3).
#include "core/compensated_sum.hpp"
#include "core/serial_eigen.hpp"
#include "engine/pairwise.hpp"
#include "squared_ce/checks.hpp"

#include <calib/squared_ce.hpp>

namespace calib {

namespace {

// The pair term ⟨r_i, r_j⟩ − H_ij of (20); H is read in column i (the lower triangle for j > i, H
// symmetric), contiguous over j.
struct RiskTerm {
    const Matrix& residuals_t;  // d'×m
    const Matrix& h;
    std::size_t size() const { return static_cast<std::size_t>(h.rows()); }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const auto a = static_cast<Eigen::Index>(i);
        for (std::size_t j = j0; j < j1; ++j) {
            const auto b = static_cast<Eigen::Index>(j);
            out[j - j0] = residuals_t.col(a).dot(residuals_t.col(b)) - h(b, a);
        }
    }
};

void check_risk_input(const char* function, const Matrix& residuals, Eigen::Index rows, const char* what) {
    const long m = static_cast<long>(residuals.rows());
    if (m < 2) detail::fail(function, "residuals has m = ", m, " rows, must have m >= 2 (pairs a != b)");
    detail::check_same_rows(function, "residuals", m, what, static_cast<long>(rows));
    if (!residuals.allFinite()) detail::fail(function, "residuals has a value that is not finite; all must be finite");
}

}  // namespace

double ce_risk(const Matrix& residuals, const Matrix& h, const ParallelOptions& parallel) {
    check_risk_input("ce_risk", residuals, h.rows(), "h");
    if (h.cols() != h.rows()) detail::fail("ce_risk", "h is ", h.rows(), "x", h.cols(), ", must be square");
    const Matrix residuals_t = residuals.transpose();
    const RiskTerm term{residuals_t, h};
    const double m = static_cast<double>(h.rows());
    // Σ_{a<b} (T_ab − H_ab)², twice for the ordered pairs a ≠ b.
    const double upper = detail::block_pair_sums(term, term.size(), parallel)[0].sum_squares.value();
    return detail::check_result("ce_risk", 2 * upper / (m * (m - 1)));
}

double ce_risk_low_rank(const Matrix& residuals, const Matrix& factor) {
    check_risk_input("ce_risk_low_rank", residuals, factor.rows(), "factor");
    const detail::SerialEigenScope serial;  // fixed-order products, whatever the thread count
    const double m = static_cast<double>(residuals.rows());
    const double frobenius = (residuals.transpose() * residuals).squaredNorm() -
                             2 * (residuals.transpose() * factor).squaredNorm() +
                             (factor.transpose() * factor).squaredNorm();
    const double diagonal =
        (residuals.rowwise().squaredNorm() - factor.rowwise().squaredNorm()).squaredNorm();
    return detail::check_result("ce_risk_low_rank", (frobenius - diagonal) / (m * (m - 1)));
}

double ce_risk_consecutive(const Matrix& residuals, const Vector& pair_values) {
    check_risk_input("ce_risk_consecutive", residuals, pair_values.size() + 1, "pair_values (+ 1)");
    if (!pair_values.allFinite())
        detail::fail("ce_risk_consecutive", "pair_values has a value that is not finite; all must be finite");
    detail::CompensatedSum s;
    for (Eigen::Index a = 0; a + 1 < residuals.rows(); ++a) {
        const double d = residuals.row(a).dot(residuals.row(a + 1)) - pair_values(a);
        s.add(d * d);
    }
    return detail::check_result("ce_risk_consecutive", s.value() / static_cast<double>(pair_values.size()));
}

double ce_risk_consecutive_low_rank(const Matrix& residuals, const Matrix& factor) {
    check_risk_input("ce_risk_consecutive_low_rank", residuals, factor.rows(), "factor");
    const Eigen::Index m = factor.rows();
    const Vector pairs = (factor.topRows(m - 1).array() * factor.bottomRows(m - 1).array()).rowwise().sum();
    return ce_risk_consecutive(residuals, pairs);
}

}  // namespace calib


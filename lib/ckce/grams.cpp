// The CKCE of user-given Gram matrices: any prediction Gram with categorical data (ckce_gram) and
// the literal trace formula for any label space (ckce_from_grams) (ckce.hpp).
#include "ckce/detail.hpp"

#include <cmath>

namespace calib {

using detail::fail;

namespace {

void check_square(const char* fn, const char* name, const Matrix& k, Eigen::Index n) {
    if (k.rows() != n || k.cols() != n)
        fail(fn, name, " is ", k.rows(), "x", k.cols(), ", must be ", n, "x", n, " (one row and column per observation)");
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i)
            if (!std::isfinite(k(i, j)))
                detail::fail_at(i, j, fn, name, "(", i, ", ", j, ") = ", detail::format_value(k(i, j)), ", must be finite");
}

void check_symmetric(const char* fn, const char* name, const Matrix& k) {
    const double scale = std::max(1.0, k.cwiseAbs().maxCoeff());
    for (Eigen::Index j = 0; j < k.cols(); ++j)
        for (Eigen::Index i = j + 1; i < k.rows(); ++i)
            if (std::abs(k(i, j) - k(j, i)) > 1e-12 * scale)
                detail::fail_at(i, j, fn, name, " is not symmetric: entry (", i, ", ", j, ") = ",
                                detail::format_value(k(i, j)), " but (", j, ", ", i, ") = ",
                                detail::format_value(k(j, i)));
}

// A stored symmetric Gram as an engine term: row i from column i (contiguous in column-major).
class StoredGram {
public:
    explicit StoredGram(const Matrix& k) : k_(k) {}
    std::size_t size() const { return static_cast<std::size_t>(k_.rows()); }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const double* col = k_.data() + i * size();
        for (std::size_t j = j0; j < j1; ++j) out[j - j0] = col[j];
    }

private:
    const Matrix& k_;
};

}  // namespace

double ckce_gram(const Matrix& gram, const CategoricalData& data, const TargetKernel& target, double lambda) {
    const char* fn = "ckce_gram";
    const auto n = static_cast<Eigen::Index>(data.size());
    check_square(fn, "gram", gram, n);
    check_symmetric(fn, "gram", gram);
    detail::check_ckce_target(fn, target, data.num_classes());
    detail::check_lambda(fn, "lambda", lambda);
    const detail::SerialEigenScope serial;
    const StoredGram term(gram);
    return detail::cholesky_ckce(term, detail::residuals(data), target, lambda * static_cast<double>(n), 1,
                                 [&](const Matrix& b) { return detail::gram_product(term, b, &gram, ParallelOptions{1}); });
}

double ckce_from_grams(const Matrix& k, const Matrix& mm, const Matrix& m_psi, const Matrix& l_yy, double lambda) {
    const char* fn = "ckce_from_grams";
    const Eigen::Index n = k.rows();
    if (n == 0) fail(fn, "k is empty; at least one observation is needed");
    check_square(fn, "k", k, n);
    check_symmetric(fn, "k", k);
    check_square(fn, "mm", mm, n);
    check_square(fn, "m_psi", m_psi, n);
    check_square(fn, "l_yy", l_yy, n);
    detail::check_lambda(fn, "lambda", lambda);
    const detail::SerialEigenScope serial;
    Matrix r = k;
    r.diagonal().array() += lambda * static_cast<double>(n);
    const Eigen::LLT<Matrix> llt(r);
    if (llt.info() != Eigen::Success)
        throw numerical_error("calib::ckce_from_grams: the Cholesky factorisation of K + lambda n I failed (K is "
                              "not positive semidefinite)");
    const Matrix bracket = mm + l_yy - m_psi - m_psi.transpose();
    // Tr(R⁻¹ B R⁻¹ K) = Σ_ij (R⁻¹B)_ij (R⁻¹K)_ji.
    const Matrix x = llt.solve(bracket), y = llt.solve(k);
    return detail::frobenius_dot(x, y.transpose());
}

}  // namespace calib

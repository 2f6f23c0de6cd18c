// Dense kernel-ridge linear algebra on the n×n Gram matrix K of a symmetric pair term (engine/term.hpp):
// K itself, (K + ridge·I)⁻¹ R by Cholesky, and the eigendecomposition of K. O(n²) memory, O(n³) time;
// every result is bitwise independent of the thread count (fixed strips, Eigen kept serial by the
// caller's SerialEigenScope). For any kernel-ridge estimator (the CKCE's exact and eigen methods).
#pragma once

#include "engine/pairwise.hpp"
#include "ridge/parallel_cholesky.hpp"

#include <calib/data.hpp>
#include <calib/errors.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <string>

namespace calib::detail {

// The lower triangle (diagonal included) of the n×n matrix of a symmetric term.
template <class Term>
void fill_lower(const Term& term, Matrix& w, int threads) {
    w.resize(static_cast<Eigen::Index>(term.size()), static_cast<Eigen::Index>(term.size()));
    fill_upper_rows(term, w.data(), ParallelOptions{threads});
}

// B = (K + ridge·I)⁻¹ R, by the parallel Cholesky factorisation of K + ridge·I (freed before return).
// Throws numerical_error (naming `function`) when K + ridge·I is not positive definite.
template <class Term>
Matrix shifted_solve(const char* function, const Term& term, const Matrix& r, double ridge, int threads) {
    Matrix w;
    fill_lower(term, w, threads);
    w.diagonal().array() += ridge;
    if (!parallel_cholesky(w, threads))
        throw numerical_error(std::string("calib::") + function +
                              ": the Cholesky factorisation of K + lambda n I failed (K is not positive semidefinite)");
    Matrix b = r;  // L⁻ᵀ L⁻¹ R
    w.triangularView<Eigen::Lower>().solveInPlace(b);
    w.triangularView<Eigen::Lower>().transpose().solveInPlace(b);
    return b;
}

// K = U diag(s) Uᵀ with the eigenvalues clamped at 0 (rounding can make a PSD matrix's smallest ones
// negative). Throws numerical_error (naming `function`) when the decomposition does not converge.
struct KernelSpectrum {
    Vector eigenvalues;  // ascending, ≥ 0
    Matrix eigenvectors; // n×n, column k belongs to eigenvalue k
};
template <class Term>
KernelSpectrum kernel_spectrum(const char* function, const Term& term, int threads) {
    Matrix w;
    fill_lower(term, w, threads);
    const Eigen::SelfAdjointEigenSolver<Matrix> es(w);
    if (es.info() != Eigen::Success)
        throw numerical_error(std::string("calib::") + function + ": the eigendecomposition of K did not converge");
    return {es.eigenvalues().cwiseMax(0.0), es.eigenvectors()};
}

}  // namespace calib::detail

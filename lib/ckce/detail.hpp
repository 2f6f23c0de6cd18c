// Pieces shared by the CKCE sources: argument checks, the residual matrix A = Q − E, the dense and
// primal (feature-space) solvers, and the guard that keeps Eigen's own threading out of the way.
#pragma once

#include "core/check.hpp"
#include "core/memory_guard.hpp"
#include "engine/pairwise.hpp"
#include "ridge/parallel_cholesky.hpp"
#include "core/serial_eigen.hpp"

#include <calib/ckce.hpp>

#include <Eigen/Cholesky>
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace calib::detail {

// ---- checks (ckce_checks.cpp) ----
void check_simplex_kernel(const char* function, const SimplexKernel& kernel);
// The label Gram: empty, or symmetric PSD m×m with finite entries.
void check_ckce_target(const char* function, const TargetKernel& target, int m);
void check_lambda(const char* function, const char* argument, double lambda);
void check_attribute(const char* function, const Attribute& attribute, std::size_t n);

// A = Q − E: row i is q_i − e_{y_i}.
Matrix residuals(const CategoricalData& data);

// Σ_ij x_ij y_ij, columns in order with a compensated sum.
double frobenius_dot(const Matrix& x, const Matrix& y);

// Tr(X L Xᵀ) = Σ_ij X_ij (X L)_ij for the label Gram (identity when empty).
inline double label_quadratic(const Matrix& x, const TargetKernel& target) {
    return target.type == TargetKernelType::gram ? frobenius_dot(x, x * target.gram) : frobenius_dot(x, x);
}

// The lower triangle (diagonal included) of the n×n matrix of a symmetric term.
template <class Term>
void fill_lower(const Term& term, Matrix& w, int threads) {
    w.resize(static_cast<Eigen::Index>(term.size()), static_cast<Eigen::Index>(term.size()));
    fill_upper_rows(term, w.data(), ParallelOptions{threads});
}

// Σ_c F_cᵀF_c (lower triangle) and Σ_c F_cᵀA_c over the row chunks c of n observations, where
// fill(i0, i1, F) writes the (i1 − i0)×r feature rows of observations [i0, i1). Chunks of 512 rows
// form 8 contiguous groups (fixed by n, not by the thread count), summed in order: deterministic.
inline constexpr std::size_t primal_chunk_rows = 512;
struct PrimalSums {
    Matrix gram;   // r×r, lower triangle
    Matrix cross;  // r×m
};
template <class Fill>
PrimalSums primal_sums(std::size_t n, Eigen::Index r, const Matrix& a, Fill fill, int threads) {
    constexpr std::size_t chunk_rows = primal_chunk_rows, max_groups = 8;
    const std::size_t chunks = (n + chunk_rows - 1) / chunk_rows;
    const std::size_t groups = std::max<std::size_t>(1, std::min(max_groups, chunks));
    // A D × D Gram matrix per group of chunks, and the solve's copy: refused before allocation when
    // the features (rff) or the rank (lowrank) are too many for the machine.
    check_memory("ckce", 8.0 * double(r) * (double(groups + 1) * double(r) + double(chunk_rows * groups)),
                 "the feature-space Gram matrices", "use fewer features (or a lower rank)");
    std::vector<PrimalSums> partial(groups, PrimalSums{Matrix::Zero(r, r), Matrix::Zero(r, a.cols())});
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t g = 0; g < groups; ++g) {
        Matrix f(static_cast<Eigen::Index>(chunk_rows), r);
        for (std::size_t c = g * chunks / groups; c < (g + 1) * chunks / groups; ++c) {
            const std::size_t i0 = c * chunk_rows, i1 = std::min(n, i0 + chunk_rows);
            const auto len = static_cast<Eigen::Index>(i1 - i0);
            fill(i0, i1, f);
            partial[g].gram.selfadjointView<Eigen::Lower>().rankUpdate(f.topRows(len).transpose());
            partial[g].cross.noalias() += f.topRows(len).transpose() * a.middleRows(static_cast<Eigen::Index>(i0), len);
        }
    }
    for (std::size_t g = 1; g < groups; ++g) {
        partial[0].gram += partial[g].gram;
        partial[0].cross += partial[g].cross;
    }
    return std::move(partial[0]);
}

// The primal sums of a stored n×r factor G: GᵀG (lower triangle) and GᵀA.
inline PrimalSums primal_sums(const Matrix& g, const Matrix& a, int threads) {
    return primal_sums(static_cast<std::size_t>(g.rows()), g.cols(), a,
                       [&](std::size_t i0, std::size_t i1, Matrix& f) {
                           const auto len = static_cast<Eigen::Index>(i1 - i0);
                           f.topRows(len) = g.middleRows(static_cast<Eigen::Index>(i0), len);
                       },
                       threads);
}

// Tr(P L Pᵀ) with P = (S + ridge I)⁻¹ T, from the primal sums S = FᵀF, T = FᵀA.
double primal_ckce(PrimalSums sums, double ridge, const TargetKernel& target);

// The exact CKCE of a symmetric term (simplex kernel, or a stored Gram) by Cholesky of K + ridge I;
// `product(B)` returns K B. Opens no SerialEigenScope itself (the caller does).
template <class Term, class Product>
double cholesky_ckce(const Term& term, const Matrix& a, const TargetKernel& target, double ridge, int threads,
                     Product product) {
    Matrix w;
    fill_lower(term, w, threads);
    w.diagonal().array() += ridge;
    if (!parallel_cholesky(w, threads))
        throw numerical_error("calib::ckce: the Cholesky factorisation of K + lambda n I failed (K is not "
                              "positive semidefinite)");
    Matrix b = a;  // B = R⁻¹A = L⁻ᵀ L⁻¹ A
    w.triangularView<Eigen::Lower>().solveInPlace(b);
    w.triangularView<Eigen::Lower>().transpose().solveInPlace(b);
    w.resize(0, 0);  // free the factor before K B is formed
    const Matrix kb = product(b);
    return target.type == TargetKernelType::gram ? frobenius_dot(kb, b * target.gram) : frobenius_dot(kb, b);
}

}  // namespace calib::detail

// Kernel ridge regression in the primal, with features F (K ≈ F Fᵀ: random features, a low-rank
// factor): the sums S = FᵀF and T = FᵀA over the rows in fixed chunks, and the solve
// P = (S + ridge·I)⁻¹ T, which by the push-through identity gives Fᵀ(K + ridge·I)⁻¹A = P. O(n r²)
// time, O(n m + r²) memory; bitwise independent of the thread count.
#pragma once

#include "core/memory_guard.hpp"

#include <calib/data.hpp>
#include <calib/errors.hpp>

#include <Eigen/Cholesky>
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace calib::detail {

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
    check_memory("primal kernel ridge", 8.0 * double(r) * (double(groups + 1) * double(r) + double(chunk_rows * groups)),
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

// P = (S + ridge·I)⁻¹ T from the primal sums. Throws numerical_error (naming `function`) when the
// Cholesky factorisation fails.
inline Matrix primal_solve(const char* function, PrimalSums sums, double ridge) {
    sums.gram.diagonal().array() += ridge;
    const Eigen::LLT<Matrix, Eigen::Lower> llt(sums.gram);
    if (llt.info() != Eigen::Success)
        throw numerical_error(std::string("calib::") + function + ": the Cholesky factorisation of F'F + lambda n I failed");
    return llt.solve(sums.cross);
}

}  // namespace calib::detail

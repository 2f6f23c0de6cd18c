// A blocked right-looking Cholesky factorisation R = L Lᵀ of a symmetric positive definite matrix
// stored in the lower triangle, parallel and deterministic: panels of 256 columns; the diagonal
// block by Eigen's LLT, the panel below it by a triangular solve in strips of 256 rows, the
// trailing update by 256×256 tiles (each one GEMM). The strips and tiles do not depend on the
// thread count, and each is computed by one thread in a fixed order, so L is bitwise the same for
// any number of threads. Eigen must run serially inside (SerialEigenScope). O(n³/3).
#pragma once

#include <omp.h>

#include <Eigen/Cholesky>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace calib::detail {

// Factorises the lower triangle of w in place (the strict upper triangle is used as scratch).
// Returns false when w is not positive definite.
inline bool parallel_cholesky(Eigen::MatrixXd& w, int threads) {
    using Eigen::Index;
    constexpr Index block = 256;
    const Index n = w.rows();
    for (Index k = 0; k < n; k += block) {
        const Index kb = std::min(block, n - k), rest = n - k - kb;
        Eigen::Ref<Eigen::MatrixXd> a11 = w.block(k, k, kb, kb);
        const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>, Eigen::Lower> diagonal(a11);  // in place
        if (diagonal.info() != Eigen::Success) return false;
        if (rest == 0) break;
        const auto l11 = w.block(k, k, kb, kb).triangularView<Eigen::Lower>();
        const Index strips = (rest + block - 1) / block;
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
        for (Index s = 0; s < strips; ++s) {
            const Index r0 = k + kb + s * block, rows = std::min(block, n - r0);
            auto panel = w.block(r0, k, rows, kb);
            l11.transpose().solveInPlace<Eigen::OnTheRight>(panel);  // L21 = A21 L11⁻ᵀ
        }
        // A22 −= L21 L21ᵀ on the tiles (i, j), i ≥ j, of the trailing matrix.
        std::vector<std::pair<Index, Index>> tiles;
        for (Index i = 0; i < strips; ++i)
            for (Index j = 0; j <= i; ++j) tiles.emplace_back(i, j);
        const auto count = static_cast<std::ptrdiff_t>(tiles.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
        for (std::ptrdiff_t t = 0; t < count; ++t) {
            const auto [i, j] = tiles[static_cast<std::size_t>(t)];
            const Index r0 = k + kb + i * block, c0 = k + kb + j * block;
            const Index rows = std::min(block, n - r0), cols = std::min(block, n - c0);
            w.block(r0, c0, rows, cols).noalias() -= w.block(r0, k, rows, kb) * w.block(c0, k, cols, kb).transpose();
        }
    }
    return true;
}

}  // namespace calib::detail

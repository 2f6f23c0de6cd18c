// The pivoted incomplete Cholesky factorisation K ≈ G Gᵀ of any symmetric positive semidefinite pair
// term (engine/term.hpp), for low-rank kernel ridge regression (primal.hpp).
#pragma once

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "engine/pairwise.hpp"

#include <calib/kernels.hpp>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace calib::detail {

inline void check_low_rank_options(const char* function, double tolerance, std::size_t max_rank) {
    if (!(tolerance >= 0 && tolerance < 1))
        fail(function, "tolerance = ", format_value(tolerance), ", must be in [0, 1)");
    if (max_rank == 0) fail(function, "max_rank = 0, must be >= 1");
}

// Pivoted incomplete Cholesky K ≈ G Gᵀ of a symmetric PSD term (Fine & Scheinberg 2002): pivot on
// the largest remaining diagonal d_j (lowest index on ties), g = (K(:, j) − G G(j, :)ᵀ)/√d_j,
// d ← d − g², until Σ d ≤ tolerance · tr K, max_rank columns, or d_j ≤ 0. Each element of g is
// accumulated in column order whatever the thread count. O(n r (m + r)). grow() may be called again
// with a larger max_rank or a smaller tolerance to continue the same factorisation (its first
// columns do not change), so a caller can choose the rank by a criterion of its own.
template <class Term>
class PivotedCholesky {
public:
    PivotedCholesky(const Term& term, int threads) : term_(term), threads_(threads), d_(size()) {
        for (Eigen::Index i = 0; i < size(); ++i) {
            const auto k = static_cast<std::size_t>(i);
            d_(i) = single_pair(term_, k, k);
        }
        trace_ = residual_trace_ = total();
    }

    // Adds columns until the residual trace is ≤ tolerance · tr K, the rank is max_rank (at most n) or
    // the largest remaining diagonal is not positive.
    void grow(double tolerance, std::size_t max_rank) {
        const std::size_t n = term_.size(), rank_limit = std::min(max_rank, n);
        const std::size_t chunks = (n + chunk_width - 1) / chunk_width;
        // A parallel region per pivot pays off only for long columns.
        const int step_threads = n >= 8192 ? threads_ : 1;
        while (columns_.size() < rank_limit && residual_trace_ > tolerance * trace_) {
            Eigen::Index j = 0;
            for (Eigen::Index i = 1; i < size(); ++i)
                if (d_(i) > d_(j)) j = i;
            if (!(d_(j) > 0)) break;
            const double pivot = std::sqrt(d_(j));
            Vector g(size());
#pragma omp parallel for schedule(static) num_threads(step_threads) if (step_threads > 1 && !omp_in_parallel())
            for (std::size_t c = 0; c < chunks; ++c) {
                const std::size_t j0 = c * chunk_width, j1 = std::min(n, j0 + chunk_width);
                const auto s0 = static_cast<Eigen::Index>(j0), len = static_cast<Eigen::Index>(j1 - j0);
                term_.row(static_cast<std::size_t>(j), j0, j1, g.data() + j0);
                for (const Vector& col : columns_) g.segment(s0, len) -= col(j) * col.segment(s0, len);
                g.segment(s0, len) /= pivot;
            }
            g(j) = pivot;
            d_.array() = (d_.array() - g.array().square()).max(0.0);
            d_(j) = 0;
            columns_.push_back(std::move(g));
            residual_trace_ = total();
        }
    }

    std::size_t rank() const { return columns_.size(); }

    // The first `rank` columns (at most rank()) as an n×rank matrix.
    Matrix factor(std::size_t rank) const {
        Matrix g(size(), static_cast<Eigen::Index>(rank));
        for (std::size_t c = 0; c < rank; ++c) g.col(static_cast<Eigen::Index>(c)) = columns_[c];
        return g;
    }

    LowRankFactor result() const {
        LowRankFactor out;
        out.factor = factor(rank());
        out.residual_trace = residual_trace_;
        out.trace = trace_;
        return out;
    }

private:
    Eigen::Index size() const { return static_cast<Eigen::Index>(term_.size()); }
    double total() const {
        CompensatedSum s;
        for (Eigen::Index i = 0; i < size(); ++i) s.add(d_(i));
        return s.value();
    }

    const Term& term_;
    int threads_;
    Vector d_;
    double trace_ = 0, residual_trace_ = 0;
    std::vector<Vector> columns_;
};

template <class Term>
LowRankFactor pivoted_cholesky(const Term& term, double tolerance, std::size_t max_rank, int threads) {
    PivotedCholesky<Term> cholesky(term, threads);
    cholesky.grow(tolerance, max_rank);
    return cholesky.result();
}

}  // namespace calib::detail

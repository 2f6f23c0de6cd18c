// Quadratic forms of resampling counts with the matrix H of a pair term, for every bootstrap
// replicate at once: the bootstrap test's replicates and the paired bootstrap of the model
// comparison. A resample with replacement of the n observations is its count vector c (c_a the
// multiplicity of observation a); then, for the pairs of distinct positions of the resample,
//   Σ_{positions u≠v} h(s_u, s_v) = cᵀHc − Σ_a c_a h_aa.
// All R forms come from one product of the upper triangle Hᵤ of H (diagonal included) with
// [C, 1] (H = Hᵤ + Hᵤᵀ − diag H halves the flops of H·C):
//   cᵀHc = 2 c·(Hᵤc) − Σ_a c_a² h_aa,   cᵀH1 = c·(Hᵤ1) + 1·(Hᵤc) − Σ_a c_a h_aa.
// Hᵤ is cached when n² doubles fit `memory_budget`, else its tiles are recomputed (pairwise.hpp).
// O(n²R) time; the result does not depend on the thread count.
#pragma once

#include "pairwise.hpp"
#include "parallel.hpp"
#include "quadratic_sums.hpp"

#include <calib/random.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace calib::detail {

// Multinomial counts of R resamples with replacement of n observations (columns 0..R-1; replicate
// r draws its n indices from stream first_stream + r of the seed), and a last column of ones.
inline Eigen::MatrixXd resampling_counts(std::size_t n, std::size_t replicates, std::uint64_t seed,
                                         std::uint64_t first_stream, const ParallelOptions& parallel) {
    Eigen::MatrixXd c = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(replicates + 1));
    c.col(static_cast<Eigen::Index>(replicates)).setOnes();
    parallel_for(replicates, ParallelOptions{parallel.num_threads}, [&](std::size_t r) {
        Rng rng = make_stream(seed, first_stream + r);
        for (std::size_t k = 0; k < n; ++k)
            c(static_cast<Eigen::Index>(uniform_index(rng, n)), static_cast<Eigen::Index>(r)) += 1;
    });
    return c;
}

struct CountForms {
    QuadraticSums sums;              // of H itself (one engine pass)
    std::vector<double> quadratic;   // c_rᵀ H c_r
    std::vector<double> diagonal;    // Σ_a c_ar h_aa
    std::vector<double> linear;      // c_rᵀ H 1
    bool cached = false;             // Hᵤ was held in memory
};

// The forms of every replicate column of `counts` (n×(R+1), last column ones: resampling_counts).
template <class Term>
CountForms count_forms(const Term& term, const Eigen::MatrixXd& counts, std::size_t memory_budget,
                       const ParallelOptions& parallel) {
    const std::size_t n = term.size(), R = static_cast<std::size_t>(counts.cols()) - 1;
    CountForms f;
    f.cached = double(n) * double(n) * sizeof(double) <= double(memory_budget);
    f.sums = quadratic_sums(term, parallel);
    Eigen::VectorXd h_diagonal(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i) h_diagonal(static_cast<Eigen::Index>(i)) = single_pair(term, i, i);
    Eigen::MatrixXd g;  // Hᵤ·[C, 1]
    if (f.cached) {
        RowMajorMatrix upper(n, n);
        fill_upper_rows(term, upper.data(), parallel);
        g = upper_gram_product(term, counts, &upper, parallel);
    } else {
        g = upper_gram_product(term, counts, nullptr, parallel);
    }
    const Eigen::VectorXd upper_row_sums = g.col(static_cast<Eigen::Index>(R));  // Hᵤ1
    f.quadratic.resize(R), f.diagonal.resize(R), f.linear.resize(R);
    parallel_for(R, ParallelOptions{parallel.num_threads}, [&](std::size_t r) {
        const auto col = static_cast<Eigen::Index>(r);
        const auto cr = counts.col(col);
        const auto gr = g.col(col);
        f.diagonal[r] = cr.dot(h_diagonal);
        f.quadratic[r] = 2 * cr.dot(gr) - cr.cwiseAbs2().dot(h_diagonal);
        f.linear[r] = cr.dot(upper_row_sums) + gr.sum() - f.diagonal[r];
    });
    return f;
}

}  // namespace calib::detail

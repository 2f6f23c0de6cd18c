// Quadratic forms of resampling counts with the matrix H of a pair term, for every bootstrap
// replicate: the bootstrap test's replicates and the paired bootstrap of the model comparison. A
// resample with replacement of the n observations is its count vector c (c_a the multiplicity of
// observation a); then, for the pairs of distinct positions of the resample,
//   Σ_{positions u≠v} h(s_u, s_v) = cᵀHc − Σ_a c_a h_aa.
// The forms come from products of the upper triangle Hᵤ of H (diagonal included) with the counts
// (H = Hᵤ + Hᵤᵀ − diag H halves the flops of H·C):
//   cᵀHc = 2 c·(Hᵤc) − Σ_a c_a² h_aa,   cᵀH1 = c·(Hᵤ1) + 1·(Hᵤc) − Σ_a c_a h_aa,
// replicates_per_pass replicates at a time (Hᵤ1 with the first pass), with Hᵤ cached or recomputed
// in tiles on every pass. O(n²R) time; the result depends neither on the thread count nor on the
// cache nor on the memory budget.
#pragma once

#include "engine/pairwise.hpp"
#include "core/parallel.hpp"
#include "engine/quadratic_sums.hpp"

#include <calib/tool/random.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace calib::detail {

// Replicates per product with Hᵤ: a fixed number, since Eigen's rounding depends on the shape of a
// product, so that each replicate's value is the same whatever memory is available. 256 keeps the
// products efficient and the counts of one pass at 2 KiB per observation.
inline constexpr std::size_t replicates_per_pass = 256;

// Adds to counts[0 … n) the multiplicities of one resample with replacement of n observations, whose
// n indices are drawn from stream `stream` of the seed: the one definition of a replicate's resample.
template <class Counts>
void add_resample_counts(std::uint64_t seed, std::uint64_t stream, std::size_t n, Counts&& counts) {
    Rng rng = make_stream(seed, stream);
    for (std::size_t i = 0; i < n; ++i) counts[static_cast<Eigen::Index>(uniform_index(rng, n))] += 1;
}

// Writes the multinomial counts of resamples with replacement of n = out.rows() observations into
// the columns of `out`: column k is the resample of stream first_stream + k of the seed.
template <class Out>
void resampling_counts(std::uint64_t seed, std::uint64_t first_stream, Out&& out, const ParallelOptions& parallel) {
    const auto n = static_cast<std::size_t>(out.rows());
    out.setZero();
    parallel_for(static_cast<std::size_t>(out.cols()), ParallelOptions{parallel.num_threads}, [&](std::size_t k) {
        add_resample_counts(seed, first_stream + k, n, out.col(static_cast<Eigen::Index>(k)));
    });
}

// The memory count_forms needs beyond the data, in bytes: the counts of one pass and their product
// with Hᵤ (16·n·(replicates_per_pass + 1)), two vectors of n, and the forms with a caller's vector
// of the replicates (32·R; the distinct-pair forms take 16·R more); and the cached Hᵤ (8n²), taken
// only when it fits the budget too. Not counted: each thread's tile and Eigen's packing buffers, under 0.5 MiB per thread (so that the
// plan, hence the output, does not depend on the thread count).
struct CountFormsMemory {
    double working = 0, cache = 0;
};
inline CountFormsMemory count_forms_memory(std::size_t n, std::size_t replicates) {
    const double nd = double(n), pass = double(std::min(replicates, replicates_per_pass) + 1);
    return {16 * nd * pass + 16 * nd + 32 * double(replicates), 8 * nd * nd};
}

// counts(r0, r1, out) writes the resampling counts of replicates [r0, r1) into the n×(r1 − r0) `out`:
// the type of the compiled passes (kernels/family_ops.hpp, the JKCE's).
using CountSource = std::function<void(std::size_t r0, std::size_t r1, Eigen::Ref<Eigen::MatrixXd> out)>;

struct CountForms {
    QuadraticSums sums;              // of H itself (one engine pass)
    std::vector<double> quadratic;   // c_rᵀ H c_r
    std::vector<double> diagonal;    // Σ_a c_ar h_aa
    std::vector<double> linear;      // c_rᵀ H 1
    // Only when asked (distinct_pairs), for the pairs of distinct observations of a resample:
    std::vector<double> squared_diagonal;  // Σ_a c_ar² h_aa
    std::vector<double> squared_counts;    // Σ_a c_ar²
    bool cached = false;             // Hᵤ was held in memory
};

// The forms of R replicates; counts(r0, r1, out) writes the counts of replicates [r0, r1) into the
// n×(r1 − r0) block `out`. Hᵤ is cached when `cache`; the distinct-pair forms are filled when
// `distinct_pairs`.
template <class Term, class Counts>
CountForms count_forms(const Term& term, std::size_t replicates, const Counts& counts, bool cache,
                       const ParallelOptions& parallel, bool distinct_pairs = false) {
    const std::size_t n = term.size(), R = replicates;
    CountForms f;
    f.cached = cache;
    f.sums = quadratic_sums(term, parallel);
    Eigen::VectorXd h_diagonal(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i) h_diagonal(static_cast<Eigen::Index>(i)) = single_pair(term, i, i);
    RowMajorMatrix upper;
    if (cache) {
        upper.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
        fill_upper_rows(term, upper.data(), parallel);
    }
    Eigen::VectorXd upper_row_sums;  // Hᵤ1
    f.quadratic.resize(R), f.diagonal.resize(R), f.linear.resize(R);
    if (distinct_pairs) f.squared_diagonal.resize(R), f.squared_counts.resize(R);
    for (std::size_t r0 = 0; r0 < R; r0 += replicates_per_pass) {
        const std::size_t r1 = std::min(R, r0 + replicates_per_pass);
        const auto w = static_cast<Eigen::Index>(r1 - r0);
        Eigen::MatrixXd c(static_cast<Eigen::Index>(n), w + (r0 == 0 ? 1 : 0));  // the first pass: [C, 1]
        counts(r0, r1, c.leftCols(w));
        if (r0 == 0) c.col(w).setOnes();
        const Eigen::MatrixXd g = upper_gram_product(term, c, cache ? &upper : nullptr, parallel);  // Hᵤ·c
        if (r0 == 0) upper_row_sums = g.col(w);
        parallel_for(r1 - r0, ParallelOptions{parallel.num_threads}, [&](std::size_t k) {
            const auto col = static_cast<Eigen::Index>(k);
            const auto cr = c.col(col);
            const auto gr = g.col(col);
            const std::size_t r = r0 + k;
            f.diagonal[r] = cr.dot(h_diagonal);
            const double squared_diagonal = cr.cwiseAbs2().dot(h_diagonal);
            f.quadratic[r] = 2 * cr.dot(gr) - squared_diagonal;
            if (distinct_pairs) f.squared_diagonal[r] = squared_diagonal, f.squared_counts[r] = cr.squaredNorm();
            f.linear[r] = cr.dot(upper_row_sums) + gr.sum() - f.diagonal[r];
        });
    }
    return f;
}

}  // namespace calib::detail

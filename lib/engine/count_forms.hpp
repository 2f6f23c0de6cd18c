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
#include <utility>
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

// Under ParallelOptions::processes (count_forms): Hᵤ1 from process 0 (which computes the first
// pass) to every process; then each process's linear forms, with the counts of its passes drawn
// again (the same counts, the same expression as in one process); then every replicate's forms on
// every process, pass by pass.
template <class PassCounts>
void share_replicate_forms(const Processes& processes, std::size_t n, std::size_t passes, const PassCounts& pass_counts,
                           Eigen::VectorXd& upper_row_sums, const std::vector<double>& column_sums, CountForms& f,
                           const ParallelOptions& parallel, bool distinct_pairs) {
    const auto size = static_cast<std::size_t>(processes.size()), rank = static_cast<std::size_t>(processes.rank());
    const std::size_t R = f.quadratic.size(), width = distinct_pairs ? 5 : 3;
    std::vector<std::size_t> counts(size);
    counts[0] = n;
    const std::vector<double> ones = processes.all_gather(
        rank == 0 ? std::vector<double>(upper_row_sums.data(), upper_row_sums.data() + n) : std::vector<double>{}, counts);
    upper_row_sums = Eigen::Map<const Eigen::VectorXd>(ones.data(), static_cast<Eigen::Index>(n));
    auto pass_range = [&](std::size_t pass) {
        return std::pair{pass * replicates_per_pass, std::min(R, (pass + 1) * replicates_per_pass)};
    };
    std::fill(counts.begin(), counts.end(), 0);
    std::vector<double> mine;
    for (std::size_t pass = 0; pass < passes; ++pass) {
        // Plain variables: a lambda may not capture a structured binding in C++17 (clang refuses).
        const std::size_t r0 = pass_range(pass).first, r1 = pass_range(pass).second;
        counts[pass % size] += width * (r1 - r0);
        if (pass % size != rank) continue;
        const Eigen::MatrixXd c = pass_counts(pass, pass == 0);
        parallel_for(r1 - r0, ParallelOptions{parallel.num_threads}, [&](std::size_t k) {
            const std::size_t r = r0 + k;
            f.linear[r] = c.col(static_cast<Eigen::Index>(k)).dot(upper_row_sums) + column_sums[r] - f.diagonal[r];
        });
        for (std::size_t r = r0; r < r1; ++r) {
            mine.insert(mine.end(), {f.quadratic[r], f.diagonal[r], f.linear[r]});
            if (distinct_pairs) mine.insert(mine.end(), {f.squared_diagonal[r], f.squared_counts[r]});
        }
    }
    const std::vector<double> all = processes.all_gather(mine, counts);
    std::size_t at = 0;
    for (std::size_t p = 0; p < size; ++p)
        for (std::size_t pass = p; pass < passes; pass += size) {
            const auto [r0, r1] = pass_range(pass);
            for (std::size_t r = r0; r < r1; ++r, at += width) {
                f.quadratic[r] = all[at], f.diagonal[r] = all[at + 1], f.linear[r] = all[at + 2];
                if (distinct_pairs) f.squared_diagonal[r] = all[at + 3], f.squared_counts[r] = all[at + 4];
            }
        }
}

// The forms of R replicates; counts(r0, r1, out) writes the counts of replicates [r0, r1) into the
// n×(r1 − r0) block `out`. Hᵤ is cached when `cache`; the distinct-pair forms are filled when
// `distinct_pairs`. Spread over ParallelOptions::processes by passes (pass k on process k mod P):
// each process computes its passes whole, the first pass's Hᵤ1 is sent to every process for the
// linear forms, and every replicate's forms are gathered on every process, each computed exactly as
// one process computes it.
template <class Term, class Counts>
CountForms count_forms(const Term& term, std::size_t replicates, const Counts& counts, bool cache,
                       const ParallelOptions& parallel, bool distinct_pairs = false) {
    const std::size_t n = term.size(), R = replicates;
    const Processes* processes = spread_over(parallel);
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
    Eigen::VectorXd upper_row_sums;  // Hᵤ1, from the first pass
    std::vector<double> column_sums(R);  // 1ᵀ(Hᵤc_r)
    f.quadratic.resize(R), f.diagonal.resize(R), f.linear.resize(R);
    if (distinct_pairs) f.squared_diagonal.resize(R), f.squared_counts.resize(R);
    const std::size_t passes = (R + replicates_per_pass - 1) / replicates_per_pass;
    auto pass_counts = [&](std::size_t pass, bool with_ones) {
        const std::size_t r0 = pass * replicates_per_pass, r1 = std::min(R, r0 + replicates_per_pass);
        const auto w = static_cast<Eigen::Index>(r1 - r0);
        Eigen::MatrixXd c(static_cast<Eigen::Index>(n), w + (with_ones ? 1 : 0));  // the first pass: [C, 1]
        counts(r0, r1, c.leftCols(w));
        if (with_ones) c.col(w).setOnes();
        return c;
    };
    for (std::size_t pass = 0; pass < passes; ++pass) {
        if (!owns_item(processes, pass)) continue;
        const std::size_t r0 = pass * replicates_per_pass;
        const Eigen::MatrixXd c = pass_counts(pass, pass == 0);
        const auto w = static_cast<Eigen::Index>(std::min(R, r0 + replicates_per_pass) - r0);
        const Eigen::MatrixXd g = upper_gram_product(term, c, cache ? &upper : nullptr, parallel);  // Hᵤ·c
        if (pass == 0) upper_row_sums = g.col(w);
        parallel_for(static_cast<std::size_t>(w), ParallelOptions{parallel.num_threads}, [&](std::size_t k) {
            const auto col = static_cast<Eigen::Index>(k);
            const auto cr = c.col(col);
            const auto gr = g.col(col);
            const std::size_t r = r0 + k;
            f.diagonal[r] = cr.dot(h_diagonal);
            const double squared_diagonal = cr.cwiseAbs2().dot(h_diagonal);
            f.quadratic[r] = 2 * cr.dot(gr) - squared_diagonal;
            if (distinct_pairs) f.squared_diagonal[r] = squared_diagonal, f.squared_counts[r] = cr.squaredNorm();
            column_sums[r] = gr.sum();
            if (!processes) f.linear[r] = cr.dot(upper_row_sums) + column_sums[r] - f.diagonal[r];
        });
    }
    if (processes)
        share_replicate_forms(*processes, n, passes, pass_counts, upper_row_sums, column_sums, f, parallel, distinct_pairs);
    return f;
}

}  // namespace calib::detail

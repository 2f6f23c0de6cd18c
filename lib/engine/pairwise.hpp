// The pairwise engine: every O(n²) and O(nB) sum of calib runs here.
//
// It runs pair terms (term.hpp: h(i, j) a row chunk at a time).
//
// Work is split into items that do not depend on the thread count; each item reduces its values
// in a fixed order (8 interleaved lanes inside a chunk, compensated sums across chunks) and
// items are combined in index order. Hence results are bitwise identical for any number of
// threads. Memory is O(number of items), never O(n²).
#pragma once

#include "core/compensated_sum.hpp"
#include "core/progress.hpp"
#include "core/serial_eigen.hpp"
#include "engine/term.hpp"

#include <calib/parallel.hpp>

#include <Eigen/Core>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace calib::detail {

inline constexpr std::size_t strip_rows = 64;    // rows per work item: a chunk is reused 64 times

// Σ h and Σ h² over a set of pairs.
struct PairSums {
    CompensatedSum sum, sum_squares;
    void add(const PairSums& other) {
        sum.add(other.sum.value());
        sum_squares.add(other.sum_squares.value());
    }
};

inline double sum_of_lanes(const std::array<double, 8>& a) {
    return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

// Adds x[0..len) and their squares to s, in a fixed order: 8 interleaved lanes, then the lanes.
inline void reduce_chunk(const double* x, std::size_t len, PairSums& s) {
    std::array<double, 8> a{}, q{};
    std::size_t j = 0;
    for (; j + 8 <= len; j += 8)
        for (std::size_t l = 0; l < 8; ++l) {
            a[l] += x[j + l];
            q[l] += x[j + l] * x[j + l];
        }
    for (std::size_t l = 0; j + l < len; ++l) {
        a[l] += x[j + l];
        q[l] += x[j + l] * x[j + l];
    }
    s.sum.add(sum_of_lanes(a));
    s.sum_squares.add(sum_of_lanes(q));
}

// Adds x[0..len) to s in reduce_chunk's order, without the squares.
inline void reduce_chunk_sum(const double* x, std::size_t len, CompensatedSum& s) {
    std::array<double, 8> a{};
    std::size_t j = 0;
    for (; j + 8 <= len; j += 8)
        for (std::size_t l = 0; l < 8; ++l) a[l] += x[j + l];
    for (std::size_t l = 0; j + l < len; ++l) a[l] += x[j + l];
    s.add(sum_of_lanes(a));
}

// visit_row(i, start, j1) for the row chunks [start, j1) of the pairs of rows [r0, r1) with columns j in
// (i, c_end): column chunks outermost so that a chunk of the data is reused by every row of the strip
// while it is in cache.
template <class VisitRow>
void for_each_strip_row_chunk(std::size_t r0, std::size_t r1, std::size_t c_end, VisitRow&& visit_row) {
    for (std::size_t j0 = r0 + 1; j0 < c_end; j0 += chunk_width) {
        const std::size_t j1 = std::min(j0 + chunk_width, c_end);
        for (std::size_t i = r0; i < r1 && i + 1 < j1; ++i) visit_row(i, std::max(j0, i + 1), j1);
    }
}

// visit(values, len) for the values h(i, j) of the pairs of rows [r0, r1) with columns j in (i, c_end),
// a row chunk at a time (for_each_strip_row_chunk).
template <class Term, class Visit>
void for_each_strip_chunk(const Term& term, std::size_t r0, std::size_t r1, std::size_t c_end, Visit&& visit) {
    CALIB_CHECK_PAIR_TERM(Term);
    alignas(64) double buffer[chunk_width];
    for_each_strip_row_chunk(r0, r1, c_end, [&](std::size_t i, std::size_t start, std::size_t j1) {
        term.row(i, start, j1, buffer);
        visit(static_cast<const double*>(buffer), j1 - start);
    });
}

// Σ_{i<j} over the pairs of rows [r0, r1) with columns j in (i, c_end).
template <class Term>
void strip_sums(const Term& term, std::size_t r0, std::size_t r1, std::size_t c_end, PairSums& s) {
    for_each_strip_chunk(term, r0, r1, c_end, [&](const double* x, std::size_t len) { reduce_chunk(x, len, s); });
}

// The number of pairs i < j with i in [r0, r1) and j < end.
inline std::uint64_t pairs_of_strip(std::size_t r0, std::size_t r1, std::size_t end) {
    std::uint64_t pairs = 0;
    for (std::size_t i = r0; i < r1; ++i) pairs += end - i - 1;
    return pairs;
}

// The processes a loop of the engine is split over: ParallelOptions::processes, unless the call is
// inside a parallel region (then this thread computes every item: other threads may be in other
// engine calls, and the processes' collectives must be called once per process, in the same order).
inline const Processes* spread_over(const ParallelOptions& parallel) {
    return parallel.processes && parallel.processes->size() > 1 && !omp_in_parallel() ? parallel.processes : nullptr;
}

// Whether this process computes work item `item`: item k goes to process k mod size.
inline bool owns_item(const Processes* processes, std::size_t item) {
    return !processes ||
           item % static_cast<std::size_t>(processes->size()) == static_cast<std::size_t>(processes->rank());
}

// visit(states[t], values, len) for every pair i < j of the term, each chunk of values once, t the
// OpenMP thread that computed it (states has one entry per thread of num_threads). For reductions
// that do not depend on the order in which values arrive (counts, collected multisets): their result
// is then the same for any thread count. Under ParallelOptions::processes (spread_over) a process
// visits only its own strips (owns_item); the caller combines the processes' states.
template <class Term, class State, class Visit>
void for_each_pair_chunk(const Term& term, std::vector<State>& states, const ParallelOptions& parallel,
                         const char* stage, Visit&& visit) {
    CALIB_CHECK_PAIR_TERM(Term);
    const std::size_t n = term.size();
    const int threads = resolve_num_threads(parallel.num_threads);
    if (states.size() < static_cast<std::size_t>(threads)) states.resize(static_cast<std::size_t>(threads), states.at(0));
    const std::size_t strips = (n + strip_rows - 1) / strip_rows;
    const StageProgress progress(parallel, stage, n * (n - 1) / 2);
    const Processes* processes = spread_over(parallel);
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t s = 0; s < strips; ++s) {
        if (progress.stopped()) continue;
        State& state = states[static_cast<std::size_t>(omp_get_thread_num())];
        const std::size_t r0 = s * strip_rows, r1 = std::min(n, r0 + strip_rows);
        if (owns_item(processes, s))
            for_each_strip_chunk(term, r0, r1, n, [&](const double* x, std::size_t len) { visit(state, x, len); });
        progress.advance(pairs_of_strip(r0, r1, n));
    }
    progress.finish();
}

// After each process computed its own items (owns_item) of `sums`, item k being the entries
// [k·per_item, (k + 1)·per_item): every entry on every process, as their values (a sum rebuilt
// from its value has the same value, so what is combined from them afterwards is bitwise what one
// process combines).
inline void share_items(const Processes* processes, std::vector<PairSums>& sums, std::size_t per_item) {
    if (!processes) return;
    const auto size = static_cast<std::size_t>(processes->size());
    const std::size_t items = (sums.size() + per_item - 1) / per_item;
    auto entries = [&](std::size_t item) { return std::min(sums.size(), (item + 1) * per_item) - item * per_item; };
    std::vector<std::size_t> counts(size);
    for (std::size_t k = 0; k < items; ++k) counts[k % size] += 2 * entries(k);
    std::vector<double> mine;
    for (std::size_t k = static_cast<std::size_t>(processes->rank()); k < items; k += size)
        for (std::size_t e = k * per_item; e < k * per_item + entries(k); ++e)
            mine.push_back(sums[e].sum.value()), mine.push_back(sums[e].sum_squares.value());
    const std::vector<double> all = processes->all_gather(mine, counts);
    std::size_t at = 0;
    for (std::size_t p = 0; p < size; ++p)
        for (std::size_t k = p; k < items; k += size)
            for (std::size_t e = k * per_item; e < k * per_item + entries(k); ++e, at += 2) {
                sums[e] = PairSums{};
                sums[e].sum.add(all[at]);
                sums[e].sum_squares.add(all[at + 1]);
            }
}

// Per-block sums of h and h² over the pairs i < j inside each block of `block_size` consecutive
// observations; the last n mod block_size observations are dropped. block_size = n gives the sums
// over all pairs i < j. Spread over ParallelOptions::processes (items: groups of small blocks, or
// strips of rows of a large block).
template <class Term>
std::vector<PairSums> block_pair_sums(const Term& term, std::size_t block_size, const ParallelOptions& parallel) {
    const std::size_t n = term.size();
    const std::size_t num_blocks = block_size ? n / block_size : 0;
    std::vector<PairSums> blocks(num_blocks);
    if (num_blocks == 0) return blocks;
    const int threads = resolve_num_threads(parallel.num_threads);
    const StageProgress progress(parallel, "pairs", num_blocks * (block_size * (block_size - 1) / 2));
    const Processes* processes = spread_over(parallel);

    if (block_size <= strip_rows) {
        // Small blocks: an item is a group of whole blocks, written straight to their slots.
        const std::size_t per_item = std::max<std::size_t>(1, 4 * strip_rows / block_size);
        const std::size_t items = (num_blocks + per_item - 1) / per_item;
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
        for (std::size_t item = 0; item < items; ++item) {
            if (progress.stopped()) continue;
            const std::size_t b_end = std::min(num_blocks, (item + 1) * per_item);
            if (owns_item(processes, item))
                for (std::size_t b = item * per_item; b < b_end; ++b) {
                    const std::size_t begin = b * block_size, end = begin + block_size;
                    strip_sums(term, begin, end, end, blocks[b]);
                }
            progress.advance((b_end - item * per_item) * (block_size * (block_size - 1) / 2));
        }
        progress.finish();
        share_items(processes, blocks, per_item);
        return blocks;
    }
    // Large blocks: an item is a strip of rows of one block; strips are combined per block in order.
    const std::size_t strips_per_block = (block_size + strip_rows - 1) / strip_rows;
    std::vector<PairSums> strips(num_blocks * strips_per_block);
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t item = 0; item < strips.size(); ++item) {
        if (progress.stopped()) continue;
        const std::size_t b = item / strips_per_block, r = item % strips_per_block;
        const std::size_t begin = b * block_size, end = begin + block_size;
        const std::size_t r0 = begin + r * strip_rows, r1 = std::min(end, r0 + strip_rows);
        if (owns_item(processes, item)) strip_sums(term, r0, r1, end, strips[item]);
        progress.advance(pairs_of_strip(r0, r1, end));
    }
    progress.finish();
    share_items(processes, strips, 1);
    for (std::size_t b = 0; b < num_blocks; ++b)
        for (std::size_t r = 0; r < strips_per_block; ++r) blocks[b].add(strips[b * strips_per_block + r]);
    return blocks;
}

// A term whose h is a sum of parts, h = Σ_p h_p (the classes of a class-wise statistic, the thresholds
// of a per-threshold one), may also offer
//   std::size_t parts() const;
//   void part_row(std::size_t p, std::size_t i, std::size_t j0, std::size_t j1, double* out) const;  // h_p
// Σ_{i<j} h_p of every part from one pass over the pairs: each part's chunk is computed and reduced while
// the strip's chunk of data is in cache, instead of one pass per part; without the squares, which the
// part-wise estimates do not use and which cost as much as the rest of the reduction. Each sum is bitwise
// block_pair_sums(h_p, n)'s (the same strips, chunks and order of summation).
template <class Term>
std::vector<double> part_pair_sums(const Term& term, const ParallelOptions& parallel) {
    const std::size_t n = term.size(), parts = term.parts();
    const std::size_t strips = (n + strip_rows - 1) / strip_rows;
    std::vector<PairSums> strip_parts(strips * parts);  // strip s, part p at s·parts + p; squares unused
    const int threads = resolve_num_threads(parallel.num_threads);
    const StageProgress progress(parallel, "pairs", n * (n - 1) / 2);
    const Processes* processes = spread_over(parallel);
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t s = 0; s < strips; ++s) {
        if (progress.stopped()) continue;
        const std::size_t r0 = s * strip_rows, r1 = std::min(n, r0 + strip_rows);
        if (owns_item(processes, s)) {
            alignas(64) double buffer[chunk_width];
            PairSums* sums = strip_parts.data() + s * parts;
            for_each_strip_row_chunk(r0, r1, n, [&](std::size_t i, std::size_t start, std::size_t j1) {
                for (std::size_t p = 0; p < parts; ++p) {
                    term.part_row(p, i, start, j1, buffer);
                    reduce_chunk_sum(buffer, j1 - start, sums[p].sum);
                }
            });
        }
        progress.advance(pairs_of_strip(r0, r1, n));
    }
    progress.finish();
    share_items(processes, strip_parts, parts);
    std::vector<CompensatedSum> totals(parts);
    for (std::size_t s = 0; s < strips; ++s)
        for (std::size_t p = 0; p < parts; ++p) totals[p].add(strip_parts[s * parts + p].sum.value());
    std::vector<double> sums;
    for (const CompensatedSum& total : totals) sums.push_back(total.value());
    return sums;
}

// h(i, j) of one pair. The buffer has a full chunk's width because row() may process the whole
// vector width that a chunk allows.
template <class Term>
double single_pair(const Term& term, std::size_t i, std::size_t j) {
    alignas(64) double h[chunk_width];
    term.row(i, j, j + 1, h);
    return h[0];
}

// Σ_i h(i, i), in index order.
template <class Term>
double diagonal_sum(const Term& term) {
    CompensatedSum s;
    for (std::size_t i = 0; i < term.size(); ++i) s.add(single_pair(term, i, i));
    return s.value();
}

// Rows of a matrix product are computed in strips of gemm_rows rows, each strip one task, with
// Eigen kept serial (SerialEigenScope): Eigen's blocking, hence its rounding, depends on the size
// of the product and on its own thread count, so fixed strips and one Eigen thread make the
// result independent of our thread count.
inline constexpr std::size_t gemm_rows = 256;
using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Writes h(i, j) for j ≥ i at out[i·n + j]: the upper triangle of a row-major n×n matrix, which is
// the lower triangle of a column-major one. Rows in parallel, each written by one task. Row i is
// evaluated in the column chunks of tiled_product_rows ([i, next multiple of chunk_width), then
// aligned chunks): a vectorised row() can round an entry differently at another position in its
// chunk (SIMD and scalar exp differ in the last bit), so the same chunks give the same bits.
template <class Term>
void fill_upper_rows(const Term& term, double* out, const ParallelOptions& parallel) {
    const std::size_t n = term.size();
    const int threads = resolve_num_threads(parallel.num_threads);
    const StageProgress progress(parallel, "Gram matrix", n);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t i = 0; i < n; ++i) {
        if (progress.stopped()) continue;
        for (std::size_t j0 = i / chunk_width * chunk_width; j0 < n; j0 += chunk_width) {
            const std::size_t start = std::max(i, j0);
            term.row(i, start, std::min(n, j0 + chunk_width), out + i * n + start);
        }
        progress.advance(1);
    }
    progress.finish();
}

// The full n×n matrix H (opt-in, O(n²) memory): the upper triangle by rows, mirrored.
template <class Term>
Eigen::MatrixXd materialise(const Term& term, const ParallelOptions& parallel) {
    const std::size_t n = term.size();
    Eigen::MatrixXd full(n, n);  // column-major: fill_upper_rows writes its lower triangle
    fill_upper_rows(term, full.data(), parallel);
    full.triangularView<Eigen::StrictlyUpper>() = full.transpose();
    return full;
}

// body(i0, i1) for the strips [i0, i1) of `rows` rows that cover [0, n), one task each, with Eigen
// kept serial (SerialEigenScope). Progress counts `weight(i0, i1)` per strip (the rows by default).
template <class Body>
void for_each_row_strip(std::size_t n, std::size_t rows, const ParallelOptions& parallel, const char* stage,
                        const Body& body) {
    const auto strips = (n + rows - 1) / rows;
    const int threads = resolve_num_threads(parallel.num_threads);
    const SerialEigenScope serial;
    const StageProgress progress(parallel, stage, n);
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t s = 0; s < strips; ++s) {
        if (progress.stopped()) continue;
        body(s * rows, std::min(n, (s + 1) * rows));
        progress.advance(std::min(n, (s + 1) * rows) - s * rows);
    }
    progress.finish();
}

// Rows [i0, i1) of G := H·C (from column 0) or Hᵤ·C (`upper`: from the diagonal on, zeros to its
// left), tile by tile of chunk_width columns of H, accumulated in a fixed order: never more than a
// strip × chunk_width tile in memory. A tile is recomputed, or copied from `cache` (the rows of
// fill_upper_rows; `upper` only) when given: the products are the same either way, so the cache
// changes the speed, not the bits.
template <class Term>
void tiled_product_rows(const Term& term, const Eigen::MatrixXd& c, bool upper, const RowMajorMatrix* cache,
                        std::size_t i0, std::size_t i1, Eigen::MatrixXd& g) {
    const std::size_t n = term.size();
    auto strip = g.middleRows(static_cast<Eigen::Index>(i0), static_cast<Eigen::Index>(i1 - i0));
    strip.setZero();
    RowMajorMatrix tile(strip.rows(), static_cast<Eigen::Index>(chunk_width));
    for (std::size_t j0 = upper ? i0 : 0; j0 < n; j0 += chunk_width) {
        const std::size_t j1 = std::min(n, j0 + chunk_width);
        const auto w = static_cast<Eigen::Index>(j1 - j0);
        for (std::size_t i = i0; i < i1; ++i) {
            double* row = tile.data() + (i - i0) * chunk_width;
            const std::size_t start = upper ? std::clamp(i, j0, j1) : j0;
            std::fill(row, row + (start - j0), 0.0);
            if (start == j1) continue;
            if (cache) std::copy(cache->data() + i * n + start, cache->data() + i * n + j1, row + (start - j0));
            else term.row(i, start, j1, row + (start - j0));
        }
        strip.noalias() += tile.leftCols(w) * c.middleRows(static_cast<Eigen::Index>(j0), w);
    }
}

// G = H·C for an n×R matrix C, from `h` when given (materialise), else recomputed. Strips of
// gemm_rows rows with a fixed order of accumulation, so G does not depend on the thread count.
// (The two sources may differ in the last bits: a cached H is mirrored, h(j, i) := h(i, j).)
template <class Term>
Eigen::MatrixXd gram_product(const Term& term, const Eigen::MatrixXd& c, const Eigen::MatrixXd* h,
                             const ParallelOptions& parallel) {
    Eigen::MatrixXd g(term.size(), c.cols());
    for_each_row_strip(term.size(), gemm_rows, parallel, "Gram product", [&](std::size_t i0, std::size_t i1) {
        if (!h) return tiled_product_rows(term, c, false, nullptr, i0, i1, g);
        const auto r0 = static_cast<Eigen::Index>(i0), rows = static_cast<Eigen::Index>(i1 - i0);
        g.middleRows(r0, rows).noalias() = h->middleRows(r0, rows) * c;
    });
    return g;
}

// G = Hᵤ·C for an n×R matrix C, where Hᵤ is the upper triangle of H with its diagonal (h(i, j) for
// j ≥ i, 0 below): since H = Hᵤ + Hᵤᵀ − diag(H), quadratic forms cᵀHc = 2 cᵀHᵤc − Σ c_a² h_aa need
// only half the products of H·C. Tiles from `cache` when given (the rows of fill_upper_rows:
// row-major, only j ≥ i read), else recomputed, with the same result. Strips of gemm_rows / 2 rows
// (the work shrinks towards the last rows) with a fixed order of accumulation: G does not depend on
// the thread count.
// The strips start on the chunk grid of fill_upper_rows, so that cached and recomputed tiles agree.
static_assert(gemm_rows / 2 % chunk_width == 0, "upper_gram_product's strips must start on the chunk grid");
template <class Term>
Eigen::MatrixXd upper_gram_product(const Term& term, const Eigen::MatrixXd& c, const RowMajorMatrix* cache,
                                   const ParallelOptions& parallel) {
    Eigen::MatrixXd g(term.size(), c.cols());
    for_each_row_strip(term.size(), gemm_rows / 2, parallel, "Gram product", [&](std::size_t i0, std::size_t i1) {
        tiled_product_rows(term, c, true, cache, i0, i1, g);
    });
    return g;
}

// out(i, j) = f(i, j) for a rectangular cross term with rows(i, j0, j1, out) semantics over
// columns [0, cols); rows are independent, so the result does not depend on the thread count.
template <class Term>
void cross_rows(const Term& term, std::size_t rows, std::size_t cols, double* out_row_major,
                const ParallelOptions& parallel) {
    const int threads = resolve_num_threads(parallel.num_threads);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j0 = 0; j0 < cols; j0 += chunk_width)
            term.row(i, j0, std::min(cols, j0 + chunk_width), out_row_major + i * cols + j0);
}

}  // namespace calib::detail

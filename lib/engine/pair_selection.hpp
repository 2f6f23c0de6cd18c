// Exact order statistics of the n(n−1)/2 values {v(i, j) : i < j} of a pair term (the distances of the
// median heuristic) without storing them: a radix selection by successive passes of the pairwise
// engine. A non-negative double orders as its 64-bit pattern, so the k-th smallest value is found
// 16 bits at a time: each pass counts, in a histogram of 2¹⁶ bins, the next 16 bits of the values
// whose leading bits match those found so far, and keeps the bin that holds rank k. Once the values
// that remain fit in collect_limit, one more pass collects them and nth_element finishes.
// Typically 2–3 passes (a single pass when all n(n−1)/2 values fit), each O(n²·m) time, O(1) extra
// memory besides one histogram per thread and the collected values. Counts are integers and the
// k-th smallest value of a multiset is unique, so the result does not depend on the thread count,
// nor on the processes the passes are split over (ParallelOptions::processes).
#pragma once

#include "engine/pairwise.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace calib::detail {

// At most this many values are collected in memory (32 MiB).
inline constexpr std::uint64_t selection_collect_limit = std::uint64_t{1} << 22;

// The bit pattern of a value ≥ 0; −0 counts as +0, and an infinite or NaN value (never produced for
// finite inputs) orders after every finite one.
inline std::uint64_t order_bits(double value) {
    value += 0.0;  // −0 → +0
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// Under ParallelOptions::processes each process visits its own strips (for_each_pair_chunk); these
// combine what they found. Counts are summed in process order (exact: a count of pairs is below
// 2⁵³, so it travels as a double unchanged).
inline void sum_over_processes(const Processes* processes, std::vector<std::uint64_t>& counts) {
    if (!processes) return;
    const auto size = static_cast<std::size_t>(processes->size());
    const std::vector<double> all = processes->all_gather(std::vector<double>(counts.begin(), counts.end()),
                                                          std::vector<std::size_t>(size, counts.size()));
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t p = 0; p < size; ++p)
        for (std::size_t b = 0; b < counts.size(); ++b) counts[b] += static_cast<std::uint64_t>(all[p * counts.size() + b]);
}
// Every process's values, concatenated (a multiset: the order does not matter to nth_element's k-th value).
inline void gather_over_processes(const Processes* processes, std::vector<double>& values) {
    if (!processes) return;
    const auto size = static_cast<std::size_t>(processes->size());
    const std::vector<double> sizes = processes->all_gather({double(values.size())}, std::vector<std::size_t>(size, 1));
    std::vector<std::size_t> counts(size);
    for (std::size_t p = 0; p < size; ++p) counts[p] = static_cast<std::size_t>(sizes[p]);
    values = processes->all_gather(values, counts);
}

// The values of rank ranks[t] (0-based, ascending) of {v(i, j) : i < j}, for v ≥ 0. Needs n ≥ 2 and
// every rank < n(n−1)/2.
template <class Term>
std::vector<double> select_pair_ranks(const Term& term, const std::vector<std::uint64_t>& ranks,
                                      const ParallelOptions& parallel,
                                      std::uint64_t collect_limit = selection_collect_limit) {
    const std::uint64_t n = term.size();
    const Processes* processes = spread_over(parallel);
    struct Target {
        std::uint64_t rank;        // rank among the values with the prefix
        std::uint64_t prefix = 0;  // the leading `bits` bits of the answer
        int bits = 0;
        std::uint64_t candidates;  // values with the prefix
    };
    std::vector<Target> targets;
    for (const std::uint64_t r : ranks) targets.push_back({r, 0, 0, n * (n - 1) / 2});
    const auto matches = [](std::uint64_t bits, std::uint64_t prefix, int length) {
        return length == 0 || (bits >> (64 - length)) == prefix;
    };
    // The distinct (prefix, bits) of the targets, which one pass handles together.
    const auto groups = [&] {
        std::vector<std::pair<std::uint64_t, int>> g;
        for (const Target& t : targets)
            if (t.bits < 64 && std::find(g.begin(), g.end(), std::make_pair(t.prefix, t.bits)) == g.end())
                g.emplace_back(t.prefix, t.bits);
        return g;
    };
    for (;;) {
        const auto open = groups();
        std::uint64_t remaining = 0;
        for (const auto& [prefix, bits] : open)
            for (const Target& t : targets)
                if (t.prefix == prefix && t.bits == bits) {
                    remaining += t.candidates;
                    break;
                }
        if (open.empty() || remaining <= collect_limit) break;
        // A histogram pass over the next 16 bits of each group.
        using Histogram = std::vector<std::uint64_t>;
        std::vector<std::vector<Histogram>> counts(1, std::vector<Histogram>(open.size(), Histogram(1u << 16, 0)));
        for_each_pair_chunk(term, counts, parallel, "median", [&](std::vector<Histogram>& h, const double* x, std::size_t len) {
            for (std::size_t g = 0; g < open.size(); ++g) {
                const auto [prefix, length] = open[g];
                std::uint64_t* bins = h[g].data();
                const int shift = 48 - length;
                for (std::size_t l = 0; l < len; ++l) {
                    const std::uint64_t b = order_bits(x[l]);
                    if (matches(b, prefix, length)) ++bins[(b >> shift) & 0xFFFF];
                }
            }
        });
        for (std::size_t g = 0; g < open.size(); ++g) {
            Histogram total(1u << 16, 0);
            for (const auto& thread : counts)
                for (std::size_t b = 0; b < total.size(); ++b) total[b] += thread[g][b];
            sum_over_processes(processes, total);
            for (Target& t : targets) {
                if (t.prefix != open[g].first || t.bits != open[g].second) continue;
                std::uint64_t below = 0, bin = 0;
                while (bin + 1 < total.size() && below + total[bin] <= t.rank) below += total[bin++];
                t.prefix = (t.prefix << 16) | bin;
                t.bits += 16;
                t.rank -= below;
                t.candidates = total[bin];
            }
        }
    }
    // Collect the values of the open groups and select; a target with all 64 bits is its value.
    const auto open = groups();
    std::vector<double> result(targets.size());
    if (!open.empty()) {
        std::vector<std::vector<std::vector<double>>> kept(1, std::vector<std::vector<double>>(open.size()));
        for_each_pair_chunk(term, kept, parallel, "median", [&](std::vector<std::vector<double>>& k, const double* x, std::size_t len) {
            for (std::size_t g = 0; g < open.size(); ++g)
                for (std::size_t l = 0; l < len; ++l)
                    if (matches(order_bits(x[l]), open[g].first, open[g].second)) k[g].push_back(x[l] + 0.0);
        });
        for (std::size_t g = 0; g < open.size(); ++g) {
            std::vector<double> values;
            for (const auto& thread : kept) values.insert(values.end(), thread[g].begin(), thread[g].end());
            gather_over_processes(processes, values);
            for (std::size_t t = 0; t < targets.size(); ++t) {
                if (targets[t].prefix != open[g].first || targets[t].bits != open[g].second) continue;
                const auto at = values.begin() + static_cast<std::ptrdiff_t>(targets[t].rank);
                std::nth_element(values.begin(), at, values.end());
                result[t] = *at;
            }
        }
    }
    for (std::size_t t = 0; t < targets.size(); ++t)
        if (targets[t].bits == 64) std::memcpy(&result[t], &targets[t].prefix, sizeof(double));
    return result;
}

// The number of pairs i < j with v(i, j) = 0.
template <class Term>
std::uint64_t count_zero_pairs(const Term& term, const ParallelOptions& parallel) {
    std::vector<std::uint64_t> zeros(1, 0);
    for_each_pair_chunk(term, zeros, parallel, "median", [](std::uint64_t& z, const double* x, std::size_t len) {
        for (std::size_t l = 0; l < len; ++l) z += x[l] == 0;
    });
    std::vector<std::uint64_t> total(1, 0);
    for (const std::uint64_t z : zeros) total[0] += z;
    sum_over_processes(spread_over(parallel), total);
    return total[0];
}

// A pair term of n observations whose row(i, j0, j1, out) is a function, e.g. a prediction kernel's
// distances.
template <class RowFunction>
struct FunctionTerm {
    RowFunction function;
    std::size_t n;
    std::size_t size() const { return n; }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const { function(i, j0, j1, out); }
};
template <class RowFunction>
FunctionTerm<RowFunction> function_term(RowFunction function, std::size_t n) {
    return {std::move(function), n};
}

}  // namespace calib::detail

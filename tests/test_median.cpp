// The exact median heuristic (kernels.hpp: median_distance; ckce.hpp: simplex_median_lengthscale) and
// the selection behind it (lib/pair_selection.hpp), against a brute-force sort of every distance.
#include <calib/ckce.hpp>
#include <calib/kernels.hpp>

#include "engine/pair_selection.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace calib;
using doctest::Approx;

namespace {

// The median of values (mean of the two middle ones for an even count), by a full sort.
double sorted_median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t c = values.size();
    return c % 2 ? values[c / 2] : 0.5 * (values[c / 2 - 1] + values[c / 2]);
}

// Every distance of the pairs i < j (pairs) or of all n² ordered pairs (full), written out.
template <class Distance>
std::vector<double> all_distances(std::size_t n, bool full, Distance d) {
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = full ? 0 : i + 1; j < n; ++j) out.push_back(i == j ? 0.0 : d(std::min(i, j), std::max(i, j)));
    return out;
}

// A pair term over a given symmetric table of values (for the selection itself).
struct TableTerm {
    std::vector<double> v;  // n×n, row-major
    std::size_t n;
    std::size_t size() const { return n; }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        for (std::size_t j = j0; j < j1; ++j) out[j - j0] = v[i * n + j];
    }
};

}  // namespace

TEST_SUITE("median") {

TEST_CASE("radix selection: every rank, ties, zeros, extreme and infinite values, any collect limit") {
    test::Rng rng(11);
    const std::size_t n = 181;  // 16290 pairs
    TableTerm term{std::vector<double>(n * n), n};
    const double specials[] = {0.0, -0.0, 5e-324, 1e-300, 1.0, 1.0, 2.0, 1e300, std::numeric_limits<double>::infinity()};
    boost::random::uniform_01<double> u;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const double r = u(rng);
            // Mostly a few tied values and a continuum in [0, 3); some special values.
            const double v = r < 0.3 ? std::floor(10 * r) / 4 : r < 0.35 ? specials[std::size_t(200 * (r - 0.3)) % 9] : 3 * r;
            term.v[i * n + j] = term.v[j * n + i] = v;
        }
    std::vector<double> sorted;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) sorted.push_back(term.v[i * n + j] + 0.0);
    std::sort(sorted.begin(), sorted.end());
    const std::vector<std::uint64_t> ranks = {0, 1, 17, 4000, 8144, 8145, 12000, sorted.size() - 2, sorted.size() - 1};
    // Limits that force 0, 1, 2, 3 and 4 histogram passes.
    for (const std::uint64_t limit : {std::uint64_t{1} << 22, std::uint64_t{5000}, std::uint64_t{40}, std::uint64_t{1}, std::uint64_t{0}}) {
        for (const int threads : {1, 2}) {
            CAPTURE(limit);
            CAPTURE(threads);
            const std::vector<double> got = detail::select_pair_ranks(term, ranks, ParallelOptions{threads}, limit);
            for (std::size_t t = 0; t < ranks.size(); ++t) {
                CAPTURE(ranks[t]);
                const double want = sorted[ranks[t]];
                CHECK(std::memcmp(&got[t], &want, sizeof want) == 0);  // bitwise, +0 for −0
            }
        }
    }
    CHECK(detail::count_zero_pairs(term, ParallelOptions{2}) == std::uint64_t(std::count(sorted.begin(), sorted.end(), 0.0)));
}

TEST_CASE("median_distance is the exact median for every family and metric, pairs and full") {
    test::Rng rng(5);
    // Even and odd counts of pairs and of n²: n = 5 (10 pairs, 25), 6 (15, 36), 300 and 3000 (the
    // latter above the one-pass limit of 2²² collected values, so the histogram passes run).
    for (const std::size_t n : {5, 6, 300, 3000}) {
        CAPTURE(n);
        const CategoricalData c = synthetic::dirichlet_data(n, 4, 0.5, rng);
        const Matrix& p = c.probabilities();
        const auto tv = [&](std::size_t i, std::size_t j) { return 0.5 * (p.row(i) - p.row(j)).cwiseAbs().sum(); };
        const auto l1 = [&](std::size_t i, std::size_t j) { return (p.row(i) - p.row(j)).cwiseAbs().sum(); };
        const auto euclidean = [&](std::size_t i, std::size_t j) { return (p.row(i) - p.row(j)).norm(); };
        for (const bool full : {false, true}) {
            MedianOptions o = test::median_options(full ? MedianVariant::full : MedianVariant::pairs);
            o.parallel.num_threads = 2;
            CHECK(median_distance(c, Metric::tv, o) == Approx(sorted_median(all_distances(n, full, tv))).epsilon(1e-15));
            // The histogram passes (n = 3000) do not depend on the metric: one metric checks them.
            if (n > 300) continue;
            CHECK(median_distance(c, Metric::l1, o) == Approx(sorted_median(all_distances(n, full, l1))).epsilon(1e-15));
            CHECK(median_distance(c, Metric::euclidean, o) ==
                  Approx(sorted_median(all_distances(n, full, euclidean))).epsilon(1e-15));
        }
        if (n > 300) continue;
        // The other families through prediction_distance (one pair at a time, no selection).
        const NormalData normal = test::normal_data(n, rng);
        const auto w2 = [&](std::size_t i, std::size_t j) {
            return std::hypot(normal.mean()(i) - normal.mean()(j), normal.stddev()(i) - normal.stddev()(j));
        };
        const LaplaceData laplace = test::laplace_data(n, rng);
        const MvNormalData mv = test::mvnormal_full_data(n, 2, rng);
        const MixtureNormalData mix = test::mixture_data(n, 3, rng);
        for (const bool full : {false, true}) {
            MedianOptions o = test::median_options(full ? MedianVariant::full : MedianVariant::pairs);
            o.parallel.num_threads = 2;
            CHECK(median_distance(normal, Metric::w2, o) == Approx(sorted_median(all_distances(n, full, w2))).epsilon(1e-15));
            const auto check_family = [&](const auto& data) {
                const double want = sorted_median(all_distances(
                    n, full, [&](std::size_t i, std::size_t j) { return prediction_distance(data, Metric::w2, i, j); }));
                // prediction_distance evaluates one pair with its own formula; the last bits may differ.
                CHECK(median_distance(data, Metric::w2, o) == Approx(want).epsilon(1e-14));
            };
            check_family(laplace);
            check_family(mv);
            check_family(mix);
        }
    }
}

TEST_CASE("median_distance: ties, thread counts and subsampling") {
    // Binary predictions with many ties: p ∈ {0.1, 0.2, …, 0.9}.
    test::Rng rng(8);
    boost::random::uniform_01<double> u;
    const std::size_t n = 3001;
    Vector p(n);
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) p(i) = std::ceil(9 * u(rng)) / 10, y[i] = u(rng) < p(i);
    const CategoricalData d = CategoricalData::from_binary(p, y);
    const auto tv = [&](std::size_t i, std::size_t j) { return std::abs(p(i) - p(j)); };
    for (const bool full : {false, true}) {
        MedianOptions o = test::median_options(full ? MedianVariant::full : MedianVariant::pairs);
        o.parallel.num_threads = 1;
        const double one = median_distance(d, Metric::tv, o);
        o.parallel.num_threads = 2;
        CHECK(median_distance(d, Metric::tv, o) == one);
        CHECK(one == Approx(sorted_median(all_distances(n, full, tv))).epsilon(1e-15));
    }
    // A subsample of K is the exact median of those K observations.
    const MedianOptions sub = test::median_options(MedianVariant::pairs, 500, 3);
    Rng draw(3);
    const CategoricalData part = subset(d, sample_without_replacement(n, 500, draw));
    CHECK(median_distance(d, Metric::tv, sub) == median_distance(part, Metric::tv));
}

TEST_CASE("CKCE lengthscale: exact median of Euclidean distances, fallbacks above the one-pass size") {
    test::Rng rng(9);
    const CategoricalData d = synthetic::dirichlet_data(3000, 5, 0.3, rng);
    const Matrix& p = d.probabilities();
    const auto euclidean = [&](std::size_t i, std::size_t j) { return (p.row(i) - p.row(j)).norm(); };
    const std::vector<double> all = all_distances(3000, false, euclidean);
    CHECK(simplex_median_lengthscale(p).value == Approx(sorted_median(all)).epsilon(1e-15));
    MedianOptions full;
    full.variant = MedianVariant::full;
    CHECK_THROWS_WITH_AS(simplex_median_lengthscale(p, full), doctest::Contains("must be pairs"), invalid_argument);
    // Most rows equal: the median is 0 and the non-zero distances give γ.
    Matrix same = Matrix::Constant(3000, 2, 0.5);
    same.row(0) << 1, 0;
    same.row(1) << 0, 1;
    const MedianLengthscale b = simplex_median_lengthscale(same);
    CHECK(b.fallback == MedianFallback::nonzero_median);
    // Non-zero distances: 2·2998 of √½ and one of √2: median √½.
    CHECK(b.value == Approx(std::sqrt(0.5)).epsilon(1e-15));
}

}  // TEST_SUITE

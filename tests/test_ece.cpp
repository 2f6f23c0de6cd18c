// Tests of the binned ECE (estimators.hpp: ece) and its binning schemes (lib/binning.hpp).
#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/tool/synthetic.hpp>

#include "estimators/binning.hpp"

#include <calib/prediction_bins.hpp>

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <utility>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <numeric>
#include <vector>

using calib::CategoricalData;
using calib::EceAggregate;
using calib::EceDistance;
using calib::EceMode;
using calib::EceOptions;
using calib::Matrix;
using calib::Vector;
using calib::detail::Bins;

namespace {

Matrix rows(std::initializer_list<std::initializer_list<double>> values) {
    Matrix x(static_cast<Eigen::Index>(values.size()),
             static_cast<Eigen::Index>(values.begin()->size()));
    Eigen::Index i = 0;
    for (const auto& row : values) {
        Eigen::Index k = 0;
        for (double v : row) x(i, k++) = v;
        ++i;
    }
    return x;
}

// The reference tests number observations from 1; our bins hold 0-based indices.
Bins from_one_based(std::initializer_list<std::initializer_list<std::size_t>> bins) {
    Bins out;
    for (const auto& bin : bins) {
        out.emplace_back();
        for (std::size_t i : bin) out.back().push_back(i - 1);
    }
    return out;
}

EceOptions uniform(int nbins, EceDistance d = EceDistance::tv, EceMode mode = EceMode::canonical) {
    EceOptions o;
    o.nbins = nbins;
    o.distance = d;
    o.mode = mode;
    return o;
}

EceOptions with(EceOptions o, EceAggregate aggregate) {
    o.aggregate = aggregate;
    return o;
}

EceOptions counted(calib::BinningScheme scheme, int nbins, EceMode mode = EceMode::top_label) {
    EceOptions o;
    o.binning = scheme;
    o.nbins = nbins;
    o.mode = mode;
    return o;
}

EceOptions median_variance(int minsize, int maxbins = INT_MAX) {
    EceOptions o;
    o.binning = calib::BinningScheme::median_variance;
    o.minsize = minsize;
    o.maxbins = maxbins;
    return o;
}


// Plain loops instead of Eigen reductions, which trip a GCC 12 -Wmaybe-uninitialized false
// positive under -march with AVX-512.
double total(const Vector& v) {
    double s = 0;
    for (Eigen::Index k = 0; k < v.size(); ++k) s += v(k);
    return s;
}

double max_abs_difference(const Vector& a, const Vector& b) {
    double d = 0;
    for (Eigen::Index k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a(k) - b(k)));
    return d;
}

// The five 3-class predictions (and their targets, made 0-based) of the "Simple example" testsets
// of CalibrationErrors.jl test/binning/uniform.jl and test/binning/medianvariance.jl (v0.6.x); the
// first three rows are their 3-point example.
const Matrix five_points = rows({{0.4, 0.1, 0.5}, {0.5, 0.3, 0.2}, {0.3, 0.7, 0.0},
                                 {0.1, 0.0, 0.9}, {0.8, 0.1, 0.1}});
const std::vector<int> five_labels = {0, 1, 2, 0, 1};

}  // namespace

TEST_SUITE("ece") {

// E13 [julia-reference §3.1; CalibrationErrors.jl test/ece.jl "Trivial tests"]: perfectly
// calibrated bins give 0 with UniformBinning(10).
TEST_CASE("E13: calibrated toy data give ECE 0") {
    const CategoricalData a(rows({{0, 1}, {1, 0}}), {1, 0});
    const CategoricalData b(rows({{0, 1}, {0.5, 0.5}, {0.5, 0.5}, {1, 0}}), {1, 1, 0, 0});
    const CategoricalData c = CategoricalData::from_binary((Vector(2) << 0, 1).finished(), {0, 1});
    const CategoricalData d =
        CategoricalData::from_binary((Vector(4) << 0, 0.5, 0.5, 1).finished(), {0, 0, 1, 1});
    for (const CategoricalData* data : {&a, &b, &c, &d})
        for (EceDistance dist : {EceDistance::tv, EceDistance::l1, EceDistance::euclidean,
                                 EceDistance::sqeuclidean})
            for (EceMode mode : {EceMode::canonical, EceMode::top_label})
                CHECK(calib::ece(*data, uniform(10, dist, mode)) == 0.0);
}

// E14 [CalibrationErrors.jl test/binning/uniform.jl "Binning indices"].
TEST_CASE("E14: uniform bin index and edge convention") {
    using calib::detail::uniform_bin_index;
    CHECK(uniform_bin_index(0.0, 10) == 1);
    CHECK(uniform_bin_index(0.1, 10) == 1);
    CHECK(uniform_bin_index(0.45, 10) == 5);
    CHECK(uniform_bin_index(1.0, 10) == 10);
    CHECK_THROWS_AS(uniform_bin_index(-0.5, 10), calib::invalid_argument);
    CHECK_THROWS_AS(uniform_bin_index(1.5, 10), calib::invalid_argument);
    CHECK_THROWS_AS(uniform_bin_index(std::nan(""), 10), calib::invalid_argument);
    // Bins are closed on the right: 0.2 ends bin 2, just above it starts bin 3.
    CHECK(uniform_bin_index(0.2, 10) == 2);
    CHECK(uniform_bin_index(std::nextafter(0.2, 1.0), 10) == 3);
    CHECK(uniform_bin_index(1e-300, 10) == 1);

    // Vector [.45, .55] → (5, 6): it shares a cell with [.42, .58] but not with [.5, .5] = (5, 5);
    // cells come out in lexicographic order.
    CHECK(uniform_bin_index(0.45, 10) == 5);
    CHECK(uniform_bin_index(0.55, 10) == 6);
    const Bins bins = calib::detail::uniform_binning(rows({{0.45, 0.55}, {0.5, 0.5}, {0.42, 0.58}}), 10);
    CHECK(bins == Bins{{1}, {0, 2}});
}

// E15 [CalibrationErrors.jl test/binning/uniform.jl, "Simple example"]: the same partitions; the
// reference sorts bins by size or first mean coordinate, we list them in lexicographic cell order.
TEST_CASE("E15: uniform binning partitions of the reference examples") {
    using calib::detail::uniform_binning;
    const Matrix three = five_points.topRows(3);
    CHECK(uniform_binning(three, 2) == from_one_based({{1, 2}, {3}}));
    CHECK(uniform_binning(three, 1) == from_one_based({{1, 2, 3}}));
    // Cells of UniformBinning(3): 1 → (2,1,2), 2 → (2,1,1), 3 → (1,3,1), 4 → (1,1,3), 5 → (3,1,1).
    CHECK(uniform_binning(five_points, 3) == from_one_based({{4}, {3}, {2}, {1}, {5}}));
    CHECK(uniform_binning(five_points, 2) == from_one_based({{1, 2}, {4}, {3}, {5}}));
    CHECK(uniform_binning(five_points, 1) == from_one_based({{1, 2, 3, 4, 5}}));
}

// Cells are counted when there are few of them (15 bins, 2 coordinates: 225 cells), sorted by their
// number in 64 bits when nbins^d allows (10 bins, 10 coordinates) and compared as tuples otherwise
// (100 bins, 10 coordinates: 66 bits); all three must give the bins of a map from the tuple of bin
// indices, in the map's (lexicographic) order.
TEST_CASE("uniform binning equals grouping by the tuple of bin indices, for each way of ordering cells") {
    boost::random::mt19937_64 rng(21);
    boost::random::uniform_01<double> u;
    for (const auto& [nbins, d] : {std::pair{15, 2}, std::pair{10, 10}, std::pair{100, 10}}) {
        CAPTURE(nbins);
        // Few distinct values per coordinate, so that cells are shared.
        Matrix x(400, d);
        for (Eigen::Index i = 0; i < x.rows(); ++i)
            for (Eigen::Index k = 0; k < x.cols(); ++k)
                x(i, k) = k < d - 3 ? 0.05 : std::floor(3 * u(rng)) / 3 + (k == 0 ? 0.1 * u(rng) : 0.0);
        std::map<std::vector<int>, std::vector<std::size_t>> cells;
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            std::vector<int> key;
            for (Eigen::Index k = 0; k < x.cols(); ++k) key.push_back(calib::detail::uniform_bin_index(x(i, k), nbins));
            cells[key].push_back(static_cast<std::size_t>(i));
        }
        Bins expected;
        for (const auto& [key, bin] : cells) expected.push_back(bin);
        CHECK(expected.size() > 1);
        CHECK(expected.size() < 400);
        CHECK(calib::detail::uniform_binning(x, nbins) == expected);
    }
}

// E15 [CalibrationErrors.jl test/binning/medianvariance.jl "Simple example", at the version whose
// first 5-point split is [3, 5] | [1, 2, 4]]. The reference lists bins in creation order; so do we.
// Check by hand (5 points): coordinate variances 0.067, 0.078, 0.123 → split coordinate 3 at the
// 3rd smallest value 0.2: below {3, 5}, above {1, 2, 4}.
TEST_CASE("E15: median-variance binning partitions of the reference examples") {
    using calib::detail::median_variance_binning;
    const Matrix three = five_points.topRows(3);
    CHECK(median_variance_binning(three, 1, INT_MAX) == from_one_based({{1}, {2}, {3}}));
    CHECK(median_variance_binning(three, 2, INT_MAX) == from_one_based({{1, 2, 3}}));
    CHECK(median_variance_binning(five_points, 1, INT_MAX) ==
          from_one_based({{5}, {3}, {2}, {1}, {4}}));
    CHECK(median_variance_binning(five_points, 2, INT_MAX) == from_one_based({{3, 5}, {1, 2, 4}}));
    CHECK(median_variance_binning(five_points, 3, INT_MAX) == from_one_based({{1, 2, 3, 4, 5}}));

    // maxbins binds on the largest variance: {3, 5} (variance 0.18 on coordinate 2) is split before
    // {1, 2, 4} (0.123 on coordinate 3); leftovers become bins in queue order.
    CHECK(median_variance_binning(five_points, 1, 1) == from_one_based({{1, 2, 3, 4, 5}}));
    CHECK(median_variance_binning(five_points, 1, 2) == from_one_based({{3, 5}, {1, 2, 4}}));
    CHECK(median_variance_binning(five_points, 1, 3) == from_one_based({{5}, {3}, {1, 2, 4}}));
    CHECK(median_variance_binning(five_points, 1, 4) == from_one_based({{5}, {3}, {2}, {1, 4}}));
}

// Independent derivation of the split rule on ties (below = {x < v}).
TEST_CASE("median-variance binning with repeated values") {
    using calib::detail::median_variance_binning;
    // v = 3rd smallest = 0 leaves "below" empty: the set is kept whole.
    CHECK(median_variance_binning(rows({{0}, {0}, {1}, {0}, {0}}), 1, INT_MAX) ==
          Bins{{0, 1, 2, 3, 4}});
    // v = 4th smallest = 1: {0, 1} | {2..5}; both have variance 0 and cannot be split, and leave the
    // queue in the order they entered it.
    CHECK(median_variance_binning(rows({{0}, {0}, {1}, {1}, {1}, {1}}), 1, INT_MAX) ==
          Bins{{0, 1}, {2, 3, 4, 5}});
    // Binary data: both coordinates have the same variance; the first (1 − p) is used, whatever
    // the rounding. Split at the 2nd smallest 1 − p = 0.7: {p = .9} | {p = .3, .1}.
    const Vector p = (Vector(3) << 0.3, 0.9, 0.1).finished();
    const CategoricalData binary = CategoricalData::from_binary(p, {0, 1, 0});
    CHECK(median_variance_binning(binary.probabilities(), 1, INT_MAX) == Bins{{1}, {0}, {2}});
}

// Hand computation on the five points, UniformBinning(2) cells {1,2}, {3}, {4}, {5}:
//   {1,2}: mean (.45,.2,.35), freq (.5,.5,0), diff (−.05,−.3,.35): L1 .7, squared .215
//   {3}: (.3,.7,0) vs e3: L1 2, squared 1.58;  {4}: (.1,0,.9) vs e1: L1 1.8, squared 1.62
//   {5}: (.8,.1,.1) vs e2: L1 1.8, squared 1.46
// ECE_TV = .4·.35 + .2·(1 + .9 + .9) = .70; L1 = 1.4; sqeuclidean = .4·.215 + .2·4.66 = 1.018;
// euclidean = .4·√.215 + .2·(√1.58 + √1.62 + √1.46) = 0.9330878324084934.
TEST_CASE("canonical ECE by hand, every distance") {
    const CategoricalData data(five_points, five_labels);
    CHECK(calib::ece(data, uniform(2)) == doctest::Approx(0.70).epsilon(1e-14));
    CHECK(calib::ece(data, uniform(2, EceDistance::l1)) == doctest::Approx(1.4).epsilon(1e-14));
    CHECK(calib::ece(data, uniform(2, EceDistance::sqeuclidean)) ==
          doctest::Approx(1.018).epsilon(1e-14));
    CHECK(calib::ece(data, uniform(2, EceDistance::euclidean)) ==
          doctest::Approx(0.9330878324084934).epsilon(1e-14));
    // One bin: mean (.42,.24,.34), freq (.4,.4,.2): TV = ½(.02 + .16 + .14) = .16.
    CHECK(calib::ece(data, uniform(1)) == doctest::Approx(0.16).epsilon(1e-14));
    CHECK(calib::ece(data, median_variance(3)) == doctest::Approx(0.16).epsilon(1e-14));
    // MVB(2) bins {3,5}, {1,2,4}: {3,5} mean (.55,.4,.05), freq (0,.5,.5): TV .55;
    // {1,2,4} mean (1/3,2/15,8/15), freq (2/3,1/3,0): TV 8/15. ECE = .4·.55 + .6·8/15 = .54.
    CHECK(calib::ece(data, median_variance(2)) == doctest::Approx(0.54).epsilon(1e-14));
}

// Top-label with labels (2,1,1,0,0): confidences .5 (right), .5 (wrong), .7 (right), .9 (wrong),
// .8 (right). With 10 bins: bin 5 holds c̄ = .5, acc = .5 (0); bins 7, 8, 9 give .3, .2, .9.
// ECE_TV = .2·(.3 + .9 + .2) = .28; the 2-vectors differ by (±δ, ∓δ) so L1 = 2·TV = .56,
// euclidean = √2·TV, sqeuclidean = .2·2·(.09 + .81 + .04) = .376.
TEST_CASE("top-label ECE by hand, every distance") {
    const CategoricalData data(five_points, {2, 1, 1, 0, 0});
    const auto top = [](EceDistance d) { return uniform(10, d, EceMode::top_label); };
    CHECK(calib::ece(data, top(EceDistance::tv)) == doctest::Approx(0.28).epsilon(1e-14));
    CHECK(calib::ece(data, top(EceDistance::l1)) == doctest::Approx(0.56).epsilon(1e-14));
    CHECK(calib::ece(data, top(EceDistance::euclidean)) ==
          doctest::Approx(0.39597979746446665).epsilon(1e-14));
    CHECK(calib::ece(data, top(EceDistance::sqeuclidean)) == doctest::Approx(0.376).epsilon(1e-14));

    // Ties go to the first class: [.4, .4, .2] predicts class 0 with confidence .4.
    const Matrix tie = rows({{0.4, 0.4, 0.2}});
    CHECK(calib::ece(CategoricalData(tie, {0}), top(EceDistance::tv)) == doctest::Approx(0.6));
    CHECK(calib::ece(CategoricalData(tie, {1}), top(EceDistance::tv)) == doctest::Approx(0.4));
}

// The same data, aggregated otherwise: MCE = max(0, .3, .2, .9) = .9; RMS = √(.2·(.09 + .04 + .81))
// = √.188. Two bins of the confidences (.5, .5, .7, .8, .9): quantile puts the edge at their median
// .7 (position 2), equal-mass at (.7 + .8)/2 (parts of 3 and 2), so both make {.5, .5, .7}
// (c̄ = 17/30, accuracy 2/3: .1) and {.8, .9} (c̄ .85, accuracy .5: .35): ECE = .6·.1 + .4·.35 = .20,
// MCE .35, RMS = √(.6·.01 + .4·.1225) = √.055.
TEST_CASE("MCE, RMS, equal-mass and quantile top-label ECE by hand") {
    const CategoricalData data(five_points, {2, 1, 1, 0, 0});
    const EceOptions top = uniform(10, EceDistance::tv, EceMode::top_label);
    CHECK(calib::ece(data, with(top, EceAggregate::max)) == doctest::Approx(0.9).epsilon(1e-14));
    CHECK(calib::ece(data, with(top, EceAggregate::rms)) == doctest::Approx(0.433589667773576).epsilon(1e-14));
    for (const auto scheme : {calib::BinningScheme::equal_mass, calib::BinningScheme::quantile}) {
        CAPTURE(static_cast<int>(scheme));
        CHECK(calib::ece(data, counted(scheme, 2)) == doctest::Approx(0.20).epsilon(1e-14));
        CHECK(calib::ece(data, with(counted(scheme, 2), EceAggregate::max)) == doctest::Approx(0.35).epsilon(1e-14));
        CHECK(calib::ece(data, with(counted(scheme, 2), EceAggregate::rms)) ==
              doctest::Approx(0.2345207879911715).epsilon(1e-14));
        // One bin is one uniform bin; as many bins as points put each distinct value alone.
        CHECK(calib::ece(data, counted(scheme, 1)) ==
              doctest::Approx(calib::ece(data, uniform(1, EceDistance::tv, EceMode::top_label))));
        CHECK(calib::ece(data, counted(scheme, 5)) == doctest::Approx(0.28).epsilon(1e-14));
    }
}

// Class-wise on the five points with labels (0, 1, 2, 0, 1), 10 uniform bins, TV (= |p̄ − ȳ| per cell):
//   class 0: p = .4 .5 .3 .1 .8, y = 1 0 0 1 0, each alone: (.6 + .5 + .3 + .9 + .8)/5 = .62
//   class 1: p = .1 .3 .7 0 .1, y = 0 1 0 0 1: bin 1 = {.1, 0, .1} (p̄ 1/15, ȳ 1/3: 4/15), .3 → .7,
//            .7 → .7: .6·4/15 + .2·1.4 = .44
//   class 2: p = .5 .2 0 .9 .1, y = 0 0 1 0 0: bin 1 = {0, .1} (p̄ .05, ȳ .5: .45), .5, .2, .9:
//            .4·.45 + .2·1.6 = .5
// ECE = (.62 + .44 + .5)/3 = .52; MCE = .9; RMS² = (2.15 + (3·16/225 + .98) + (2·.2025 + 1.1))/15
// = 2909/9000.
TEST_CASE("class-wise ECE by hand") {
    const CategoricalData data(five_points, five_labels);
    const EceOptions cw = uniform(10, EceDistance::tv, EceMode::class_wise);
    CHECK(calib::ece(data, cw) == doctest::Approx(0.52).epsilon(1e-14));
    CHECK(calib::ece(data, with(cw, EceAggregate::max)) == doctest::Approx(0.9).epsilon(1e-14));
    CHECK(calib::ece(data, with(cw, EceAggregate::rms)) == doctest::Approx(0.5685263601823773).epsilon(1e-14));
    // The L1 distance of 2-vectors is twice their TV.
    CHECK(calib::ece(data, uniform(10, EceDistance::l1, EceMode::class_wise)) == doctest::Approx(1.04).epsilon(1e-14));
}

namespace {

// The binned errors of the events "label is k" by plain loops: cells keyed by (event, bin), with
// `bin_of` giving each value's bin; returns {mean, max, rms} with cell weights n_cell/(n·events).
struct Reference {
    double mean = 0, max = 0, rms = 0;
};

template <class BinOf>
Reference reference_errors(const std::vector<std::vector<double>>& q, const std::vector<std::vector<int>>& hit,
                           BinOf bin_of) {
    const double n = static_cast<double>(q.front().size()), events = static_cast<double>(q.size());
    Reference r;
    for (std::size_t e = 0; e < q.size(); ++e) {
        std::map<int, std::array<double, 3>> cells;  // bin → (count, Σ q, Σ hit)
        for (std::size_t i = 0; i < q[e].size(); ++i) {
            auto& c = cells[bin_of(e, q[e][i])];
            c[0] += 1;
            c[1] += q[e][i];
            c[2] += hit[e][i];
        }
        for (const auto& [bin, c] : cells) {
            const double d = std::abs(c[1] / c[0] - c[2] / c[0]), w = c[0] / (n * events);
            r.mean += w * d;
            r.rms += w * d * d;
            r.max = std::max(r.max, d);
        }
    }
    r.rms = std::sqrt(r.rms);
    return r;
}

// The B − 1 inner edges of the equal-count parts (the larger parts first), halfway across each gap.
std::vector<double> equal_mass_edges(std::vector<double> values, int nbins) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size(), parts = std::min<std::size_t>(static_cast<std::size_t>(nbins), n);
    std::vector<std::size_t> sizes(parts, n / parts);
    for (std::size_t b = 0; b < n % parts; ++b) ++sizes[b];
    std::vector<double> edges;
    std::size_t end = 0;
    for (std::size_t b = 0; b + 1 < parts; ++b) {
        end += sizes[b];
        edges.push_back(0.5 * (values[end - 1] + values[end]));
    }
    return edges;
}

// The B − 1 inner quantile edges of `values` by the textbook linear rule.
std::vector<double> quantile_edges(std::vector<double> values, int nbins) {
    std::sort(values.begin(), values.end());
    std::vector<double> edges;
    for (int j = 1; j < nbins; ++j) {
        const double position = static_cast<double>(values.size() - 1) * j / nbins;
        const std::size_t i = static_cast<std::size_t>(position);
        const double gamma = position - static_cast<double>(i);
        edges.push_back(gamma == 0 ? values[i] : values[i] + gamma * (values[i + 1] - values[i]));
    }
    return edges;
}

}  // namespace

TEST_CASE("class-wise, equal-mass, max and rms agree with plain loops on random data") {
    boost::random::mt19937_64 rng(58);
    for (Eigen::Index m : {2, 3, 7}) {
        for (std::size_t n : {1, 2, 9, 200}) {
            const Matrix p = calib::synthetic::dirichlet(static_cast<Eigen::Index>(n), m, 0.7, rng);
            std::vector<int> y(n);
            for (std::size_t i = 0; i < n; ++i) y[i] = calib::synthetic::draw_label(p.row(static_cast<Eigen::Index>(i)), rng);
            const CategoricalData data(p, y);
            // Events: each class (class-wise) and the top label.
            std::vector<std::vector<double>> classes(static_cast<std::size_t>(m)), top(1);
            std::vector<std::vector<int>> class_hits(static_cast<std::size_t>(m)), top_hits(1);
            for (std::size_t i = 0; i < n; ++i) {
                Eigen::Index argmax = 0;
                for (Eigen::Index k = 0; k < m; ++k) {
                    classes[static_cast<std::size_t>(k)].push_back(p(static_cast<Eigen::Index>(i), k));
                    class_hits[static_cast<std::size_t>(k)].push_back(y[i] == k);
                    if (p(static_cast<Eigen::Index>(i), k) > p(static_cast<Eigen::Index>(i), argmax)) argmax = k;
                }
                top[0].push_back(p(static_cast<Eigen::Index>(i), argmax));
                top_hits[0].push_back(y[i] == argmax);
            }
            for (int nbins : {1, 4, 15}) {
                CAPTURE(m);
                CAPTURE(n);
                CAPTURE(nbins);
                const auto uniform_bin = [&](std::size_t, double v) {
                    return std::max(1, static_cast<int>(std::ceil(nbins * v)));
                };
                const auto check = [&](const EceOptions& o, const Reference& r) {
                    CHECK(calib::ece(data, o) == doctest::Approx(r.mean).epsilon(1e-12));
                    CHECK(calib::ece(data, with(o, EceAggregate::max)) == doctest::Approx(r.max).epsilon(1e-12));
                    CHECK(calib::ece(data, with(o, EceAggregate::rms)) == doctest::Approx(r.rms).epsilon(1e-12));
                };
                check(uniform(nbins, EceDistance::tv, EceMode::class_wise),
                      reference_errors(classes, class_hits, uniform_bin));
                check(uniform(nbins, EceDistance::tv, EceMode::top_label), reference_errors(top, top_hits, uniform_bin));
                for (const EceMode mode : {EceMode::class_wise, EceMode::top_label})
                    for (const auto scheme : {calib::BinningScheme::equal_mass, calib::BinningScheme::quantile}) {
                        CAPTURE(static_cast<int>(scheme));
                        const auto& q = mode == EceMode::top_label ? top : classes;
                        std::vector<std::vector<double>> edges;
                        for (const auto& values : q)
                            edges.push_back(scheme == calib::BinningScheme::quantile ? quantile_edges(values, nbins)
                                                                                     : equal_mass_edges(values, nbins));
                        const auto edge_bin = [&](std::size_t e, double v) {  // a value on an edge goes below it
                            return static_cast<int>(std::count_if(edges[e].begin(), edges[e].end(),
                                                                  [v](double edge) { return edge < v; }));
                        };
                        check(counted(scheme, nbins, mode),
                              reference_errors(q, mode == EceMode::top_label ? top_hits : class_hits, edge_bin));
                    }
            }
        }
    }
}

// Quantile edges on ties: of (0, 0, 0, 0, 1) with 4 bins the inner edges are 0, 0, 0 (positions 1, 2, 3),
// merged into one; of (.1, …, .5) with 2 bins the median .3 (position 2), which is in the bin below;
// of (0, .2, …, 1) with 2 bins position 2.5, halfway between .4 and .6.
TEST_CASE("quantile bin edges with ties, on a sample point and between points") {
    using calib::PredictionBinning;
    CHECK(calib::bin_upper_edges({0, 0, 0, 0, 1}, PredictionBinning::quantile, 4) == std::vector<double>{0, 1});
    CHECK(calib::bin_upper_edges({0.5, 0.1, 0.3, 0.2, 0.4}, PredictionBinning::quantile, 2) ==
          std::vector<double>{0.3, 1});
    const std::vector<double> six = calib::bin_upper_edges({1, 0.8, 0.6, 0.4, 0.2, 0}, PredictionBinning::quantile, 2);
    REQUIRE(six.size() == 2);
    CHECK(six[0] == doctest::Approx(0.5).epsilon(1e-15));
    CHECK(calib::bin_upper_edges({0.25}, PredictionBinning::quantile, 3) == std::vector<double>{0.25, 1});
    CHECK(calib::to_string(PredictionBinning::quantile) == "quantile");
    // One class never predicted above 0: its only cell is p = 0 with frequency 0 (no error).
    const CategoricalData never(rows({{0.6, 0.4, 0}, {0.3, 0.7, 0}}), {0, 1});
    CHECK(calib::ece(never, counted(calib::BinningScheme::quantile, 3, EceMode::class_wise)) ==
          doctest::Approx((0.4 + 0.3 + 0.3 + 0.4) / 6).epsilon(1e-14));
}

// julia-reference §2.12 item 5: binary data are 2-class vectors, so TV is not halved.
// p = .3, y = 1: TV([.7, .3], [0, 1]) = .7 (the reference's scalar form would give .35).
TEST_CASE("binary predictions are not halved") {
    const CategoricalData data = CategoricalData::from_binary((Vector(1) << 0.3).finished(), {1});
    CHECK(calib::ece(data, uniform(10)) == doctest::Approx(0.7));
    CHECK(calib::ece(data, uniform(10, EceDistance::tv, EceMode::top_label)) == doctest::Approx(0.7));
}

// widmann-2019 App. (digest §10.4): g(X) ~ Dir(a·1), with probability π the label is class 1,
// else Cat(g(X)); ECE_TV = π(m − 1)/m for β = e_1. Binning adds no bias in the limit here: the
// miscalibration r(p) − p = π(e_1 − p) has the same sign pattern (+, −, …, −) everywhere, so while
// the label noise does not flip a sign in a bin, the bin-weighted sum of TVs equals
// ½ Σ_k |(1/n) Σ_i (y_ik − p_ik)| for any binning (uniform and median-variance agree to all digits
// for m ≤ 3), which is π(m − 1)/m up to O(1/√n) noise: each coordinate's mean has sd ≤ 0.5/√n =
// 0.0011 at n = 2·10⁵, so the tolerance 0.006 is several sd. With m = 10, uniform cells (10 per
// coordinate) hold few points and the bias is large and positive (+0.08, the "bias grows with m"
// finding of widmann-2019), while median-variance bins of ≥ 1000 points stay unbiased.
TEST_CASE("ECE_TV of the 2019 generative model, beta = e_1") {
    boost::random::mt19937_64 rng(20190601);
    const double pi = 0.5;
    for (Eigen::Index m : {2, 3, 10}) {
        const Eigen::Index n = 200000;
        const Matrix p = calib::synthetic::dirichlet(n, m, 1.0, rng);
        std::vector<int> y(static_cast<std::size_t>(n));
        for (Eigen::Index i = 0; i < n; ++i)
            y[static_cast<std::size_t>(i)] = boost::random::uniform_01<double>()(rng) < pi
                                                 ? 0
                                                 : calib::synthetic::draw_label(p.row(i), rng);
        const CategoricalData data(p, y);
        const double expected = pi * static_cast<double>(m - 1) / static_cast<double>(m);
        CAPTURE(m);
        const double mvb = calib::ece(data, median_variance(1000));
        CHECK(std::abs(mvb - expected) < 0.006);
        if (m <= 3) {
            CHECK(std::abs(calib::ece(data, uniform(10)) - expected) < 0.006);
        } else {
            CHECK(calib::ece(data, uniform(10)) > expected + 0.05);
        }
    }
}

// julia-reference §3.2 "MVB invariants" (CalibrationErrors.jl test/binning/medianvariance.jl
// "Basic tests"), with our own generator: n = 1000 Dirichlet(1) predictions, uniform labels.
TEST_CASE("median-variance binning invariants") {
    boost::random::mt19937_64 rng(1234);
    const std::size_t n = 1000;
    for (Eigen::Index m : {2, 10, 100}) {
        const Matrix p = calib::synthetic::dirichlet(static_cast<Eigen::Index>(n), m, 1.0, rng);
        std::vector<int> y(n);
        for (int& label : y)
            label = static_cast<int>(boost::random::uniform_01<double>()(rng) * static_cast<double>(m));
        Vector counts = Vector::Zero(m);
        for (int label : y) counts(label) += 1;
        Vector column_sums = Vector::Zero(m);
        for (Eigen::Index k = 0; k < m; ++k) column_sums(k) = total(p.col(k));

        const auto check = [&](int minsize, int maxbins) {
            CAPTURE(m);
            CAPTURE(minsize);
            CAPTURE(maxbins);
            const Bins bins = calib::detail::median_variance_binning(p, minsize, maxbins);
            CHECK(bins.size() <= static_cast<std::size_t>(maxbins));
            std::vector<std::size_t> all;
            Vector weighted_means = Vector::Zero(m), weighted_freqs = Vector::Zero(m);
            calib::detail::BinSummary s(static_cast<Eigen::Index>(m), static_cast<int>(m));
            for (const auto& bin : bins) {
                CHECK(bin.size() >= static_cast<std::size_t>(minsize));
                all.insert(all.end(), bin.begin(), bin.end());
                s.summarize(p, y, bin);
                CHECK(total(s.mean_prediction) == doctest::Approx(1).epsilon(1e-12));
                CHECK(total(s.label_frequency) == doctest::Approx(1).epsilon(1e-12));
                weighted_means += static_cast<double>(s.size) * s.mean_prediction;
                weighted_freqs += static_cast<double>(s.size) * s.label_frequency;
            }
            std::sort(all.begin(), all.end());
            std::vector<std::size_t> expected(n);
            std::iota(expected.begin(), expected.end(), std::size_t{0});
            CHECK(all == expected);  // a partition: counts sum to n, no index twice
            CHECK(max_abs_difference(weighted_means, column_sums) < 1e-10);
            CHECK(max_abs_difference(weighted_freqs, counts) < 1e-10);
        };
        for (int minsize : {1, 10, 100, 500, 1000}) check(minsize, INT_MAX);
        for (int maxbins : {1, 10, 100, 500, 1000}) check(1, maxbins);
        check(10, 20);
        check(7, 64);
    }
}

// julia-reference §3.2 "ECE range": 0 < ECE < 1 on small data sets drawn from calibrated models.
TEST_CASE("ECE lies in (0, 1) on random data") {
    boost::random::mt19937_64 rng(42);
    for (Eigen::Index m : {2, 10}) {
        for (int rep = 0; rep < 200; ++rep) {
            const Matrix p = calib::synthetic::dirichlet(20, m, 1.0, rng);
            std::vector<int> y(20);
            for (Eigen::Index i = 0; i < 20; ++i)
                y[static_cast<std::size_t>(i)] = calib::synthetic::draw_label(p.row(i), rng);
            const CategoricalData data(p, y);
            for (const EceOptions& o : {uniform(10), median_variance(10),
                                        uniform(10, EceDistance::tv, EceMode::top_label)}) {
                const double e = calib::ece(data, o);
                CHECK(e > 0);
                CHECK(e < 1);
            }
        }
    }
}

TEST_CASE("option names round-trip") {
    for (EceMode mode : {EceMode::canonical, EceMode::top_label, EceMode::class_wise})
        CHECK(calib::parse_ece_mode(calib::to_string(mode)) == mode);
    for (EceAggregate a : {EceAggregate::mean, EceAggregate::max, EceAggregate::rms})
        CHECK(calib::parse_ece_aggregate(calib::to_string(a)) == a);
    for (EceDistance d : {EceDistance::tv, EceDistance::l1, EceDistance::euclidean,
                          EceDistance::sqeuclidean})
        CHECK(calib::parse_ece_distance(calib::to_string(d)) == d);
    CHECK(calib::to_string(EceMode::top_label) == "top-label");
    CHECK(calib::to_string(EceMode::class_wise) == "class-wise");
}

TEST_CASE("invalid options throw calib::invalid_argument") {
    const CategoricalData data(five_points, five_labels);
    EceOptions o;
    o.nbins = 0;
    CHECK_THROWS_WITH_AS(calib::ece(data, o), "calib::ece: nbins = 0, must be >= 1",
                         calib::invalid_argument);
    o = {};
    o.nbins = -3;
    CHECK_THROWS_AS(calib::ece(data, o), calib::invalid_argument);
    o = median_variance(0);
    CHECK_THROWS_WITH_AS(calib::ece(data, o), "calib::ece: minsize = 0, must be >= 1",
                         calib::invalid_argument);
    o = median_variance(1, 0);
    CHECK_THROWS_WITH_AS(calib::ece(data, o), "calib::ece: maxbins = 0, must be >= 1",
                         calib::invalid_argument);
    o = median_variance(6);  // n = 5
    CHECK_THROWS_WITH_AS(calib::ece(data, o), doctest::Contains("minsize = 6 exceeds n = 5"),
                         calib::invalid_argument);
    o = {};
    o.mode = static_cast<EceMode>(7);
    CHECK_THROWS_AS(calib::ece(data, o), calib::invalid_argument);
    o = {};
    o.distance = static_cast<EceDistance>(7);
    CHECK_THROWS_AS(calib::ece(data, o), calib::invalid_argument);
    o = {};
    o.binning = static_cast<calib::BinningScheme>(7);
    CHECK_THROWS_AS(calib::ece(data, o), calib::invalid_argument);
    o = {};
    o.aggregate = static_cast<EceAggregate>(7);
    CHECK_THROWS_AS(calib::ece(data, o), calib::invalid_argument);
    o = counted(calib::BinningScheme::quantile, 3, EceMode::canonical);
    CHECK_THROWS_WITH_AS(calib::ece(data, o), doctest::Contains("use mode top-label or class-wise"),
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::parse_ece_aggregate("average"), doctest::Contains("the aggregates are mean, max, rms"),
                         calib::invalid_argument);

    CHECK_THROWS_WITH_AS(calib::parse_ece_mode("toplabel"),
                         doctest::Contains("must be one of: canonical, top-label, class-wise"),
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::parse_ece_distance("TV"),
                         doctest::Contains("must be one of: tv, l1, euclidean, sqeuclidean"),
                         calib::invalid_argument);
    CHECK_THROWS_AS(calib::to_string(static_cast<EceMode>(7)), calib::invalid_argument);
    CHECK_THROWS_AS(calib::to_string(static_cast<EceDistance>(7)), calib::invalid_argument);
}

}  // TEST_SUITE("ece")

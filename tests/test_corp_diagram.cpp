// The CORP reliability diagram (corp.hpp): its curve and decomposition against isotonic_regression and
// corp_decomposition, one replicate of each band against a direct resample (the same stream, drawn here),
// independence from the thread count, the edges (one row, one forecast value, certain forecasts), and the
// consistency band's pointwise coverage under calibration in a binomial band.
#include <calib/corp.hpp>
#include <calib/errors.hpp>
#include <calib/isotonic.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <boost/random/binomial_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include <cmath>
#include <vector>

using namespace calib;

namespace {

CategoricalData binary(const std::vector<double>& x, const std::vector<int>& labels) {
    Matrix p(static_cast<Eigen::Index>(x.size()), 2);
    for (std::size_t i = 0; i < x.size(); ++i) {
        p(static_cast<Eigen::Index>(i), 0) = 1 - x[i];
        p(static_cast<Eigen::Index>(i), 1) = x[i];
    }
    return CategoricalData(p, labels);
}

// Forecasts on a grid of `levels` values (ties) with outcomes from q(x).
CategoricalData grid_data(std::size_t n, int levels, double (*q)(double), std::uint64_t seed) {
    test::Rng rng(seed);
    boost::random::uniform_int_distribution<int> level(1, levels);
    boost::random::uniform_01<double> unit;
    std::vector<double> x(n);
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = level(rng) / (levels + 1.0);
        y[i] = unit(rng) < q(x[i]) ? 1 : 0;
    }
    return binary(x, y);
}

double overconfident(double x) { return 0.5 + 0.6 * (x - 0.5); }
double calibrated(double x) { return x; }

// The refit of one replicate drawn directly: n rows with replacement from stream (seed, stream), an
// outcome from q at each, isotonic_regression of them, evaluated at t as the step function that is
// constant left of its first block.
double direct_refit(const std::vector<double>& x, const std::vector<double>& q, std::uint64_t seed, std::uint64_t stream,
                    double t) {
    Rng rng = make_stream(seed, stream);
    boost::random::uniform_01<double> unit;
    std::vector<double> xs, ys;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::size_t row = uniform_index(rng, x.size());
        xs.push_back(x[row]);
        ys.push_back(unit(rng) < q[row] ? 1 : 0);
    }
    const IsotonicFit fit = isotonic_regression(xs, ys);
    double value = fit.blocks.front().value;
    for (const IsotonicBlock& b : fit.blocks)
        if (b.lower <= t) value = b.value;
    return value;
}

}  // namespace

TEST_CASE("corp_diagram: the curve and decomposition are isotonic_regression's and corp_decomposition's") {
    const CategoricalData data = grid_data(500, 15, overconfident, 7);
    CorpDiagramOptions o;
    o.replicates = 20;
    o.score = CorpScore::log;
    const CorpDiagram d = corp_diagram(data, o);
    std::vector<double> x, y;
    for (Eigen::Index i = 0; i < data.probabilities().rows(); ++i) {
        x.push_back(data.probabilities()(i, 1));
        y.push_back(data.labels()[static_cast<std::size_t>(i)]);
    }
    const IsotonicFit fit = isotonic_regression(x, y);
    REQUIRE(d.curve.size() == fit.blocks.size());
    for (std::size_t b = 0; b < d.curve.size(); ++b) {
        CHECK(d.curve[b].lower == fit.blocks[b].lower);
        CHECK(d.curve[b].value == fit.blocks[b].value);
        CHECK(d.curve[b].count == fit.blocks[b].count);
    }
    // 15 distinct forecasts, all of them band points, each with its count and PAV value.
    REQUIRE(d.x.size() == 15);
    std::size_t total = 0;
    for (std::size_t p = 0; p < d.x.size(); ++p) {
        total += d.count[p];
        for (std::size_t i = 0; i < x.size(); ++i)
            if (x[i] == d.x[p]) CHECK(d.recalibrated[p] == fit.fitted[i]);
        CHECK(d.consistency_lower[p] <= d.consistency_upper[p]);
        CHECK(d.confidence_lower[p] <= d.confidence_upper[p]);
    }
    CHECK(total == 500);
    const CorpDecomposition c = corp_decomposition(data, CorpScore::log);
    CHECK(d.decomposition.mcb == c.mcb);
    CHECK(d.decomposition.dsc == c.dsc);
    CHECK(d.decomposition.unc == c.unc);
    CHECK(to_double(find(d.record(), "mcb")) == c.mcb);
    CHECK(std::get<std::string>(find(d.record(), "score")) == "log");
}

TEST_CASE("corp_diagram: with one replicate each band is a direct resample's refit; threads do not matter") {
    const CategoricalData data = grid_data(120, 30, overconfident, 11);
    std::vector<double> x;
    for (Eigen::Index i = 0; i < data.probabilities().rows(); ++i) x.push_back(data.probabilities()(i, 1));
    CorpDiagramOptions o;
    o.replicates = 1;
    o.seed = 99;
    const CorpDiagram d = corp_diagram(data, o);
    std::vector<double> fitted(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t p = 0; p < d.x.size(); ++p)
            if (d.x[p] == x[i]) fitted[i] = d.recalibrated[p];
    for (std::size_t p = 0; p < d.x.size(); ++p) {
        CAPTURE(p);
        CHECK(d.consistency_lower[p] == direct_refit(x, x, 99, 0, d.x[p]));
        CHECK(d.consistency_upper[p] == d.consistency_lower[p]);
        CHECK(d.confidence_lower[p] == direct_refit(x, fitted, 99, 1, d.x[p]));
    }
    o.replicates = 50;
    o.parallel.num_threads = 1;
    const CorpDiagram one = corp_diagram(data, o);
    o.parallel.num_threads = 2;
    const CorpDiagram two = corp_diagram(data, o);
    CHECK(one.consistency_lower == two.consistency_lower);
    CHECK(one.confidence_upper == two.confidence_upper);
}

TEST_CASE("corp_diagram: band points thinned in rank; the edges; refusals") {
    // 1000 distinct forecasts, 11 band points: ranks 0, 99.9 -> 100, ..., 999, the extremes included.
    std::vector<double> x(1000);
    std::vector<int> y(1000);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = (i + 0.5) / 1000;
        y[i] = i % 3 == 0;
    }
    CorpDiagramOptions o;
    o.band_points = 11;
    o.replicates = 5;
    const CorpDiagram thin = corp_diagram(binary(x, y), o);
    REQUIRE(thin.x.size() == 11);
    CHECK(thin.x.front() == x.front());
    CHECK(thin.x[1] == x[100]);
    CHECK(thin.x.back() == x.back());
    // One row; one forecast value for every row: one block, the bands at its value's binomial refits.
    const CorpDiagram single = corp_diagram(binary({0.3}, {1}), o);
    CHECK(single.curve.size() == 1);
    CHECK(single.recalibrated == std::vector<double>{1.0});
    CHECK(single.consistency_lower.size() == 1);
    const CorpDiagram flat = corp_diagram(binary(std::vector<double>(40, 0.25), std::vector<int>(40, 0)), o);
    CHECK(flat.curve.size() == 1);
    CHECK(flat.recalibrated == std::vector<double>{0.0});
    CHECK(flat.confidence_upper == std::vector<double>{0.0});  // a PAV value of 0: every outcome 0
    // Certain forecasts (0 and 1) are forecasts like any other; the log score of a contradicted one is +inf.
    o.score = CorpScore::log;
    const CorpDiagram certain = corp_diagram(binary({0, 1, 1, 0.5}, {1, 1, 0, 0}), o);
    CHECK(std::isinf(certain.decomposition.mean_score));
    CHECK(std::isfinite(certain.decomposition.recalibrated_score));
    o.replicates = 0;
    const CorpDiagram bare = corp_diagram(binary(x, y), o);
    CHECK(bare.consistency_lower.empty());
    CHECK(bare.x.size() == 11);
    CorpDiagramOptions bad;
    bad.level = 1;
    CHECK_THROWS_WITH_AS(corp_diagram(binary(x, y), bad), doctest::Contains("level = 1, must be in (0, 1)"), invalid_argument);
    bad = {};
    bad.band_points = 1;
    CHECK_THROWS_WITH_AS(corp_diagram(binary(x, y), bad), doctest::Contains("band_points = 1"), invalid_argument);
    bad.band_points = 1'000'000;
    bad.replicates = 1'000;
    CHECK_THROWS_WITH_AS(corp_diagram(binary(x, y), bad), doctest::Contains("more than 2 GiB of refits"), invalid_argument);
    Matrix three(1, 3);
    three << 0.2, 0.3, 0.5;
    CHECK_THROWS_WITH_AS(corp_diagram(CategoricalData(three, {0})), doctest::Contains("reads binary predictions"),
                         invalid_argument);
}

// Under calibration the CORP value at a forecast lies in the consistency band with probability about
// `level`. 400 data sets of n = 600 on 5 forecast values (120 rows each on average), level 0.9, 200
// replicates: at the middle value x = 0.5 the count of covered data sets is Binomial(400, ~0.9), whose
// 99.9 % range is [339, 379]; the band is a resampling approximation, so [330, 390] is asserted.
TEST_CASE("corp_diagram: the consistency band covers a calibrated model's curve pointwise at about its level") {
    std::size_t covered = 0;
    CorpDiagramOptions o;
    o.replicates = 200;
    for (std::uint64_t s = 0; s < 400; ++s) {
        o.seed = 1000 + s;
        const CorpDiagram d = corp_diagram(grid_data(600, 5, calibrated, 5000 + s), o);
        for (std::size_t p = 0; p < d.x.size(); ++p)
            if (std::abs(d.x[p] - 0.5) < 1e-12)
                covered += d.recalibrated[p] >= d.consistency_lower[p] && d.recalibrated[p] <= d.consistency_upper[p];
    }
    CHECK(covered >= 330);
    CHECK(covered <= 390);
    // An overconfident model (the outcome's probability 0.5 + 0.6 (x − 0.5)) leaves the band at the
    // extreme forecasts 1/6 and 5/6 (there the curve is near 0.30 and 0.70).
    const CorpDiagram over = corp_diagram(grid_data(3000, 5, overconfident, 17), o);
    CHECK(over.recalibrated.front() > over.consistency_upper.front());
    CHECK(over.recalibrated.back() < over.consistency_lower.back());
}

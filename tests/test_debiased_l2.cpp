// Kumar, Liang & Ma's binned L2 calibration error: a case by hand, the authors' package
// (verified_calibration) on the same data, its modes and bootstrap (docs/math.md §10).
#include <calib/debiased_l2.hpp>

#include "support.hpp"

#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace calib;

namespace {

CategoricalData binary(const std::vector<double>& p, const std::vector<int>& y) {
    return CategoricalData::from_binary(Eigen::Map<const Vector>(p.data(), Eigen::Index(p.size())), y);
}

// Data set C of the comparison with the authors' package (docs/math.md §10: NumPy's default_rng(20261128),
// after data sets A and B; p ~ U(0, 1), y ~ Bernoulli(p²), n = 50).
const std::vector<double> c_p = {
    0.37698408937583283, 0.35541493468489305, 0.022584808933371447, 0.5206631895703078, 0.08795589072957277,
    0.9525460580165132,  0.9543092620072658,  0.5235341104429511,   0.24488899941565612, 0.41426754753252304,
    0.7154425973531117,  0.6245920293415808,  0.5653211071687354,   0.8720145180281916,  0.5012731688010056,
    0.37599722770604027, 0.7688269850904816,  0.14416776852580393,  0.13438570987259257, 0.8406084464709266,
    0.34889773486755504, 0.6163607044087585,  0.72047959287726,     0.9733887572919897,  0.8840491756512113,
    0.6959474418886777,  0.29866933462817735, 0.7734476914454781,   0.883924784289567,   0.8937038689370028,
    0.6625635785311924,  0.1108284434140886,  0.40543162495586504,  0.8533364584969049,  0.9495975496149103,
    0.21010467029665214, 0.35728120316036693, 0.17056654326680631,  0.42025301772058166, 0.9618449654863256,
    0.9616548180845921,  0.6315747038486462,  0.7596332229823278,   0.5169695722605404,  0.32404583452768854,
    0.07309231811621153, 0.7389654300126557,  0.45428000649297895,  0.5874433421329112,  0.43914344413540984};
const std::vector<int> c_y = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 1,
                              1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0};

}  // namespace

TEST_CASE("debiased_l2: two bins by hand") {
    // Equal-mass bins {0.1, 0.2} | {0.8, 0.9} (edge 0.5). Bin 1: p̄ = 0.15, ȳ = 0.5: (0.35)² = 0.1225,
    // correction 0.5·0.5/1 = 0.25. Bin 2: p̄ = 0.85, ȳ = 1: 0.0225, correction 0. Weights 1/2 each.
    const CategoricalData d = binary({0.1, 0.2, 0.8, 0.9}, {0, 1, 1, 1});
    DebiasedL2Options o;
    o.bins = 2;
    const DebiasedL2 debiased = debiased_l2(d, o);
    CHECK(debiased.square == doctest::Approx(0.5 * (0.1225 - 0.25) + 0.5 * 0.0225).epsilon(1e-14));
    CHECK(debiased.error == 0);  // √max(square, 0)
    CHECK(debiased.bins == 2);
    CHECK(debiased.small_bins == 0);
    o.debias = false;
    const DebiasedL2 plugin = debiased_l2(d, o);
    CHECK(plugin.square == doctest::Approx(0.5 * 0.1225 + 0.5 * 0.0225).epsilon(1e-14));
    CHECK(plugin.error == doctest::Approx(std::sqrt(0.0725)).epsilon(1e-14));
    // uniform:2 has the same bins here; uniform:4 puts each pair in its own bin: [0, .25] and (.75, 1].
    o.binning = PredictionBinning::uniform;
    CHECK(debiased_l2(d, o).square == doctest::Approx(plugin.square).epsilon(1e-14));
    // A prediction on an edge joins the bin below: 0.5 with edges 0.5, 1 is in the first bin.
    o.bins = 2;
    const DebiasedL2 edge = debiased_l2(binary({0.5, 0.5, 0.6}, {1, 0, 1}), o);
    CHECK(edge.square == doctest::Approx((2.0 / 3) * 0.0 + (1.0 / 3) * 0.16).epsilon(1e-14));
    // One observation per bin: debiased, such bins add 0 and are counted.
    o.debias = true;
    o.binning = PredictionBinning::distinct;
    const DebiasedL2 singles = debiased_l2(binary({0.1, 0.3, 0.3}, {1, 0, 1}), o);
    CHECK(singles.bins == 2);
    CHECK(singles.small_bins == 1);
    CHECK(singles.square == doctest::Approx((2.0 / 3) * (0.2 * 0.2 - 0.25)).epsilon(1e-14));
}

TEST_CASE("debiased_l2: the authors' package on the same data") {
    // verified_calibration (p-lambda, commit ee81c34), calibration/utils.py, run on data set C:
    // lower_bound_scaling_ce(p, y, p=2, debias=True|False, num_bins=15|5) and unbiased_square_ce of
    // its bins; on E (ties) get_binning_ce(p, y, p=2, debias=True|False), one bin per distinct value.
    const CategoricalData c = binary(c_p, c_y);
    DebiasedL2Options o;
    const DebiasedL2 fifteen = debiased_l2(c, o);
    CHECK(fifteen.square == doctest::Approx(-0.021723054772197894).epsilon(1e-13));
    CHECK(fifteen.error == 0);
    o.debias = false;
    CHECK(debiased_l2(c, o).error == doctest::Approx(0.2080311160086445).epsilon(1e-13));

    // Data set E: predictions from {0.05, 0.2, 0.35, 0.5, 0.7, 0.9} with these outcome counts (n = 200).
    std::vector<double> p;
    std::vector<int> y;
    const double value[] = {0.05, 0.2, 0.35, 0.5, 0.7, 0.9};
    const int ones[] = {0, 5, 10, 14, 19, 28}, zeros[] = {21, 44, 26, 14, 14, 5};
    for (int k = 0; k < 6; ++k) {
        p.insert(p.end(), std::size_t(ones[k] + zeros[k]), value[k]);
        y.insert(y.end(), std::size_t(ones[k]), 1);
        y.insert(y.end(), std::size_t(zeros[k]), 0);
    }
    o.binning = PredictionBinning::distinct;
    const DebiasedL2 plugin = debiased_l2(binary(p, y), o);
    CHECK(plugin.error == doctest::Approx(0.08085331027175469).epsilon(1e-13));
    CHECK(plugin.bins == 6);
    o.debias = true;
    const DebiasedL2 debiased = debiased_l2(binary(p, y), o);
    CHECK(debiased.error == doctest::Approx(0.04265184514390776).epsilon(1e-13));
    CHECK(debiased.square == doctest::Approx(0.0018191798941798879).epsilon(1e-13));
}

TEST_CASE("debiased_l2: class predictions, marginal and top-label; the bootstrap; argument checks") {
    test::Rng rng(5);
    boost::random::uniform_01<double> u;
    const std::size_t n = 300;
    Matrix probabilities(Eigen::Index(n), 3);
    std::vector<int> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double a = u(rng), b = u(rng) * (1 - a);
        probabilities.row(Eigen::Index(i)) << a, b, 1 - a - b;
        const double v = u(rng);
        labels[i] = v < a ? 0 : v < a + b ? 1 : 2;
    }
    const CategoricalData d(probabilities, labels);
    DebiasedL2Options o;
    const DebiasedL2 marginal = debiased_l2(d, o);
    REQUIRE(marginal.class_squares.size() == 3);
    double sum = 0, clamped = 0;
    for (int k = 0; k < 3; ++k) {
        const double square = debiased_l2(d.class_event(k), o).square;  // the class against the rest
        CHECK(marginal.class_squares[std::size_t(k)] == doctest::Approx(square).epsilon(1e-14));
        sum += square, clamped += std::max(square, 0.0);
    }
    CHECK(marginal.square == doctest::Approx(sum / 3).epsilon(1e-14));
    CHECK(marginal.error == doctest::Approx(std::sqrt(clamped / 3)).epsilon(1e-14));
    o.mode = L2Mode::top_label;
    const DebiasedL2 top = debiased_l2(d, o);
    CHECK(top.class_squares.empty());
    CHECK(top.square == debiased_l2(d.top_label_event(), o).square);

    o.resampling.replicates = 40;
    o.resampling.seed = 3;
    o.parallel.num_threads = 1;
    const DebiasedL2 one = debiased_l2(d, o);
    o.parallel.num_threads = 2;
    const DebiasedL2 two = debiased_l2(d, o);
    REQUIRE(one.intervals.size() == 2);
    CHECK(one.intervals[0].replicates == two.intervals[0].replicates);
    CHECK(one.intervals[1].replicates == two.intervals[1].replicates);
    CHECK(one.intervals[0].estimate == top.error);
    CHECK(one.intervals[1].estimate == top.square);
    CHECK(one.intervals[1].lower <= one.intervals[1].upper);

    CHECK_THROWS_AS(debiased_l2(binary({0.5}, {1})), invalid_argument);  // n = 1
    o.bins = 0;
    CHECK_THROWS_AS(debiased_l2(d, o), invalid_argument);
    o.bins = 15;
    o.resampling.level = 1;
    CHECK_THROWS_AS(debiased_l2(d, o), invalid_argument);
}

TEST_CASE("basic_interval: the replicates' spread around the bootstrap world's value, on the estimate") {
    BootstrapInterval percentile;
    percentile.estimate = 1, percentile.lower = 0.5, percentile.upper = 3;
    const BootstrapInterval basic = basic_interval(percentile, 2, -10);
    CHECK(basic.lower == 0);    // 1 − (3 − 2)
    CHECK(basic.upper == 2.5);  // 1 − (0.5 − 2)
    CHECK(basic.estimate == 1);
    CHECK(basic_interval(percentile, 1.5, 0).lower == 0);  // 1 − 1.5 = −0.5, clamped
    CHECK(basic_interval(percentile, 1, -10).lower == -1);  // world = estimate: the basic bootstrap 2·1 − 3
}

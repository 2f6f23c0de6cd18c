// The tests of binary predictions (Spiegelhalter's z, calibration-in-the-large, Hosmer–Lemeshow):
// small cases derived by hand, their grouping rules, degenerate inputs, and their level and power by
// simulation (docs/math.md "Binary tests").
#include <calib/hypothesis.hpp>
#include <calib/tool/synthetic.hpp>

#include "support.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>

using namespace calib;
using doctest::Approx;

namespace {

CategoricalData binary(std::vector<double> p, std::vector<int> y) {
    return CategoricalData::from_binary(Eigen::Map<const Vector>(p.data(), Eigen::Index(p.size())), y);
}

// Two-sided normal p-value, written with erfc (not the library's Boost call).
double two_sided(double z) { return std::erfc(std::abs(z) / std::sqrt(2.0)); }

HosmerLemeshowOptions hl(std::size_t groups, HosmerLemeshowGrouping grouping,
                         HosmerLemeshowDf df = HosmerLemeshowDf::validation) {
    HosmerLemeshowOptions o;
    o.groups = groups;
    o.grouping = grouping;
    o.df = df;
    return o;
}

// Calibrated binary data: p ~ Beta(alpha, alpha) (a two-class Dirichlet), y ~ Bernoulli(p); with
// `sharpen` ≠ 1 the predictions become sigmoid(sharpen · logit p) (over-confident for sharpen > 1)
// and the outcomes stay drawn from p.
CategoricalData simulated(std::size_t n, double alpha, double sharpen, test::Rng& rng) {
    const CategoricalData truth = synthetic::dirichlet_data(n, 2, alpha, rng);
    Vector p = truth.probabilities().col(1);
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        const double logit = std::log(p[i]) - std::log1p(-p[i]);
        p[i] = 1 / (1 + std::exp(-sharpen * logit));
    }
    return CategoricalData::from_binary(p, truth.labels());
}

// The log-likelihood of logit P(Y = 1) = a + b·logit p, written independently of the library (log σ and
// log(1 − σ) in long double).
double cox_log_likelihood(const Vector& p, const std::vector<int>& y, double a, double b) {
    long double sum = 0;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        const double eta = a + b * std::log(p[i] / (1 - p[i]));
        const long double s = 1 / (1 + std::exp(-(long double)eta));
        sum += y[std::size_t(i)] ? std::log(s) : std::log1p(-s);
    }
    return double(sum);
}

// The maximum of a concave f on [lo, hi] by golden-section search.
template <class F>
double golden_maximum(const F& f, double lo, double hi) {
    const double r = (std::sqrt(5.0) - 1) / 2;
    double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo), f1 = f(x1), f2 = f(x2);
    while (hi - lo > 1e-9) {
        if (f1 < f2) {
            lo = x1, x1 = x2, f1 = f2, x2 = lo + r * (hi - lo), f2 = f(x2);
        } else {
            hi = x2, x2 = x1, f2 = f1, x1 = hi - r * (hi - lo), f1 = f(x1);
        }
    }
    return std::max(f1, f2);
}

}  // namespace

TEST_CASE("spiegelhalter_test: a case by hand") {
    // p = (0.2, 0.7, 0.9), y = (0, 1, 0): residuals (-0.2, 0.3, -0.9), 1 - 2p = (0.6, -0.4, -0.8);
    // numerator -0.12 - 0.12 + 0.72 = 0.48; variance 0.36·0.16 + 0.16·0.21 + 0.64·0.09 = 0.1488;
    // Brier 2(0.04 + 0.09 + 0.81)/3 (of the two-class vectors: twice the squared residuals), its expectation
    // 2(0.16 + 0.21 + 0.09)/3.
    const TestResult r = spiegelhalter_test(binary({0.2, 0.7, 0.9}, {0, 1, 0}));
    const double z = 0.48 / std::sqrt(0.1488);
    const auto& d = r.details_as<BinaryZDetails>();
    CHECK(r.method == "spiegelhalter");
    CHECK(r.estimator == "brier");
    CHECK(r.estimate == Approx(2 * 0.94 / 3).epsilon(1e-14));
    CHECK(d.expected == Approx(2 * 0.46 / 3).epsilon(1e-14));
    CHECK(d.std_error == Approx(2 * std::sqrt(0.1488) / 3).epsilon(1e-14));
    CHECK(d.z == Approx(z).epsilon(1e-14));
    CHECK(r.statistic == Approx(z).epsilon(1e-14));
    CHECK(r.p_value == Approx(two_sided(z)).epsilon(1e-12));
    CHECK(!d.degenerate);
    // The identity behind the test: Brier - its expectation = 2 numerator / n. So the unweighted
    // sum-of-squares test of Copas (S - its mean over its standard deviation) is this z.
    CHECK(r.estimate - d.expected == Approx(2 * 0.48 / 3).epsilon(1e-13));
    // A Brier score below its expectation gives z < 0 and the same p-value for the mirrored z.
    const TestResult low = spiegelhalter_test(binary({0.2, 0.7, 0.9}, {0, 1, 1}));
    CHECK(low.details_as<BinaryZDetails>().z < 0);
    CHECK(low.statistic == -low.details_as<BinaryZDetails>().z);
}

TEST_CASE("calibration_in_the_large_test: a case by hand") {
    // p = (0.2, 0.7, 0.9), y = (0, 1, 0): observed 1, expected 1.8, variance 0.16 + 0.21 + 0.09 = 0.46.
    const TestResult r = calibration_in_the_large_test(binary({0.2, 0.7, 0.9}, {0, 1, 0}));
    const double z = -0.8 / std::sqrt(0.46);
    const auto& d = r.details_as<BinaryZDetails>();
    CHECK(r.method == "citl");
    CHECK(r.estimator == "mean-difference");
    CHECK(r.estimate == Approx(-0.8 / 3).epsilon(1e-14));
    CHECK(d.expected == Approx(0.6).epsilon(1e-14));
    CHECK(d.std_error == Approx(std::sqrt(0.46) / 3).epsilon(1e-14));
    CHECK(d.z == Approx(z).epsilon(1e-14));
    CHECK(r.statistic == Approx(-z).epsilon(1e-14));
    CHECK(r.p_value == Approx(two_sided(z)).epsilon(1e-12));
}

TEST_CASE("binary z-tests: certain outcomes are degenerate, with p = 1 or 0") {
    // Predictions of 1/2 give Spiegelhalter's z no information: every term is 0.
    const TestResult half = spiegelhalter_test(binary({0.5, 0.5, 0.5}, {1, 1, 0}));
    CHECK(half.details_as<BinaryZDetails>().degenerate);
    CHECK(half.p_value == 1);
    CHECK(half.statistic == 0);
    // Predictions of 0 and 1 that came true, and one that did not.
    const TestResult right = spiegelhalter_test(binary({0, 1}, {0, 1}));
    CHECK(right.p_value == 1);
    const TestResult wrong = spiegelhalter_test(binary({0, 1}, {1, 1}));
    CHECK(wrong.details_as<BinaryZDetails>().degenerate);
    CHECK(wrong.p_value == 0);
    CHECK(std::isinf(wrong.statistic));
    CHECK(wrong.record().size() == spiegelhalter_test(binary({0.2, 0.3}, {0, 1})).record().size() - 1);  // no z
    const TestResult citl = calibration_in_the_large_test(binary({0, 1}, {1, 1}));
    CHECK(citl.p_value == 0);
    CHECK(citl.estimate == Approx(0.5));
    CHECK(calibration_in_the_large_test(binary({0, 1}, {0, 1})).p_value == 1);
}

TEST_CASE("hosmer_lemeshow_test: a case by hand with fixed cut points") {
    // g = 2 cut at 0.5: group 1 holds p = 0.1, 0.3 (O = 1, E = 0.4, E(1 - E/2) = 0.32), group 2 holds
    // p = 0.6, 0.8 (O = 2, E = 1.4, variance 1.4·0.3 = 0.42). C = 0.36/0.32 + 0.36/0.42; χ²₂'s upper
    // tail is exp(-C/2); the grouped squared error is ½(0.6/2)² + ½(0.6/2)² = 0.09.
    const CategoricalData data = binary({0.1, 0.3, 0.6, 0.8}, {0, 1, 1, 1});
    const TestResult r = hosmer_lemeshow_test(data, hl(2, HosmerLemeshowGrouping::fixed));
    const double c = 0.36 / 0.32 + 0.36 / 0.42;
    const auto& d = r.details_as<HosmerLemeshowDetails>();
    CHECK(r.method == "hosmer-lemeshow");
    CHECK(r.null_approximation == "chi2");
    CHECK(r.statistic == Approx(c).epsilon(1e-14));
    CHECK(r.p_value == Approx(std::exp(-c / 2)).epsilon(1e-12));
    CHECK(r.estimate == Approx(0.09).epsilon(1e-14));
    CHECK(d.groups == 2);
    CHECK(d.df == 2);
    CHECK(d.smallest_expected == Approx(0.4));  // group 1's events
    // The same groups by rank (two of four each).
    const TestResult ranked = hosmer_lemeshow_test(data, hl(2, HosmerLemeshowGrouping::quantiles));
    CHECK(ranked.statistic == Approx(c).epsilon(1e-14));
    // The development rule needs 3 groups, asked for and holding predictions.
    CHECK_THROWS_WITH_AS(
        hosmer_lemeshow_test(data, hl(2, HosmerLemeshowGrouping::fixed, HosmerLemeshowDf::development)),
        doctest::Contains("groups = 2 leaves no degrees of freedom"), invalid_argument);
    const CategoricalData tied = binary({0.2, 0.2, 0.2, 0.7, 0.7, 0.7}, {0, 1, 0, 1, 1, 0});
    CHECK_THROWS_WITH_AS(
        hosmer_lemeshow_test(tied, hl(3, HosmerLemeshowGrouping::quantiles, HosmerLemeshowDf::development)),
        doctest::Contains("only 2 of the 3 groups hold predictions"), invalid_argument);
    CHECK(hosmer_lemeshow_test(tied, hl(3, HosmerLemeshowGrouping::quantiles)).details_as<HosmerLemeshowDetails>().df ==
          2);
}

TEST_CASE("hosmer_lemeshow_test: the groups: fixed cut points k/g exactly, ranks with ties together") {
    const auto groups = [](std::vector<double> p, std::size_t g, HosmerLemeshowGrouping grouping) {
        std::vector<int> y(p.size(), 0);
        y[0] = 1;
        return hosmer_lemeshow_test(binary(p, y), hl(g, grouping)).details_as<HosmerLemeshowDetails>().groups;
    };
    // 0.3 is in (0.2, 0.3], 0.31 in (0.3, 0.4]; 0 is in the first group and 1 in the last.
    CHECK(groups({0.3, 0.31}, 10, HosmerLemeshowGrouping::fixed) == 2);
    CHECK(groups({0.3, 0.29}, 10, HosmerLemeshowGrouping::fixed) == 1);
    CHECK(groups({0.0, 0.1}, 10, HosmerLemeshowGrouping::fixed) == 1);
    CHECK(groups({0.9, 1.0, 0.95}, 10, HosmerLemeshowGrouping::fixed) == 2);
    // Ranks: n = 6, g = 3; the three tied 0.2 have r = 3 and go to group ⌈3·3/6⌉ = 2 with 0.5 (r = 4),
    // the two 0.7 to group 3; group 1 stays empty.
    CHECK(groups({0.2, 0.7, 0.2, 0.5, 0.7, 0.2}, 3, HosmerLemeshowGrouping::quantiles) == 2);
    // Without ties, n = 100 in 10 groups of 10: C is the sum of 10 terms whatever the order of the data.
    test::Rng rng(11);
    const CategoricalData data = synthetic::dirichlet_data(100, 2, 1.0, rng);
    const TestResult r = hosmer_lemeshow_test(data, hl(10, HosmerLemeshowGrouping::quantiles));
    CHECK(r.details_as<HosmerLemeshowDetails>().groups == 10);
    Matrix reversed = data.probabilities().colwise().reverse();
    std::vector<int> labels(data.labels().rbegin(), data.labels().rend());
    const TestResult back =
        hosmer_lemeshow_test(CategoricalData(reversed, labels), hl(10, HosmerLemeshowGrouping::quantiles));
    CHECK(back.statistic == Approx(r.statistic).epsilon(1e-13));
}

TEST_CASE("hosmer_lemeshow_test: the quantile breaks, as R's quantile type 7; tied breaks leave groups empty") {
    // p = 0.1 … 0.5, g = 2: breaks 0.1, 0.3 (index 2 of 0 … 4), 0.5; groups [0.1, 0.3] and (0.3, 0.5].
    const auto hl_breaks = [](std::size_t g) { return hl(g, HosmerLemeshowGrouping::quantile_breaks); };
    const CategoricalData five = binary({0.5, 0.1, 0.4, 0.2, 0.3}, {1, 0, 0, 0, 1});
    const TestResult r = hosmer_lemeshow_test(five, hl_breaks(2));
    // Group 1: p 0.1, 0.2, 0.3 (E = 0.6, O = 1); group 2: p 0.4, 0.5 (E = 0.9, O = 1).
    const double c = 0.4 * 0.4 / (0.6 * (1 - 0.6 / 3)) + 0.1 * 0.1 / (0.9 * (1 - 0.9 / 2));
    CHECK(r.statistic == doctest::Approx(c).epsilon(1e-12));
    CHECK(r.details_as<HosmerLemeshowDetails>().groups == 2);
    CHECK(to_string(HosmerLemeshowGrouping::quantile_breaks) == "quantile-breaks");
    // Four tied predictions: breaks 0.2, 0.2, 0.2, 0.2, 0.6; the ties fill the first group, 0.6 the last.
    const CategoricalData tied = binary({0.2, 0.2, 0.6, 0.2, 0.2}, {0, 1, 1, 0, 0});
    CHECK(hosmer_lemeshow_test(tied, hl_breaks(4)).details_as<HosmerLemeshowDetails>().groups == 2);
}

TEST_CASE("hosmer_lemeshow_test: predictions of 0 or 1 that come true add nothing; one that fails gives p = 0") {
    const HosmerLemeshowOptions o = hl(2, HosmerLemeshowGrouping::fixed);
    CHECK(hosmer_lemeshow_test(binary({0, 0, 1, 1}, {0, 0, 1, 1}), o).statistic == 0);
    const TestResult wrong = hosmer_lemeshow_test(binary({0, 0, 1, 1}, {0, 1, 1, 1}), o);
    CHECK(std::isinf(wrong.statistic));
    CHECK(wrong.p_value == 0);
    CHECK(wrong.estimate == Approx(0.5 * 0.25));
}

TEST_CASE("binary tests: argument checks") {
    test::Rng rng(3);
    const CategoricalData three = synthetic::dirichlet_data(30, 3, 1.0, rng);
    CHECK_THROWS_WITH_AS(spiegelhalter_test(three), doctest::Contains("the data have 3 classes"), invalid_argument);
    CHECK_THROWS_AS(calibration_in_the_large_test(three), invalid_argument);
    CHECK_THROWS_AS(hosmer_lemeshow_test(three), invalid_argument);
    const CategoricalData small = binary({0.2, 0.4, 0.6}, {0, 1, 1});
    CHECK_THROWS_WITH_AS(hosmer_lemeshow_test(small, hl(4, HosmerLemeshowGrouping::quantiles)),
                         doctest::Contains("groups = 4 with n = 3"), invalid_argument);
    // Fixed cut points: empty groups are dropped.
    const TestResult fixed = hosmer_lemeshow_test(small, hl(4, HosmerLemeshowGrouping::fixed));
    CHECK(fixed.details_as<HosmerLemeshowDetails>().groups == 3);
    CHECK_THROWS_AS(validate(hl(1, HosmerLemeshowGrouping::quantiles), 10), invalid_argument);
    CHECK_NOTHROW(validate(hl(3, HosmerLemeshowGrouping::quantiles), 3));
    // n = 1 is a valid (weak) z-test.
    CHECK(spiegelhalter_test(binary({0.3}, {1})).p_value > 0);
}

TEST_CASE("ks_test and kuiper_test: cases by hand; tied predictions enter together") {
    // p = (0.2, 0.5, 0.8), y = (1, 0, 0): S = 0.8, 0.3, −0.5; max |S| = 0.8 (at p = 0.2), range
    // 0.8 − (−0.5) = 1.3; Σ p(1 − p) = 0.16 + 0.25 + 0.16 = 0.57.
    const CategoricalData d = binary({0.8, 0.2, 0.5}, {0, 1, 0});
    const TestResult ks = ks_test(d), kuiper = kuiper_test(d);
    CHECK(ks.method == "ks");
    CHECK(kuiper.method == "kuiper");
    CHECK(ks.estimate == Approx(0.8 / 3).epsilon(1e-14));
    CHECK(ks.statistic == Approx(0.8 / std::sqrt(0.57)).epsilon(1e-14));
    CHECK(kuiper.estimate == Approx(1.3 / 3).epsilon(1e-14));
    CHECK(kuiper.statistic == Approx(1.3 / std::sqrt(0.57)).epsilon(1e-14));
    CHECK(ks.details_as<CumulativeDetails>().largest_at == 0.2);
    CHECK(ks.details_as<CumulativeDetails>().std_error == Approx(std::sqrt(0.57) / 3).epsilon(1e-14));
    CHECK(ks.p_value == Approx(brownian_max_abs_tail(ks.statistic)).epsilon(1e-15));
    CHECK(kuiper.p_value == Approx(brownian_range_tail(kuiper.statistic)).epsilon(1e-15));
    // The range includes S_0 = 0: an all-positive path's range is its maximum.
    const CategoricalData up = binary({0.2, 0.5, 0.8}, {1, 1, 1});
    CHECK(kuiper_test(up).estimate == Approx(ks_test(up).estimate).epsilon(1e-14));
    // Ties: the tied rows in either order give the same path.
    CHECK(ks_test(binary({0.5, 0.5, 0.2}, {1, 0, 0})).statistic ==
          ks_test(binary({0.5, 0.5, 0.2}, {0, 1, 0})).statistic);
    // Certain predictions: p = 1 when the outcomes agree, else 0.
    CHECK(ks_test(binary({0.0, 1.0}, {0, 1})).p_value == 1);
    CHECK(kuiper_test(binary({0.0, 1.0}, {1, 1})).p_value == 0);
}

TEST_CASE("Brownian tails: each series against the other representation, the range's against its density") {
    // max |B| on [0, 1]: 4 Σ (−1)^k Q((2k+1)x) and 1 − (4/π) Σ (−1)^k/(2k+1) exp(−(2k+1)²π²/(8x²)) are
    // the same function [Feller 1951]; the library takes the second below x = 0.7.
    const double pi = 3.14159265358979323846;
    const auto q = [](double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); };
    for (double x : {0.3, 0.5, 0.69, 0.71, 1.0, 1.5, 2.0, 3.0}) {
        double series = 0, theta = 0;
        for (int k = 0; k < 400; ++k) series += (k % 2 ? -4.0 : 4.0) * q((2 * k + 1) * x);
        for (int k = 0; k < 400; ++k)
            theta += (k % 2 ? -1.0 : 1.0) / (2 * k + 1) *
                     std::exp(-(2.0 * k + 1) * (2.0 * k + 1) * pi * pi / (8 * x * x));
        CAPTURE(x);
        CHECK(brownian_max_abs_tail(x) == Approx(series).epsilon(1e-12));
        CHECK(brownian_max_abs_tail(x) == Approx(1 - 4 / pi * theta).epsilon(1e-12));
    }
    // The range's density 8 Σ (−1)^(k−1) k² φ(kr) integrated from x to 14 by Simpson's rule.
    const auto density = [](double r) {
        double f = 0;
        for (int k = 1; k < 200; ++k) f += (k % 2 ? 8.0 : -8.0) * k * k * std::exp(-0.5 * k * k * r * r);
        return f / std::sqrt(2 * 3.14159265358979323846);
    };
    for (double x : {0.8, 1.0, 2.0, 3.0}) {
        const int steps = 20000;
        const double h = (14 - x) / steps;
        double integral = density(x) + density(14);
        for (int i = 1; i < steps; ++i) integral += (i % 2 ? 4 : 2) * density(x + i * h);
        CAPTURE(x);
        CHECK(brownian_range_tail(x) == Approx(integral * h / 3).epsilon(1e-9));
    }
    CHECK(brownian_range_tail(0.05) == 1);
    CHECK(brownian_max_abs_tail(0) == 1);
}

TEST_CASE("binary tests: level within the 99% binomial band under calibration, power against over-confidence") {
    // 2000 calibrated data sets each: the rejections at α = 0.05 must lie in the 99 % binomial band of
    // Binomial(2000, 0.05); over-confident predictions (logit × 2) are rejected in most data sets.
    const std::size_t trials = 2000;
    const boost::math::binomial_distribution<> null_count(double(trials), 0.05);
    const double lo = boost::math::quantile(null_count, 0.005), hi = boost::math::quantile(null_count, 0.995);
    const HosmerLemeshowOptions deciles = hl(10, HosmerLemeshowGrouping::quantiles);
    const HosmerLemeshowOptions fixed = hl(10, HosmerLemeshowGrouping::fixed);
    const HosmerLemeshowOptions breaks = hl(10, HosmerLemeshowGrouping::quantile_breaks);
    const std::size_t n = 500;
    test::Rng rng(29);
    std::array<double, 7> rejected{}, power{};
    const auto count = [&](std::array<double, 7>& into, const CategoricalData& d) {
        into[0] += spiegelhalter_test(d).p_value < 0.05;
        into[1] += calibration_in_the_large_test(d).p_value < 0.05;
        into[2] += hosmer_lemeshow_test(d, deciles).p_value < 0.05;
        into[3] += hosmer_lemeshow_test(d, fixed).p_value < 0.05;
        into[4] += hosmer_lemeshow_test(d, breaks).p_value < 0.05;
        into[5] += ks_test(d).p_value < 0.05;
        into[6] += kuiper_test(d).p_value < 0.05;
    };
    for (std::size_t t = 0; t < trials; ++t) count(rejected, simulated(n, 1.0, 1.0, rng));
    for (std::size_t t = 0; t < 200; ++t) count(power, simulated(n, 1.0, 2.0, rng));
    for (std::size_t k = 0; k < rejected.size(); ++k) {
        CAPTURE(k);
        CHECK(rejected[k] >= lo);
        CHECK(rejected[k] <= hi);
    }
    for (std::size_t k : {0, 2, 3, 4, 5, 6}) {  // Spiegelhalter's z sees the excess Brier score; the others
        CAPTURE(k);                                // the misfit of the groups or of the cumulative path
        CHECK(power[k] / 200 > 0.9);
    }
    // Calibration-in-the-large tests the mean only: symmetric over-confidence keeps the mean, and it
    // rejects only because its null variance Σ p(1 - p) of the sharpened predictions is too small
    // (28 of 200 with this seed on 2026-11-28).
    CHECK(power[1] / 200 < 0.3);
}

namespace {

// Development data: covariates x ~ N(0, 1) (n × 2), outcomes from logit P(Y = 1) = −0.3 + 0.8 x₁ − 0.5 x₂
// + c x₁², and p the maximum-likelihood logistic fit of y on [1, x] (Newton's method, written here).
struct Development {
    CategoricalData data;
    Matrix x;
};
Development developed(std::size_t n, double quadratic, test::Rng& rng) {
    boost::random::normal_distribution<double> normal;
    boost::random::uniform_01<double> u;
    Matrix design(Eigen::Index(n), 3);
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double a = normal(rng), b = normal(rng);
        design.row(Eigen::Index(i)) << 1, a, b;
        y[i] = u(rng) < 1 / (1 + std::exp(-(-0.3 + 0.8 * a - 0.5 * b + quadratic * a * a))) ? 1 : 0;
    }
    Vector beta = Vector::Zero(3);
    Vector p(Eigen::Index{0});
    for (int it = 0; it < 30; ++it) {
        p = (1 / (1 + (-(design * beta).array()).exp())).matrix();
        Vector score = Vector::Zero(3);
        Matrix information = Matrix::Zero(3, 3);
        for (std::size_t i = 0; i < n; ++i) {
            const Eigen::Index k = Eigen::Index(i);
            score += (y[i] - p[k]) * design.row(k).transpose();
            information += p[k] * (1 - p[k]) * design.row(k).transpose() * design.row(k);
        }
        beta += information.ldlt().solve(score);
    }
    p = (1 / (1 + (-(design * beta).array()).exp())).matrix();
    return {CategoricalData::from_binary(p, y), design.rightCols(2)};
}

}  // namespace

TEST_CASE("spiegelhalter_test with covariates: the unweighted sum-of-squares test of development data") {
    test::Rng rng(41);
    const Development dev = developed(300, 0.0, rng);
    const Vector p = dev.data.probabilities().col(1);
    const std::vector<int>& y = dev.data.labels();
    // By hand: SSE − Σ p(1 − p) over √RSS, RSS of the weighted least squares of 1 − 2p on [1, x] with
    // weights p(1 − p), solved here by the normal equations (the library uses pivoted QR).
    double sse = 0, expected = 0;
    Matrix design(p.size(), 3), normal = Matrix::Zero(3, 3);
    Vector right = Vector::Zero(3), d = (1 - 2 * p.array()).matrix(), w = (p.array() * (1 - p.array())).matrix();
    design << Vector::Ones(p.size()), dev.x;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        sse += (y[std::size_t(i)] - p[i]) * (y[std::size_t(i)] - p[i]);
        expected += w[i];
        normal += w[i] * design.row(i).transpose() * design.row(i);
        right += w[i] * d[i] * design.row(i).transpose();
    }
    const Vector beta = normal.ldlt().solve(right);
    const double rss = (w.array() * (d - design * beta).array().square()).sum();
    const TestResult r = spiegelhalter_test(dev.data, dev.x);
    const BinaryZDetails& z = r.details_as<BinaryZDetails>();
    CHECK(z.z == Approx((sse - expected) / std::sqrt(rss)).epsilon(1e-10));
    CHECK(r.p_value == Approx(two_sided(z.z)).epsilon(1e-10));
    // The same numerator as without covariates; only the variance differs (smaller: the fit used the data).
    const TestResult validation_result = spiegelhalter_test(dev.data);
    const BinaryZDetails& validation = validation_result.details_as<BinaryZDetails>();
    CHECK(z.z * z.std_error == Approx(validation.z * validation.std_error).epsilon(1e-10));
    CHECK(z.std_error < validation.std_error);
    // Duplicated columns change nothing (pivoted QR drops the copy).
    Matrix doubled(dev.x.rows(), 3);
    doubled << dev.x, dev.x.col(0);
    CHECK(spiegelhalter_test(dev.data, doubled).statistic == Approx(r.statistic).epsilon(1e-10));

    CHECK_THROWS_WITH_AS(spiegelhalter_test(dev.data, Matrix(dev.x.topRows(10))), doctest::Contains("rows"),
                         invalid_argument);
    Matrix bad = dev.x;
    bad(3, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(spiegelhalter_test(dev.data, bad), invalid_argument);
    CHECK_THROWS_WITH_AS(spiegelhalter_test(dev.data, Matrix(p)), doctest::Contains("explain 1 - 2p"),
                         invalid_argument);  // 1 − 2p is linear in p
}

TEST_CASE("spiegelhalter_test with covariates: level within the 99% band on development data, power") {
    // 1000 data sets with the logistic model right (c = 0), fitted and tested on the same data: the
    // rejections at α = 0.05 in the 99 % band of Binomial(1000, 0.05); the validation variance (no
    // covariates) is far too large there. A missed quadratic term (c = 1.5, n = 1000) is found.
    const std::size_t trials = 1000;
    const boost::math::binomial_distribution<> null_count(double(trials), 0.05);
    const double lo = boost::math::quantile(null_count, 0.005), hi = boost::math::quantile(null_count, 0.995);
    test::Rng rng(43);
    double rejected = 0, validation_rejected = 0, power = 0;
    for (std::size_t t = 0; t < trials; ++t) {
        const Development dev = developed(200, 0.0, rng);
        rejected += spiegelhalter_test(dev.data, dev.x).p_value < 0.05;
        validation_rejected += spiegelhalter_test(dev.data).p_value < 0.05;
    }
    for (std::size_t t = 0; t < 100; ++t) {
        const Development dev = developed(1000, 1.5, rng);
        power += spiegelhalter_test(dev.data, dev.x).p_value < 0.05;
    }
    CHECK(rejected >= lo);  // 50 of 1000 with this seed on 2026-11-28
    CHECK(rejected <= hi);
    CHECK(validation_rejected < lo);  // conservative on development data: 0 of 1000
    CHECK(power / 100 > 0.7);  // 88 of 100 with this seed on 2026-11-28
}

TEST_CASE("class_wise_test: each class against the rest, Bonferroni's combination") {
    test::Rng rng(47);
    const CategoricalData d = synthetic::dirichlet_data(400, 4, 1.0, rng);
    const TestResult r = class_wise_test(d, [](const CategoricalData& e) { return spiegelhalter_test(e); });
    const ClassWiseDetails& c = r.details_as<ClassWiseDetails>();
    REQUIRE(c.p_values.size() == 4);
    double smallest = 1;
    for (int k = 0; k < 4; ++k) {
        const TestResult one = spiegelhalter_test(d.class_event(k));
        CHECK(c.p_values[std::size_t(k)] == one.p_value);
        CHECK(c.statistics[std::size_t(k)] == one.statistic);
        CHECK(c.estimates[std::size_t(k)] == one.estimate);
        smallest = std::min(smallest, one.p_value);
    }
    CHECK(c.p_values[c.smallest] == smallest);
    CHECK(r.p_value == std::min(1.0, 4 * smallest));
    CHECK(r.statistic == Approx(-std::log10(smallest)).epsilon(1e-15));
    CHECK(r.method == "spiegelhalter");
    CHECK(r.null_approximation == "bonferroni:normal");
    CHECK(r.estimate == c.estimates[c.smallest]);
    // A p-value of 0 (an outcome of probability 0) keeps the statistic finite.
    Matrix certain(2, 3);
    certain << 1, 0, 0, 0, 1, 0;
    const TestResult zero = class_wise_test(CategoricalData(certain, {1, 1}),
                                            [](const CategoricalData& e) { return spiegelhalter_test(e); });
    CHECK(zero.p_value == 0);
    CHECK(zero.statistic == Approx(323.3).epsilon(1e-3));
    // A class the test refuses is named (500 groups of 400 observations: every class is refused).
    const auto too_many_groups = [](const CategoricalData& e) {
        return hosmer_lemeshow_test(e, hl(500, HosmerLemeshowGrouping::quantiles));
    };
    CHECK_THROWS_WITH_AS(class_wise_test(d, too_many_groups), doctest::Contains("class 0 against the rest"),
                         invalid_argument);
}

TEST_CASE("class_wise_test: level at most α under class-wise calibration, power against one miscalibrated class") {
    // 1000 calibrated 3-class data sets (n = 300): Bonferroni's rejections at α = 0.05 at most the 99 %
    // band's upper end of Binomial(1000, 0.05), for Spiegelhalter's z and calibration-in-the-large. One
    // class over-predicted (its probability × 1.5, the rows renormalised) is found by the latter.
    const std::size_t trials = 1000;
    const boost::math::binomial_distribution<> null_count(double(trials), 0.05);
    const double hi = boost::math::quantile(null_count, 0.995);
    test::Rng rng(53);
    double spiegelhalter = 0, citl = 0, power = 0;
    const auto z = [](const CategoricalData& e) { return spiegelhalter_test(e); };
    const auto mean = [](const CategoricalData& e) { return calibration_in_the_large_test(e); };
    for (std::size_t t = 0; t < trials; ++t) {
        const CategoricalData d = synthetic::dirichlet_data(300, 3, 1.0, rng);
        spiegelhalter += class_wise_test(d, z).p_value < 0.05;
        citl += class_wise_test(d, mean).p_value < 0.05;
    }
    for (std::size_t t = 0; t < 100; ++t) {
        const CategoricalData truth = synthetic::dirichlet_data(300, 3, 1.0, rng);
        Matrix p = truth.probabilities();
        p.col(2) *= 1.5;
        for (Eigen::Index i = 0; i < p.rows(); ++i) p.row(i) /= p.row(i).sum();
        power += class_wise_test(CategoricalData(p, truth.labels()), mean).p_value < 0.05;
    }
    CHECK(spiegelhalter <= hi);  // 50 of 1000 with this seed on 2026-11-28 (hi = 69)
    CHECK(citl <= hi);           // 55 of 1000
    CHECK(power / 100 > 0.6);    // 78 of 100
}

TEST_CASE("cox_test: the fit is the likelihood's maximum, its information the Hessian, the LR statistic by hand") {
    // The log-likelihood written here independently (log σ and log(1 − σ)), its gradient by central
    // differences at the fitted (a, b) (zero at the maximum), and its Hessian by differences (the
    // inverse of the Wald covariance).
    test::Rng rng(17);
    const CategoricalData data = simulated(400, 1.0, 1.5, rng);  // over-confident: slope about 1/1.5
    const Vector p = data.probabilities().col(1);
    const std::vector<int>& y = data.labels();
    const auto ll = [&](double a, double b) { return cox_log_likelihood(p, y, a, b); };
    const TestResult r = cox_test(data);
    const auto& d = r.details_as<CoxDetails>();
    CHECK(r.method == "cox");
    CHECK(r.estimator == "calibration-slope");
    CHECK(r.estimate == d.slope);
    CHECK(d.slope == Approx(1 / 1.5).epsilon(0.2));
    const double h = 1e-4;
    CHECK(std::abs(ll(d.intercept + h, d.slope) - ll(d.intercept - h, d.slope)) / (2 * h) < 1e-6);
    CHECK(std::abs(ll(d.intercept, d.slope + h) - ll(d.intercept, d.slope - h)) / (2 * h) < 1e-6);
    const double hb = 1e-3;
    const double l0 = ll(d.intercept, d.slope);
    const double haa = (ll(d.intercept + hb, d.slope) - 2 * l0 + ll(d.intercept - hb, d.slope)) / (hb * hb);
    const double hbb = (ll(d.intercept, d.slope + hb) - 2 * l0 + ll(d.intercept, d.slope - hb)) / (hb * hb);
    const double hab = (ll(d.intercept + hb, d.slope + hb) - ll(d.intercept + hb, d.slope - hb) -
                        ll(d.intercept - hb, d.slope + hb) + ll(d.intercept - hb, d.slope - hb)) /
                       (4 * hb * hb);
    const double det = haa * hbb - hab * hab;
    CHECK(d.slope_se == Approx(std::sqrt(-haa / det)).epsilon(1e-4));
    CHECK(d.intercept_se == Approx(std::sqrt(-hbb / det)).epsilon(1e-4));
    const double z = 1.959963984540054;  // Φ⁻¹(0.975)
    CHECK(d.slope_lower == Approx(d.slope - z * d.slope_se).epsilon(1e-12));
    CHECK(d.slope_upper == Approx(d.slope + z * d.slope_se).epsilon(1e-12));
    CHECK(d.slope_upper < 1);  // the over-confidence is seen
    CHECK(r.statistic == Approx(2 * (l0 - ll(0, 1))).epsilon(1e-9));
    CHECK(r.p_value == Approx(std::exp(-r.statistic / 2)).epsilon(1e-10));  // χ²₂'s upper tail
    // The calibration-in-the-large intercept maximises the likelihood along b = 1.
    CHECK(std::abs(ll(d.citl_intercept + h, 1) - ll(d.citl_intercept - h, 1)) / (2 * h) < 1e-6);
    CHECK(d.citl_se == Approx(std::sqrt(-hb * hb / (ll(d.citl_intercept + hb, 1) - 2 * ll(d.citl_intercept, 1) +
                                                    ll(d.citl_intercept - hb, 1))))
                           .epsilon(1e-4));
    // Recalibrated by its own fit, a model has slope 1 and intercept 0.
    Vector q(p.size());
    for (Eigen::Index i = 0; i < p.size(); ++i)
        q[i] = 1 / (1 + std::exp(-(d.intercept + d.slope * std::log(p[i] / (1 - p[i])))));
    const auto& refit = cox_test(CategoricalData::from_binary(q, y)).details_as<CoxDetails>();
    CHECK(refit.slope == Approx(1).epsilon(1e-8));
    CHECK(std::abs(refit.intercept) < 1e-8);
}

TEST_CASE("cox_test: likelihood-ratio intervals end where the profile deviance is chi-squared's quantile") {
    // Profiles maximised here by golden-section search on the independent likelihood; the joint statistic
    // splits into the intercept's (slope 1) and the slope's (intercept free).
    test::Rng rng(23);
    const CategoricalData data = simulated(300, 1.0, 1.5, rng);
    const Vector p = data.probabilities().col(1);
    const std::vector<int>& y = data.labels();
    const auto ll = [&](double a, double b) { return cox_log_likelihood(p, y, a, b); };
    CoxOptions options;
    options.level = 0.9;
    const TestResult r = cox_test(data, options);
    const auto& d = r.details_as<CoxDetails>();
    const double top = ll(d.intercept, d.slope), quantile = 2.705543454095404;  // χ²₁'s 0.9 quantile (R qchisq)
    const auto slope_deviance = [&](double b) {
        return 2 * (top - golden_maximum([&](double a) { return ll(a, b); }, d.intercept - 3, d.intercept + 3));
    };
    const auto intercept_deviance = [&](double a) {
        return 2 * (top - golden_maximum([&](double b) { return ll(a, b); }, d.slope - 3, d.slope + 3));
    };
    const double citl_top = ll(d.citl_intercept, 1);
    for (double end : {d.slope_lr_lower, d.slope_lr_upper})
        CHECK(slope_deviance(end) == Approx(quantile).epsilon(1e-6));
    for (double end : {d.intercept_lr_lower, d.intercept_lr_upper})
        CHECK(intercept_deviance(end) == Approx(quantile).epsilon(1e-6));
    for (double end : {d.citl_lr_lower, d.citl_lr_upper})
        CHECK(2 * (citl_top - ll(end, 1)) == Approx(quantile).epsilon(1e-6));
    CHECK(d.slope_lr_lower < d.slope);
    CHECK(d.slope < d.slope_lr_upper);
    const double z = 1.6448536269514722;  // Φ⁻¹(0.95)
    CHECK(d.citl_lower == Approx(d.citl_intercept - z * d.citl_se).epsilon(1e-12));
    CHECK(d.citl_upper == Approx(d.citl_intercept + z * d.citl_se).epsilon(1e-12));
    CHECK(d.citl_statistic == Approx(2 * (citl_top - ll(0, 1))).epsilon(1e-9));
    CHECK(d.slope_statistic == Approx(2 * (top - citl_top)).epsilon(1e-9));
    CHECK(r.statistic == Approx(d.citl_statistic + d.slope_statistic).epsilon(1e-12));
    CHECK(d.citl_p_value == Approx(std::erfc(std::sqrt(d.citl_statistic / 2))).epsilon(1e-10));  // χ²₁'s tail
    CHECK(d.slope_p_value == Approx(std::erfc(std::sqrt(d.slope_statistic / 2))).epsilon(1e-10));
}

TEST_CASE("cox_test: refusals and the separated case") {
    CHECK_THROWS_WITH_AS(cox_test(binary({0.2, 0.0, 0.6}, {0, 0, 1})), doctest::Contains("strictly between 0 and 1"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(cox_test(binary({0.2, 0.4, 0.6}, {1, 1, 1})), doctest::Contains("needs both outcomes"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(cox_test(binary({0.3, 0.3, 0.3}, {0, 1, 1})), doctest::Contains("predictions that differ"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(cox_test(binary({0.2, 0.4, 0.6, 0.8}, {0, 0, 1, 1})), doctest::Contains("separated"),
                         numerical_error);
    CoxOptions o;
    o.level = 1;
    CHECK_THROWS_AS(validate(o, 10), invalid_argument);
    CHECK_THROWS_AS(validate(CoxOptions{}, 1), invalid_argument);
}

TEST_CASE("cox_test: level and intervals' coverage within the 99% binomial band under calibration") {
    const std::size_t trials = 2000;
    const boost::math::binomial_distribution<> null_count(double(trials), 0.05);
    const double lo = boost::math::quantile(null_count, 0.005), hi = boost::math::quantile(null_count, 0.995);
    test::Rng rng(31);
    // Each part of the statistic rejects at the level; the intervals miss the true slope 1 and intercepts
    // 0 as often (95 % intervals).
    std::array<double, 9> missed{};
    double power = 0;
    for (std::size_t t = 0; t < trials; ++t) {
        const TestResult r = cox_test(simulated(500, 1.0, 1.0, rng));
        const auto& d = r.details_as<CoxDetails>();
        const auto outside = [](double lower, double upper, double truth) { return truth < lower || truth > upper; };
        const std::array<bool, 9> miss{r.p_value < 0.05,
                                       d.citl_p_value < 0.05,
                                       d.slope_p_value < 0.05,
                                       outside(d.slope_lower, d.slope_upper, 1),
                                       outside(d.slope_lr_lower, d.slope_lr_upper, 1),
                                       outside(d.intercept_lower, d.intercept_upper, 0),
                                       outside(d.intercept_lr_lower, d.intercept_lr_upper, 0),
                                       outside(d.citl_lower, d.citl_upper, 0),
                                       outside(d.citl_lr_lower, d.citl_lr_upper, 0)};
        for (std::size_t k = 0; k < miss.size(); ++k) missed[k] += miss[k];
    }
    for (std::size_t t = 0; t < 200; ++t) power += cox_test(simulated(500, 1.0, 2.0, rng)).p_value < 0.05;
    for (std::size_t k = 0; k < missed.size(); ++k) {
        CAPTURE(k);
        CAPTURE(missed[k]);
        CHECK(missed[k] >= lo);
        CHECK(missed[k] <= hi);
    }
    CHECK(power / 200 > 0.9);
}

TEST_CASE("cox_test: predictions of exactly 0 or 1 refused with the fix named, or clipped into [clip, 1 - clip]") {
    test::Rng rng(91);
    const CategoricalData truth = simulated(300, 1.0, 1.0, rng);  // calibrated
    Vector p = truth.probabilities().col(1);
    std::vector<int> y = truth.labels();
    p[0] = 0, y[0] = 0;
    p[1] = 1, y[1] = 1;
    p[2] = 1e-300, y[2] = 0;  // inside (0, 1) but below the clip: moved too
    const CategoricalData data = CategoricalData::from_binary(p, y);
    CHECK_THROWS_WITH_AS(cox_test(data), doctest::Contains("`clip` EPS (e.g. 1e-15"), invalid_argument);
    CoxOptions options;
    options.clip = 1e-15;
    const TestResult clipped = cox_test(data, options);
    // The same as the test of the clipped predictions, bitwise.
    Vector q = p;
    for (Eigen::Index i = 0; i < q.size(); ++i) q[i] = std::min(std::max(q[i], 1e-15), 1 - 1e-15);
    const TestResult reference = cox_test(CategoricalData::from_binary(q, y));
    CHECK(clipped.p_value == reference.p_value);
    CHECK(clipped.statistic == reference.statistic);
    const auto& d = clipped.details_as<CoxDetails>();
    CHECK(d.slope == reference.details_as<CoxDetails>().slope);
    CHECK((d.clip == 1e-15 && d.clipped == 3));
    // Recorded only when asked for.
    const Record with = d.record(), without = reference.details_as<CoxDetails>().record();
    CHECK(with.size() == without.size() + 2);
    CHECK(with.back().name == "clipped");
    for (const double bad : {-1e-9, 0.5, std::nan("")}) {
        options.clip = bad;
        CHECK_THROWS_WITH_AS(cox_test(data, options), doctest::Contains("must be in [0, 0.5)"), invalid_argument);
    }
}

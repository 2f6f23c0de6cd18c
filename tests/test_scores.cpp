// Tests of the CRPS closed forms and the base-rate summaries (scores.hpp).
#include <calib/errors.hpp>
#include <calib/scores.hpp>

#include "quadrature.hpp"

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using calib::testing::integrate_line;

namespace {

double normal_cdf(double x, double mean, double sd) { return 0.5 * std::erfc(-(x - mean) / (sd * std::sqrt(2.0))); }

double laplace_cdf(double x, double location, double scale) {
    return x < location ? 0.5 * std::exp((x - location) / scale) : 1 - 0.5 * std::exp(-(x - location) / scale);
}

// The CRPS by its definition ∫ (F(x) − 1{x ≥ y})² dx, split at y and at the given kinks.
template <class Cdf>
double crps_by_quadrature(const Cdf& cdf, double y, std::vector<double> cuts) {
    cuts.push_back(y);
    return integrate_line(
        [&](double x) {
            const double d = cdf(x) - (x >= y ? 1.0 : 0.0);
            return d * d;
        },
        cuts);
}

}  // namespace

TEST_SUITE("scores") {

// CRPS(N(0, 1), 0) = 2φ(0) − 1/√π = (√2 − 1)/√π (Gneiting et al. 2005, eq. 5, at z = 0), and
// CRPS(L(0, β), 0) = β/4 (E|X| = β, E|X − X'| = 3β/2).
TEST_CASE("CRPS at the centre: the closed forms' exact values") {
    CHECK(calib::crps_normal(0, 1, 0) == doctest::Approx((std::sqrt(2.0) - 1) / std::sqrt(M_PI)).epsilon(1e-15));
    CHECK(calib::crps_normal(3, 2, 3) == doctest::Approx(2 * (std::sqrt(2.0) - 1) / std::sqrt(M_PI)).epsilon(1e-15));
    CHECK(calib::crps_laplace(0, 1, 0) == doctest::Approx(0.25).epsilon(1e-15));
    CHECK(calib::crps_laplace(-1, 0.5, -1) == doctest::Approx(0.125).epsilon(1e-15));
    // Far from the mass the CRPS tends to |y − μ| − E|X − X'|/2: σ/√π for the normal, 3β/4 for Laplace
    // (up to β·exp(−|z|) = 2.8e-11 here).
    CHECK(calib::crps_normal(0, 1, 40) == doctest::Approx(40 - 1 / std::sqrt(M_PI)).epsilon(1e-15));
    CHECK(calib::crps_laplace(0, 2, -50) == doctest::Approx(50 - 1.5).epsilon(1e-12));
}

TEST_CASE("CRPS closed forms against the integral of the squared CDF difference") {
    for (double y : {-3.0, -0.4, 0.0, 0.7, 2.5, 8.0}) {
        for (double sd : {0.3, 1.0, 2.5}) {
            CAPTURE(y);
            CAPTURE(sd);
            const double mean = 0.4;
            CHECK(calib::crps_normal(mean, sd, y) ==
                  doctest::Approx(crps_by_quadrature([&](double x) { return normal_cdf(x, mean, sd); }, y, {mean}))
                      .epsilon(1e-10));
            CHECK(calib::crps_laplace(mean, sd, y) ==
                  doctest::Approx(crps_by_quadrature([&](double x) { return laplace_cdf(x, mean, sd); }, y, {mean}))
                      .epsilon(1e-10));
        }
    }
}

TEST_CASE("mean CRPS of the three families: means of the closed forms, the mixture against quadrature") {
    boost::random::mt19937_64 rng(15);
    boost::random::normal_distribution<double> normal;
    boost::random::uniform_01<double> uniform;
    const Eigen::Index n = 40, K = 3;
    calib::Vector mean(n), sd(n), y(n);
    calib::Matrix weights(n, K), means(n, K), sds(n, K);
    for (Eigen::Index i = 0; i < n; ++i) {
        mean(i) = normal(rng);
        sd(i) = 0.2 + uniform(rng);
        y(i) = mean(i) + sd(i) * normal(rng);
        double total = 0;
        for (Eigen::Index k = 0; k < K; ++k) {
            weights(i, k) = k == 2 && i % 4 == 0 ? 0 : uniform(rng);  // some zero weights
            total += weights(i, k);
            means(i, k) = 2 * normal(rng);
            sds(i, k) = 0.1 + uniform(rng);
        }
        weights.row(i) /= total;
    }
    double normal_sum = 0, laplace_sum = 0, mixture_sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        normal_sum += calib::crps_normal(mean(i), sd(i), y(i));
        laplace_sum += calib::crps_laplace(mean(i), sd(i), y(i));
        std::vector<double> cuts;
        for (Eigen::Index k = 0; k < K; ++k) cuts.push_back(means(i, k));
        mixture_sum += crps_by_quadrature(
            [&](double x) {  // divided by Σπ, so that F is exactly 1 far right (a rounding there would add up)
                double F = 0, total = 0;
                for (Eigen::Index k = 0; k < K; ++k) {
                    F += weights(i, k) * normal_cdf(x, means(i, k), sds(i, k));
                    total += weights(i, k);
                }
                return F / total;
            },
            y(i), cuts);
    }
    CHECK(calib::mean_crps(calib::NormalData(mean, sd, y)) == doctest::Approx(normal_sum / n).epsilon(1e-14));
    CHECK(calib::mean_crps(calib::LaplaceData(mean, sd, y)) == doctest::Approx(laplace_sum / n).epsilon(1e-14));
    CHECK(calib::mean_crps(calib::MixtureNormalData(weights, means, sds, y)) ==
          doctest::Approx(mixture_sum / n).epsilon(1e-10));
    // One component is the normal itself.
    const calib::Matrix one = calib::Matrix::Ones(n, 1);
    CHECK(calib::mean_crps(calib::MixtureNormalData(one, mean, sd, y)) ==
          doctest::Approx(normal_sum / n).epsilon(1e-14));
}

// At the extremes of a double: a scale of 1e-308 is a point mass (CRPS = |y − μ|, up to 1e-308), rows
// whose scores are near the largest double average without overflowing the sum, and a target whose
// distance to the location overflows is refused by row rather than answered with inf or NaN.
TEST_CASE("mean CRPS at the extremes of a double") {
    calib::Vector mean(3), tiny(3), y(3);
    mean << 0.5, -2, 3;
    tiny.setConstant(1e-308);
    y << 1.5, -2, 0;
    CHECK(calib::mean_crps(calib::NormalData(mean, tiny, y)) == doctest::Approx(4.0 / 3).epsilon(1e-15));
    CHECK(calib::mean_crps(calib::LaplaceData(mean, tiny, y)) == doctest::Approx(4.0 / 3).epsilon(1e-15));
    const calib::Matrix one = calib::Matrix::Ones(3, 1);
    CHECK(calib::mean_crps(calib::MixtureNormalData(one, mean, tiny, y)) == doctest::Approx(4.0 / 3).epsilon(1e-15));

    calib::Vector far(2), unit = calib::Vector::Ones(2), zero = calib::Vector::Zero(2);
    far << 1.5e308, -1.5e308;  // each row's CRPS is 1.5e308 − 1/√π; their sum would overflow
    CHECK(calib::mean_crps(calib::NormalData(far, unit, zero)) == doctest::Approx(1.5e308).epsilon(1e-15));
    CHECK(calib::mean_crps(calib::LaplaceData(far, unit, zero)) == doctest::Approx(1.5e308).epsilon(1e-15));

    calib::Vector opposite(2);
    opposite << 1e308, 0;
    far << -1e308, 0;  // row 0: y − μ = 2e308
    CHECK_THROWS_WITH_AS(calib::mean_crps(calib::NormalData(far, unit, opposite)),
                         doctest::Contains("row 0: the target and the forecast's location(s) are too far apart"),
                         std::invalid_argument);
    CHECK_THROWS_AS(calib::mean_crps(calib::LaplaceData(far, unit, opposite)), std::invalid_argument);
    CHECK_THROWS_AS(calib::mean_crps(calib::MixtureNormalData(calib::Matrix::Ones(2, 1), far, unit, opposite)),
                    std::invalid_argument);
}

// p = (.2, .6, .9, .5), y = (0, 1, 1, 0): Σp = 2.2 over 2 events, ratio 1.1. Log loss
// −(log .8 + log .6 + log .9 + log .5)/4; base rate .5, entropy log 2.
TEST_CASE("calibration ratio and normalised entropy by hand") {
    calib::Vector p(4);
    p << 0.2, 0.6, 0.9, 0.5;
    const calib::CategoricalData data = calib::CategoricalData::from_binary(p, {0, 1, 1, 0});
    const calib::CalibrationRatio r = calib::calibration_ratio(data);
    CHECK(r.ratio == doctest::Approx(1.1).epsilon(1e-15));
    CHECK(r.sum_predictions == doctest::Approx(2.2).epsilon(1e-15));
    CHECK(r.events == 2);
    CHECK(r.n == 4);
    const double log_loss = -(std::log(0.8) + std::log(0.6) + std::log(0.9) + std::log(0.5)) / 4;
    const calib::NormalizedEntropy ne = calib::normalized_entropy(data);
    CHECK(ne.log_loss == doctest::Approx(log_loss).epsilon(1e-15));
    CHECK(ne.base_rate == 0.5);
    CHECK_FALSE(ne.base_rate_given);
    CHECK(ne.base_entropy == doctest::Approx(std::log(2.0)).epsilon(1e-15));
    CHECK(ne.value == doctest::Approx(log_loss / std::log(2.0)).epsilon(1e-15));
    // A given base rate: H(.25) = −(.25 log .25 + .75 log .75).
    const calib::NormalizedEntropy given = calib::normalized_entropy(data, 0.25);
    CHECK(given.base_rate_given);
    CHECK(given.value ==
          doctest::Approx(log_loss / -(0.25 * std::log(0.25) + 0.75 * std::log(0.75))).epsilon(1e-15));
    // Predicting the base rate everywhere gives NE = 1.
    const calib::Vector half = calib::Vector::Constant(4, 0.5);
    CHECK(calib::normalized_entropy(calib::CategoricalData::from_binary(half, {0, 1, 1, 0})).value ==
          doctest::Approx(1).epsilon(1e-15));
}

TEST_CASE("scores refuse what they cannot define") {
    calib::Vector p(3);
    p << 0.2, 0.6, 0.0;
    const calib::CategoricalData none = calib::CategoricalData::from_binary(p, {0, 0, 0});
    CHECK_THROWS_WITH_AS(calib::calibration_ratio(none), doctest::Contains("no event among the 3 observations"),
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::normalized_entropy(none), doctest::Contains("no event in the data"),
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::normalized_entropy(none, 1.0), doctest::Contains("is not in (0, 1)"),
                         calib::invalid_argument);
    const calib::CategoricalData impossible = calib::CategoricalData::from_binary(p, {0, 1, 1});
    CHECK_THROWS_WITH_AS(calib::normalized_entropy(impossible), doctest::Contains("row 2 gives probability 0"),
                         calib::invalid_argument);
    const calib::CategoricalData three(calib::Matrix::Constant(2, 3, 1.0 / 3), {0, 1});
    CHECK_THROWS_WITH_AS(calib::calibration_ratio(three), doctest::Contains("3 classes"), calib::invalid_argument);
    CHECK_THROWS_AS(calib::normalized_entropy(three), calib::invalid_argument);
}

}  // TEST_SUITE("scores")

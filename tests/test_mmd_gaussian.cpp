// The conditional MMD for Gaussian forecasts (calib/mmd.hpp, GaussianMmdSpec): the distribution notion
// with the RBF target equals the SKCE of the normal family; DCE² = MMD²_sign / 2; the closed forms of
// every target kernel against Monte Carlo and quadrature; unbiasedness, level and power; threads.
#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>
#include <calib/mmd.hpp>

#include "support.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <vector>

using namespace calib;

namespace {

GaussianMmdSpec gaussian_spec(MmdNotion notion, GaussianTarget target, double lengthscale = 0.8) {
    GaussianMmdSpec s;
    s.notion = notion;
    s.target = target;
    s.conditioning.lengthscale = lengthscale;
    if (notion == MmdNotion::individual) s.conditioning.metric = Metric::euclidean;
    return s;
}

const std::vector<GaussianTarget> targets = {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment,
                                             GaussianTarget::pit};

double sign_of(double u) { return double((u > 0) - (u < 0)); }

}  // namespace

TEST_CASE("mmd gaussian: the distribution notion with the RBF target equals the SKCE exp(-W2^2/(2l^2)) x Gaussian") {
    // digest §11.1.2: the RBF on (μ, σ) is exp(−W2²/(2ℓ²)) for 1-d normals; with Ŷ integrated out the
    // MMD's h is the SKCE's.
    test::Rng rng(51);
    const NormalData d = test::normal_data(140, rng, 0.3);
    for (const double l : {0.3, 1.7})
        for (const double ly : {0.5, 2.0}) {
            Kernel k;
            k.prediction = {PredictionKernelShape::sqexp, Metric::w2, l};
            k.target = {TargetKernelType::sqexp, ly, {}};
            GaussianMmdSpec s = gaussian_spec(MmdNotion::distribution, GaussianTarget::rbf, l);
            s.target_lengthscale = ly;
            CHECK(mmd_unbiased(d, s).estimate == doctest::Approx(skce_unbiased(d, k)).epsilon(1e-12));
            CHECK(mmd_gamma_test(d, s).estimate == doctest::Approx(skce_biased(d, k)).epsilon(1e-12));
        }
}

TEST_CASE("mmd gaussian: DCE^2 = MMD^2_sign / 2 (eq. 19 written out, the plug-in on the whole set)") {
    // DCE² = Σ_{a = ±1} (mean_i ℓ(y_i, a) − mean_i E_{Q_i} ℓ(Ŷ, a))², ℓ(y, a) = 1{a ≠ sign(y − c)};
    // the sign kernel's MMD without Z, in its V-statistic form (the Gamma test's estimate), is twice it.
    test::Rng rng(52);
    const NormalData d = test::normal_data(300, rng, 0.4);
    const boost::math::normal standard;
    for (const double c : {-0.5, 0.0, 0.7}) {
        double p_plus = 0, p_minus = 0;  // the two actions' mean losses, data minus forecast
        for (std::size_t i = 0; i < d.size(); ++i) {
            const auto r = static_cast<Eigen::Index>(i);
            const double below = boost::math::cdf(standard, (c - d.mean()(r)) / d.stddev()(r));  // Q(Ŷ < c)
            const double s = sign_of(d.targets()(r) - c);
            p_plus += (s != 1 ? 1.0 : 0.0) - below;
            p_minus += (s != -1 ? 1.0 : 0.0) - (1 - below);
        }
        const double n = double(d.size());
        const double dce2 = (p_plus / n) * (p_plus / n) + (p_minus / n) * (p_minus / n);
        GaussianMmdSpec s = gaussian_spec(MmdNotion::marginal, GaussianTarget::sign);
        s.threshold = c;
        CHECK(mmd_gamma_test(d, s).estimate / 2 == doctest::Approx(dce2).epsilon(1e-12));
    }
}

TEST_CASE("mmd gaussian: the closed forms of the uniform target against quadrature") {
    // Composite Simpson's rule on [0, 1] (and [0, 1]²) with 2000 intervals: error ~1e-13 here.
    const auto simpson = [](const std::function<double(double)>& f) {
        const int m = 2000;
        double s = f(0) + f(1);
        for (int k = 1; k < m; ++k) s += (k % 2 ? 4 : 2) * f(double(k) / m);
        return s / (3.0 * m);
    };
    for (const double l : {0.05, 0.3, 1.0, 4.0})
        for (const double t : {0.0, 0.2, 0.5, 0.93}) {
            CAPTURE(l);
            CAPTURE(t);
            CHECK(expected_rbf_uniform(t, l) ==
                  doctest::Approx(simpson([&](double u) { return std::exp(-(t - u) * (t - u) / (2 * l * l)); }))
                      .epsilon(1e-9));
        }
    for (const double l : {0.05, 0.3, 1.0, 4.0}) {
        CAPTURE(l);
        CHECK(expected_rbf_uniform_pair(l) == doctest::Approx(simpson([&](double v) {
                                                                  return expected_rbf_uniform(v, l);
                                                              })).epsilon(1e-9));
    }
}

TEST_CASE("mmd gaussian: the marginalised h of every target kernel against Monte Carlo") {
    // Two forecasts, no Z: the estimate is h_01 = E over independent draws Ŷ_0 ~ Q_0, Ŷ_1 ~ Q_1 of
    // k(y_0, y_1) + k(Ŷ_0, Ŷ_1) − k(y_0, Ŷ_1) − k(Ŷ_0, y_1) (for pit: the PITs against U, U' ~ Unif).
    // 200 000 draws; agreement within 5 Monte-Carlo standard errors.
    Vector mu(2), sd(2), y(2);
    mu << 0.3, -0.4;
    sd << 0.8, 1.3;
    y << 1.1, -0.2;
    const NormalData d(mu, sd, y);
    const boost::math::normal standard;
    test::Rng rng(53);
    boost::random::normal_distribution<double> z;
    boost::random::uniform_01<double> u;
    const double c = 0.1, l = 0.7;
    for (const GaussianTarget target : targets) {
        CAPTURE(int(target));
        std::function<double(double, double)> k;
        if (target == GaussianTarget::rbf || target == GaussianTarget::pit)
            k = [l](double a, double b) { return std::exp(-(a - b) * (a - b) / (2 * l * l)); };
        if (target == GaussianTarget::sign) k = [c](double a, double b) { return sign_of(a - c) * sign_of(b - c); };
        if (target == GaussianTarget::moment) k = [](double a, double b) { return a * b + a * a * b * b; };
        const auto observed = [&](int i) {
            return target == GaussianTarget::pit ? boost::math::cdf(standard, (y(i) - mu(i)) / sd(i)) : y(i);
        };
        const auto draw = [&](int i) { return target == GaussianTarget::pit ? u(rng) : mu(i) + sd(i) * z(rng); };
        const test::MonteCarloMean mc = test::monte_carlo_pair_term(
            k, observed(0), observed(1), [&] { const double a = draw(0); return std::pair{a, draw(1)}; }, 200000);
        const double mean = mc.mean, se = mc.standard_error;
        GaussianMmdSpec s = gaussian_spec(MmdNotion::marginal, target);
        s.threshold = c;
        s.target_lengthscale = l;
        const double analytic = mmd_unbiased(d, s).estimate;
        CAPTURE(analytic);
        CAPTURE(mean);
        CHECK(std::abs(analytic - mean) < 5 * se);
    }
}

// Calibrated normal forecasts (targets drawn from them), n = 60, `reps` data sets: for every target
// kernel and the distribution and individual notions, the mean estimate lies within 4 standard
// errors of 0; the bootstrap (R = 100) rejects at α = 0.05 within the 99% binomial band [lo, hi] of
// reps · 0.05 (rbf and pit, distribution). Power, n = 150: targets spread 3 times wider than the
// forecasts say (overconfident) are rejected with the rbf, pit and moment targets; the sign kernel
// only sees on which side of c = 0 the target falls, which a symmetric spread does not change, so
// it is checked on targets shifted by 1 instead.
static void gaussian_level_and_power(std::size_t reps, std::size_t lo, std::size_t hi) {
    test::Rng rng(54);
    std::vector<std::vector<double>> estimates(2 * targets.size());
    std::size_t rejections_rbf = 0, rejections_pit = 0;
    for (std::size_t r = 0; r < reps; ++r) {
        const NormalData d = test::normal_data(60, rng);
        GaussianMmdSpec ind;
        Matrix x = Matrix::Zero(60, 1);
        for (Eigen::Index i = 0; i < 60; ++i) x(i, 0) = d.mean()(i) + 0.5 * double(i % 3);
        for (std::size_t t = 0; t < targets.size(); ++t) {
            estimates[t].push_back(mmd_unbiased(d, gaussian_spec(MmdNotion::distribution, targets[t])).estimate);
            GaussianMmdSpec s = gaussian_spec(MmdNotion::individual, targets[t]);
            s.features = x;
            estimates[targets.size() + t].push_back(mmd_unbiased(d, s).estimate);
        }
        BootstrapOptions o;
        o.replicates = 100;
        o.seed = r;
        rejections_rbf += mmd_bootstrap_test(d, gaussian_spec(MmdNotion::distribution, GaussianTarget::rbf), o).p_value < 0.05;
        rejections_pit += mmd_bootstrap_test(d, gaussian_spec(MmdNotion::distribution, GaussianTarget::pit), o).p_value < 0.05;
    }
    for (std::size_t k = 0; k < estimates.size(); ++k) {
        CAPTURE(k);
        double mean = 0, var = 0;
        for (double e : estimates[k]) mean += e;
        mean /= double(reps);
        for (double e : estimates[k]) var += (e - mean) * (e - mean);
        const double se = std::sqrt(var / double(reps - 1) / double(reps));
        CAPTURE(mean);
        CAPTURE(se);
        CHECK(std::abs(mean) < 4 * se);
    }
    CAPTURE(rejections_rbf);
    CAPTURE(rejections_pit);
    CHECK(rejections_rbf >= lo);
    CHECK(rejections_rbf <= hi);
    CHECK(rejections_pit >= lo);
    CHECK(rejections_pit <= hi);

    for (int t = 0; t < 3; ++t) {
        const NormalData calibrated = test::normal_data(150, rng);
        const Vector spread_y = calibrated.mean() + 3.0 * (calibrated.targets() - calibrated.mean());
        const NormalData overconfident(calibrated.mean(), calibrated.stddev(), spread_y);
        const NormalData shifted = test::normal_data(150, rng, 1.0);
        BootstrapOptions o;
        o.replicates = 200;
        for (const GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::pit, GaussianTarget::moment}) {
            CAPTURE(int(target));
            CHECK(mmd_bootstrap_test(overconfident, gaussian_spec(MmdNotion::distribution, target), o).p_value < 0.05);
        }
        GaussianMmdSpec sign = gaussian_spec(MmdNotion::marginal, GaussianTarget::sign);
        CHECK(mmd_bootstrap_test(shifted, sign, o).p_value < 0.05);
        CHECK(mmd_gamma_test(shifted, sign).p_value < 0.05);
    }
}

// The study at full size (300 data sets, band [6, 25]) is in `make test-slow`; `make test` runs its
// first 40 data sets (the 99% band of Binomial(40, 0.05) is [0, 6]) and the same power checks.
TEST_CASE("mmd gaussian: unbiased under calibration, tests hold their level and have power (40 data sets)") {
    gaussian_level_and_power(40, 0, 6);
}

TEST_CASE("mmd gaussian: unbiased under calibration, tests hold their level and have power" * doctest::test_suite("mmd slow")) {
    gaussian_level_and_power(300, 6, 25);
}

TEST_CASE("mmd gaussian: bitwise identical for 1 and 2 threads; errors") {
    test::Rng rng(55);
    const NormalData d = test::normal_data(600, rng, 0.2);
    for (const GaussianTarget target : targets) {
        const GaussianMmdSpec s = gaussian_spec(MmdNotion::distribution, target);
        CHECK(mmd_unbiased(d, s, {1}).estimate == mmd_unbiased(d, s, {2}).estimate);
        BootstrapOptions o;
        o.replicates = 40;
        o.parallel = {1};
        const double p1 = mmd_bootstrap_test(d, s, o).p_value;
        o.parallel = {2};
        CHECK(p1 == mmd_bootstrap_test(d, s, o).p_value);
    }
    for (const GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::sign}) {
        BlockTestOptions b;
        b.block_size = BlockSize::sqrt();
        b.parallel = {1};
        const double p1 = mmd_block_test(d, gaussian_spec(MmdNotion::distribution, target), b).p_value;
        b.parallel = {2};
        CHECK(p1 == mmd_block_test(d, gaussian_spec(MmdNotion::distribution, target), b).p_value);
    }
    // The median heuristic of the distribution notion is the SKCE's exact median of W2.
    CHECK(mmd_median_lengthscales(d, gaussian_spec(MmdNotion::distribution, GaussianTarget::rbf))[0] ==
          doctest::Approx(median_distance(d, Metric::w2)).epsilon(1e-15));
    GaussianMmdSpec s = gaussian_spec(MmdNotion::canonical, GaussianTarget::rbf);
    CHECK_THROWS_WITH_AS(mmd_unbiased(d, s), doctest::Contains("applies to class predictions"), invalid_argument);
    s = gaussian_spec(MmdNotion::distribution, GaussianTarget::rbf);
    s.conditioning.metric = Metric::tv;
    CHECK_THROWS_WITH_AS(mmd_unbiased(d, s), doctest::Contains("takes w2"), invalid_argument);
    s = gaussian_spec(MmdNotion::distribution, GaussianTarget::pit);
    s.target_lengthscale = 0;
    CHECK_THROWS_WITH_AS(mmd_unbiased(d, s), doctest::Contains("target kernel's lengthscale"), invalid_argument);
    s = gaussian_spec(MmdNotion::individual, GaussianTarget::rbf);
    CHECK_THROWS_WITH_AS(mmd_unbiased(d, s), doctest::Contains("features of n = 600 rows"), invalid_argument);
}

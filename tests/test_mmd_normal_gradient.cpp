// The Gaussian conditional MMD²'s block gradient in (μ, log σ) (calib/mmd.hpp, mmd_block_gradient for
// NormalData): against central differences for every target (rbf, sign, moment, pit) and notion
// (distribution with the moving k_Z, individual with fixed features, marginal), and its value against
// mmd_block, which goes through the pairwise engine rather than this code; the unbiased gradient over
// all pairs (through the engine) against the one-block gradient, and 1 vs 2 threads.
#include <calib/errors.hpp>
#include <calib/mmd.hpp>
#include <calib/tool/random.hpp>

#include "estimators/mmd_normal_gradient.hpp"
#include "finite_difference.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

using namespace calib;

namespace {

struct Forecasts {
    Vector mu, sigma, y;
    Matrix features;
};

// n forecasts N(μ_i, σ_i²) near y_i (so that every term of h varies), with two features.
Forecasts forecasts(Eigen::Index n, std::uint64_t seed) {
    Rng rng = make_stream(seed, 0);
    boost::random::normal_distribution<double> normal(0, 1);
    boost::random::uniform_real_distribution<double> uniform(0.4, 1.6);
    Forecasts f{Vector(n), Vector(n), Vector(n), Matrix(n, 2)};
    for (Eigen::Index i = 0; i < n; ++i) {
        f.features(i, 0) = normal(rng);
        f.features(i, 1) = normal(rng);
        f.mu[i] = 0.5 * f.features(i, 0) + 0.3 * normal(rng);
        f.sigma[i] = uniform(rng);
        f.y[i] = f.mu[i] + 1.3 * f.sigma[i] * normal(rng);
    }
    return f;
}

GaussianMmdSpec spec_of(MmdNotion notion, GaussianTarget target, const Forecasts& f) {
    GaussianMmdSpec s;
    s.notion = notion;
    s.target = target;
    s.conditioning = {PredictionKernelShape::sqexp, notion == MmdNotion::individual ? Metric::euclidean : Metric::w2, 0.8};
    s.target_lengthscale = target == GaussianTarget::pit ? 0.3 : 0.9;
    s.threshold = 0.2;
    if (notion == MmdNotion::individual) s.features = f.features;
    return s;
}

}  // namespace

TEST_SUITE("mmd") {

TEST_CASE("Gaussian MMD² block gradient: central differences in (mu, log sigma), every target and notion") {
    const Forecasts f = forecasts(23, 41);  // blocks of 5: 4 blocks, 3 rows dropped
    const std::size_t block = 5;
    for (MmdNotion notion : {MmdNotion::distribution, MmdNotion::individual, MmdNotion::marginal})
        for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment, GaussianTarget::pit}) {
            CAPTURE(to_string(notion));
            CAPTURE(static_cast<int>(target));
            const GaussianMmdSpec spec = spec_of(notion, target, f);
            const Eigen::Index n = f.mu.size();
            Vector x(2 * n);  // (μ, log σ)
            x << f.mu, f.sigma.array().log().matrix();
            const auto value = [&](const Vector& v) {
                const Vector mu = v.head(n), sigma = v.tail(n).array().exp().matrix();
                return detail::normal_mmd_block_value_gradient(mu, sigma, f.y, spec, block).value;
            };
            const detail::NormalMmdValueGradient g = detail::normal_mmd_block_value_gradient(f.mu, f.sigma, f.y, spec, block);
            Vector analytic(2 * n);
            analytic << g.mean, g.log_stddev;
            const Vector numeric = test::central_differences(value, x);
            CHECK(test::relative_error(analytic, numeric) < 1e-6);
            CHECK(analytic.cwiseAbs().maxCoeff() > 1e-3);                  // not a vanishing gradient
            CHECK(analytic.tail(3).cwiseAbs().maxCoeff() == 0.0);          // the dropped rows
            CHECK(analytic.segment(n - 3, 3).cwiseAbs().maxCoeff() == 0.0);
            // The value is mmd_block's, which the pairwise engine computes from the closed forms.
            const NormalData data(f.mu, f.sigma, f.y);
            const double engine = mmd_block(data, spec, block).estimate;
            CHECK(std::abs(g.value - engine) <= 1e-12 * std::max(1.0, std::abs(engine)));
            const MmdNormalGradient pub = mmd_block_gradient(data, spec, block);
            CHECK(pub.estimate == g.value);
            CHECK(pub.mean == g.mean);
            CHECK(pub.log_stddev == g.log_stddev);
        }
}

TEST_CASE("Gaussian MMD² unbiased gradient: the one-block gradient, every target and notion; 1 vs 2 threads bitwise") {
    const Forecasts f = forecasts(23, 44);
    const NormalData data(f.mu, f.sigma, f.y);
    for (MmdNotion notion : {MmdNotion::distribution, MmdNotion::individual, MmdNotion::marginal})
        for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment, GaussianTarget::pit})
            for (MmdMarginalisation m : {MmdMarginalisation::analytic, MmdMarginalisation::mc_paired, MmdMarginalisation::mc_all_pairs}) {
                if (target == GaussianTarget::sign && m != MmdMarginalisation::analytic) continue;
                CAPTURE(to_string(notion));
                CAPTURE(static_cast<int>(target));
                CAPTURE(static_cast<int>(m));
                GaussianMmdSpec spec = spec_of(notion, target, f);
                spec.marginalisation = m;
                spec.samples = 3;
                const MmdNormalGradient all = mmd_unbiased_gradient(data, spec);
                const MmdNormalGradient block = mmd_block_gradient(data, spec, 23);  // B = n: one block
                CHECK(test::relative_error(all.mean, block.mean) < 1e-12);
                CHECK(test::relative_error(all.log_stddev, block.log_stddev) < 1e-12);
                CHECK(all.estimate == mmd_unbiased(data, spec).estimate);
                CHECK(std::abs(all.estimate - block.estimate) <= 1e-12 * std::max(1.0, std::abs(block.estimate)));
            }
    const Forecasts big = forecasts(700, 45);  // three strips of the engine's Gram product
    const NormalData big_data(big.mu, big.sigma, big.y);
    for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::pit}) {
        const GaussianMmdSpec spec = spec_of(MmdNotion::distribution, target, big);
        const MmdNormalGradient one = mmd_unbiased_gradient(big_data, spec, {1, nullptr});
        const MmdNormalGradient two = mmd_unbiased_gradient(big_data, spec, {2, nullptr});
        CHECK(std::memcmp(one.mean.data(), two.mean.data(), sizeof(double) * 700) == 0);
        CHECK(std::memcmp(one.log_stddev.data(), two.log_stddev.data(), sizeof(double) * 700) == 0);
        CHECK(one.estimate == two.estimate);
    }
}

TEST_CASE("Gaussian MMD² block gradient: the distribution notion's k_Z derivative is included") {
    // With the marginal notion's gradient in place of distribution's plus the k_Z part, differences fail:
    // check that dropping the k_Z part changes the gradient (so the test above could fail).
    const Forecasts f = forecasts(20, 42);
    GaussianMmdSpec spec = spec_of(MmdNotion::distribution, GaussianTarget::rbf, f);
    const auto with = detail::normal_mmd_block_value_gradient(f.mu, f.sigma, f.y, spec, 10);
    spec.conditioning.lengthscale = 1e6;  // k_Z ≈ 1 and flat: the target part only
    const auto flat = detail::normal_mmd_block_value_gradient(f.mu, f.sigma, f.y, spec, 10);
    CHECK(test::relative_error(with.mean, flat.mean) > 1e-2);
}

TEST_CASE("Gaussian MMD² block gradient: errors") {
    const Forecasts f = forecasts(10, 43);
    const NormalData data(f.mu, f.sigma, f.y);
    GaussianMmdSpec spec = spec_of(MmdNotion::distribution, GaussianTarget::rbf, f);
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 11), doctest::Contains("block_size = 11"), invalid_argument);
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 1), doctest::Contains("block_size = 1"), invalid_argument);
    spec.conditioning.shape = PredictionKernelShape::exp;
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("sqexp"), invalid_argument);
    spec = spec_of(MmdNotion::individual, GaussianTarget::rbf, f);
    spec.features = Matrix();
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("features"), invalid_argument);
    spec = spec_of(MmdNotion::canonical, GaussianTarget::rbf, f);
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("canonical"), invalid_argument);
    // Z piecewise constant in the forecast (decision's Bayes act, threshold's indicators): refused, not
    // silently differentiated as if Z were absent.
    spec = spec_of(MmdNotion::marginal, GaussianTarget::sign, f);
    spec.notion = MmdNotion::decision;
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("not decision"), invalid_argument);
    spec = spec_of(MmdNotion::marginal, GaussianTarget::pit, f);
    spec.notion = MmdNotion::threshold;
    spec.thresholds = {{0.0, 0.5}};
    CHECK_THROWS_WITH_AS(mmd_unbiased_gradient(data, spec), doctest::Contains("not threshold"), invalid_argument);
    for (GaussianTarget t : {GaussianTarget::laplacian, GaussianTarget::tanh, GaussianTarget::min}) {
        spec = spec_of(MmdNotion::marginal, t, f);
        CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("target kernels"), invalid_argument);
    }
}

// The PIT presets are the existing notions with the pit target: quantile = marginal, local = individual
// (the same Z = features); their gradients are those, bitwise.
TEST_CASE("Gaussian MMD² gradient: quantile and local are marginal and individual with the pit target") {
    const Forecasts f = forecasts(30, 44);
    const NormalData data(f.mu, f.sigma, f.y);
    for (const auto& [preset, base] : {std::pair{MmdNotion::quantile, MmdNotion::marginal},
                                       std::pair{MmdNotion::local, MmdNotion::individual}}) {
        CAPTURE(to_string(preset));
        const GaussianMmdSpec b = spec_of(base, GaussianTarget::pit, f);
        GaussianMmdSpec p = b;
        p.notion = preset;
        const MmdNormalGradient gb = mmd_block_gradient(data, b, 6), gp = mmd_block_gradient(data, p, 6);
        CHECK(gp.estimate == gb.estimate);
        CHECK(gp.mean == gb.mean);
        CHECK(gp.log_stddev == gb.log_stddev);
        CHECK(gp.estimate == doctest::Approx(mmd_block(data, p, 6).estimate).epsilon(1e-12));
        const MmdNormalGradient ub = mmd_unbiased_gradient(data, b), up = mmd_unbiased_gradient(data, p);
        CHECK(up.mean == ub.mean);
        CHECK(up.log_stddev == ub.log_stddev);
    }
}

}  // TEST_SUITE

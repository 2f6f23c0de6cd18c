// Monte-Carlo marginalisation of the Gaussian conditional MMD (calib/mmd.hpp, MmdMarginalisation):
// against the closed forms (the mean over seeds within a few standard errors of the analytic estimate,
// and the spread over seeds shrinking like 1/√S), seeded reproducibility, 1 vs 2 threads bitwise, and
// the reparameterisation gradient in (μ, log σ) against central differences.
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

// Miscalibrated forecasts (σ too small by 0.7) with two features.
NormalData forecasts(Eigen::Index n, std::uint64_t seed, Matrix* features = nullptr) {
    Rng rng = make_stream(seed, 0);
    boost::random::normal_distribution<double> normal(0, 1);
    boost::random::uniform_real_distribution<double> uniform(0.5, 1.5);
    Vector mu(n), sigma(n), y(n);
    Matrix x(n, 2);
    for (Eigen::Index i = 0; i < n; ++i) {
        x(i, 0) = normal(rng), x(i, 1) = normal(rng);
        mu[i] = x(i, 0);
        sigma[i] = uniform(rng);
        y[i] = mu[i] + sigma[i] / 0.7 * normal(rng);
    }
    if (features) *features = x;
    return NormalData(mu, sigma, y);
}

GaussianMmdSpec spec_of(GaussianTarget target, MmdMarginalisation m, std::size_t samples, std::uint64_t seed) {
    GaussianMmdSpec s;
    s.notion = MmdNotion::distribution;
    s.conditioning.lengthscale = 1.2;
    s.target = target;
    s.target_lengthscale = target == GaussianTarget::pit ? 0.3 : 1.0;
    s.threshold = 0.3;
    s.marginalisation = m;
    s.samples = samples;
    s.seed = seed;
    return s;
}

}  // namespace

TEST_SUITE("mmd") {

TEST_CASE("MC marginalisation: unbiased for the closed form, spread ~ 1/sqrt(S), both schemes, every target") {
    const NormalData data = forecasts(30, 61);
    constexpr int replicates = 30;
    for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment, GaussianTarget::pit})
        for (MmdMarginalisation m : {MmdMarginalisation::mc_paired, MmdMarginalisation::mc_all_pairs}) {
            CAPTURE(static_cast<int>(target));
            CAPTURE(static_cast<int>(m));
            const double exact = mmd_unbiased(data, spec_of(target, MmdMarginalisation::analytic, 1, 0)).estimate;
            double sd[2];
            const std::size_t sizes[2] = {4, 36};
            for (int k = 0; k < 2; ++k) {
                double sum = 0, sum2 = 0;
                for (int r = 0; r < replicates; ++r) {
                    const double e = mmd_unbiased(data, spec_of(target, m, sizes[k], 100 + r)).estimate;
                    sum += e, sum2 += e * e;
                }
                const double mean = sum / replicates;
                sd[k] = std::sqrt((sum2 - replicates * mean * mean) / (replicates - 1));
                const double standard_error = sd[k] / std::sqrt(double(replicates));
                MESSAGE("target ", int(target), " scheme ", int(m), " S = ", sizes[k], ": mean ", mean, " vs exact ", exact,
                        ", sd ", sd[k]);
                CHECK(std::abs(mean - exact) <= 4 * standard_error);
                CHECK(sd[k] > 0);
            }
            // 9 times the samples: a third of the spread (the band allows the sd's own sampling error).
            CHECK(sd[1] / sd[0] > 0.2);
            CHECK(sd[1] / sd[0] < 0.5);
        }
}

TEST_CASE("MC marginalisation: seeded, and bitwise the same for 1 and 2 threads") {
    Matrix x;
    const NormalData data = forecasts(300, 62, &x);
    for (MmdMarginalisation m : {MmdMarginalisation::mc_paired, MmdMarginalisation::mc_all_pairs}) {
        GaussianMmdSpec spec = spec_of(GaussianTarget::rbf, m, m == MmdMarginalisation::mc_paired ? 10 : 3, 7);
        spec.notion = MmdNotion::individual;
        spec.conditioning.metric = Metric::euclidean;
        spec.features = x;
        const double one = mmd_unbiased(data, spec, {1, nullptr}).estimate;
        const double two = mmd_unbiased(data, spec, {2, nullptr}).estimate;
        CHECK(std::memcmp(&one, &two, sizeof(double)) == 0);
        const double block1 = mmd_block(data, spec, 17, {1, nullptr}).estimate;
        const double block2 = mmd_block(data, spec, 17, {2, nullptr}).estimate;
        CHECK(std::memcmp(&block1, &block2, sizeof(double)) == 0);
        CHECK(mmd_unbiased(data, spec, {2, nullptr}).estimate == one);  // the same seed again
        spec.seed = 8;
        CHECK(mmd_unbiased(data, spec, {2, nullptr}).estimate != one);
    }
}

TEST_CASE("MC marginalisation: the reparameterisation gradient equals central differences (rbf, moment, pit)") {
    Matrix x;
    const NormalData data = forecasts(17, 64, &x);  // blocks of 4: one row dropped
    const Vector mu = data.mean(), sigma = data.stddev(), y = data.targets();
    const Eigen::Index n = mu.size();
    for (MmdNotion notion : {MmdNotion::distribution, MmdNotion::individual, MmdNotion::marginal})
        for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::moment, GaussianTarget::pit})
            for (MmdMarginalisation m : {MmdMarginalisation::mc_paired, MmdMarginalisation::mc_all_pairs}) {
                CAPTURE(to_string(notion));
                CAPTURE(static_cast<int>(target));
                CAPTURE(static_cast<int>(m));
                GaussianMmdSpec spec = spec_of(target, m, 5, 11);
                spec.notion = notion;
                if (notion == MmdNotion::individual) spec.features = x, spec.conditioning.metric = Metric::euclidean;
                Vector theta(2 * n);
                theta << mu, sigma.array().log().matrix();
                const auto value = [&](const Vector& v) {
                    return detail::normal_mmd_block_value_gradient(v.head(n), v.tail(n).array().exp().matrix(), y, spec, 4).value;
                };
                const detail::NormalMmdValueGradient g = detail::normal_mmd_block_value_gradient(mu, sigma, y, spec, 4);
                Vector analytic(2 * n);
                analytic << g.mean, g.log_stddev;
                CHECK(test::relative_error(analytic, test::central_differences(value, theta)) < 1e-6);
                CHECK(analytic.cwiseAbs().maxCoeff() > 1e-3);
                // The value is the engine's, with the same draws.
                const double engine = mmd_block(data, spec, 4).estimate;
                CHECK(std::abs(g.value - engine) <= 1e-12 * std::max(1.0, std::abs(engine)));
            }
}

TEST_CASE("MC marginalisation: one sample, all-pairs equals paired; errors") {
    const NormalData data = forecasts(40, 63);
    // With S = 1 the two schemes are the same estimator, with the same draws.
    const double paired = mmd_unbiased(data, spec_of(GaussianTarget::rbf, MmdMarginalisation::mc_paired, 1, 3)).estimate;
    const double all = mmd_unbiased(data, spec_of(GaussianTarget::rbf, MmdMarginalisation::mc_all_pairs, 1, 3)).estimate;
    CHECK(paired == all);
    CHECK_THROWS_WITH_AS(mmd_unbiased(data, spec_of(GaussianTarget::rbf, MmdMarginalisation::mc_paired, 0, 3)),
                         doctest::Contains("samples = 0"), invalid_argument);
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec_of(GaussianTarget::sign, MmdMarginalisation::mc_paired, 5, 3), 5),
                         doctest::Contains("sign kernel"), invalid_argument);
}

}  // TEST_SUITE

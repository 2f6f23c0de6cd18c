// Extreme but finite inputs (|μ| up to 1e300, σ from 1e-300 to 1e300, probabilities of 1e-300):
// distances do not overflow, the median heuristic is the exact median, and no estimate or test turns
// NaN. References: distances by std::hypot on the pair (which scales before squaring), medians by a
// full sort, and limits (a prediction spread over 1e300 contributes 0 to the expectations, as one
// spread over 1e150 does to 1e-150).
#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>
#include <calib/kernels.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace calib;

namespace {

constexpr std::size_t n = 60;

struct Columns {
    Vector mean, spread, targets;
};

// Calibrated normal-like columns with a few extreme rows.
Columns extreme_columns(double big_spread = 1e300) {
    test::Rng rng(31);
    const NormalData base = test::normal_data(n, rng);
    Columns c{base.mean(), base.stddev(), base.targets()};
    c.mean(7) = 1e300, c.mean(8) = -1e300, c.targets(9) = 1e300;
    c.spread(3) = 1e-300, c.spread(4) = big_spread;
    return c;
}

// The median of the values, the mean of the two middle ones for an even count.
double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

// The kernel with its lengthscale from the exact median; the median, the unbiased SKCE and the
// gamma test's p-value must all be finite.
template <class Data>
void check_finite_with_median(const Data& data, Kernel kernel) {
    kernel.prediction.lengthscale = median_distance(data, kernel.prediction.metric);
    CHECK(std::isfinite(kernel.prediction.lengthscale));
    CHECK(std::isfinite(skce_unbiased(data, kernel)));
    CHECK(std::isfinite(gamma_test(data, kernel).p_value));
}

}  // namespace

TEST_SUITE("extremes") {

TEST_CASE("W2 distances and their median at extreme means and spreads") {
    const Columns c = extreme_columns();
    const NormalData normal(c.mean, c.spread, c.targets);
    const LaplaceData laplace(c.mean, c.spread, c.targets);
    std::vector<double> normal_reference, laplace_reference;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const auto a = static_cast<Eigen::Index>(i), b = static_cast<Eigen::Index>(j);
            // W2 of normals: ‖(μ, σ) − (μ', σ')‖; of Laplace laws: ‖(μ, √2β) − (μ', √2β')‖.
            normal_reference.push_back(std::hypot(c.mean(a) - c.mean(b), c.spread(a) - c.spread(b)));
            laplace_reference.push_back(std::hypot(c.mean(a) - c.mean(b), std::sqrt(2.0) * (c.spread(a) - c.spread(b))));
            const double d = prediction_distance(normal, Metric::w2, i, j);
            REQUIRE(std::isfinite(d));
            CHECK(relative(d, normal_reference.back()) < 4e-16);
        }
    CHECK(prediction_distance(normal, Metric::w2, 7, 8) == doctest::Approx(2e300).epsilon(1e-15));
    CHECK(prediction_distance(normal, Metric::w2, 4, 7) == doctest::Approx(std::hypot(1e300, 1e300)).epsilon(1e-15));
    CHECK(relative(median_distance(normal, Metric::w2), median_of(normal_reference)) < 4e-16);
    CHECK(relative(median_distance(laplace, Metric::w2), median_of(laplace_reference)) < 4e-16);
}

TEST_CASE("distances below the square root of the smallest double are not lost to underflow") {
    Vector mean(3), spread(3), targets(3);
    mean << 0, 3e-300, 0;
    spread << 1e-300, 1e-300, 5e-300;
    targets << 0, 0, 0;
    const NormalData tiny(mean, spread, targets);
    CHECK(prediction_distance(tiny, Metric::w2, 0, 1) == doctest::Approx(3e-300).epsilon(1e-14));
    CHECK(prediction_distance(tiny, Metric::w2, 0, 2) == doctest::Approx(4e-300).epsilon(1e-14));
    CHECK(prediction_distance(tiny, Metric::w2, 1, 2) == doctest::Approx(5e-300).epsilon(1e-14));
    CHECK(median_distance(tiny, Metric::w2) == doctest::Approx(4e-300).epsilon(1e-14));
}

TEST_CASE("estimates and tests stay finite; a spread of 1e300 acts as its limit") {
    const Columns c = extreme_columns();
    const NormalData normal(c.mean, c.spread, c.targets);
    Kernel kernel = default_kernel<NormalData>();
    kernel.prediction.lengthscale = median_distance(normal, Metric::w2);
    const double unbiased = skce_unbiased(normal, kernel);
    const double biased = skce_biased(normal, kernel);
    CHECK(std::isfinite(unbiased));
    CHECK(std::isfinite(biased));
    // With σ = 1e150 the expectations involving the spread-out prediction are below 1e-150: the
    // same estimates as σ = 1e300 (where σ² overflows), to rounding.
    const Columns d = extreme_columns(1e150);
    const NormalData wide(d.mean, d.spread, d.targets);
    Kernel same = kernel;
    same.prediction.lengthscale = median_distance(wide, Metric::w2);
    CHECK(same.prediction.lengthscale == kernel.prediction.lengthscale);  // the extreme pairs are above the median
    CHECK(relative(skce_unbiased(wide, same), unbiased) < 1e-12);
    CHECK(relative(skce_biased(wide, same), biased) < 1e-12);
    const TestResult gamma = gamma_test(normal, kernel);
    CHECK(gamma.p_value >= 0);
    CHECK(gamma.p_value <= 1);
    BootstrapOptions bootstrap;
    bootstrap.replicates = 50;
    const TestResult boot = bootstrap_test(normal, kernel, bootstrap);
    CHECK(boot.estimate == unbiased);
    CHECK(boot.p_value >= 0);

    check_finite_with_median(LaplaceData(c.mean, c.spread, c.targets), default_kernel<LaplaceData>());

    Matrix means(n, 2), spreads(n, 2), targets(n, 2);
    means << c.mean, c.mean.reverse();
    spreads << c.spread, c.spread.reverse();
    targets << c.targets, c.targets.reverse();
    check_finite_with_median(MvNormalData::diagonal(means, spreads, targets), default_kernel<NormalData>());
}

TEST_CASE("full covariances and mixtures with extreme entries") {
    Columns c = extreme_columns(1e150);
    c.spread(3) = 1e-150;  // a covariance of 1e-300 (σ = 1e-300 would make it singular, which is refused)
    std::vector<Matrix> covariances;
    Matrix means(n, 2), targets(n, 2);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        const double s2 = c.spread(r) * c.spread(r);
        Matrix cov(2, 2);
        cov << s2, 0.5 * s2, 0.5 * s2, s2;
        covariances.push_back(cov);
        means.row(r) << c.mean(r), 0.5 * c.mean(r);
        targets.row(r) << c.targets(r), c.targets(r);
    }
    const MvNormalData full = MvNormalData::full(means, covariances, targets);
    // W2 between the two far-apart means with equal covariances is the distance of the means.
    CHECK(prediction_distance(full, Metric::w2, 7, 8) == doctest::Approx(std::hypot(2e300, 1e300)).epsilon(1e-14));
    CHECK(std::isfinite(prediction_distance(full, Metric::w2, 4, 7)));
    check_finite_with_median(full, default_kernel<NormalData>());

    Matrix weights(n, 2), mixture_means(n, 2), mixture_spreads(n, 2);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        weights.row(r) << 0.5, 0.5;
        mixture_means.row(r) << c.mean(r), c.mean(r) + 1;
        mixture_spreads.row(r) << c.spread(r), 1;
    }
    mixture_spreads(4, 0) = 1e300;
    const MixtureNormalData mixture(weights, mixture_means, mixture_spreads, c.targets);
    // Components paired in order: the far pair of means (1e300 vs -1e300) dominates.
    CHECK(prediction_distance(mixture, Metric::w2, 7, 8) == doctest::Approx(2e300).epsilon(1e-14));
    check_finite_with_median(mixture, default_kernel<NormalData>());
}

TEST_CASE("probabilities of 1e-300") {
    test::Rng rng(5);
    CategoricalData base = synthetic::dirichlet_data(n, 3, 1.0, rng);
    Matrix p = base.probabilities();
    p.row(0) << 1 - 2e-300, 1e-300, 1e-300;
    p.row(1) << 1e-300, 1.0, 0.0;
    const CategoricalData data(p, base.labels());
    check_finite_with_median(data, default_kernel<CategoricalData>());
    CHECK(prediction_distance(data, Metric::euclidean, 0, 1) == doctest::Approx(std::sqrt(2.0)).epsilon(1e-15));
}

}  // TEST_SUITE

// The affine Gaussian map with a feature (recalibration.hpp, affine-features: log σ′ = log σ + s0 +
// s1|x|): its NLL gradient against central differences, recovery of known parameters, the JSON round
// trip, application, and errors.
#include <calib/errors.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>

#include "finite_difference.hpp"
#include "recalibration/objective.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

using namespace calib;

namespace {

// x ~ U[−2, 2], forecasts N(μ, σ²) with μ ~ N(0, 1), σ ~ U[0.5, 1.5]; targets from
// N(a μ + b, (σ e^{s0 + s1|x|})²).
struct Heteroscedastic {
    NormalData data;
    Matrix x;
};

Heteroscedastic heteroscedastic(std::size_t n, double a, double b, double s0, double s1, std::uint64_t seed) {
    Rng rng = make_stream(seed, 0);
    boost::random::normal_distribution<double> normal;
    boost::random::uniform_real_distribution<double> uniform(-2, 2), width(0.5, 1.5);
    Vector mean(static_cast<Eigen::Index>(n)), stddev(mean.size()), y(mean.size());
    Matrix x(mean.size(), 1);
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
        x(i, 0) = uniform(rng);
        mean[i] = normal(rng);
        stddev[i] = width(rng);
        y[i] = a * mean[i] + b + stddev[i] * std::exp(s0 + s1 * std::abs(x(i, 0))) * normal(rng);
    }
    return {NormalData(mean, stddev, y), x};
}

}  // namespace

TEST_SUITE("recalibration") {

TEST_CASE("affine-features: the NLL gradient equals central differences") {
    const Heteroscedastic h = heteroscedastic(50, 1.2, 0.3, -0.2, 0.4, 41);
    const Vector abs_x = h.x.col(0).cwiseAbs();
    Vector theta(4);
    theta << 0.8, -0.2, 0.3, -0.5;
    Vector analytic;
    detail::normal_objective(h.data, theta, &analytic, abs_x);
    const Vector numeric = test::central_differences(
        [&](const Vector& t) { return detail::normal_objective(h.data, t, nullptr, abs_x); }, theta);
    CHECK(test::relative_error(analytic, numeric) < 1e-7);
    // s1 = 0 gives the affine map's objective.
    theta[3] = 0;
    CHECK(detail::normal_objective(h.data, theta, nullptr, abs_x) ==
          doctest::Approx(detail::normal_objective(h.data, theta.head(3), nullptr)).epsilon(1e-14));
}

TEST_CASE("affine-features recovers known (a, b, s0, s1); the plain affine map cannot") {
    const Heteroscedastic h = heteroscedastic(20000, 1.5, -0.3, -0.5, 0.6, 42);
    const RecalibrationFit map_fit = fit_recalibration(h.data, h.x);
    const RecalibrationMap& map = map_fit.map;
    CHECK(map_fit.summary.termination == calib::FitTermination::converged);
    // Standard errors at n = 2·10⁴ are ≈ 0.01 (s0, s1) and below for a, b: 0.05 is over 4 of them.
    CHECK(std::abs(map.parameters[0] - 1.5) < 0.05);
    CHECK(std::abs(map.parameters[1] + 0.3) < 0.05);
    CHECK(std::abs(map.parameters[2] + 0.5) < 0.05);
    CHECK(std::abs(map.parameters[3] - 0.6) < 0.05);
    CHECK(map_fit.summary.objective_after == doctest::Approx(recalibrated_nll(map, h.data, h.x)).epsilon(1e-14));
    const RecalibrationFit plain_fit = fit_recalibration(h.data);
    CHECK(map_fit.summary.objective_after < plain_fit.summary.objective_after - 0.01);
    // Applied: σ′ = σ e^{s0 + s1|x|}, μ′ = a μ + b.
    const Matrix out = apply_recalibration(map, h.data.mean(), h.data.stddev(), h.x);
    const Eigen::Index i = 7;
    CHECK(out(i, 0) == doctest::Approx(map.parameters[0] * h.data.mean()[i] + map.parameters[1]).epsilon(1e-15));
    CHECK(out(i, 1) == doctest::Approx(h.data.stddev()[i] *
                                       std::exp(map.parameters[2] + map.parameters[3] * std::abs(h.x(i, 0))))
                           .epsilon(1e-15));
}

TEST_CASE("affine-features: JSON round trip and errors") {
    const Heteroscedastic h = heteroscedastic(200, 1.0, 0.0, 0.1, 0.2, 43);
    const RecalibrationFit map_fit = fit_recalibration(h.data, h.x);
    const RecalibrationMap& map = map_fit.map;
    const std::string json = to_json(map_fit);
    CHECK(json.find("\"s1\": ") != std::string::npos);
    const RecalibrationFit back_fit = recalibration_fit_from_json(json);
    const RecalibrationMap& back = back_fit.map;
    CHECK(back.method == RecalibrationMethod::affine_features);
    CHECK(std::memcmp(back.parameters.data(), map.parameters.data(), sizeof(double) * 4) == 0);
    CHECK(to_json(back_fit) == json);

    CHECK_THROWS_WITH_AS(apply_recalibration(map, h.data.mean(), h.data.stddev()),
                         doctest::Contains("needs the features"), invalid_argument);
    CHECK_THROWS_WITH_AS(apply_recalibration(fit_recalibration(h.data).map, h.data.mean(), h.data.stddev(), h.x),
                         doctest::Contains("features apply only to method = affine-features"), invalid_argument);
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, RecalibrationMethod::affine_features),
                         doctest::Contains("needs the features"), invalid_argument);
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, h.x, RecalibrationMethod::affine),
                         doctest::Contains("features apply only"), invalid_argument);
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, Matrix(h.x.topRows(10))), doctest::Contains("must be n = 200 x 1"),
                         invalid_argument);
    Matrix two(200, 2);
    two.setZero();
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, two), doctest::Contains("200 x 2"), invalid_argument);
    Matrix bad = h.x;
    bad(3, 0) = std::nan("");
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, bad), doctest::Contains("features"), invalid_argument);
    CHECK(parse_recalibration_method("affine-features") == RecalibrationMethod::affine_features);
    CHECK_FALSE(is_categorical(RecalibrationMethod::affine_features));
}

}  // TEST_SUITE

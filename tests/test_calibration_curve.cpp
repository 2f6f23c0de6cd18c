// The flexible calibration curve: loess against R's published output and an independent weighted
// least-squares fit, its rules at ties, and the ICI family against closed forms (docs/math.md §8).
#include <calib/calibration_curve.hpp>

#include "support.hpp"

#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace calib;

namespace {

Vector vec(const std::vector<double>& v) { return Eigen::Map<const Vector>(v.data(), Eigen::Index(v.size())); }

// Binary data: p ~ U(0, 1) and y ~ Bernoulli(truth(p)).
template <class Truth>
CategoricalData binary_data(std::size_t n, test::Rng& rng, Truth truth) {
    boost::random::uniform_01<double> u;
    Vector p(Eigen::Index(n), 1);
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        p[Eigen::Index(i)] = u(rng);
        y[i] = u(rng) < truth(p[Eigen::Index(i)]) ? 1 : 0;
    }
    return CategoricalData::from_binary(p, y);
}

}  // namespace

TEST_CASE("loess: R's predict.loess example on the cars data, to the printed digits") {
    // R's documentation of predict.loess (package stats): cars.lo <- loess(dist ~ speed, cars);
    // predict(cars.lo, data.frame(speed = seq(5, 30, 1))) prints these fits for speeds 5 … 25 and NA
    // for 26 … 30 (outside the k-d tree's box). The cars data: Ezekiel (1930), R's datasets package.
    const std::vector<double> speed{4,  4,  7,  7,  8,  9,  10, 10, 10, 11, 11, 12, 12, 12, 12, 13, 13,
                                    13, 13, 14, 14, 14, 14, 15, 15, 15, 16, 16, 17, 17, 17, 18, 18, 18,
                                    18, 19, 19, 19, 20, 20, 20, 20, 20, 22, 23, 24, 24, 24, 24, 25};
    const std::vector<double> dist{2,  10, 4,  22, 16, 10, 18, 26, 34, 17, 28, 14, 20, 24, 28, 26, 34,
                                   34, 46, 26, 36, 60, 80, 20, 26, 54, 32, 40, 32, 40, 50, 42, 56, 76,
                                   84, 36, 46, 68, 32, 48, 52, 56, 64, 66, 54, 70, 92, 93, 120, 85};
    const std::vector<double> printed{7.797353,  10.002308, 12.499786, 15.281082, 18.446568, 21.865315,
                                      25.517015, 29.350386, 33.230660, 37.167935, 41.205226, 45.055736,
                                      48.355889, 49.824812, 51.986702, 56.461318, 61.959729, 68.569313,
                                      76.316068, 85.212121, 95.324047};
    std::vector<double> at;
    for (int s = 5; s <= 30; ++s) at.push_back(s);
    for (int threads : {1, 2}) {
        const Vector fit = loess(vec(speed), vec(dist), vec(at), {}, ParallelOptions{threads});
        for (std::size_t i = 0; i < printed.size(); ++i) {
            CAPTURE(at[i]);
            CHECK(std::abs(fit[Eigen::Index(i)] - printed[i]) <= 5e-7);
        }
        for (std::size_t i = printed.size(); i < at.size(); ++i) CHECK(std::isnan(fit[Eigen::Index(i)]));
    }
}

TEST_CASE("loess direct: the weighted least-squares polynomial of the q nearest, fitted independently") {
    test::Rng rng(3);
    boost::random::uniform_01<double> u;
    const std::size_t n = 60;
    std::vector<double> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = u(rng), y[i] = u(rng) < 0.3 + 0.4 * x[i] ? 1 : 0;
    for (int degree : {1, 2}) {
        LoessOptions o;
        o.surface = LoessSurface::direct;
        o.degree = degree;
        o.span = 0.4;
        const std::vector<double> at{0.05, 0.31, 0.5, 0.77, 1.2};  // 1.2: outside the data (extrapolated)
        const Vector fit = loess(vec(x), vec(y), vec(at), o);
        const std::size_t q = std::size_t(std::floor(n * 0.4 + 1e-5));
        for (std::size_t k = 0; k < at.size(); ++k) {
            std::vector<double> d(n);
            for (std::size_t i = 0; i < n; ++i) d[i] = std::abs(x[i] - at[k]);
            std::vector<double> sorted = d;
            std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(q - 1), sorted.end());
            const double h = sorted[q - 1];
            Eigen::MatrixXd design(n, degree + 1);
            Eigen::VectorXd target(n);
            for (std::size_t i = 0; i < n; ++i) {
                const double w = d[i] < h ? std::sqrt(std::pow(1 - std::pow(d[i] / h, 3), 3)) : 0.0;
                for (int j = 0; j <= degree; ++j) design(Eigen::Index(i), j) = w * std::pow(x[i] - at[k], j);
                target[Eigen::Index(i)] = w * y[i];
            }
            const double reference = design.colPivHouseholderQr().solve(target)[0];
            CAPTURE(degree);
            CAPTURE(at[k]);
            CHECK(fit[Eigen::Index(k)] == doctest::Approx(reference).epsilon(1e-10));
        }
    }
}

TEST_CASE("loess: polynomials of its degree are reproduced; ties and too few distinct points") {
    test::Rng rng(4);
    boost::random::uniform_01<double> u;
    std::vector<double> x(40), quadratic(40), line(40);
    for (std::size_t i = 0; i < x.size(); ++i)
        x[i] = u(rng), quadratic[i] = 1 - 2 * x[i] + 3 * x[i] * x[i], line[i] = 0.5 - x[i];
    for (LoessSurface surface : {LoessSurface::direct, LoessSurface::interpolate}) {
        LoessOptions o;
        o.surface = surface;
        const Vector fit2 = loess(vec(x), vec(quadratic), vec(x), o);
        o.degree = 1;
        const Vector fit1 = loess(vec(x), vec(line), vec(x), o);
        for (std::size_t i = 0; i < x.size(); ++i) {
            // Interpolating between exact vertex values and slopes is exact for a quadratic's cubic Hermite.
            CHECK(std::abs(fit2[Eigen::Index(i)] - quadratic[i]) < 1e-10);
            CHECK(std::abs(fit1[Eigen::Index(i)] - line[i]) < 1e-10);
        }
    }
    // More than q observations tied at x0: the mean of their y. Two values with span 1: at 0 the
    // observations at 1 are on the boundary (weight 0), so the fit is the mean there too.
    LoessOptions o;
    o.surface = LoessSurface::direct;
    const std::vector<double> tied{0, 0, 0, 0, 0, 0, 0.5, 1}, outcome{1, 0, 0, 1, 1, 1, 0, 0};
    CHECK(loess(vec(tied), vec(outcome), vec({0.0}), o)[0] == doctest::Approx(4.0 / 6));
    o.span = 1;
    const std::vector<double> two{0, 0, 0, 1, 1, 1}, y2{1, 0, 0, 1, 1, 1};
    CHECK(loess(vec(two), vec(y2), vec({0.0, 1.0}), o).isApprox(vec({1.0 / 3, 1.0})));
    // Halfway, every neighbour is on the boundary: the mean of the observations at that distance.
    CHECK(loess(vec(two), vec(y2), vec({0.5}), o)[0] == doctest::Approx(4.0 / 6));
    // Constant predictions: the curve is the mean outcome, at the vertices beside them too.
    for (double value : {0.3, 0.1, 0.7, 1.0 / 3, 0.123456789}) {  // x0 ± h need not round back to the value
        CAPTURE(value);
        const CategoricalData constant = CategoricalData::from_binary(Vector::Constant(5, value), {1, 0, 0, 1, 1});
        const FlexibleCalibration f = flexible_calibration(constant);
        CHECK(f.ici == doctest::Approx(std::abs(0.6 - value)));
        CHECK(f.curve.isApprox(Vector::Constant(5, 0.6)));
    }
}

TEST_CASE("flexible_calibration: ICI, E50, E90, Emax near their closed forms") {
    // P(Y = 1 | p) = p² for p ~ U(0, 1): |p² − p| has mean 1/6, median 3/16, 90th percentile 0.2475
    // (1 − √(1 − 4t) = share below t) and maximum 1/4.
    test::Rng rng(8);
    const CategoricalData data = binary_data(20000, rng, [](double p) { return p * p; });
    const FlexibleCalibration f = flexible_calibration(data);
    CHECK(f.n == 20000);
    CHECK(f.neighbours == 15000);
    CHECK(f.ici == doctest::Approx(1.0 / 6).epsilon(0.05));
    CHECK(f.e50 == doctest::Approx(3.0 / 16).epsilon(0.05));
    CHECK(f.e90 == doctest::Approx(0.2475).epsilon(0.05));
    CHECK(f.emax == doctest::Approx(0.25).epsilon(0.08));
    CHECK(f.intervals.empty());
    // A calibrated model: small errors.
    const FlexibleCalibration calibrated = flexible_calibration(binary_data(20000, rng, [](double p) { return p; }));
    CHECK(calibrated.ici < 0.01);
    CHECK(calibrated.emax < 0.03);
}

TEST_CASE("flexible_calibration: bootstrap intervals, the same for any thread count; argument checks") {
    test::Rng rng(9);
    const CategoricalData data = binary_data(400, rng, [](double p) { return 0.2 + 0.6 * p; });
    FlexibleCalibrationOptions o;
    o.resampling.replicates = 50;
    o.resampling.seed = 11;
    o.parallel.num_threads = 1;
    const FlexibleCalibration one = flexible_calibration(data, o);
    o.parallel.num_threads = 2;
    const FlexibleCalibration two = flexible_calibration(data, o);
    REQUIRE(one.intervals.size() == 4);
    const double summaries[] = {one.ici, one.e50, one.e90, one.emax};
    for (std::size_t k = 0; k < 4; ++k) {
        CHECK(one.intervals[k].replicates == two.intervals[k].replicates);
        CHECK(one.intervals[k].replicates.size() == 50);
        CHECK(one.intervals[k].estimate == summaries[k]);
        CHECK(one.intervals[k].lower <= one.intervals[k].upper);
    }
    CHECK(one.ici > one.intervals[0].lower);
    CHECK(one.ici < one.intervals[0].upper);
    o.resampling.seed = 12;
    CHECK(flexible_calibration(data, o).intervals[0].replicates != one.intervals[0].replicates);

    const CategoricalData three = CategoricalData(Matrix::Constant(4, 3, 1.0 / 3), {0, 1, 2, 0});
    CHECK_THROWS_WITH_AS(flexible_calibration(three), doctest::Contains("binary predictions"), invalid_argument);
    LoessOptions bad;
    bad.span = 0;
    CHECK_THROWS_AS(validate(bad, 100), invalid_argument);
    bad.span = 0.5, bad.degree = 3;
    CHECK_THROWS_AS(validate(bad, 100), invalid_argument);
    CHECK_THROWS_WITH_AS(validate(LoessOptions{}, 3), doctest::Contains("q = 2"), invalid_argument);  // ⌊0.75·3⌋
    CHECK_NOTHROW(validate(LoessOptions{}, 4));
    o.resampling.level = 1;
    CHECK_THROWS_AS(flexible_calibration(data, o), invalid_argument);
}

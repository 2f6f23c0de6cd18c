// Data containers: every validation rule raises calib::invalid_argument with the documented
// message and location; the logits and binary constructors; subsets.
#include <calib/data.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace calib;
using doctest::Approx;

namespace {
Matrix rows(std::initializer_list<std::initializer_list<double>> values) {
    Matrix m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.begin()->size()));
    Eigen::Index i = 0;
    for (const auto& r : values) {
        Eigen::Index k = 0;
        for (double v : r) m(i, k++) = v;
        ++i;
    }
    return m;
}

// The location an invalid_argument carries.
template <class F>
std::pair<long, long> location_of(F&& f) {
    try {
        f();
    } catch (const calib::invalid_argument& e) {
        return {e.row(), e.column()};
    }
    FAIL("no calib::invalid_argument thrown");
    return {-2, -2};
}
}  // namespace

TEST_SUITE("data") {

TEST_CASE("categorical validation") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_NOTHROW(CategoricalData(rows({{0.2, 0.8}, {1, 0}}), {1, 0}));
    CHECK_THROWS_WITH_AS(CategoricalData(rows({{0.2, 0.8}, {0.5, 0.6}}), {1, 0}),
                         "calib::CategoricalData: probabilities row 1 sums to 1.1000000000000001, must be on the "
                         "simplex (sum 1 within 1e-08)",
                         calib::invalid_argument);
    CHECK(location_of([&] { CategoricalData(rows({{0.2, 0.8}, {0.5, 0.6}}), {1, 0}); }) == std::pair<long, long>(1, -1));
    CHECK_THROWS_WITH_AS(CategoricalData(rows({{1.2, -0.2}}), {0}),
                         "calib::CategoricalData: probabilities(0, 0) = 1.2, must be in [0, 1]", calib::invalid_argument);
    CHECK(location_of([&] { CategoricalData(rows({{0.5, 0.5}, {0.5, nan}}), {0, 0}); }) == std::pair<long, long>(1, 1));
    CHECK_THROWS_WITH_AS(CategoricalData(rows({{0.5, 0.5}}), {2}),
                         "calib::CategoricalData: labels[0] = 2, must be in [0, 1] (0-based)", calib::invalid_argument);
    CHECK_THROWS_AS(CategoricalData(rows({{0.5, 0.5}}), {-1}), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(CategoricalData(rows({{0.5, 0.5}}), {0, 1}),
                         "calib::CategoricalData: probabilities has 1 rows but labels has 2; they must match",
                         calib::invalid_argument);
    CHECK_THROWS_AS(CategoricalData(Matrix(0, 2), {}), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(CategoricalData(rows({{1}}), {0}),
                         "calib::CategoricalData: probabilities has 1 column(s), must have m >= 2 classes",
                         calib::invalid_argument);
    // Within the simplex tolerance is accepted.
    CHECK_NOTHROW(CategoricalData(rows({{0.5, 0.5 + 5e-9}}), {0}));
}

TEST_CASE("logits and binary constructors") {
    const CategoricalData d = CategoricalData::from_logits(rows({{0, std::log(3.0)}, {1000, 0}}), {1, 0});
    CHECK(d.probabilities()(0, 1) == Approx(0.75).epsilon(1e-15));
    CHECK(d.probabilities()(1, 0) == 1.0);  // stable: no overflow for large logits
    CHECK_THROWS_AS(CategoricalData::from_logits(rows({{0, INFINITY}}), {0}), calib::invalid_argument);
    Vector p(2);
    p << 0.3, 1;
    const CategoricalData b = CategoricalData::from_binary(p, {1, 0});
    CHECK(b.probabilities()(0, 0) == Approx(0.7));
    CHECK(b.probabilities()(0, 1) == Approx(0.3));
    CHECK(b.labels() == std::vector<int>{1, 0});
    CHECK_THROWS_WITH_AS(CategoricalData::from_binary(p, {1, 2}),
                         "calib::CategoricalData::from_binary: y[1] = 2, must be 0 or 1", calib::invalid_argument);
    p(0) = 1.5;
    CHECK_THROWS_AS(CategoricalData::from_binary(p, {1, 0}), calib::invalid_argument);
}

TEST_CASE("normal and laplace validation") {
    Vector mu(2), sd(2), y(2);
    mu << 0, 1;
    sd << 1, 0;
    y << 0, 0;
    CHECK_THROWS_WITH_AS(NormalData(mu, sd, y), "calib::NormalData: stddev(1, 0) = 0, must be finite and > 0",
                         calib::invalid_argument);
    sd(1) = 2;
    CHECK_NOTHROW(NormalData(mu, sd, y));
    y(0) = NAN;
    CHECK_THROWS_AS(NormalData(mu, sd, y), calib::invalid_argument);
    y(0) = 0;
    CHECK_THROWS_AS(NormalData(mu, sd, Vector(3)), calib::invalid_argument);
    sd(0) = -1;
    CHECK_THROWS_WITH_AS(LaplaceData(mu, sd, y), "calib::LaplaceData: scale(0, 0) = -1, must be finite and > 0",
                         calib::invalid_argument);
    CHECK_THROWS_AS(NormalData(Vector(0), Vector(0), Vector(0)), calib::invalid_argument);
}

TEST_CASE("mvnormal validation") {
    const Matrix mean = rows({{0, 0}, {1, 1}});
    CHECK_NOTHROW(MvNormalData::diagonal(mean, rows({{1, 1}, {1, 2}}), mean));
    CHECK_THROWS_AS(MvNormalData::diagonal(mean, rows({{1, 1}, {1, 0}}), mean), calib::invalid_argument);
    CHECK_THROWS_AS(MvNormalData::diagonal(mean, rows({{1}, {1}}), mean), calib::invalid_argument);
    CHECK_THROWS_AS(MvNormalData::diagonal(mean, rows({{1, 1}, {1, 1}}), rows({{0}, {1}})), calib::invalid_argument);
    const Matrix good = rows({{2, 0.5}, {0.5, 1}});
    CHECK_NOTHROW(MvNormalData::full(mean, {good, good}, mean));
    CHECK_THROWS_WITH_AS(MvNormalData::full(mean, {good, rows({{1, 2}, {2, 1}})}, mean),
                         "calib::MvNormalData::full: covariances[1] is not positive definite (its Cholesky "
                         "factorisation fails)",
                         calib::invalid_argument);
    CHECK(location_of([&] { MvNormalData::full(mean, {good, rows({{1, 2}, {2, 1}})}, mean); }).first == 1);
    CHECK_THROWS_AS(MvNormalData::full(mean, {good, rows({{1, 0.2}, {0.3, 1}})}, mean), calib::invalid_argument);
    CHECK_THROWS_AS(MvNormalData::full(mean, {good}, mean), calib::invalid_argument);
    CHECK_THROWS_AS(MvNormalData::full(mean, {good, rows({{1}})}, mean), calib::invalid_argument);
}

TEST_CASE("subset") {
    const CategoricalData d(rows({{0.2, 0.8}, {1, 0}, {0.5, 0.5}}), {1, 0, 1});
    const CategoricalData s = subset(d, {2, 0, 2});
    CHECK(s.size() == 3);
    CHECK(s.labels() == std::vector<int>{1, 1, 1});
    CHECK(s.probabilities()(1, 1) == 0.8);
    CHECK_THROWS_WITH_AS(subset(d, {0, 3}), "calib::subset: indices[1] = 3, must be < n = 3", calib::invalid_argument);
    CHECK_THROWS_AS(subset(d, {}), calib::invalid_argument);
}

}  // TEST_SUITE

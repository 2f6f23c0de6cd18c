// Data containers: every validation rule raises calib::invalid_argument with the documented
// message and location; the logits and binary constructors; subsets.
#include <calib/data.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

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
                         "calib::CategoricalData: probabilities row 1 sums to 1.1, must be on the "
                         "simplex (sum 1 within 1e-06)",
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

// A row of m probabilities computed as a float32 softmax (exp, sum and division in float, as
// PyTorch and NumPy do for float32 tensors), widened to double.
Eigen::RowVectorXd float32_softmax(int m, unsigned seed) {
    std::vector<float> e(static_cast<std::size_t>(m));
    float sum = 0;
    for (int k = 0; k < m; ++k) {
        // Logits spread over [-8, 8] by a fixed sequence: a confident and a flat part.
        const float logit = static_cast<float>(((seed * 2654435761u + static_cast<unsigned>(k) * 40503u) % 1600u)) / 100.0f - 8.0f;
        e[static_cast<std::size_t>(k)] = std::exp(logit);
        sum += e[static_cast<std::size_t>(k)];
    }
    Eigen::RowVectorXd p(m);
    for (int k = 0; k < m; ++k) p(k) = static_cast<double>(e[static_cast<std::size_t>(k)] / sum);
    return p;
}

TEST_CASE("simplex tolerance: float32 softmax rows are accepted, rows off by 1e-3 are not") {
    // default_simplex_tolerance(m) = max(1e-6, m·2⁻²⁴).
    CHECK(default_simplex_tolerance(2) == 1e-6);
    CHECK(default_simplex_tolerance(1000) == 1000 * 0x1p-24);
    for (const int m : {2, 10, 100, 1000}) {
        CAPTURE(m);
        Matrix p(50, m);
        double worst = 0;
        for (int i = 0; i < 50; ++i) {
            p.row(i) = float32_softmax(m, static_cast<unsigned>(i + 1));
            worst = std::max(worst, std::abs(p.row(i).sum() - 1));
        }
        const CategoricalData d(p, std::vector<int>(50, 0));
        CHECK(d.max_simplex_deviation() == worst);
        CHECK(d.probabilities() == p);  // used as given, not renormalised
        if (m >= 10) CHECK(worst > 1e-8);  // the old tolerance rejected such files
        // A row off by 1e-3 (mass added to the first class) is rejected.
        Matrix off = p;
        off(7, 0) += 1e-3;
        CHECK(location_of([&] { CategoricalData(off, std::vector<int>(50, 0)); }) == std::pair<long, long>(7, -1));
    }
}

TEST_CASE("simplex options: a given tolerance, renormalisation, mixtures") {
    const Matrix p = rows({{0.5, 0.5 + 1e-4}, {0.25, 0.75}});
    CHECK_THROWS_AS(CategoricalData(p, {0, 1}), calib::invalid_argument);
    const CategoricalData loose(p, {0, 1}, SimplexOptions{1e-3, false});
    CHECK(loose.probabilities() == p);
    CHECK(loose.max_simplex_deviation() == Approx(1e-4).epsilon(1e-9));
    CHECK(loose.simplex_tolerance() == 1e-3);
    // Subsets keep the tolerance the data was checked with.
    CHECK_NOTHROW(subset(loose, {0, 0, 1}));
    const CategoricalData renormalised(p, {0, 1}, SimplexOptions{std::nullopt, true});
    CHECK(renormalised.probabilities()(0, 0) == 0.5 / (0.5 + (0.5 + 1e-4)));  // divided by the row sum
    CHECK(renormalised.max_simplex_deviation() == Approx(1e-4).epsilon(1e-9));  // of the rows as given
    CHECK_THROWS_WITH_AS(CategoricalData(rows({{0, 0}}), {0}, SimplexOptions{std::nullopt, true}),
                         "calib::CategoricalData: probabilities row 0 sums to 0, cannot be renormalised",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(CategoricalData(p, {0, 1}, SimplexOptions{-1.0, false}),
                         "calib::CategoricalData: simplex tolerance = -1, must be in [0, 1)", calib::invalid_argument);
    // Renormalising does not make negative entries acceptable.
    CHECK_THROWS_AS(CategoricalData(rows({{-0.1, 1.2}}), {0}, SimplexOptions{std::nullopt, true}),
                    calib::invalid_argument);
    // Mixture weights follow the same policy.
    const Matrix w = rows({{0.5, 0.5 + 1e-4}});
    const Matrix mu = rows({{0, 1}}), sigma = rows({{1, 1}});
    Vector y(1);
    y << 0.5;
    CHECK_THROWS_AS(MixtureNormalData(w, mu, sigma, y), calib::invalid_argument);
    CHECK(MixtureNormalData(w, mu, sigma, y, SimplexOptions{1e-3, false}).max_simplex_deviation() ==
          Approx(1e-4).epsilon(1e-9));
    CHECK(MixtureNormalData(w, mu, sigma, y, SimplexOptions{std::nullopt, true}).weights()(0, 1) == (0.5 + 1e-4) / (0.5 + (0.5 + 1e-4)));
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

TEST_CASE("binary events of class predictions: top-label and one-vs-rest") {
    // Rows (0.2, 0.5, 0.3) label 1, (0.4, 0.4, 0.2) label 1 (a tie: the first class is the top one),
    // (0.1, 0.1, 0.8) label 2.
    const CategoricalData d(rows({{0.2, 0.5, 0.3}, {0.4, 0.4, 0.2}, {0.1, 0.1, 0.8}}), {1, 1, 2});
    const CategoricalData top = d.top_label_event();
    CHECK(top.num_classes() == 2);
    CHECK(top.probabilities().col(1).isApprox(Vector::Map(std::vector<double>{0.5, 0.4, 0.8}.data(), 3)));
    CHECK(top.labels() == std::vector<int>{1, 0, 1});
    const CategoricalData two = d.class_event(2);
    CHECK(two.probabilities().col(1).isApprox(Vector::Map(std::vector<double>{0.3, 0.2, 0.8}.data(), 3)));
    CHECK(two.labels() == std::vector<int>{0, 0, 1});
    CHECK(d.class_event(0).labels() == std::vector<int>{0, 0, 0});
    CHECK_THROWS_WITH_AS(d.class_event(3), doctest::Contains("0-based, in [0, 3)"), calib::invalid_argument);
    CHECK_THROWS_AS(d.class_event(-1), calib::invalid_argument);
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

TEST_CASE("conventions of class predictions: labels' base, logits, scores; one text for every front-end") {
    const auto labels_of = [](std::vector<double> v, long m, bool one_based, bool advise = true) {
        return class_labels("label", v.size(), [&](std::size_t i) { return v[i]; }, m, one_based, advise);
    };
    CHECK(labels_of({0, 2, 1}, 3, false) == std::vector<int>{0, 2, 1});
    CHECK(labels_of({1, 3, 2}, 3, true) == std::vector<int>{0, 2, 1});
    // 1..m read as 0-based: the remedy; another value out of range: only the convention in use.
    CHECK_THROWS_WITH_AS(labels_of({1, 3, 2}, 3, false),
                         "label = 3, must be in [0, 2] (0-based labels; the labels run from 1 to 3: if they are 1-based, "
                         "use `one_based_labels`)",
                         invalid_argument);
    CHECK_THROWS_WITH_AS(labels_of({0, 5}, 3, false), "label = 5, must be in [0, 2] (0-based labels)", invalid_argument);
    CHECK_THROWS_WITH_AS(labels_of({0, 2}, 3, true),
                         "label = 0, must be in [1, 3] (1-based labels, as `one_based_labels` says; the labels include 0: "
                         "are they 0-based?)",
                         invalid_argument);
    CHECK_THROWS_WITH_AS(labels_of({0, 2.5}, 3, false), "label = 2.5, must be an integer", invalid_argument);
    CHECK_THROWS_WITH_AS(labels_of({0, NAN}, 3, false), "label = nan, must be an integer", invalid_argument);
    CHECK_THROWS_WITH_AS(labels_of({0, 2}, 2, false, false), "label = 2, must be in [0, 1]", invalid_argument);
    try {
        labels_of({0, 1, 7}, 3, false);
    } catch (const invalid_argument& e) {
        CHECK(e.row() == 2);  // the front-end says where: a file's line, an array's index
    }

    // Label 0 never occurring among n >= 20 m observations: the warning; fewer, or a 0 present: none.
    const Matrix p = Matrix::Constant(60, 3, 1.0 / 3);
    std::vector<int> no_zero(60, 1);
    no_zero[5] = 2;
    CHECK(zero_label_warning(no_zero, 3, false) ==
          "label 0 never occurs among 60 observations of 3 classes; if the labels run 1..3, pass `one_based_labels` "
          "(they are read as 0-based: class k is label k)");
    CHECK(zero_label_warning(no_zero, 3, true).empty());
    CHECK(zero_label_warning(std::vector<int>(59, 1), 3, false).empty());
    std::vector<int> with_zero = no_zero;
    with_zero[7] = 0;
    CHECK(zero_label_warning(with_zero, 3, false).empty());

    // The advice for CategoricalData's errors on the scores as given.
    const auto advice = [](const Matrix& scores, bool logits = false) {
        try {
            CategoricalData(scores, std::vector<int>(static_cast<std::size_t>(scores.rows()), 0));
        } catch (const invalid_argument& e) {
            return probability_advice(e, view_of(scores), logits);
        }
        return std::string("no error");
    };
    Matrix logits(2, 2);
    logits << 1.5, -0.5, 0.2, 0.1;
    CHECK(advice(logits) == "; if the columns hold logits, use `logits`");
    CHECK(advice(logits, true).empty());
    Matrix scaled(2, 2);
    scaled << 0.6, 0.6, 0.5, 0.5;
    CHECK(advice(scaled) == "; if the columns hold logits use `logits`, for unnormalised scores `renormalize`");
    Matrix close(2, 2);
    close << 0.5, 0.5001, 0.5, 0.5;
    CHECK(advice(close) == "; to accept such rows use `renormalize` or a larger `simplex_tolerance`");
}

}  // TEST_SUITE

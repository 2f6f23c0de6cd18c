// Tests of Platt scaling for m > 2 classes (recalibration.hpp, method platt, one-vs-rest): each class's
// (a_k, b_k) against a logistic regression of its indicators on its log-odds fitted here by Newton's
// method (not the library's L-BFGS), the renormalised probabilities by their definition, the identity,
// logits' invariance to a row's offset, the map file's round trip and refusals.
// tests/python/test_platt_one_vs_rest.py checks the same against scikit-learn.
#include <calib/errors.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using calib::CategoricalScores;
using calib::Matrix;
using calib::RecalibrationFit;
using calib::RecalibrationMethod;

namespace {

double sigmoid(double t) { return 1 / (1 + std::exp(-t)); }

// (a, b) maximising Σ log σ(±(a s_i + b)) of 0/1 labels, by Newton's method on the 2×2 Hessian.
std::pair<double, double> logistic_newton(const std::vector<double>& s, const std::vector<int>& y) {
    double a = 0, b = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
        double g0 = 0, g1 = 0, h00 = 0, h01 = 0, h11 = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const double q = sigmoid(a * s[i] + b), w = q * (1 - q), r = y[i] - q;
            g0 += r * s[i], g1 += r, h00 += w * s[i] * s[i], h01 += w * s[i], h11 += w;
        }
        const double det = h00 * h11 - h01 * h01;
        const double da = (h11 * g0 - h01 * g1) / det, db = (h00 * g1 - h01 * g0) / det;
        a += da, b += db;
        if (std::abs(da) + std::abs(db) < 1e-15) break;
    }
    return {a, b};
}

// Class k's log-odds from logits: z_k − ln Σ_{j≠k} e^{z_j}.
double log_odds(const Matrix& z, Eigen::Index i, Eigen::Index k) {
    double sum = 0;
    for (Eigen::Index j = 0; j < z.cols(); ++j)
        if (j != k) sum += std::exp(z(i, j));
    return z(i, k) - std::log(sum);
}

}  // namespace

TEST_CASE("platt of m > 2 classes: each class a logistic regression on its log-odds, rows renormalised") {
    calib::Rng rng = calib::make_stream(11, 0);
    const CategoricalScores data = calib::synthetic::tempered_logits(2000, 4, 2.0, 1.7, rng);
    REQUIRE(data.logits);
    calib::RecalibrationOptions options;
    options.gradient_tolerance = 1e-12;
    const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::platt, options);
    const Eigen::Index n = data.scores.rows(), m = 4;
    REQUIRE(fit.map.parameters.size() == 2 * m);
    CHECK(fit.summary.iterations > 0);
    Matrix s(n, m);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index k = 0; k < m; ++k) s(i, k) = log_odds(data.scores, i, k);
    for (Eigen::Index k = 0; k < m; ++k) {
        std::vector<double> x(static_cast<std::size_t>(n));
        std::vector<int> y(static_cast<std::size_t>(n));
        for (Eigen::Index i = 0; i < n; ++i) x[i] = s(i, k), y[i] = data.labels[i] == k;
        const auto [a, b] = logistic_newton(x, y);
        CAPTURE(k);
        CHECK(fit.map.parameters[k] == doctest::Approx(a).epsilon(1e-8));
        CHECK(fit.map.parameters[m + k] == doctest::Approx(b).epsilon(1e-8));
    }
    const Matrix q = calib::apply_recalibration(fit.map, data.scores);
    double nll = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        double total = 0;
        std::vector<double> row(static_cast<std::size_t>(m));
        for (Eigen::Index k = 0; k < m; ++k) total += row[k] = sigmoid(fit.map.parameters[k] * s(i, k) + fit.map.parameters[m + k]);
        for (Eigen::Index k = 0; k < m; ++k) CHECK(q(i, k) == doctest::Approx(row[k] / total).epsilon(1e-12));
        nll -= std::log(row[data.labels[i]] / total);
    }
    CHECK(fit.summary.objective_after == doctest::Approx(nll / n).epsilon(1e-12));
    CHECK(calib::recalibrated_nll(fit.map, data) == doctest::Approx(nll / n).epsilon(1e-12));
    CHECK(fit.summary.objective_after < fit.summary.objective_before);
}

TEST_CASE("platt of m > 2 classes: the identity, a row's offset, the file, refusals") {
    calib::Rng rng = calib::make_stream(12, 0);
    const CategoricalScores data = calib::synthetic::tempered_logits(300, 3, 2.0, 1.7, rng);
    const calib::RecalibrationMap identity = calib::identity_map(RecalibrationMethod::platt, 3, true);
    REQUIRE(identity.parameters.size() == 6);
    const Matrix p = calib::apply_recalibration(identity, data.scores);
    for (Eigen::Index i = 0; i < 300; ++i) {
        const Eigen::RowVectorXd e = data.scores.row(i).array().exp();
        for (Eigen::Index k = 0; k < 3; ++k) CHECK(p(i, k) == doctest::Approx(e[k] / e.sum()).epsilon(1e-13));
    }
    // Softmax logits are defined up to a row's offset, and so is the map.
    CategoricalScores shifted = data;
    for (Eigen::Index i = 0; i < 300; ++i) shifted.scores.row(i).array() += 40.0 * std::sin(double(i));
    const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::platt);
    const RecalibrationFit moved = calib::fit_recalibration(shifted, RecalibrationMethod::platt);
    for (Eigen::Index j = 0; j < 6; ++j) CHECK(moved.map.parameters[j] == doctest::Approx(fit.map.parameters[j]).epsilon(1e-6));
    const std::string json = calib::to_json(fit);
    CHECK(json.find("\"a\": [") != std::string::npos);
    const RecalibrationFit back = calib::recalibration_fit_from_json(json);
    CHECK(calib::to_json(back) == json);
    CHECK((calib::apply_recalibration(back.map, data.scores).array() ==
           calib::apply_recalibration(fit.map, data.scores).array()).all());
    // Two classes keep the binary map's two numbers.
    const RecalibrationFit two = calib::fit_recalibration(calib::synthetic::tempered_logits(300, 2, 2.0, 1.7, rng),
                                                          RecalibrationMethod::platt);
    CHECK(two.map.parameters.size() == 2);
    CHECK(calib::to_json(two).find("\"a\": [") == std::string::npos);
    std::string broken = json;
    broken.replace(broken.find("\"a\": ["), 6, "\"a\": [1,");
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(broken), doctest::Contains("a and b: must have m = 3 values each"),
                         calib::invalid_argument);
    calib::RecalibrationOptions mmd;
    mmd.objective = calib::RecalibrationObjective::nll_mmd;
    mmd.lambda = 1;
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::platt, mmd),
                         doctest::Contains("with m = 3 classes is fitted one class at a time (one-vs-rest)"),
                         calib::invalid_argument);
}

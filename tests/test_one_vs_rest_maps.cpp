// Tests of the one-vs-rest recalibration maps (recalibration.hpp): isotonic — its curve's
// interpolation by its definition, the fit against the PAV step function, the identity, the JSON file's
// round trip and its checks; histogram — its step function, round trip and refusals. The agreements with
// scikit-learn and NumPy are tests/python/test_isotonic_recalibration.py and test_histogram_recalibration.py.
#include <calib/errors.hpp>
#include <calib/isotonic.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

using calib::CategoricalScores;
using calib::Matrix;
using calib::MonotoneCurve;
using calib::RecalibrationFit;
using calib::RecalibrationMethod;

namespace {

// Softmax probabilities of tempered logits, rounded to two digits (ties) and renormalised.
CategoricalScores rounded_probabilities(std::size_t n, int m, std::uint64_t seed) {
    calib::Rng rng = calib::make_stream(seed, 0);
    CategoricalScores data = calib::synthetic::tempered_logits(n, m, 2.0, 1.8, rng);
    Matrix p = calib::apply_recalibration(calib::identity_map(RecalibrationMethod::temperature, m, true), data.scores);
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        for (Eigen::Index k = 0; k < m; ++k) p(i, k) = std::round(p(i, k) * 100) / 100;
        p.row(i) /= p.row(i).sum();
    }
    return {p, data.labels, false};
}

}  // namespace

TEST_SUITE("recalibration") {
TEST_CASE("a monotone curve is linear between its knots and constant beyond them") {
    const MonotoneCurve curve{{0.1, 0.3, 0.6}, {0.0, 0.5, 0.5}};
    CHECK(calib::evaluate(curve, 0.0) == 0.0);
    CHECK(calib::evaluate(curve, 0.1) == 0.0);
    CHECK(calib::evaluate(curve, 0.3) == 0.5);  // a knot: its value, not an interpolation's rounding
    CHECK(calib::evaluate(curve, 0.2) == doctest::Approx(0.25).epsilon(1e-15));
    CHECK(calib::evaluate(curve, 0.45) == 0.5);
    CHECK(calib::evaluate(curve, 1.0) == 0.5);
    CHECK(calib::evaluate(MonotoneCurve{{0.4}, {0.7}}, 0.9) == 0.7);
}

TEST_CASE("the isotonic map reproduces the PAV fit on the rows it was fitted on") {
    for (const int m : {2, 5}) {
        CAPTURE(m);
        const CategoricalScores data = rounded_probabilities(600, m, 17);
        const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::isotonic);
        CHECK(fit.summary.iterations == 0);
        CHECK(fit.summary.termination == calib::FitTermination::converged);
        CHECK(fit.summary.objective_after < fit.summary.objective_before);  // PAV maximises the likelihood
        const Matrix q = calib::apply_recalibration(fit.map, data.scores);
        const int first = m == 2 ? 1 : 0;
        Matrix raw(q.rows(), m);  // each class's PAV fit, before the renormalisation
        for (int k = first; k < m; ++k) {
            std::vector<double> x, y;
            for (Eigen::Index i = 0; i < q.rows(); ++i) {
                x.push_back(data.scores(i, k));
                y.push_back(data.labels[static_cast<std::size_t>(i)] == k ? 1.0 : 0.0);
            }
            const calib::IsotonicFit pav = calib::isotonic_regression(x, y);
            for (Eigen::Index i = 0; i < q.rows(); ++i) raw(i, k) = pav.fitted[static_cast<std::size_t>(i)];
        }
        if (m == 2) raw.col(0) = (1.0 - raw.col(1).array()).matrix();
        for (Eigen::Index i = 0; i < q.rows(); ++i) {
            if (m > 2) raw.row(i) /= raw.row(i).sum();
            for (int k = 0; k < m; ++k) CHECK(q(i, k) == doctest::Approx(raw(i, k)).epsilon(1e-15));
        }
        // Its NLL is the one the fit reports, and recalibrated_nll's.
        double nll = 0;
        for (Eigen::Index i = 0; i < q.rows(); ++i)
            nll -= std::log(std::max(q(i, data.labels[static_cast<std::size_t>(i)]), 1e-12));
        CHECK(fit.summary.objective_after == doctest::Approx(nll / static_cast<double>(q.rows())).epsilon(1e-13));
        CHECK(calib::recalibrated_nll(fit.map, data) == fit.summary.objective_after);
    }
}

TEST_CASE("the identity isotonic map leaves probabilities as they are") {
    const CategoricalScores data = rounded_probabilities(50, 4, 3);
    const Matrix q = calib::apply_recalibration(calib::identity_map(RecalibrationMethod::isotonic, 4, false), data.scores);
    CHECK((q - data.scores).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("an isotonic map round-trips through its JSON file bitwise, and a broken file is refused") {
    const CategoricalScores data = rounded_probabilities(400, 3, 29);
    const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::isotonic);
    const std::string json = calib::to_json(fit);
    const RecalibrationFit back = calib::recalibration_fit_from_json(json);
    REQUIRE(back.map.curves.size() == 3);
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(back.map.curves[c].x == fit.map.curves[c].x);
        CHECK(back.map.curves[c].y == fit.map.curves[c].y);
    }
    CHECK(calib::to_json(back) == json);
    const auto replaced = [&](const std::string& from, const std::string& to) {
        std::string text = json;
        return text.replace(text.find(from), from.size(), to);
    };
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(replaced("\"x_2\"", "\"x_3\"")),
                         "calib::recalibration_fit_from_json: parameters of method = isotonic has no \"x_2\"",
                         calib::invalid_argument);
    const std::size_t at = json.find("\"y_0\": [") + 8;
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(json.substr(0, at) + "2," + json.substr(at)),
                         doctest::Contains("x_0 and y_0 have"), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(json.substr(0, at) + "0.9," + json.substr(at + json.substr(at).find(',') + 1)),
                         doctest::Contains("y_0[1] = 0, must be at least y_0[0]"), calib::invalid_argument);
    // A map of m = 2 has the second class's curve alone.
    const CategoricalScores two = rounded_probabilities(100, 2, 31);
    const std::vector<calib::NamedParameter> names =
        calib::named_parameters(calib::fit_recalibration(two, RecalibrationMethod::isotonic).map);
    REQUIRE(names.size() == 2);
    CHECK(names[0].name == "x_1");
    CHECK(names[1].name == "y_1");
}

TEST_CASE("the isotonic map refuses what it cannot fit") {
    CategoricalScores data = rounded_probabilities(20, 3, 5);
    calib::RecalibrationOptions options;
    options.objective = calib::RecalibrationObjective::nll_mmd;
    options.lambda = 1;
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::isotonic, options),
                         doctest::Contains("method = isotonic is fitted exactly"), calib::invalid_argument);
    data.scores(4, 1) = 1.5;
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::isotonic),
                         doctest::Contains("scores(4, 1) = 1.5, must be in [0, 1]"), calib::invalid_argument);
    data.scores(4, 1) = std::nan("");
    CHECK_THROWS_AS(calib::fit_recalibration(data, RecalibrationMethod::isotonic), calib::invalid_argument);
    data.labels[2] = 3;
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::isotonic),
                         doctest::Contains("labels[2] = 3, must be in [0, 3)"), calib::invalid_argument);
}
}

TEST_SUITE("recalibration") {
TEST_CASE("a histogram map round-trips through its JSON file bitwise; it has no identity") {
    const CategoricalScores data = rounded_probabilities(300, 3, 41);
    calib::RecalibrationOptions options;
    options.histogram_binning = calib::PredictionBinning::uniform;
    options.histogram_bins = 6;
    const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::histogram, options);
    CHECK(fit.map.histogram_bins == 6);
    CHECK(fit.summary.objective_after < fit.summary.objective_before);
    const std::string json = calib::to_json(fit);
    const RecalibrationFit back = calib::recalibration_fit_from_json(json);
    REQUIRE(back.map.bins.size() == 3);
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(back.map.bins[c].upper_edges == fit.map.bins[c].upper_edges);
        CHECK(back.map.bins[c].values == fit.map.bins[c].values);
    }
    CHECK(back.map.histogram_binning == calib::PredictionBinning::uniform);
    CHECK(calib::to_json(back) == json);
    CHECK(calib::apply_recalibration(back.map, data.scores) == calib::apply_recalibration(fit.map, data.scores));
    CHECK_THROWS_WITH_AS(calib::identity_map(RecalibrationMethod::histogram, 3, false),
                         doctest::Contains("method = histogram has no identity"), calib::invalid_argument);
    std::string text = json;
    text.replace(text.find("\"uniform\""), 9, "\"square\"");
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(text),
                         doctest::Contains("binning = 'square', must be equal-mass, uniform or distinct"),
                         calib::invalid_argument);
    // A step function: constant within a bin, the bin of an edge the one below it.
    const calib::BinnedCurve curve{{0.25, 0.5, 1.0}, {0.1, 0.6, 0.3}};
    CHECK(calib::evaluate(curve, 0.0) == 0.1);
    CHECK(calib::evaluate(curve, 0.25) == 0.1);
    CHECK(calib::evaluate(curve, 0.2500001) == 0.6);
    CHECK(calib::evaluate(curve, 1.0) == 0.3);
}
}

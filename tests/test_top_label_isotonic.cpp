// Tests of the top-label isotonic map (recalibration.hpp, method top-label-isotonic) on a case computed
// by hand: one PAV fit per predicted class on the rows that predict it, the identity for a class that
// no row predicts, the rest shared (proportional, below the top class), the fit's NLL, the map file's round trip and its checks.
// tests/python/test_top_label_isotonic.py checks the same against scikit-learn on larger data.
#include <calib/errors.hpp>
#include <calib/recalibration.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using calib::Matrix;
using calib::RecalibrationMethod;

TEST_CASE("top-label isotonic: a case by hand") {
    Matrix p(4, 3);
    p << 0.6, 0.3, 0.1, 0.7, 0.2, 0.1, 0.8, 0.1, 0.1, 0.2, 0.5, 0.3;
    const calib::CategoricalScores data{p, {0, 1, 0, 1}, false};
    const calib::RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::top_label_isotonic);
    // Class 0 is predicted by rows 1-3 with confidences 0.6, 0.7, 0.8 and outcomes 1, 0, 1: PAV pools
    // the first two at 0.5. Class 1 is predicted by row 4 alone (0.5, outcome 1); class 2 by none.
    REQUIRE(fit.map.curves.size() == 3);
    CHECK(fit.map.curves[0].x == std::vector<double>{0.6, 0.7, 0.8});
    CHECK(fit.map.curves[0].y == std::vector<double>{0.5, 0.5, 1.0});
    CHECK(fit.map.curves[1].x == std::vector<double>{0.5});
    CHECK(fit.map.curves[1].y == std::vector<double>{1.0});
    CHECK(fit.map.curves[2].x == std::vector<double>{0.0, 1.0});
    CHECK(fit.map.curves[2].y == std::vector<double>{0.0, 1.0});
    // On the fitting rows: q = (0.5, 0.5·0.3/0.4, ·), (0.5, 0.5·0.2/0.3 = 1/3, ·), (1, 0, 0), (0, 1, 0).
    CHECK(fit.summary.objective_after == doctest::Approx((std::log(2.0) + std::log(3.0)) / 4).epsilon(1e-14));
    Matrix fresh(2, 3);
    fresh << 0.65, 0.25, 0.1, 0.1, 0.2, 0.7;
    const Matrix q = calib::apply_recalibration(fit.map, fresh);
    CHECK(q(0, 0) == doctest::Approx(0.5).epsilon(1e-15));
    CHECK(q(0, 1) == doctest::Approx(0.25 * 0.5 / 0.35).epsilon(1e-15));
    CHECK(q(0, 2) == doctest::Approx(0.1 * 0.5 / 0.35).epsilon(1e-15));
    for (Eigen::Index k = 0; k < 3; ++k) CHECK(q(1, k) == doctest::Approx(fresh(1, k)).epsilon(1e-15));
    const std::string json = calib::to_json(fit);
    CHECK(calib::to_json(calib::recalibration_fit_from_json(json)) == json);
    std::string broken = json;
    broken.replace(broken.find("\"x_2\""), 5, "\"x_3\"");
    CHECK_THROWS_AS(calib::recalibration_fit_from_json(broken), calib::invalid_argument);
    const calib::RecalibrationMap identity = calib::identity_map(RecalibrationMethod::top_label_isotonic, 3, false);
    CHECK((calib::apply_recalibration(identity, fresh).array() - fresh.array()).abs().maxCoeff() < 1e-15);
}

TEST_CASE("top-label isotonic: the rest shared, none reaching the top class") {
    Matrix p(3, 3);
    p << 0.6, 0.3, 0.1, 0.7, 0.2, 0.1, 0.8, 0.15, 0.05;
    const calib::CategoricalScores data{p, {1, 0, 1}, false};
    const calib::RecalibrationMap map = calib::fit_recalibration(data, RecalibrationMethod::top_label_isotonic).map;
    // Class 0's outcomes 0, 1, 0 at 0.6, 0.7, 0.8: PAV pools the last two at 0.5.
    CHECK(map.curves[0].y == std::vector<double>{0.0, 0.5, 0.5});
    Matrix fresh(4, 3);
    fresh << 0.68, 0.3, 0.02,  // q_0 = 0.4; class 1's proportional 0.5625 capped below 0.4, class 2 the 0.2 left
        0.6, 0.35, 0.05,       // q_0 = 0 < 1/3: the cap (1 − 0)/2 for both
        0.65, 0.35, 0.0,       // q_0 = 0.25 < 1/3, cap 0.375: class 1 capped, class 2 (p = 0) takes the rest
        0.75, 0.2, 0.05;       // q_0 = 0.5: no cap, 0.5 · (0.2, 0.05) / 0.25
    const Matrix q = calib::apply_recalibration(map, fresh);
    Matrix expected(4, 3);
    expected << 0.4, 0.4, 0.2, 0.0, 0.5, 0.5, 0.25, 0.375, 0.375, 0.5, 0.4, 0.1;
    CHECK((q - expected).cwiseAbs().maxCoeff() < 1e-15);
    CHECK(q(0, 1) == std::nextafter(q(0, 0), 0.0));  // strictly below the top class: its argmax is kept
    for (Eigen::Index i = 0; i < 4; ++i) CHECK(std::abs(q.row(i).sum() - 1) < 1e-15);
}

// Tests of the venn-abers recalibration map (recalibration.hpp): its intervals against the definition —
// the isotonic fit of the calibration set with the new point added, labelled 0 and 1 — by a plain
// pool-adjacent-violators written here (not the library's), at every place a new score can take, with
// many ties; the merge p1 / (1 − p0 + p1); logits ordered as their probabilities; the JSON file's round
// trip and checks; refusals. tests/python/test_venn_abers.py checks the same against scikit-learn.
#include <calib/errors.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using calib::CategoricalScores;
using calib::Matrix;
using calib::RecalibrationFit;
using calib::RecalibrationMethod;

namespace {

// The isotonic fit at s of the points (x, y) and (s, label): tied x pooled first, then adjacent
// blocks merged while the left one's mean is not below the right one's; the value of s's block.
double fit_at(std::vector<double> x, std::vector<int> y, double s, int label) {
    x.push_back(s), y.push_back(label);
    std::vector<std::size_t> order(x.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    struct Block {
        double lowest, count, ones;
    };
    std::vector<Block> blocks;
    for (std::size_t k = 0; k < order.size();) {
        Block b{x[order[k]], 0, 0};
        for (; k < order.size() && x[order[k]] == b.lowest; ++k) b.count += 1, b.ones += y[order[k]];
        while (!blocks.empty() && blocks.back().ones / blocks.back().count >= b.ones / b.count) {
            b = {blocks.back().lowest, b.count + blocks.back().count, b.ones + blocks.back().ones};
            blocks.pop_back();
        }
        blocks.push_back(b);
    }
    double value = -1;
    for (const Block& b : blocks)
        if (b.lowest <= s) value = b.ones / b.count;
    return value;
}

// n probabilities of class 1 on a grid of `levels` values (ties when levels < n), labels Bernoulli(p²).
CategoricalScores grid_data(std::size_t n, int levels, std::mt19937_64& rng) {
    CategoricalScores data{Matrix(static_cast<Eigen::Index>(n), 2), std::vector<int>(n), false};
    std::uniform_int_distribution<int> level(0, levels);
    std::uniform_real_distribution<double> u(0, 1);
    for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(n); ++i) {
        const double p = level(rng) / static_cast<double>(levels);
        data.scores(i, 1) = p, data.scores(i, 0) = 1 - p;
        data.labels[static_cast<std::size_t>(i)] = u(rng) < p * p ? 1 : 0;
    }
    return data;
}

}  // namespace

TEST_SUITE("recalibration") {
TEST_CASE("venn-abers intervals are the isotonic fits with the new point labelled 0 and 1") {
    std::mt19937_64 rng(2015);
    std::size_t compared = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t n = 1 + static_cast<std::size_t>(trial % 40);
        const int levels = 1 + trial % 17;
        const CategoricalScores data = grid_data(n, levels, rng);
        const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::venn_abers);
        std::vector<double> x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = data.scores(static_cast<Eigen::Index>(i), 1);
        // Every place: each grid value (a tie or a gap) and the points halfway between and beyond them.
        Matrix at(2 * levels + 3, 2);
        for (int j = 0; j <= 2 * levels + 2; ++j) {
            const double s = (j - 1) / (2.0 * levels);
            at(j, 1) = std::clamp(s, 0.0, 1.0), at(j, 0) = 1 - at(j, 1);
        }
        const Matrix intervals = calib::venn_abers_intervals(fit.map, at);
        const Matrix q = calib::apply_recalibration(fit.map, at);
        for (Eigen::Index j = 0; j < at.rows(); ++j) {
            const double p0 = fit_at(x, data.labels, at(j, 1), 0), p1 = fit_at(x, data.labels, at(j, 1), 1);
            CHECK(intervals(j, 0) == doctest::Approx(p0).epsilon(1e-15));
            CHECK(intervals(j, 1) == doctest::Approx(p1).epsilon(1e-15));
            CHECK(q(j, 1) == doctest::Approx(p1 / (1 - p0 + p1)).epsilon(1e-15));
            CHECK(q(j, 0) + q(j, 1) == doctest::Approx(1).epsilon(1e-15));
            ++compared;
        }
    }
    CHECK(compared > 5000);
}

TEST_CASE("a venn-abers map on logits orders them by z1 - z0, as their probabilities") {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> z(0, 3);
    const std::size_t n = 300;
    CategoricalScores logits{Matrix(n, 2), std::vector<int>(n), true};
    CategoricalScores probabilities{Matrix(n, 2), std::vector<int>(n), false};
    for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(n); ++i) {
        logits.scores(i, 0) = z(rng), logits.scores(i, 1) = z(rng);
        const double p = 1 / (1 + std::exp(logits.scores(i, 0) - logits.scores(i, 1)));
        probabilities.scores(i, 1) = p, probabilities.scores(i, 0) = 1 - p;
        logits.labels[static_cast<std::size_t>(i)] = probabilities.labels[static_cast<std::size_t>(i)] = z(rng) < 0 ? 1 : 0;
    }
    const RecalibrationFit a = calib::fit_recalibration(logits, RecalibrationMethod::venn_abers);
    const RecalibrationFit b = calib::fit_recalibration(probabilities, RecalibrationMethod::venn_abers);
    CHECK(a.map.logits);
    CHECK(a.map.venn_abers.p0_at == b.map.venn_abers.p0_at);
    CHECK(a.map.venn_abers.p1_between == b.map.venn_abers.p1_between);
    CHECK(calib::apply_recalibration(a.map, logits.scores) == calib::apply_recalibration(b.map, probabilities.scores));
    CHECK(a.summary.objective_after == b.summary.objective_after);
}

TEST_CASE("venn-abers at the edges: one calibration point, one label only") {
    CategoricalScores one{Matrix(1, 2), {1}, false};
    one.scores << 0.3, 0.7;
    const RecalibrationFit fit = calib::fit_recalibration(one, RecalibrationMethod::venn_abers);
    Matrix s(3, 2);
    s << 0.9, 0.1, 0.3, 0.7, 0.1, 0.9;
    const Matrix iv = calib::venn_abers_intervals(fit.map, s);
    // Below the point: label 0 gives {0} then {1}: 0; label 1 pools (1, 1): 1. Tied: (1 + y)/2. Above: 1 and 1.
    CHECK(iv(0, 0) == 0);
    CHECK(iv(0, 1) == 1);
    CHECK(iv(1, 0) == 0.5);
    CHECK(iv(1, 1) == 1);
    CHECK(iv(2, 0) == 0.5);
    CHECK(iv(2, 1) == 1);
    CHECK(calib::apply_recalibration(fit.map, s)(0, 1) == 0.5);
    CategoricalScores zeros{Matrix(4, 2), {0, 0, 0, 0}, false};
    zeros.scores << 0.9, 0.1, 0.6, 0.4, 0.5, 0.5, 0.2, 0.8;
    const Matrix q = calib::apply_recalibration(calib::fit_recalibration(zeros, RecalibrationMethod::venn_abers).map, zeros.scores);
    for (Eigen::Index i = 0; i < 4; ++i) {  // p0 = 0 and p1 in (0, 1), so q1 = p1 / (1 + p1) in (0, 1/2)
        CHECK(q(i, 1) > 0);
        CHECK(q(i, 1) < 0.5);
    }
}

TEST_CASE("a venn-abers map round-trips through its JSON file bitwise, and a broken table is refused") {
    std::mt19937_64 rng(11);
    const CategoricalScores data = grid_data(200, 30, rng);
    const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::venn_abers);
    CHECK(fit.summary.objective_after < fit.summary.objective_before);
    const std::string json = calib::to_json(fit);
    const RecalibrationFit back = calib::recalibration_fit_from_json(json);
    CHECK(calib::to_json(back) == json);
    CHECK(calib::apply_recalibration(back.map, data.scores) == calib::apply_recalibration(fit.map, data.scores));
    const auto with = [&](const std::string& list, const std::string& first) {
        std::string text = json;
        const std::size_t at = text.find("\"" + list + "\": [") + list.size() + 5;
        return text.replace(at, text.find(',', at) - at, first);
    };
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(with("scores", "0.99")),
                         doctest::Contains("scores[1] = "), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(with("p0_between", "0.999")),
                         doctest::Contains("must satisfy 0 <= p0 <= p1 <= 1"), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(with("scores", "-0.5")),
                         doctest::Contains("scores[0] = -0.5, must be in [0, 1]"), calib::invalid_argument);
    std::string shorter = json;
    const std::size_t at = shorter.find("\"p1_at\": [") + 10;
    shorter.erase(at, shorter.find(',', at) - at + 1);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(shorter), doctest::Contains("p0_at and p1_at have"),
                         calib::invalid_argument);
}

TEST_CASE("the venn-abers map refuses what it cannot fit or apply") {
    std::mt19937_64 rng(3);
    CategoricalScores data = grid_data(20, 5, rng);
    CHECK_THROWS_WITH_AS(calib::identity_map(RecalibrationMethod::venn_abers, 2, false),
                         doctest::Contains("method = venn-abers has no identity"), calib::invalid_argument);
    CategoricalScores three{Matrix::Constant(4, 3, 1.0 / 3), {0, 1, 2, 0}, false};
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(three, RecalibrationMethod::venn_abers),
                         doctest::Contains("maps binary predictions (m = 2 classes), not m = 3"), calib::invalid_argument);
    const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::venn_abers);
    CHECK_THROWS_WITH_AS(calib::venn_abers_intervals(calib::fit_recalibration(data, RecalibrationMethod::isotonic).map,
                                                     data.scores),
                         doctest::Contains("only a venn-abers map has intervals"), calib::invalid_argument);
    Matrix bad = data.scores;
    bad(3, 1) = std::nan("");
    CHECK_THROWS_AS(calib::apply_recalibration(fit.map, bad), calib::invalid_argument);
    CHECK_THROWS_AS(calib::venn_abers_intervals(fit.map, bad), calib::invalid_argument);
    bad(3, 1) = 1.5;
    CHECK_THROWS_WITH_AS(calib::venn_abers_intervals(fit.map, bad), doctest::Contains("scores(3, 1) = 1.5, must be in [0, 1]"),
                         calib::invalid_argument);
    data.labels[2] = 2;
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::venn_abers),
                         doctest::Contains("labels[2] = 2, must be in [0, 2)"), calib::invalid_argument);
}
}

// Weighted PAV (isotonic.hpp) against hand-computed fits and against the min–max formula of isotonic
// regression [Barlow et al. 1972, Thm 1.4], f(x_(i)) = max_{a ≤ i} min_{b ≥ i} Av(a..b) over the distinct
// sorted x with Av the weighted mean of y on them: a definition that does not go through PAV. And the
// CORP decomposition (corp.hpp) from that formula and the scores' definitions.
#include <calib/corp.hpp>
#include <calib/errors.hpp>
#include <calib/isotonic.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

using namespace calib;

namespace {

// The min–max formula on the ties pooled first (CORP's convention): O(k³) in the k distinct x.
std::vector<double> min_max_fit(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w) {
    std::map<double, std::pair<double, double>> pooled;  // x -> (Σ w, Σ w y)
    for (std::size_t i = 0; i < x.size(); ++i) {
        pooled[x[i]].first += w[i];
        pooled[x[i]].second += w[i] * y[i];
    }
    std::vector<double> weight, weighted_y, at;
    for (const auto& [v, sums] : pooled) {
        at.push_back(v);
        weight.push_back(sums.first);
        weighted_y.push_back(sums.second);
    }
    const std::size_t k = at.size();
    std::map<double, double> f;
    for (std::size_t i = 0; i < k; ++i) {
        double best = -std::numeric_limits<double>::infinity();
        for (std::size_t a = 0; a <= i; ++a) {
            double low = std::numeric_limits<double>::infinity();
            for (std::size_t b = i; b < k; ++b) {
                const double sw = std::accumulate(weight.begin() + a, weight.begin() + b + 1, 0.0);
                const double swy = std::accumulate(weighted_y.begin() + a, weighted_y.begin() + b + 1, 0.0);
                low = std::min(low, swy / sw);
            }
            best = std::max(best, low);
        }
        f[at[i]] = best;
    }
    std::vector<double> out;
    for (const double v : x) out.push_back(f[v]);
    return out;
}

CategoricalData synthetic_three_classes() {
    Matrix p(2, 3);
    p << 0.2, 0.3, 0.5, 0.6, 0.2, 0.2;
    return CategoricalData(p, {0, 2});
}

}  // namespace

TEST_CASE("isotonic_regression: hand-computed fits, ties pooled first, weights") {
    // One violation pooled: (3, 2) -> 2.5.
    IsotonicFit fit = isotonic_regression({1, 2, 3, 4}, {1, 3, 2, 4});
    CHECK(fit.fitted == std::vector<double>{1, 2.5, 2.5, 4});
    REQUIRE(fit.blocks.size() == 3);
    CHECK(fit.blocks[1].lower == 2);
    CHECK(fit.blocks[1].upper == 3);
    CHECK(fit.blocks[1].value == 2.5);
    CHECK(fit.blocks[1].count == 2);
    CHECK(fit.blocks[1].weight == 2);
    // The input's order is kept in `fitted`.
    CHECK(isotonic_regression({4, 3, 2, 1}, {4, 2, 3, 1}).fitted == std::vector<double>{4, 2.5, 2.5, 1});
    // Equal predictions get one value even where their outcomes increase (PAV alone would keep 0 and 1).
    CHECK(isotonic_regression({0.3, 0.3}, {0, 1}).fitted == std::vector<double>{0.5, 0.5});
    // A tie pooled to 0.5, below the 1 at 0.2: all three pooled, 2/3.
    fit = isotonic_regression({0.5, 0.5, 0.2}, {1, 0, 1});
    REQUIRE(fit.blocks.size() == 1);
    CHECK(fit.blocks[0].value == doctest::Approx(2.0 / 3).epsilon(1e-15));
    CHECK(fit.blocks[0].lower == 0.2);
    CHECK(fit.blocks[0].upper == 0.5);
    // Weights: (3·1 + 1·0)/4.
    CHECK(isotonic_regression({1, 2}, {1, 0}, {3, 1}).fitted == std::vector<double>{0.75, 0.75});
    // Equal adjacent values are one block: the blocks are the maximal constant pieces.
    fit = isotonic_regression({1, 2, 3}, {1, 1, 2});
    CHECK(fit.blocks.size() == 2);
    // n = 1 and an already monotone sequence are their own fit.
    CHECK(isotonic_regression({0.7}, {1}).fitted == std::vector<double>{1});
    CHECK(isotonic_regression({0.1, 0.2, 0.9}, {0, 0.5, 1}).fitted == std::vector<double>{0, 0.5, 1});
    CHECK(isotonic_regression({0.1, 0.2, 0.9}, {0, 0.5, 1}).blocks.size() == 3);
}

TEST_CASE("isotonic_regression: the min-max formula, the weighted mean kept, integer weights as repeated rows") {
    test::Rng rng(57);
    for (int trial = 0; trial < 60; ++trial) {
        const std::size_t n = 1 + trial % 25;
        boost::random::uniform_int_distribution<int> grid(0, trial % 3 == 0 ? 4 : 1000);  // many ties, or few
        boost::random::uniform_real_distribution<double> unit(0, 1);
        boost::random::uniform_int_distribution<int> count(1, 4);
        std::vector<double> x, y, w;
        for (std::size_t i = 0; i < n; ++i) {
            x.push_back(grid(rng) / 1000.0);
            y.push_back(trial % 2 ? (unit(rng) < x.back() ? 1.0 : 0.0) : unit(rng));  // binary or real outcomes
            w.push_back(count(rng));
        }
        const IsotonicFit fit = isotonic_regression(x, y, w);
        const std::vector<double> reference = min_max_fit(x, y, w);
        double sum_w_fitted = 0, sum_w_y = 0, scale = 1;
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(fit.fitted[i] == doctest::Approx(reference[i]).epsilon(1e-12));
            sum_w_fitted += w[i] * fit.fitted[i];
            sum_w_y += w[i] * y[i];
            scale += w[i];
        }
        CHECK(std::abs(sum_w_fitted - sum_w_y) <= 1e-12 * scale);  // PAV keeps the weighted mean
        std::size_t counted = 0;
        for (std::size_t b = 0; b < fit.blocks.size(); ++b) {
            counted += fit.blocks[b].count;
            CHECK(fit.blocks[b].lower <= fit.blocks[b].upper);
            if (b > 0) {
                CHECK(fit.blocks[b - 1].upper < fit.blocks[b].lower);
                CHECK(fit.blocks[b - 1].value < fit.blocks[b].value);
            }
        }
        CHECK(counted == n);
        // A weight k is k copies of the row: the same values (to rounding: sums in another order).
        std::vector<double> xs, ys;
        for (std::size_t i = 0; i < n; ++i)
            for (int k = 0; k < static_cast<int>(w[i]); ++k) xs.push_back(x[i]), ys.push_back(y[i]);
        const IsotonicFit repeated = isotonic_regression(xs, ys);
        REQUIRE(repeated.blocks.size() == fit.blocks.size());
        for (std::size_t b = 0; b < fit.blocks.size(); ++b)
            CHECK(repeated.blocks[b].value == doctest::Approx(fit.blocks[b].value).epsilon(1e-12));
    }
}

TEST_CASE("isotonic_regression: refusals") {
    CHECK_THROWS_WITH_AS(isotonic_regression({}, {}), "calib::isotonic_regression: x is empty; at least one observation is needed",
                         invalid_argument);
    CHECK_THROWS_WITH_AS(isotonic_regression({1, 2}, {1}), doctest::Contains("x has 2 values but y has 1"), invalid_argument);
    CHECK_THROWS_WITH_AS(isotonic_regression({1, 2}, {1, 0}, {1}), doctest::Contains("but w has 1"), invalid_argument);
    CHECK_THROWS_WITH_AS(isotonic_regression({1, std::nan("")}, {1, 0}), doctest::Contains("x[1] = nan, must be finite"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(isotonic_regression({1, 2}, {1, INFINITY}), doctest::Contains("y[1] = inf, must be finite"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(isotonic_regression({1, 2}, {1, 0}, {1, 0}), doctest::Contains("w[1] = 0, must be finite and > 0"),
                         invalid_argument);
    CHECK_THROWS_AS(isotonic_regression({1, 2}, {1, 0}, {-1, 1}), invalid_argument);
}

TEST_CASE("corp_decomposition: the definitions on the min-max fit, the identity, a calibrated model's MCB = 0") {
    test::Rng rng(58);
    boost::random::uniform_int_distribution<int> level(1, 19);
    boost::random::uniform_real_distribution<double> unit(0, 1);
    const std::size_t n = 300;
    Matrix p(n, 2);
    std::vector<int> labels(n);
    std::vector<double> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = level(rng) / 20.0;  // ties
        y[i] = unit(rng) < x[i] * x[i] ? 1 : 0;
        p(static_cast<Eigen::Index>(i), 0) = 1 - x[i];
        p(static_cast<Eigen::Index>(i), 1) = x[i];
        labels[i] = static_cast<int>(y[i]);
    }
    const CategoricalData data(p, labels);
    const std::vector<double> fitted = min_max_fit(x, y, std::vector<double>(n, 1.0));
    double ybar = 0;
    for (double v : y) ybar += v / n;
    const auto mean = [&](const std::vector<double>& f, bool log) {
        double s = 0;
        for (std::size_t i = 0; i < n; ++i)
            s += log ? -(y[i] == 1 ? std::log(f[i]) : std::log(1 - f[i])) : (f[i] - y[i]) * (f[i] - y[i]);
        return s / n;
    };
    for (const CorpScore score : {CorpScore::brier, CorpScore::log}) {
        CAPTURE(to_string(score));
        const bool log = score == CorpScore::log;
        const CorpDecomposition d = corp_decomposition(data, score);
        const double s = mean(x, log), c = mean(fitted, log), r = mean(std::vector<double>(n, ybar), log);
        CHECK(d.n == n);
        CHECK(d.mean_score == doctest::Approx(s).epsilon(1e-12));
        CHECK(d.recalibrated_score == doctest::Approx(c).epsilon(1e-12));
        CHECK(d.mcb == doctest::Approx(s - c).epsilon(1e-10));
        CHECK(d.dsc == doctest::Approx(r - c).epsilon(1e-10));
        CHECK(d.unc == doctest::Approx(r).epsilon(1e-12));
        CHECK(d.mean_score == doctest::Approx(d.mcb - d.dsc + d.unc).epsilon(1e-12));
        CHECK(d.mcb > 0);
        CHECK(d.dsc > 0);
        CHECK(d.contradicted == 0);
    }
    // Forecasts equal to their own PAV values are calibrated in CORP's sense: MCB = 0 for both scores.
    Matrix q(n, 2);
    for (std::size_t i = 0; i < n; ++i) {
        q(static_cast<Eigen::Index>(i), 0) = 1 - fitted[i];
        q(static_cast<Eigen::Index>(i), 1) = fitted[i];
    }
    const CategoricalData recalibrated(q, labels);
    CHECK(corp_decomposition(recalibrated).mcb == doctest::Approx(0).epsilon(1e-15));
    CHECK(std::abs(corp_decomposition(recalibrated, CorpScore::log).mcb) <= 1e-15);
    // The log score of a contradicted certainty: +inf, counted, its first row kept; the PAV score finite.
    Matrix certain(3, 2);
    certain << 1, 0, 0.5, 0.5, 0, 1;
    const CorpDecomposition bad = corp_decomposition(CategoricalData(certain, {1, 0, 0}), CorpScore::log);
    CHECK(std::isinf(bad.mean_score));
    CHECK(std::isfinite(bad.recalibrated_score));
    CHECK(bad.contradicted == 2);
    CHECK(bad.first_contradicted == 0);
    CHECK_THROWS_WITH_AS(corp_decomposition(synthetic_three_classes()), doctest::Contains("reads binary predictions"),
                         invalid_argument);
    CHECK(parse_corp_score("log") == CorpScore::log);
    CHECK_THROWS_AS(parse_corp_score("crps"), invalid_argument);
}

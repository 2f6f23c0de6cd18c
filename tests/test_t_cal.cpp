// T-Cal (hypothesis.hpp, docs/math.md §12): the debiased plug-in estimate by hand, the Monte-Carlo
// p-values against exact enumeration of both nulls, the adaptive grid and Bonferroni's combination,
// invariance to the thread count, and level and power by simulation.
#include <calib/hypothesis.hpp>
#include <calib/tool/synthetic.hpp>

#include "support.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <vector>

using namespace calib;
using doctest::Approx;

namespace {

CategoricalData binary(std::vector<double> p, std::vector<int> y) {
    return CategoricalData::from_binary(Eigen::Map<const Vector>(p.data(), Eigen::Index(p.size())), y);
}

TCalOptions fixed_bins(std::uint64_t m, std::size_t replicates, TCalNull null = TCalNull::conditional) {
    TCalOptions o;
    o.bins = m;
    o.replicates = replicates;
    o.null = null;
    return o;
}

// The DPE written from its definition, independently of the library: the bin of p is ⌈m p⌉ (p = 0 in bin
// 1), and (1/n) Σ_bins Σ_{i ≠ j in the bin} r_i r_j / n_bin.
double dpe_by_definition(const std::vector<double>& p, const std::vector<int>& y, int m) {
    std::map<long, std::vector<double>> bins;
    for (std::size_t i = 0; i < p.size(); ++i)
        bins[std::max(1L, long(std::ceil(m * p[i])))].push_back(p[i] - y[i]);
    double total = 0;
    for (const auto& [bin, r] : bins)
        for (std::size_t i = 0; i < r.size(); ++i)
            for (std::size_t j = 0; j < r.size(); ++j)
                if (i != j) total += r[i] * r[j] / double(r.size());
    return total / double(p.size());
}

// Calibrated binary data p ~ U(0, 1), y ~ Bernoulli(p); `sharpen` ≠ 1 makes the predictions
// sigmoid(sharpen · logit p) with the outcomes still drawn from p (over-confident for sharpen > 1).
CategoricalData simulated(std::size_t n, double sharpen, test::Rng& rng) {
    const CategoricalData truth = synthetic::dirichlet_data(n, 2, 1.0, rng);
    Vector p = truth.probabilities().col(1);
    for (Eigen::Index i = 0; i < p.size(); ++i)
        p[i] = 1 / (1 + std::exp(-sharpen * (std::log(p[i]) - std::log1p(-p[i]))));
    return CategoricalData::from_binary(p, truth.labels());
}

}  // namespace

TEST_CASE("t_cal_test: the debiased plug-in estimate by hand, bins of one add 0") {
    // m = 2: bin [0, 1/2] holds r = (0.2 − 1, 0.4 − 0) = (−0.8, 0.4): ((−0.4)² − (0.64 + 0.16))/2 = −0.32;
    // bin (1/2, 1] holds r = (0.6, −0.2): (0.4² − (0.36 + 0.04))/2 = −0.12; DPE = −0.44/4 = −0.11. With
    // m = 4 every bin holds one prediction: DPE = 0, every draw is 0 too, and p = 1.
    const CategoricalData d = binary({0.6, 0.2, 0.8, 0.4}, {0, 1, 1, 0});
    const TestResult two = t_cal_test(d, fixed_bins(2, 99));
    CHECK(two.method == "t-cal");
    CHECK(two.estimator == "dpe");
    CHECK(two.estimate == Approx(-0.11).epsilon(1e-14));
    CHECK(two.null_approximation == "conditional-resampling");
    const TestResult four = t_cal_test(d, fixed_bins(4, 99));
    CHECK(four.estimate == 0);
    CHECK(four.p_value == 1);
    // Against the definition on ties, predictions of 0 and 1, and an edge k/m in its left bin.
    const std::vector<double> p{0, 0.25, 0.25, 0.5, 0.5, 0.51, 0.9, 1, 1, 0.3, 0.75, 0.74};
    const std::vector<int> y{0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1};
    for (int m : {1, 2, 3, 4, 7, 16, 1024}) {
        CAPTURE(m);
        CHECK(t_cal_test(binary(p, y), fixed_bins(std::uint64_t(m), 9)).estimate ==
              Approx(dpe_by_definition(p, y, m)).epsilon(1e-13));
    }
}

TEST_CASE("t_cal_test: the Monte-Carlo p-values against exact enumeration of both nulls") {
    // Five predictions (two share a bin at m = 2); the exact p-value P(DPE* ≥ DPE) sums over the 2⁵ label
    // vectors (conditional) or the 5⁵ resamples × 2⁵ labels (consistency). 200 000 draws: the Monte-Carlo
    // p-value lies within 5 standard errors of it.
    const std::vector<double> p{0.1, 0.35, 0.4, 0.7, 0.95};
    const std::vector<int> y{1, 0, 1, 0, 0};
    const int m = 2;
    const double observed = dpe_by_definition(p, y, m);
    double conditional = 0, consistency = 0;
    for (int labels = 0; labels < 32; ++labels) {
        std::vector<int> z(5);
        double probability = 1;
        for (int i = 0; i < 5; ++i) {
            z[std::size_t(i)] = (labels >> i) & 1;
            probability *= z[std::size_t(i)] ? p[std::size_t(i)] : 1 - p[std::size_t(i)];
        }
        if (dpe_by_definition(p, z, m) >= observed - 1e-12) conditional += probability;
    }
    for (int pick = 0; pick < 3125; ++pick) {
        std::vector<double> q(5);
        for (int i = 0, code = pick; i < 5; ++i, code /= 5) q[std::size_t(i)] = p[std::size_t(code % 5)];
        for (int labels = 0; labels < 32; ++labels) {
            std::vector<int> z(5);
            double probability = 1.0 / 3125;
            for (int i = 0; i < 5; ++i) {
                z[std::size_t(i)] = (labels >> i) & 1;
                probability *= z[std::size_t(i)] ? q[std::size_t(i)] : 1 - q[std::size_t(i)];
            }
            if (dpe_by_definition(q, z, m) >= observed - 1e-12) consistency += probability;
        }
    }
    const std::size_t draws = 200000;
    for (const auto& [null, exact] : {std::pair{TCalNull::conditional, conditional},
                                      std::pair{TCalNull::consistency, consistency}}) {
        CAPTURE(exact);
        const TestResult r = t_cal_test(binary(p, y), fixed_bins(m, draws, null));
        CHECK(std::abs(r.p_value - exact) < 5 * std::sqrt(exact * (1 - exact) / double(draws)));
        CHECK(r.details_as<TCalDetails>().null == null);
    }
    CHECK(std::abs(conditional - consistency) > 0.003);  // the two nulls differ here (0.0215 and 0.0160)
}

TEST_CASE("t_cal_test: the adaptive grid, Bonferroni's combination, the thread count") {
    // B = ⌊2 log2(n/√(ln n))⌋: 2 for n = 2, 9 for n = 50, 23 for n = 10⁴ (the authors' grid).
    CHECK(t_cal_bin_counts(2, 0) == std::vector<std::uint64_t>{2, 4});
    CHECK(t_cal_bin_counts(50, 0).size() == 9);
    CHECK(t_cal_bin_counts(10000, 0).size() == 23);
    CHECK(t_cal_bin_counts(10000, 0).back() == (std::uint64_t(1) << 23));
    CHECK(t_cal_bin_counts(10000, 15) == std::vector<std::uint64_t>{15});

    test::Rng rng(7);
    const CategoricalData d = simulated(400, 1.6, rng);
    TCalOptions o;
    o.replicates = 500;
    const TestResult r = t_cal_test(d, o);
    const auto& details = r.details_as<TCalDetails>();
    const std::size_t levels = details.bin_counts.size();
    REQUIRE(levels == t_cal_bin_counts(400, 0).size());
    std::size_t smallest = 0;
    for (std::size_t l = 0; l < levels; ++l) {
        CHECK(details.statistics[l] == t_cal_test(d, fixed_bins(details.bin_counts[l], 500)).estimate);
        CHECK(details.p_values[l] == t_cal_test(d, fixed_bins(details.bin_counts[l], 500)).p_value);
        if (details.p_values[l] < details.p_values[smallest]) smallest = l;
    }
    CHECK(details.selected_bins == details.bin_counts[smallest]);
    CHECK(r.estimate == details.statistics[smallest]);
    CHECK(r.p_value == std::min(1.0, double(levels) * details.p_values[smallest]));
    CHECK(r.statistic == Approx(-std::log10(details.p_values[smallest])));
    CHECK(r.null_approximation == "bonferroni:conditional-resampling");
    for (TCalNull null : {TCalNull::conditional, TCalNull::consistency}) {
        o.null = null;
        o.parallel.num_threads = 1;
        const TestResult one = t_cal_test(d, o);
        o.parallel.num_threads = 2;
        CHECK(t_cal_test(d, o).to_json() == one.to_json());
    }
}

TEST_CASE("t_cal_test: refusals and certain outcomes") {
    CHECK_THROWS_AS(t_cal_test(binary({0.3}, {1}), TCalOptions{}), invalid_argument);
    CHECK_THROWS_AS(t_cal_test(binary({0.3, 0.4}, {1, 0}), fixed_bins(max_t_cal_bins + 1, 10)), invalid_argument);
    CHECK_THROWS_AS(t_cal_test(binary({0.3, 0.4}, {1, 0}), fixed_bins(2, 0)), invalid_argument);
    test::Rng rng(1);
    const CategoricalData three = synthetic::dirichlet_data(10, 3, 1.0, rng);
    CHECK_THROWS_AS(t_cal_test(three, TCalOptions{}), invalid_argument);
    // Every outcome certain and as predicted: every draw equals the data, p = 1.
    CHECK(t_cal_test(binary({0, 0, 1, 1}, {0, 0, 1, 1}), TCalOptions{}).p_value == 1);
    // A bin at least 2^53 wide is exact: 2^53 bins on predictions 2^-53 apart.
    const double step = std::ldexp(1.0, -53);
    CHECK(t_cal_test(binary({0.5, 0.5 + step, 0.5 + 2 * step}, {1, 0, 1}), fixed_bins(max_t_cal_bins, 9)).estimate ==
          0);
}

TEST_CASE("t_cal_test: level at most α under calibration (within the band for a fixed m), power") {
    // 1000 calibrated data sets of n = 200: with a fixed m (an exact Monte-Carlo test) the rejections at
    // α = 0.05 lie in the 99 % band of Binomial(1000, 0.05); the adaptive test's Bonferroni combination is
    // conservative, so only its upper end is checked. Over-confident predictions (logit × 1.6, n = 500)
    // are rejected in most of 100 data sets.
    const std::size_t trials = 1000;
    const boost::math::binomial_distribution<> null_count(double(trials), 0.05);
    const double lo = boost::math::quantile(null_count, 0.005), hi = boost::math::quantile(null_count, 0.995);
    test::Rng rng(2026);
    TCalOptions adaptive;
    adaptive.replicates = 400;
    double fixed_rejected = 0, adaptive_rejected = 0, consistency_rejected = 0, power = 0;
    for (std::size_t t = 0; t < trials; ++t) {
        const CategoricalData d = simulated(200, 1.0, rng);
        fixed_rejected += t_cal_test(d, fixed_bins(8, 199)).p_value <= 0.05;
        adaptive_rejected += t_cal_test(d, adaptive).p_value <= 0.05;
        consistency_rejected += t_cal_test(d, fixed_bins(8, 199, TCalNull::consistency)).p_value <= 0.05;
    }
    for (std::size_t t = 0; t < 100; ++t) power += t_cal_test(simulated(500, 1.6, rng), adaptive).p_value <= 0.05;
    MESSAGE("T-Cal rejections of 1000 calibrated sets: fixed ", fixed_rejected, ", adaptive ", adaptive_rejected,
            ", consistency ", consistency_rejected, "; power ", power, "/100");
    CHECK(fixed_rejected >= lo);
    CHECK(fixed_rejected <= hi);
    CHECK(adaptive_rejected <= hi);
    CHECK(consistency_rejected <= hi);
    CHECK(power >= 80);
}

// The evaluation metrics of Marx et al. (2023) (metrics.hpp) against references that do not go
// through them: hand values, naive loops written here, exact expectations under uniform PIT values
// (binomial sums) with Monte Carlo, closed forms of the forecast CDF against sampling, the bound √2
// and the identity DCE² = ½·MMD²_sign, the thread count, and the errors.
#include <calib/estimators.hpp>
#include <calib/metrics.hpp>
#include <calib/reliability.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/uniform_01.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace calib;

namespace {

const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

CategoricalData random_classes(std::size_t n, int m, test::Rng& rng) {
    boost::random::uniform_01<double> u;
    Matrix p(n, m);
    std::vector<int> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        for (int k = 0; k < m; ++k) p(r, k) = std::pow(u(rng), 3.0);  // peaked rows: confidences over [1/m, 1]
        p.row(r) /= p.row(r).sum();
        labels[i] = synthetic::draw_label(p.row(r), rng);
    }
    return CategoricalData(p, labels);
}

// E[½ Σ_b |N_b/n − 1/B|] for N_b ~ Binomial(n, w_b), the count of a bin of width w_b under uniform
// PIT values: by linearity only the marginals matter.
double expected_qce(std::size_t n, const std::vector<double>& widths) {
    double e = 0;
    const double target = 1.0 / static_cast<double>(widths.size());
    for (const double w : widths) {
        const boost::math::binomial_distribution<> b(static_cast<double>(n), w);
        for (std::size_t k = 0; k <= n; ++k) e += pdf(b, static_cast<double>(k)) * std::abs(double(k) / double(n) - target);
    }
    return e / 2;
}

// The bin widths of B = 20 under floor binning (all 1/20) and round binning (the first and last bins
// hold [0, 1/40] and [37/40, 1]).
std::vector<double> floor_widths() { return std::vector<double>(20, 0.05); }
std::vector<double> round_widths() {
    std::vector<double> w(20, 0.05);
    w.front() = 0.025;
    w.back() = 0.075;
    return w;
}

}  // namespace

TEST_CASE("metrics: accuracy, entropy and NLL of class predictions by hand, 0·log 0 = 0, ties and n = 1") {
    // Rows: a certain correct prediction; a tie between classes 0 and 1 (the first wins) with label 1;
    // a correct prediction of class 2.
    const Matrix p = (Matrix(3, 3) << 1, 0, 0, 0.5, 0.5, 0, 0.2, 0.3, 0.5).finished();
    const CategoricalData d(p, {0, 1, 2});
    CHECK(accuracy(d) == doctest::Approx(2.0 / 3).epsilon(1e-15));
    const double row3 = -(0.2 * std::log(0.2) + 0.3 * std::log(0.3) + 0.5 * std::log(0.5));
    CHECK(mean_entropy(d) == doctest::Approx((0 + std::log(2.0) + row3) / 3).epsilon(1e-15));
    CHECK(mean_nll(d) == doctest::Approx(-(0 + std::log(0.5) + std::log(0.5)) / 3).epsilon(1e-15));
    // A label of probability exactly 0: the NLL is +inf, the other metrics stay finite.
    const CategoricalData zero(p, {1, 1, 2});
    CHECK(mean_nll(zero) == inf);
    CHECK(std::isfinite(mean_entropy(zero)));
    // n = 1: a one-hot prediction has entropy 0, NLL 0, accuracy 1, ECE 0.
    const CategoricalData one(Matrix(p.topRows(1)), {0});
    CHECK(accuracy(one) == 1);
    CHECK(mean_entropy(one) == 0);
    CHECK(mean_nll(one) == 0);
    CHECK(top_label_ece(one) == 0);
    // Uniform predictions: entropy log m exactly up to rounding.
    const CategoricalData flat(Matrix::Constant(4, 5, 0.2), {0, 1, 2, 3});
    CHECK(mean_entropy(flat) == doctest::Approx(std::log(5.0)).epsilon(1e-15));
}

TEST_CASE("metrics: accuracy, entropy and NLL equal naive loops on random predictions") {
    test::Rng rng(301);
    const CategoricalData d = random_classes(500, 4, rng);
    const Matrix p = d.probabilities();
    double correct = 0, entropy = 0, nll = 0;
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        Eigen::Index top;
        p.row(i).maxCoeff(&top);  // first maximum: the same tie rule
        correct += top == d.labels()[static_cast<std::size_t>(i)];
        for (Eigen::Index k = 0; k < p.cols(); ++k) entropy -= p(i, k) * std::log(p(i, k));
        nll -= std::log(p(i, d.labels()[static_cast<std::size_t>(i)]));
    }
    CHECK(accuracy(d) == correct / 500);
    CHECK(mean_entropy(d) == doctest::Approx(entropy / 500).epsilon(1e-13));
    CHECK(mean_nll(d) == doctest::Approx(nll / 500).epsilon(1e-13));
}

TEST_CASE("metrics: the top-label ECE is calib's ECE (top-label, tv, 20 uniform bins) and a naive binned L1 loop") {
    test::Rng rng(302);
    for (const int m : {2, 3, 10}) {
        const CategoricalData d = random_classes(2000, m, rng);
        EceOptions o;
        o.nbins = 20;
        o.mode = EceMode::top_label;
        o.distance = EceDistance::tv;
        CHECK(top_label_ece(d) == ece(d, o));  // bitwise: the same estimator
        // The torchmetrics-style L1 loop: bin b = ⌊20 c⌋ (clamped), Σ_b (n_b/n)|mean c − accuracy|. It
        // equals calib's right-closed bins (⌈20 c⌉ − 1) when no confidence lies on an edge k/20.
        std::vector<double> count(20, 0), confidence(20, 0), correct(20, 0);
        const Matrix p = d.probabilities();
        for (Eigen::Index i = 0; i < p.rows(); ++i) {
            Eigen::Index top;
            const double c = p.row(i).maxCoeff(&top);
            REQUIRE(c * 20 != std::floor(c * 20));  // off the edges
            const auto b = std::min<std::size_t>(19, static_cast<std::size_t>(c * 20));
            count[b] += 1;
            confidence[b] += c;
            correct[b] += top == d.labels()[static_cast<std::size_t>(i)];
        }
        double naive = 0;
        for (std::size_t b = 0; b < 20; ++b)
            if (count[b] > 0) naive += count[b] / 2000 * std::abs(confidence[b] / count[b] - correct[b] / count[b]);
        CHECK(top_label_ece(d) == doctest::Approx(naive).epsilon(1e-12));
    }
}

TEST_CASE("metrics: QCE of exactly uniform PIT values is 0 with floor bins and 0.025 with round bins") {
    // u_i = (i + ½)/n, n a multiple of 40: every floor bin holds n/20 values; round bins hold n/40
    // (first), n/20, …, 3n/40 (last), so ½(|1/40 − 1/20| + |3/40 − 1/20|) = 1/40.
    for (const std::size_t n : {40, 2000}) {
        std::vector<double> u(n);
        for (std::size_t i = 0; i < n; ++i) u[i] = (double(i) + 0.5) / double(n);
        CHECK(quantile_calibration_error(u) == 0);
        CHECK(quantile_calibration_error(u, 20, QceBinning::round) == doctest::Approx(0.025).epsilon(1e-13));
        // Kuleshov's form: p̂_j = j/20 exactly on this grid.
        CHECK(quantile_calibration_error_squared(u) == doctest::Approx(0).scale(1e-30));
    }
    // Edges: u = 1 falls in the last bin; u = 0.5/20 rounds half to even (bin 0) under round.
    CHECK(quantile_calibration_error({1.0}, 2) == doctest::Approx(0.5));                      // ½(|0 − ½| + |1 − ½|)
    CHECK(quantile_calibration_error({0.025}, 20, QceBinning::round) == quantile_calibration_error({0.0}, 20));
    CHECK(quantile_calibration_error({0.075}, 20, QceBinning::round) == quantile_calibration_error({0.1}, 20));
    // n = 1: one bin full: ½((1 − 1/B) + (B − 1)/B) = 1 − 1/B.
    CHECK(quantile_calibration_error({0.3}) == doctest::Approx(0.95).epsilon(1e-15));
}

TEST_CASE("metrics: QCE of random uniform PIT values matches its exact binomial expectation (floor and round)") {
    // The exact expectations at n = 200 (binomial sums over each bin's count); the Monte Carlo mean of
    // R = 400 replications must lie within 4 of its standard errors. Round binning's bias is 0.025 in
    // the limit (the widths above); at n = 200 both are dominated by the noise of the counts.
    const std::size_t n = 200, R = 400;
    const double floor_e = expected_qce(n, floor_widths()), round_e = expected_qce(n, round_widths());
    CHECK(round_e > floor_e);
    test::Rng rng(303);
    boost::random::uniform_01<double> uniform;
    double sum[2] = {0, 0}, square[2] = {0, 0}, squared_sum = 0;
    for (std::size_t r = 0; r < R; ++r) {
        std::vector<double> u(n);
        for (double& x : u) x = uniform(rng);
        const double q[2] = {quantile_calibration_error(u), quantile_calibration_error(u, 20, QceBinning::round)};
        for (int k = 0; k < 2; ++k) {
            sum[k] += q[k];
            square[k] += q[k] * q[k];
        }
        squared_sum += quantile_calibration_error_squared(u);
    }
    const double expected[2] = {floor_e, round_e};
    for (int k = 0; k < 2; ++k) {
        const double mean = sum[k] / R, sd = std::sqrt(square[k] / R - mean * mean);
        CHECK(std::abs(mean - expected[k]) < 4 * sd / std::sqrt(double(R)));
    }
    // Kuleshov's form: E(p_j − p̂_j)² = p_j(1 − p_j)/n; its replicates' spread is below the mean, so
    // 4·mean/√R bounds 4 standard errors.
    double kuleshov = 0;
    for (int j = 1; j <= 20; ++j) kuleshov += (j / 20.0) * (1 - j / 20.0) / double(n);
    CHECK(std::abs(squared_sum / R - kuleshov) < 4 * kuleshov / std::sqrt(double(R)));
}

TEST_CASE("metrics: QCE equals naive loops and checks its input") {
    test::Rng rng(304);
    const NormalData d = test::normal_data(333, rng, 0.4);
    const std::vector<double> u = pit(d);
    for (const std::size_t B : {1, 7, 20}) {
        std::vector<double> floor_count(B, 0), round_count(B, 0);
        double squared = 0;
        for (const double x : u) {
            floor_count[std::min(B - 1, std::size_t(x * double(B)))] += 1;
            round_count[std::min(B - 1, std::size_t(std::nearbyint(x * double(B))))] += 1;
        }
        double f = 0, r = 0;
        for (std::size_t b = 0; b < B; ++b) {
            f += std::abs(floor_count[b] / 333 - 1.0 / double(B));
            r += std::abs(round_count[b] / 333 - 1.0 / double(B));
        }
        for (std::size_t j = 1; j <= B; ++j) {
            const double level = double(j) / double(B);
            const double below = double(std::count_if(u.begin(), u.end(), [&](double x) { return x <= level; })) / 333;
            squared += (level - below) * (level - below);
        }
        CHECK(quantile_calibration_error(u, B) == doctest::Approx(f / 2).epsilon(1e-13));
        CHECK(quantile_calibration_error(u, B, QceBinning::round) == doctest::Approx(r / 2).epsilon(1e-13));
        CHECK(quantile_calibration_error_squared(u, B) == doctest::Approx(squared).epsilon(1e-13));
    }
    CHECK_THROWS_WITH_AS(quantile_calibration_error({}), doctest::Contains("u is empty"), invalid_argument);
    CHECK_THROWS_WITH_AS(quantile_calibration_error({0.5, not_a_number}), doctest::Contains("u[1] = nan, must be in [0, 1]"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(quantile_calibration_error_squared({1.5}), doctest::Contains("u[0] = 1.5"), invalid_argument);
    CHECK_THROWS_WITH_AS(quantile_calibration_error({0.5}, 0), doctest::Contains("bins = 0"), invalid_argument);
    CHECK(parse_qce_binning("round") == QceBinning::round);
    CHECK_THROWS_WITH_AS(parse_qce_binning("ceil"), doctest::Contains("must be one of: floor, round"), invalid_argument);
}

TEST_CASE("metrics: DCE of normal forecasts against Monte Carlo, the identity DCE² = ½·MMD²_sign and the bound √2") {
    test::Rng rng(305);
    const NormalData d = test::normal_data(300, rng, 0.3);  // shifted targets: miscalibrated
    const double c = median_target(d);
    const double dce = decision_calibration_error(d, c);
    // Monte Carlo: S draws from each forecast give E_Q 1{Ŷ > c}; the data side needs no sampling.
    const std::size_t S = 2000;
    boost::random::normal_distribution<double> z;
    double above_q = 0, above_p = 0, ties = 0;
    for (Eigen::Index i = 0; i < 300; ++i) {
        for (std::size_t s = 0; s < S; ++s) above_q += d.mean()(i) + d.stddev()(i) * z(rng) > c;
        above_p += d.targets()(i) > c;
        ties += d.targets()(i) == c;
    }
    CHECK(ties == 0);  // even n: the median lies between two targets
    above_q /= 300.0 * S;
    above_p /= 300;
    const double mc = std::sqrt(2.0) * std::abs(above_p - above_q);
    // Standard error of above_q ≤ √(¼/(nS)); 4 of them, times √2.
    CHECK(std::abs(dce - mc) < 4 * std::sqrt(2.0) * std::sqrt(0.25 / (300.0 * S)));
    CHECK(dce > 0.05);  // the shift is detected
    // DCE² = ½·MMD² for the sign kernel without conditioning: MMD² = (mean_i r_i)², r_i = sign(y_i − c)
    // − E_Q sign(Ŷ_i − c) = sign(y_i − c) − (2Φ((μ_i − c)/σ_i) − 1).
    double r = 0;
    for (Eigen::Index i = 0; i < 300; ++i) {
        const double y = d.targets()(i);
        const double sign = y > c ? 1 : y < c ? -1 : 0;
        r += sign - (2 * boost::math::cdf(boost::math::normal(), (d.mean()(i) - c) / d.stddev()(i)) - 1);
    }
    r /= 300;
    CHECK(dce * dce == doctest::Approx(0.5 * r * r).epsilon(1e-12));
    // The bound: every target above c and every forecast far below it: DCE = √2.
    const NormalData worst(Vector::Constant(5, -100.0), Vector::Ones(5), Vector::LinSpaced(5, 1, 5));
    CHECK(decision_calibration_error(worst, 0.0) == doctest::Approx(std::sqrt(2.0)).epsilon(1e-15));
    // A target at c costs ½ under each action: n = 1, y = μ = c gives 0.
    const NormalData at(Vector::Zero(1), Vector::Ones(1), Vector::Zero(1));
    CHECK(decision_calibration_error(at, 0.0) == 0);
    CHECK(median_target(at) == 0);
    CHECK_THROWS_WITH_AS(decision_calibration_error(at, inf), doctest::Contains("threshold = inf, must be finite"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(decision_calibration_error(at, not_a_number), doctest::Contains("threshold = nan"), invalid_argument);
}

TEST_CASE("metrics: DCE of Laplace forecasts against Monte Carlo, of mixtures against their components, and the median") {
    test::Rng rng(306);
    const LaplaceData d = test::laplace_data(200, rng);
    const double c = 0.25;
    boost::random::uniform_01<double> u;
    const std::size_t S = 2000;
    double above_q = 0, above_p = 0;
    for (Eigen::Index i = 0; i < 200; ++i) {
        for (std::size_t s = 0; s < S; ++s) {
            const double e = u(rng) - 0.5;  // inverse CDF of the Laplace distribution
            above_q += d.mean()(i) - d.scale()(i) * (e < 0 ? -1.0 : 1.0) * std::log(1 - 2 * std::abs(e)) > c;
        }
        above_p += d.targets()(i) > c;
    }
    above_q /= 200.0 * S;
    above_p /= 200;
    CHECK(std::abs(decision_calibration_error(d, c) - std::sqrt(2.0) * std::abs(above_p - above_q)) <
          4 * std::sqrt(2.0) * std::sqrt(0.25 / (200.0 * S)));
    // A mixture of two identical components is its component.
    const NormalData normal = test::normal_data(50, rng);
    Matrix means(50, 2), sds(50, 2);
    means << normal.mean(), normal.mean();
    sds << normal.stddev(), normal.stddev();
    const MixtureNormalData mixture = MixtureNormalData::ensemble(means, sds, normal.targets());
    CHECK(decision_calibration_error(mixture, 0.1) == doctest::Approx(decision_calibration_error(normal, 0.1)).epsilon(1e-12));
    // The median: odd n the middle value, even n the mean of the two middle ones.
    const NormalData odd(Vector::Zero(3), Vector::Ones(3), (Vector(3) << 5, -1, 2).finished());
    const NormalData even(Vector::Zero(4), Vector::Ones(4), (Vector(4) << 5, -1, 2, 3).finished());
    CHECK(median_target(odd) == 2);
    CHECK(median_target(even) == 2.5);
}

namespace {

// LCE_total(x_k) by the definition, with the quantile Q_i⁻¹(c) from Boost (not the PIT) and the
// weights written out; Q⁻¹(1) = +∞ counts every i.
std::vector<double> naive_lce(const NormalData& d, const Matrix& x, double lengthscale, std::size_t B) {
    const Eigen::Index n = x.rows();
    std::vector<double> total(static_cast<std::size_t>(n), 0);
    for (Eigen::Index k = 0; k < n; ++k) {
        for (std::size_t j = 1; j <= B; ++j) {
            const double c = double(j) / double(B);
            double num = 0, den = 0;
            for (Eigen::Index i = 0; i < n; ++i) {
                const double w = std::exp(-(x.row(k) - x.row(i)).squaredNorm() / (2 * lengthscale * lengthscale));
                const double q = j == B ? inf : boost::math::quantile(boost::math::normal(d.mean()(i), d.stddev()(i)), c);
                num += w * (d.targets()(i) <= q);
                den += w;
            }
            total[static_cast<std::size_t>(k)] += (num / den - c) * (num / den - c) / double(B);
        }
    }
    return total;
}

double mean_of(const std::vector<double>& v) {
    double s = 0;
    for (const double x : v) s += x;
    return s / double(v.size());
}

}  // namespace

TEST_CASE("metrics: LCE equals the definition written out, with the median heuristic and any thread count") {
    test::Rng rng(307);
    const NormalData d = test::normal_data(60, rng, 0.2);
    boost::random::normal_distribution<double> z;
    Matrix x(60, 2);
    for (Eigen::Index i = 0; i < 60; ++i) x.row(i) << z(rng), d.mean()(i);
    LceOptions o;
    o.lengthscale = 0.7;
    const LceResult given = local_calibration_error(d, x, o);
    const std::vector<double> naive = naive_lce(d, x, 0.7, 20);
    double mean = 0;
    for (std::size_t k = 0; k < 60; ++k) {
        CHECK(given.total[k] == doctest::Approx(naive[k]).epsilon(1e-12));
        mean += naive[k] / 60;
    }
    CHECK(given.mean == doctest::Approx(mean).epsilon(1e-12));
    CHECK(!given.median_heuristic);
    // The median heuristic: the median of the 1770 pairwise distances (even: the two middle ones).
    std::vector<double> distances;
    for (Eigen::Index i = 0; i < 60; ++i)
        for (Eigen::Index j = i + 1; j < 60; ++j) distances.push_back((x.row(i) - x.row(j)).norm());
    std::sort(distances.begin(), distances.end());
    const double median = 0.5 * (distances[884] + distances[885]);
    CHECK(median_feature_distance(x) == median);
    const LceResult heuristic = local_calibration_error(d, x);
    CHECK(heuristic.median_heuristic);
    CHECK(heuristic.lengthscale == median);
    CHECK(heuristic.mean == doctest::Approx(mean_of(naive_lce(d, x, median, 20))).epsilon(1e-12));
    // Bitwise the same for 1 and 2 threads, past the engine's chunk and strip sizes.
    const NormalData big = test::normal_data(700, rng);
    const Matrix bx = Matrix(big.mean());
    LceOptions one, two;
    one.parallel.num_threads = 1;
    two.parallel.num_threads = 2;
    const LceResult a = local_calibration_error(big, bx, one), b = local_calibration_error(big, bx, two);
    CHECK(a.mean == b.mean);
    CHECK(a.total == b.total);
    CHECK(a.lengthscale == b.lengthscale);
}

TEST_CASE("metrics: LCE limits, other families, n = 1 and errors") {
    test::Rng rng(308);
    const NormalData d = test::normal_data(40, rng, 0.5);
    const Matrix x = Matrix(d.mean());
    const std::vector<double> u = pit(d);
    // A huge lengthscale weighs every observation alike: LCE(x; c) = F̂(c) − c at every x, F̂ the PIT's
    // empirical CDF.
    LceOptions wide;
    wide.lengthscale = 1e8;
    double global = 0;
    for (int j = 1; j <= 20; ++j) {
        const double c = j / 20.0;
        const double f = double(std::count_if(u.begin(), u.end(), [&](double v) { return v <= c; })) / 40;
        global += (f - c) * (f - c) / 20;
    }
    const LceResult w = local_calibration_error(d, x, wide);
    for (const double t : w.total) CHECK(t == doctest::Approx(global).epsilon(1e-12));
    // n = 1 (with a lengthscale): only the observation itself, (1/B) Σ_j (1{u ≤ c_j} − c_j)².
    const NormalData one(Vector::Zero(1), Vector::Ones(1), Vector::Constant(1, 0.3));
    const double u1 = boost::math::cdf(boost::math::normal(), 0.3);
    double expected = 0;
    for (int j = 1; j <= 20; ++j) expected += ((u1 <= j / 20.0) - j / 20.0) * ((u1 <= j / 20.0) - j / 20.0) / 20;
    LceOptions given;
    given.lengthscale = 1;
    CHECK(local_calibration_error(one, Matrix::Zero(1, 3), given).mean == doctest::Approx(expected).epsilon(1e-15));
    CHECK_THROWS_WITH_AS(local_calibration_error(one, Matrix::Zero(1, 3)), doctest::Contains("give a lengthscale"),
                         invalid_argument);
    // Mixtures of identical components and Laplace forecasts go through their own CDFs.
    Matrix means(40, 2), sds(40, 2);
    means << d.mean(), d.mean();
    sds << d.stddev(), d.stddev();
    const MixtureNormalData mixture = MixtureNormalData::ensemble(means, sds, d.targets());
    CHECK(local_calibration_error(mixture, x, given).mean == doctest::Approx(local_calibration_error(d, x, given).mean).epsilon(1e-12));
    const LaplaceData laplace = test::laplace_data(40, rng);
    CHECK(local_calibration_error(laplace, x, given).mean >= 0);
    // Errors.
    CHECK_THROWS_WITH_AS(local_calibration_error(d, Matrix::Zero(39, 1)),
                         doctest::Contains("features has 39 rows but the data has 40 observations"), invalid_argument);
    Matrix bad = x;
    bad(3, 0) = not_a_number;
    CHECK_THROWS_WITH_AS(local_calibration_error(d, bad), doctest::Contains("features(3, 0) = nan, must be finite"),
                         invalid_argument);
    LceOptions zero_levels;
    zero_levels.levels = 0;
    CHECK_THROWS_WITH_AS(local_calibration_error(d, x, zero_levels), doctest::Contains("levels = 0"), invalid_argument);
    LceOptions negative;
    negative.lengthscale = -1;
    CHECK_THROWS_WITH_AS(local_calibration_error(d, x, negative), doctest::Contains("lengthscale = -1"), invalid_argument);
    LceOptions tiny;
    tiny.lengthscale = 1e-200;
    CHECK_THROWS_WITH_AS(local_calibration_error(d, x, tiny), doctest::Contains("is too small"), invalid_argument);
    CHECK_THROWS_WITH_AS(median_feature_distance(Matrix::Zero(5, 2)), doctest::Contains("median distance between feature rows is 0"),
                         invalid_argument);
}

TEST_CASE("metrics: evaluation_metrics lists each family's metrics, equal to the direct calls") {
    test::Rng rng(309);
    const CategoricalData classes = random_classes(300, 3, rng);
    const Record c = evaluation_metrics(AnyData(classes));
    std::vector<std::string> names;
    for (const Field& f : c) names.push_back(f.name);
    CHECK(names == std::vector<std::string>{"accuracy", "ece_top_label", "entropy", "nll", "bins"});
    CHECK(to_double(find(c, "accuracy")) == accuracy(classes));
    CHECK(to_double(find(c, "ece_top_label")) == top_label_ece(classes));
    CHECK(to_double(find(c, "entropy")) == mean_entropy(classes));
    CHECK(to_double(find(c, "nll")) == mean_nll(classes));

    const NormalData normal = test::normal_data(200, rng, 0.2);
    const Matrix x = Matrix(normal.mean());
    MetricsOptions o;
    o.features = &x;
    o.qce_binning = QceBinning::round;
    const Record r = evaluation_metrics(AnyData(normal), o);
    names.clear();
    for (const Field& f : r) names.push_back(f.name);
    CHECK(names == std::vector<std::string>{"nll", "qce", "qce_squared", "dce", "threshold", "threshold_rule", "lce_total_mean",
                                            "lce_lengthscale", "lce_lengthscale_rule", "kce", "kce_lengthscale",
                                            "kce_lengthscale_y", "bins", "qce_binning"});
    const std::vector<double> u = pit(normal);
    CHECK(to_double(find(r, "nll")) == mean_nll(normal));
    CHECK(to_double(find(r, "qce")) == quantile_calibration_error(u, 20, QceBinning::round));
    CHECK(to_double(find(r, "qce_squared")) == quantile_calibration_error_squared(u));
    CHECK(to_double(find(r, "threshold")) == median_target(normal));
    CHECK(to_double(find(r, "dce")) == decision_calibration_error(normal, median_target(normal)));
    CHECK(to_double(find(r, "lce_total_mean")) == local_calibration_error(normal, x).mean);
    CHECK(to_double(find(r, "kce")) == kernel_calibration_error(normal, x).estimate);
    CHECK(to_double(find(r, "kce_lengthscale")) == median_feature_distance(x));
    CHECK(to_text(find(r, "threshold_rule")) == "median");
    o.threshold = 0.5;
    o.features = nullptr;
    const Record g = evaluation_metrics(AnyData(normal), o);
    CHECK(to_text(find(g, "threshold_rule")) == "given");
    CHECK(to_double(find(g, "dce")) == decision_calibration_error(normal, 0.5));
    CHECK_THROWS_WITH_AS(find(g, "lce_total_mean"), doctest::Contains("lce_total_mean"), invalid_argument);
    // Laplace and mixtures take the same list.
    CHECK(evaluation_metrics(AnyData(test::laplace_data(30, rng))).size() == 8);

    // Class predictions with features add the KCE.
    Matrix class_features(300, 1);
    for (Eigen::Index i = 0; i < 300; ++i) class_features(i, 0) = classes.probabilities()(i, 0) + 0.01 * double(i % 7);
    MetricsOptions with_features;
    with_features.features = &class_features;
    const Record ck = evaluation_metrics(AnyData(classes), with_features);
    names.clear();
    for (const Field& f : ck) names.push_back(f.name);
    CHECK(names == std::vector<std::string>{"accuracy", "ece_top_label", "entropy", "nll", "kce", "kce_lengthscale", "bins"});
    CHECK(to_double(find(ck, "kce")) == kernel_calibration_error(classes, class_features).estimate);
    // Laplace forecasts with features: the LCE, but no KCE (the MMD's closed forms are for normal ones).
    const LaplaceData lap = test::laplace_data(30, rng);
    const Matrix lx = Matrix(lap.mean());
    MetricsOptions lap_features;
    lap_features.features = &lx;
    CHECK_THROWS_AS(find(evaluation_metrics(AnyData(lap), lap_features), "kce"), invalid_argument);

    // Errors: the LCE's lengthscale for class predictions, multivariate normals, an infinite threshold, 0 bins.
    MetricsOptions lce_of_classes;
    lce_of_classes.lce_lengthscale = 0.5;
    CHECK_THROWS_WITH_AS(evaluation_metrics(AnyData(classes), lce_of_classes),
                         doctest::Contains("lce_lengthscale applies only to univariate predictions"), invalid_argument);
    const MvNormalData mv = MvNormalData::diagonal(Matrix::Zero(3, 2), Matrix::Ones(3, 2), Matrix::Zero(3, 2));
    CHECK_THROWS_WITH_AS(evaluation_metrics(AnyData(mv)), doctest::Contains("not for multivariate normals"),
                         invalid_argument);
    MetricsOptions infinite, not_a_number;
    infinite.threshold = inf;
    CHECK_THROWS_WITH_AS(evaluation_metrics(AnyData(normal), infinite), doctest::Contains("threshold = inf, must be finite"),
                         invalid_argument);
    // A NaN threshold is an error, not the median (the median is the empty threshold).
    not_a_number.threshold = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(evaluation_metrics(AnyData(normal), not_a_number), doctest::Contains("threshold = nan, must be finite"),
                         invalid_argument);

    // At the ends of the doubles: a residual of 1e308 makes the NLL +inf (an infinite sum stays
    // infinite, not NaN), and the median of targets 1e308 and 1e308 is 1e308 (halved before adding).
    const NormalData far((Vector(2) << 1e308, 0).finished(), Vector::Ones(2), (Vector(2) << -1e308, 1e308).finished());
    CHECK(mean_nll(far) == inf);
    CHECK(median_target(far) == 0);
    const NormalData high(Vector::Zero(2), Vector::Ones(2), Vector::Constant(2, 1e308));
    CHECK(median_target(high) == 1e308);
    CHECK(to_double(find(evaluation_metrics(AnyData(high)), "threshold")) == 1e308);
    MetricsOptions no_bins;
    no_bins.bins = 0;
    CHECK_THROWS_WITH_AS(evaluation_metrics(AnyData(normal), no_bins), doctest::Contains("bins = 0"), invalid_argument);
}

TEST_CASE("metrics: the descriptions of the help text name the record's metrics, in its order") {
    test::Rng rng(310);
    const NormalData normal = test::normal_data(20, rng);
    const Matrix x = Matrix(normal.mean());
    MetricsOptions with_features;
    with_features.features = &x;
    for (const bool classes : {true, false}) {
        const Record r = classes ? evaluation_metrics(AnyData(random_classes(20, 3, rng)), with_features)
                                 : evaluation_metrics(AnyData(normal), with_features);
        std::vector<std::string> described, listed;
        for (const MetricInfo& m : metric_descriptions())
            if (m.classes == classes) described.push_back(m.name);
        for (const Field& f : r)
            if (std::find(described.begin(), described.end(), f.name) != described.end()) listed.push_back(f.name);
        CHECK(listed == described);  // every described metric is in the record, in the same order
    }
}

TEST_CASE("mean_nll with clip: probabilities into [clip, 1 - clip], each row renormalised, by hand") {
    // Row 0: (0, 1) with label 0 -> (0.1, 0.9), sum 1: -log 0.1. Row 1: (0.5, 0.5), label 1 -> -log 0.5.
    // Row 2: (0.95, 0.05), label 0 -> (0.9, 0.1): -log 0.9. Three classes: (0, 0, 1) label 2 with clip
    // 0.1 -> (0.1, 0.1, 0.9), sum 1.1: -log(0.9 / 1.1).
    Matrix p(3, 2);
    p << 0, 1, 0.5, 0.5, 0.95, 0.05;
    const CategoricalData two(p, {0, 1, 0});
    CHECK(mean_nll(two) == HUGE_VAL);
    CHECK(mean_nll(two, 0.1) == doctest::Approx((-std::log(0.1) - std::log(0.5) - std::log(0.9)) / 3).epsilon(1e-14));
    Matrix q(1, 3);
    q << 0, 0, 1;
    CHECK(mean_nll(CategoricalData(q, {2}), 0.1) == doctest::Approx(-std::log(0.9 / 1.1)).epsilon(1e-14));
    CHECK_THROWS_WITH_AS(mean_nll(two, 0.5), doctest::Contains("must be in [0, 0.5)"), invalid_argument);
    MetricsOptions o;
    o.nll_clip = 0.1;
    const Record r = evaluation_metrics(two, o);
    CHECK(std::find_if(r.begin(), r.end(), [](const Field& f) { return f.name == "nll_clip"; }) != r.end());
}

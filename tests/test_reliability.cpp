// Reliability diagrams: Clopper–Pearson bounds against Boost's Beta quantiles and closed forms, their
// exact coverage, bin counts and events that add up, the top-label diagram's identity with the
// top-label ECE, equal-mass groups, and the errors.
#include <calib/estimators.hpp>
#include <calib/reliability.hpp>
#include <calib/tool/json.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace calib;

TEST_CASE("Clopper-Pearson bounds are the Beta quantiles, with the closed forms at 0 and m events") {
    for (const double level : {0.9, 0.95, 0.99})
        for (const std::size_t m : {1, 2, 7, 40, 1000})
            for (std::size_t k = 0; k <= m; k += (m > 10 ? m / 7 : 1)) {
                const ProportionInterval ci = clopper_pearson(k, m, level);
                const double a = (1 - level) / 2;
                const double lower = k == 0 ? 0 : quantile(boost::math::beta_distribution<>(double(k), double(m - k + 1)), a);
                const double upper =
                    k == m ? 1 : quantile(boost::math::beta_distribution<>(double(k + 1), double(m - k)), 1 - a);
                CHECK(ci.lower == doctest::Approx(lower).epsilon(1e-12));
                CHECK(ci.upper == doctest::Approx(upper).epsilon(1e-12));
                // Closed forms: P(X = 0 | p_upper) = a at k = 0, P(X = m | p_lower) = a at k = m.
                if (k == 0) CHECK(ci.upper == doctest::Approx(1 - std::pow(a, 1.0 / double(m))).epsilon(1e-12));
                if (k == m) CHECK(ci.lower == doctest::Approx(std::pow(a, 1.0 / double(m))).epsilon(1e-12));
            }
    // A published value: 0 of 10 at 95 %: [0, 0.3084971] (1 − 0.025^(1/10)).
    CHECK(clopper_pearson(0, 10).upper == doctest::Approx(0.30849710).epsilon(1e-7));
}

TEST_CASE("Clopper-Pearson intervals cover at least their level, exactly summed over the binomial") {
    for (const std::size_t m : {5, 20, 100})
        for (const double p : {0.02, 0.3, 0.5, 0.93}) {
            const boost::math::binomial_distribution<> binomial(double(m), p);
            double coverage = 0;
            for (std::size_t k = 0; k <= m; ++k) {
                const ProportionInterval ci = clopper_pearson(k, m, 0.95);
                if (ci.lower <= p && p <= ci.upper) coverage += pdf(binomial, double(k));
            }
            CHECK(coverage >= 0.95 - 1e-12);
        }
}

TEST_CASE("top-label diagram: counts and events add up, and its weighted gaps are the top-label ECE") {
    test::Rng rng(11);
    const CategoricalData data = synthetic::dirichlet_data(700, 4, 0.5, rng);
    for (const std::size_t B : {1, 5, 10, 15}) {
        const ReliabilityDiagram d = reliability_diagram(data, {ReliabilityBinning::uniform, B, 0.9});
        REQUIRE(d.bins.size() == B);
        std::size_t count = 0, events = 0;
        double gaps = 0;
        for (const ReliabilityBin& b : d.bins) {
            count += b.count;
            events += b.events;
            if (b.count == 0) {
                CHECK(std::isnan(b.frequency));
                continue;
            }
            CHECK(b.mean_confidence >= b.lower);
            CHECK(b.mean_confidence <= b.upper);
            CHECK(b.interval_lower <= b.frequency);
            CHECK(b.frequency <= b.interval_upper);
            gaps += double(b.count) / 700 * std::abs(b.frequency - b.mean_confidence);
        }
        CHECK(count == 700);
        std::size_t correct = 0;  // an independent count of right top-label predictions
        for (std::size_t i = 0; i < 700; ++i) {
            Eigen::Index argmax = 0;
            data.probabilities().row(Eigen::Index(i)).maxCoeff(&argmax);
            correct += data.labels()[i] == argmax;
        }
        CHECK(events == correct);
        EceOptions ece;
        ece.mode = EceMode::top_label;
        ece.nbins = int(B);
        CHECK(gaps == doctest::Approx(calib::ece(data, ece)).epsilon(1e-12));
        CHECK(binned_ece(d) == doctest::Approx(gaps).epsilon(1e-12));
        CHECK(d.event == "top-label");
    }
}

TEST_CASE("equal-mass and class diagrams") {
    test::Rng rng(12);
    const CategoricalData data = synthetic::dirichlet_data(103, 3, 1.0, rng);
    const ReliabilityDiagram d = reliability_diagram(data, {ReliabilityBinning::equal_mass, 10, 0.95});
    std::size_t count = 0;
    for (std::size_t b = 0; b < d.bins.size(); ++b) {
        CHECK((d.bins[b].count == 10 || d.bins[b].count == 11));
        CHECK(d.bins[b].lower <= d.bins[b].upper);
        if (b > 0) CHECK(d.bins[b - 1].upper <= d.bins[b].lower);
        count += d.bins[b].count;
    }
    CHECK(count == 103);
    // Class 2: events are the labels equal to 2, means the p_i2 of each group.
    const ReliabilityDiagram c = class_reliability_diagram(data, 2, {ReliabilityBinning::equal_mass, 103, 0.95});
    std::size_t events = 0, twos = 0;
    for (const ReliabilityBin& b : c.bins) {
        CHECK(b.count == 1);
        CHECK(b.lower == b.mean_confidence);
        events += b.events;
    }
    for (const int y : data.labels()) twos += y == 2;
    CHECK(events == twos);
    CHECK(c.event == "class 2");
    // Binary predictions: class 1 is the diagram of P(Y = 1); one observation is enough.
    const CategoricalData one = CategoricalData::from_binary((Vector(1) << 0.3).finished(), {1});
    const ReliabilityDiagram b = class_reliability_diagram(one, 1, {ReliabilityBinning::uniform, 4, 0.95});
    CHECK(b.bins[1].count == 1);
    CHECK(b.bins[1].mean_confidence == 0.3);
    CHECK(b.bins[1].frequency == 1);
    CHECK(b.bins[1].interval_lower == doctest::Approx(0.025));
}

TEST_CASE("reliability diagrams refuse bad options") {
    test::Rng rng(13);
    const CategoricalData data = synthetic::dirichlet_data(20, 3, 1.0, rng);
    CHECK_THROWS_WITH_AS(reliability_diagram(data, {ReliabilityBinning::uniform, 0, 0.95}),
                         doctest::Contains("bins = 0"), invalid_argument);
    CHECK_THROWS_WITH_AS(reliability_diagram(data, {ReliabilityBinning::equal_mass, 21, 0.95}),
                         doctest::Contains("must be <= n"), invalid_argument);
    CHECK_THROWS_WITH_AS(reliability_diagram(data, {ReliabilityBinning::uniform, 10, 1.0}),
                         doctest::Contains("level = 1"), invalid_argument);
    CHECK_THROWS_WITH_AS(class_reliability_diagram(data, 3), doctest::Contains("k = 3"), invalid_argument);
    CHECK_THROWS_AS(clopper_pearson(3, 2), invalid_argument);
    CHECK_THROWS_AS(clopper_pearson(0, 0), invalid_argument);
}

// ---- the PIT ------------------------------------------------------------------------------------------

TEST_CASE("the PIT of each univariate family: closed forms") {
    const Vector y = (Vector(3) << 0.0, 1.959963984540054, -1.0).finished();
    const std::vector<double> u = pit(NormalData(Vector::Zero(3), Vector::Ones(3), y));
    CHECK(u[0] == 0.5);
    CHECK(u[1] == doctest::Approx(0.975).epsilon(1e-12));
    CHECK(u[2] == doctest::Approx(0.15865525393145705).epsilon(1e-12));  // Φ(−1)
    // The upper tail is not lost to cancellation: 1 − Φ(−40) would round to 1, Φ(−40) ≈ 3.7e-350 → 0,
    // and Φ(−8) = 6.22e-16 is kept.
    const std::vector<double> tail = pit(NormalData(Vector::Zero(1), Vector::Ones(1), Vector::Constant(1, -8.0)));
    CHECK(tail[0] == doctest::Approx(6.220960574271785e-16).epsilon(1e-10));
    // Laplace: u = 1/2 at the mean, 3/4 at μ + β ln 2, 1/4 at μ − β ln 2.
    const Vector ly = (Vector(3) << 1.0, 1.0 + 2 * std::log(2.0), 1.0 - 2 * std::log(2.0)).finished();
    const std::vector<double> l = pit(LaplaceData(Vector::Ones(3), Vector::Constant(3, 2.0), ly));
    CHECK(l[0] == 0.5);
    CHECK(l[1] == doctest::Approx(0.75).epsilon(1e-14));
    CHECK(l[2] == doctest::Approx(0.25).epsilon(1e-14));
    // A mixture of two equal normals is that normal; of N(−1, 1) and N(1, 1) at 0, one half.
    const Matrix w = Matrix::Constant(3, 2, 0.5);
    const std::vector<double> same = pit(MixtureNormalData(w, Matrix::Zero(3, 2), Matrix::Ones(3, 2), y));
    for (int i = 0; i < 3; ++i) CHECK(same[std::size_t(i)] == doctest::Approx(u[std::size_t(i)]).epsilon(1e-15));
    Matrix means(1, 2);
    means << -1, 1;
    CHECK(pit(MixtureNormalData(Matrix::Constant(1, 2, 0.5), means, Matrix::Ones(1, 2), Vector::Zero(1)))[0] ==
          doctest::Approx(0.5).epsilon(1e-15));
}

// A univariate family is one whose data set has cdf and nll: the PIT, mean_nll and the metrics take it
// without a list of families (data.hpp, is_univariate_v).
static_assert(is_univariate_v<NormalData> && is_univariate_v<LaplaceData> && is_univariate_v<MixtureNormalData>);
static_assert(!is_univariate_v<CategoricalData> && !is_univariate_v<MvNormalData>);

TEST_CASE("a univariate family's cdf and nll at a point: closed forms, and what pit and mean_nll add up") {
    const NormalData normal(Vector::Constant(2, 1.0), Vector::Constant(2, 2.0), (Vector(2) << 1.0, 3.0).finished());
    CHECK(normal.cdf(0, 1.0) == 0.5);
    // −log N(3; 1, 4) = ½log(2π) + log 2 + ½.
    CHECK(normal.nll(1, 3.0) == doctest::Approx(0.5 * std::log(2 * M_PI) + std::log(2.0) + 0.5).epsilon(1e-15));
    const LaplaceData laplace(Vector::Zero(1), Vector::Ones(1), Vector::Zero(1));
    CHECK(laplace.cdf(0, std::log(2.0)) == doctest::Approx(0.75).epsilon(1e-15));
    CHECK(laplace.nll(0, 1.0) == doctest::Approx(std::log(2.0) + 1).epsilon(1e-15));  // log(2β) + |y − μ|/β
    // A mixture of one normal is that normal.
    const MixtureNormalData one(Matrix::Ones(2, 1), Matrix::Constant(2, 1, 1.0), Matrix::Constant(2, 1, 2.0),
                                (Vector(2) << 1.0, 3.0).finished());
    CHECK(one.cdf(1, 2.0) == normal.cdf(1, 2.0));
    CHECK(one.nll(1, 3.0) == doctest::Approx(normal.nll(1, 3.0)).epsilon(1e-15));
    // pit is cdf at the targets; mean_nll the mean of nll at the targets.
    const std::vector<double> u = pit(normal);
    CHECK(u[1] == normal.cdf(1, 3.0));
    CHECK(mean_nll(normal) == doctest::Approx(0.5 * (normal.nll(0, 1.0) + normal.nll(1, 3.0))).epsilon(1e-15));
}

TEST_CASE("PIT histogram: counts add up; the band is the tightest binomial band holding the level") {
    test::Rng rng(14);
    const NormalData calibrated = test::normal_data(2000, rng);
    const PitHistogram h = pit_histogram(pit(calibrated), 10, 0.95);
    std::size_t total = 0, outside = 0;
    for (const std::size_t c : h.counts) {
        total += c;
        outside += c < h.band_lower || c > h.band_upper;
    }
    CHECK(total == 2000);
    CHECK(outside <= 2);  // each bin is outside with probability ≤ 5 %
    // The band against the binomial's CDF summed independently: P(X < lower) ≤ 2.5 % < P(X ≤ lower),
    // P(X > upper) ≤ 2.5 % < P(X ≥ upper).
    const boost::math::binomial_distribution<> b(2000, 0.1);
    double below = 0, through_lower = 0, up_to_upper = 0;
    for (std::size_t k = 0; k <= h.band_upper; ++k) {
        const double p = pdf(b, double(k));
        if (k < h.band_lower) below += p;
        if (k <= h.band_lower) through_lower += p;
        if (k < h.band_upper) up_to_upper += p;
    }
    CHECK(below <= 0.025);
    CHECK(through_lower > 0.025);
    const double above = 1 - up_to_upper - pdf(b, double(h.band_upper));
    CHECK(above <= 0.025);
    CHECK(1 - up_to_upper > 0.025);
    // A shifted model piles its PIT at one end: most bins leave the band.
    const NormalData shifted = test::normal_data(2000, rng, 0.5);
    const PitHistogram s = pit_histogram(pit(shifted), 10, 0.95);
    std::size_t out = 0;
    for (const std::size_t c : s.counts) out += c < s.band_lower || c > s.band_upper;
    CHECK(out >= 6);
}

TEST_CASE("coverage of central intervals: exact on a uniform grid, errors refused") {
    std::vector<double> grid(1000);
    for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = (double(i) + 0.5) / 1000;
    const CoverageCurve c = interval_coverage(grid, {0.1, 0.5, 0.9}, 0.95);
    CHECK(c.observed == std::vector<double>{0.1, 0.5, 0.9});
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(c.lower[k] < c.observed[k]);
        CHECK(c.observed[k] < c.upper[k]);
    }
    CHECK_THROWS_WITH_AS(interval_coverage(grid, {1.0}), doctest::Contains("nominal level 1"), invalid_argument);
    CHECK_THROWS_WITH_AS(interval_coverage({0.5, 1.5}, {0.5}), doctest::Contains("u[1] = 1.5"), invalid_argument);
    CHECK_THROWS_AS(pit_histogram({}, 10), invalid_argument);
    CHECK_THROWS_WITH_AS(pit_histogram(grid, 0), doctest::Contains("bins = 0"), invalid_argument);
}

TEST_CASE("mahalanobis PIT: d = 1 is the folded normal PIT; chi-squared closed forms; calibrated data uniform") {
    test::Rng rng(15);
    const NormalData one = test::normal_data(300, rng);
    const Matrix mean = one.mean(), sd = one.stddev(), y = one.targets();
    const std::vector<double> u = mahalanobis_pit(MvNormalData::diagonal(mean, sd, y));
    const std::vector<double> v = pit(one);
    std::vector<double> covariances_u;
    std::vector<Matrix> cov;
    for (Eigen::Index i = 0; i < sd.rows(); ++i) cov.push_back(Matrix::Constant(1, 1, sd(i) * sd(i)));
    const std::vector<double> full = mahalanobis_pit(MvNormalData::full(mean, cov, y));
    for (std::size_t i = 0; i < u.size(); ++i) {
        CHECK(u[i] == doctest::Approx(std::abs(2 * v[i] - 1)).epsilon(1e-9));
        CHECK(full[i] == doctest::Approx(u[i]).epsilon(1e-12));
    }
    // d = 1: the ellipsoid is the central interval, so the coverages agree (away from ties at the edges).
    const std::vector<double> levels = {0.1, 0.5, 0.9};
    CHECK(ellipsoid_coverage(u, levels).observed == interval_coverage(v, levels).observed);
    // d = 2, Σ = I: the squared distance 2 has χ²_2 CDF 1 − e^{−1}; at the mean, 0.
    Matrix m2 = Matrix::Zero(2, 2), y2(2, 2);
    y2 << 1, 1, 0, 0;
    const std::vector<double> w = mahalanobis_pit(MvNormalData::diagonal(m2, Matrix::Ones(2, 2), y2));
    CHECK(w[0] == doctest::Approx(1 - std::exp(-1.0)).epsilon(1e-14));
    CHECK(w[1] == 0);
    // A squared distance that overflows (target 1 from the mean, standard deviation 1e-308) is beyond
    // every ellipsoid: u = 1, the CDF's limit, not an error.
    const std::vector<double> far = mahalanobis_pit(MvNormalData::diagonal(m2, Matrix::Constant(2, 2, 1e-308), y2));
    CHECK(far[0] == 1);
    CHECK(far[1] == 0);
    // Full covariances with targets drawn from them: the PIT is uniform within the band, and the
    // ellipsoids cover their nominal levels within their intervals.
    const MvNormalData calibrated = test::mvnormal_full_data(3000, 3, rng);
    const std::vector<double> c = mahalanobis_pit(calibrated);
    const PitHistogram h = pit_histogram(c, 10, 0.99);
    for (const std::size_t count : h.counts) {
        CHECK(count >= h.band_lower);
        CHECK(count <= h.band_upper);
    }
    const CoverageCurve e = ellipsoid_coverage(c, {0.5, 0.9}, 0.999);
    for (std::size_t k = 0; k < 2; ++k) {
        CHECK(e.lower[k] <= e.nominal[k]);
        CHECK(e.nominal[k] <= e.upper[k]);
    }
    CHECK_THROWS_WITH_AS(ellipsoid_coverage(c, {0.0}), doctest::Contains("nominal level 0"), invalid_argument);
}

TEST_CASE("mean NLL: closed forms of each family") {
    const double half_log_two_pi = 0.5 * std::log(2 * M_PI);
    // Normal: z = 0 and z = 2 with σ = 1, 2: ½log 2π + log σ + ½z².
    const NormalData normal((Vector(2) << 0.0, 1.0).finished(), (Vector(2) << 1.0, 2.0).finished(),
                            (Vector(2) << 0.0, 5.0).finished());
    CHECK(mean_nll(normal) == doctest::Approx(half_log_two_pi + 0.5 * (std::log(2.0) + 2.0)).epsilon(1e-14));
    // Laplace: log(2β) + |y − μ|/β.
    const LaplaceData laplace(Vector::Zero(1), Vector::Constant(1, 0.5), Vector::Constant(1, -1.0));
    CHECK(mean_nll(laplace) == doctest::Approx(std::log(1.0) + 2.0).epsilon(1e-14));
    // A mixture of two equal components is the component; far targets stay finite (no log 0).
    const MixtureNormalData same(Matrix::Constant(2, 2, 0.5), (Matrix(2, 2) << 0, 0, 1, 1).finished(),
                                 (Matrix(2, 2) << 1, 1, 2, 2).finished(), (Vector(2) << 0.0, 5.0).finished());
    CHECK(mean_nll(same) == doctest::Approx(mean_nll(normal)).epsilon(1e-14));
    const MixtureNormalData far(Matrix::Constant(1, 2, 0.5), Matrix::Zero(1, 2), Matrix::Ones(1, 2), Vector::Constant(1, 100.0));
    CHECK(mean_nll(far) == doctest::Approx(half_log_two_pi + 5000).epsilon(1e-14));
    // Multivariate normal: the diagonal form is the sum of its coordinates' normal NLLs, and a full
    // covariance equal to that diagonal gives the same.
    test::Rng rng(16);
    const NormalData a = test::normal_data(50, rng), b = test::normal_data(50, rng);
    Matrix mean(50, 2), sd(50, 2), y(50, 2);
    mean << a.mean(), b.mean();
    sd << a.stddev(), b.stddev();
    y << a.targets(), b.targets();
    std::vector<Matrix> cov;
    for (Eigen::Index i = 0; i < 50; ++i) cov.push_back(sd.row(i).array().square().matrix().asDiagonal());
    const double sum = mean_nll(a) + mean_nll(b);
    CHECK(mean_nll(MvNormalData::diagonal(mean, sd, y)) == doctest::Approx(sum).epsilon(1e-13));
    CHECK(mean_nll(MvNormalData::full(mean, cov, y)) == doctest::Approx(sum).epsilon(1e-13));
}

// ---- the smoothed curve (SmoothReliability) ------------------------------------------------------------

namespace {

// The smoother written out from its definition in reliability.hpp, on the logit scale, for comparison.
double smoothed_at(const std::vector<double>& p, const std::vector<int>& y, double z, double h) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double q = std::clamp(p[i], 1e-6, 1 - 1e-6), u = (std::log(q / (1 - q)) - z) / h, w = std::exp(-u * u / 2);
        num += w * y[i];
        den += w;
    }
    return num / den;
}

}  // namespace

TEST_CASE("smoothed reliability: the definition's smoother, Silverman's bandwidth, a band around it") {
    // P(Y = 1) = p: binary predictions with labels drawn from them (calibrated).
    test::Rng rng(12);
    std::uniform_real_distribution<double> between(0.02, 0.98);
    std::vector<double> p;
    std::vector<int> y;
    for (int i = 0; i < 3000; ++i) {
        p.push_back(between(rng));
        y.push_back(std::uniform_real_distribution<double>(0, 1)(rng) < p.back() ? 1 : 0);
    }
    Vector scores(static_cast<Eigen::Index>(p.size()));
    for (std::size_t i = 0; i < p.size(); ++i) scores(static_cast<Eigen::Index>(i)) = p[i];
    const CategoricalData data = CategoricalData::from_binary(scores, y);
    ReliabilityOptions o;
    o.smooth_points = 40;
    const SmoothReliability s = class_reliability_diagram(data, 1, o).smooth;
    REQUIRE(s.probability.size() == 40);
    // Silverman's rule on z = logit(p), computed here from the sample.
    std::vector<double> z;
    for (const double q : p) z.push_back(std::log(q / (1 - q)));
    double mean = 0, var = 0;
    for (const double v : z) mean += v / double(z.size());
    for (const double v : z) var += (v - mean) * (v - mean) / double(z.size() - 1);
    std::vector<double> sorted = z;
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](double q) {
        const double k = q * double(sorted.size() - 1);
        const std::size_t b = std::size_t(k);
        return sorted[b] + (k - double(b)) * (sorted[b + 1] - sorted[b]);
    };
    const double h = 0.9 * std::min(std::sqrt(var), (at(0.75) - at(0.25)) / 1.34) * std::pow(double(z.size()), -0.2);
    CHECK(s.bandwidth == doctest::Approx(h).epsilon(1e-12));
    CHECK(s.probability.front() == doctest::Approx(1 / (1 + std::exp(-at(0.01)))).epsilon(1e-12));
    CHECK(s.probability.back() == doctest::Approx(1 / (1 + std::exp(-at(0.99)))).epsilon(1e-12));
    std::size_t inside = 0;
    for (std::size_t j = 0; j < s.probability.size(); ++j) {
        const double zj = std::log(s.probability[j] / (1 - s.probability[j]));
        CHECK(s.frequency[j] == doctest::Approx(smoothed_at(p, y, zj, h)).epsilon(1e-10));
        CHECK(0 <= s.lower[j]);
        CHECK(s.lower[j] <= s.frequency[j]);
        CHECK(s.frequency[j] <= s.upper[j]);
        CHECK(s.upper[j] <= 1);
        if (j > 0) CHECK(s.probability[j] > s.probability[j - 1]);
        inside += s.lower[j] <= s.probability[j] + 0.02 && s.probability[j] - 0.02 <= s.upper[j] ? 1 : 0;  // 0.02: the smoothing bias at the ends
    }
    CHECK(inside >= 36);  // a calibrated model's curve: the diagonal inside the band nearly everywhere
}

TEST_CASE("smoothed reliability: constant predictions, all events, the curve off by default, a bad count") {
    // Every prediction the same: one point, at the overall frequency, its band the Wilson interval.
    const CategoricalData same = CategoricalData::from_binary(Vector::Constant(50, 0.3), std::vector<int>(50, 0));
    ReliabilityOptions o;
    o.smooth_points = 20;
    const SmoothReliability s = class_reliability_diagram(same, 1, o).smooth;
    REQUIRE(s.frequency.size() == 1);
    CHECK(s.probability[0] == doctest::Approx(0.3).epsilon(1e-12));
    CHECK(s.frequency[0] == 0);
    CHECK(s.lower[0] == 0);
    const double z2 = 1.959963984540054 * 1.959963984540054;  // Wilson's upper end at 0 of 50: z²/(n + z²)
    CHECK(s.upper[0] == doctest::Approx(z2 / (50 + z2)).epsilon(1e-9));
    CHECK(s.bandwidth == 1);
    // Every label an event: the frequency 1 lies in its band, whose upper end is 1 exactly.
    const SmoothReliability all = class_reliability_diagram(same, 0, o).smooth;
    CHECK(all.frequency[0] == 1);
    CHECK(all.upper[0] == 1);
    CHECK(all.lower[0] == doctest::Approx(50 / (50 + z2)).epsilon(1e-9));
    CHECK(class_reliability_diagram(same, 1).smooth.probability.empty());  // smooth_points = 0
    o.smooth_points = 100001;
    CHECK_THROWS_AS(class_reliability_diagram(same, 1, o), invalid_argument);
}

// The one field order of the report's JSON and the Python module (record() of reliability.hpp),
// written out here by hand from a small diagram whose values are computed in the test.
TEST_CASE("the diagrams' records: fields in order, NaN for an empty bin, lists as JSON arrays") {
    // Three predictions of two classes: top-label confidences 0.9 (right), 0.8 (wrong), 0.7 (right).
    const Matrix p = (Matrix(3, 2) << 0.9, 0.1, 0.2, 0.8, 0.7, 0.3).finished();
    const CategoricalData data(p, {0, 0, 0});
    const ReliabilityDiagram d = reliability_diagram(data, {ReliabilityBinning::uniform, 2, 0.95});
    const Record r = d.record();
    std::vector<std::string> names;
    for (const Field& f : r) names.push_back(f.name);
    CHECK(names == std::vector<std::string>{"event", "n", "level", "binning", "bins"});
    CHECK(std::get<std::string>(find(r, "binning")) == "uniform");
    CHECK(std::get<std::uint64_t>(find(r, "n")) == 3);
    const auto& bins = std::get<std::vector<Record>>(find(r, "bins"));
    REQUIRE(bins.size() == 2);
    // [0, 0.5] is empty: its mean and frequency are undefined.
    CHECK(std::get<std::uint64_t>(find(bins[0], "count")) == 0);
    CHECK(std::isnan(std::get<double>(find(bins[0], "frequency"))));
    // (0.5, 1]: three predictions, two right, mean confidence 0.8.
    CHECK(std::get<std::uint64_t>(find(bins[1], "count")) == 3);
    CHECK(std::get<std::uint64_t>(find(bins[1], "events")) == 2);
    CHECK(std::get<double>(find(bins[1], "mean_confidence")) == doctest::Approx(0.8).epsilon(1e-15));
    CHECK(std::get<double>(find(bins[1], "frequency")) == 2.0 / 3.0);
    const ProportionInterval ci = clopper_pearson(2, 3, 0.95);
    CHECK(std::get<double>(find(bins[1], "interval_lower")) == ci.lower);
    CHECK(std::get<double>(find(bins[1], "interval_upper")) == ci.upper);
    CHECK(json_text(find(r, "bins")).rfind("[{\"lower\":0,\"upper\":0.5,\"count\":0,\"events\":0,\"mean_confidence\":null", 0) == 0);

    const ReliabilityDiagram smoothed = reliability_diagram(data, {ReliabilityBinning::equal_mass, 3, 0.9, 4});
    const Record s = smoothed.record();
    CHECK(s.back().name == "smooth");
    CHECK(std::get<std::string>(find(s, "binning")) == "equal-mass");
    CHECK(std::get<std::vector<double>>(find(std::get<Record>(find(s, "smooth")), "probability")) ==
          smoothed.smooth.probability);

    const PitHistogram h = pit_histogram({0.05, 0.15, 0.95, 0.96}, 2, 0.9);
    CHECK(to_json(h.record()) == "{\"n\":4,\"level\":0.9,\"counts\":[2,2],\"band_lower\":" + std::to_string(h.band_lower) +
                                     ",\"band_upper\":" + std::to_string(h.band_upper) + "}");
    const CoverageCurve c = interval_coverage({0.5, 0.5}, {0.5}, 0.95);
    CHECK(to_json(c.record()) == "{\"n\":2,\"level\":0.95,\"nominal\":[0.5],\"observed\":[1],\"lower\":[" +
                                     json_number(c.lower[0]) + "],\"upper\":[1]}");
    CHECK_THROWS_AS(to_double(find(c.record(), "nominal")), invalid_argument);
    CHECK(to_text(find(h.record(), "counts")) == "[2,2]");
}

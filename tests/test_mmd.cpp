// The conditional MMD of Marx, Zalouk & Ermon (calib/mmd.hpp): the canonical notion against the SKCE,
// every notion against a naive double loop of the paper's own (non-symmetric) h [marx-2023 §3.4],
// scaling, thread independence, unbiasedness, the tests' level and power, the median, the converter
// of the paper code's bandwidth, and the errors.
#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>
#include <calib/mmd.hpp>
#include <calib/registry.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using namespace calib;

namespace {

// A calibrated model (labels drawn from Dir(1) forecasts), m = 3, with features and group ids drawn
// independently of everything else.
struct Problem {
    CategoricalData data;
    Matrix features;
    std::vector<int> groups;
};

Problem problem(std::size_t n, test::Rng& rng, bool uniform_labels = false) {
    CategoricalData data = synthetic::dirichlet_data(n, 3, 1.0, rng, uniform_labels);
    boost::random::normal_distribution<double> z;
    Matrix x(static_cast<Eigen::Index>(n), 2);
    std::vector<int> g(n);
    for (std::size_t i = 0; i < n; ++i) {
        x(static_cast<Eigen::Index>(i), 0) = z(rng);
        x(static_cast<Eigen::Index>(i), 1) = z(rng);
        g[i] = static_cast<int>(rng() % 4) - 1;  // ids -1 … 2
    }
    return {std::move(data), std::move(x), std::move(g)};
}

MmdSpec spec_for(MmdNotion notion, const Problem& p, double lengthscale = 0.4) {
    MmdSpec s;
    s.notion = notion;
    s.conditioning.lengthscale = lengthscale;
    if (notion == MmdNotion::individual) s.features = p.features;
    if (notion == MmdNotion::group) s.groups = p.groups;
    return s;
}

const std::vector<MmdNotion> notions = {MmdNotion::canonical, MmdNotion::top_label, MmdNotion::class_wise,
                                        MmdNotion::group,     MmdNotion::individual, MmdNotion::marginal};

// ---- the naive reference: the paper's h, written out per notion ---------------------------------------

double rbf(double d2, double l) { return std::exp(-d2 / (2 * l * l)); }

// One distribution-matching problem: target values t ∈ {0 … K−1}, the forecast pmf f_i over them, the
// observed t_i, a conditioning kernel kz(i, j) and the target Gram K.
struct Matching {
    std::vector<std::vector<double>> forecast;
    std::vector<int> observed;
    std::function<double(std::size_t, std::size_t)> kz;
    Matrix gram;
};

// 1/(n(n−1)) Σ_{i≠j} [k(t_i, t_j) + Σ_{y,y'} f_i(y) f_j(y') k(y, y') − 2 Σ_y f_i(y) k(y, t_j)] k_Z(z_i, z_j)
// [marx-2023 §3.4, as printed: not symmetric in i, j].
double naive_mmd(const Matching& m) {
    const std::size_t n = m.observed.size();
    const auto K = static_cast<int>(m.gram.rows());
    double total = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            if (i == j) continue;
            double h = m.gram(m.observed[i], m.observed[j]);
            for (int a = 0; a < K; ++a) {
                for (int b = 0; b < K; ++b) h += m.forecast[i][a] * m.forecast[j][b] * m.gram(a, b);
                h -= 2 * m.forecast[i][a] * m.gram(a, m.observed[j]);
            }
            total += h * m.kz(i, j);
        }
    return total / (double(n) * double(n - 1));
}

// The problems of a notion (m for class-wise, else one) with the δ target kernel, straight from the
// definitions of Table 2.
std::vector<Matching> naive_matchings(MmdNotion notion, const Problem& p, double l) {
    const CategoricalData& d = p.data;
    const Matrix q = d.probabilities();
    const std::size_t n = d.size();
    const int m = d.num_classes();
    std::vector<Matching> out;
    const auto labels = [&] {
        Matching mt;
        for (std::size_t i = 0; i < n; ++i) {
            mt.forecast.emplace_back();
            for (int c = 0; c < m; ++c) mt.forecast.back().push_back(q(static_cast<Eigen::Index>(i), c));
            mt.observed.push_back(d.labels()[i]);
        }
        mt.gram = Matrix::Identity(m, m);
        return mt;
    };
    if (notion == MmdNotion::canonical) {
        Matching mt = labels();
        mt.kz = [q, l](std::size_t i, std::size_t j) {
            return rbf((q.row(static_cast<Eigen::Index>(i)) - q.row(static_cast<Eigen::Index>(j))).squaredNorm(), l);
        };
        out.push_back(mt);
    } else if (notion == MmdNotion::group) {
        Matching mt = labels();
        mt.kz = [g = p.groups](std::size_t i, std::size_t j) { return g[i] == g[j] ? 1.0 : 0.0; };
        out.push_back(mt);
    } else if (notion == MmdNotion::individual) {
        Matching mt = labels();
        mt.kz = [x = p.features, l](std::size_t i, std::size_t j) {
            return rbf((x.row(static_cast<Eigen::Index>(i)) - x.row(static_cast<Eigen::Index>(j))).squaredNorm(), l);
        };
        out.push_back(mt);
    } else if (notion == MmdNotion::marginal) {
        Matching mt = labels();
        mt.kz = [](std::size_t, std::size_t) { return 1.0; };
        out.push_back(mt);
    } else {
        // Binary targets: top-label 1{Y = Y*} with forecast q(Y*) given q(Y*); class-wise 1{Y = c} with
        // forecast q(c) given q(c), for each c.
        const int problems = notion == MmdNotion::top_label ? 1 : m;
        for (int c = 0; c < problems; ++c) {
            Matching mt;
            std::vector<double> z;
            for (std::size_t i = 0; i < n; ++i) {
                const auto r = static_cast<Eigen::Index>(i);
                int k = c;
                if (notion == MmdNotion::top_label) {
                    k = 0;
                    for (int a = 1; a < m; ++a)
                        if (q(r, a) > q(r, k)) k = a;
                }
                z.push_back(q(r, k));
                mt.forecast.push_back({1 - q(r, k), q(r, k)});
                mt.observed.push_back(d.labels()[i] == k ? 1 : 0);
            }
            mt.kz = [z, l](std::size_t i, std::size_t j) { return rbf((z[i] - z[j]) * (z[i] - z[j]), l); };
            mt.gram = Matrix::Identity(2, 2);
            out.push_back(mt);
        }
    }
    return out;
}

Matrix random_gram(int m, test::Rng& rng) {
    boost::random::normal_distribution<double> z;
    Matrix a(m, m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) a(i, j) = z(rng);
    return a * a.transpose() / m;
}

}  // namespace

TEST_CASE("mmd: the canonical notion equals the SKCE's unbiased estimator with the same kernels") {
    // digest §11.5.1: with Z = q, k_Z = k_P and K_T = the SKCE's target Gram, h is the SKCE's h.
    test::Rng rng(31);
    const Problem p = problem(150, rng);
    for (const PredictionKernelShape shape : {PredictionKernelShape::exp, PredictionKernelShape::sqexp})
        for (const Metric metric : {Metric::tv, Metric::l1, Metric::euclidean})
            for (const bool gram : {false, true}) {
                CAPTURE(to_string(shape));
                CAPTURE(to_string(metric));
                CAPTURE(gram);
                Kernel k;
                k.prediction = {shape, metric, 0.37};
                MmdSpec s;
                s.conditioning = k.prediction;
                if (gram) {
                    k.target.type = TargetKernelType::gram;
                    k.target.gram = random_gram(3, rng);
                    s.target_gram = k.target.gram;
                }
                const double skce = skce_unbiased(p.data, k);
                CHECK(mmd_unbiased(p.data, s).estimate == doctest::Approx(skce).epsilon(1e-12));
                CHECK(mmd_block(p.data, s, 10).estimate == doctest::Approx(skce_block(p.data, k, 10).estimate).epsilon(1e-12));
                CHECK(mmd_core(p.data, s, 3, 7) == doctest::Approx(skce_core(p.data, k, 3, 7)).epsilon(1e-12));
            }
}

TEST_CASE("mmd: every notion equals a naive double loop of the paper's h") {
    test::Rng rng(32);
    const Problem p = problem(41, rng);
    const double l = 0.3;
    for (const MmdNotion notion : notions) {
        CAPTURE(to_string(notion));
        const std::vector<Matching> problems = naive_matchings(notion, p, l);
        double total = 0;
        std::vector<double> per_class;
        for (const Matching& mt : problems) per_class.push_back(naive_mmd(mt)), total += per_class.back();
        const MmdEstimate e = mmd_unbiased(p.data, spec_for(notion, p, l));
        CHECK(e.estimate == doctest::Approx(total).epsilon(1e-12));
        if (notion == MmdNotion::class_wise) {
            REQUIRE(e.per_class.size() == 3);
            for (std::size_t c = 0; c < 3; ++c) CHECK(e.per_class[c] == doctest::Approx(per_class[c]).epsilon(1e-12));
        } else {
            CHECK(e.per_class.empty());
        }
    }
}

TEST_CASE("mmd: a binary target's Gram matrix and the one-hot RBF target kernel") {
    // A 2×2 K on {no, yes} weighs the binary residual product by K_00 + K_11 − 2 K_01: with
    // K = [[a, b], [b, c]] the MMD is (a + c − 2b)/2 times the δ kernel's.
    test::Rng rng(33);
    const Problem p = problem(60, rng);
    for (const MmdNotion notion : {MmdNotion::top_label, MmdNotion::class_wise}) {
        MmdSpec s = spec_for(notion, p);
        const double delta = mmd_unbiased(p.data, s).estimate;
        s.target_gram = (Matrix(2, 2) << 2.0, 0.5, 0.5, 1.5).finished();
        CHECK(mmd_unbiased(p.data, s).estimate == doctest::Approx(delta * (2.0 + 1.5 - 1.0) / 2).epsilon(1e-12));
    }
}

TEST_CASE("mmd: scaling the kernel by s scales the MMD^2 by s and leaves the p-values unchanged") {
    test::Rng rng(34);
    const Problem p = problem(120, rng, true);
    for (const MmdNotion notion : notions) {
        CAPTURE(to_string(notion));
        MmdSpec s = spec_for(notion, p);
        MmdSpec scaled = s;
        const int size = notion == MmdNotion::top_label || notion == MmdNotion::class_wise ? 2 : 3;
        scaled.target_gram = 3.7 * Matrix::Identity(size, size);
        CHECK(mmd_unbiased(p.data, scaled).estimate ==
              doctest::Approx(3.7 * mmd_unbiased(p.data, s).estimate).epsilon(1e-12));
        // A power of two scales every h exactly, so the p-values agree bitwise.
        scaled.target_gram = 4.0 * Matrix::Identity(size, size);
        BootstrapOptions o;
        o.replicates = 300;
        CHECK(mmd_bootstrap_test(p.data, scaled, o).p_value == mmd_bootstrap_test(p.data, s, o).p_value);
        CHECK(mmd_gamma_test(p.data, scaled).p_value == doctest::Approx(mmd_gamma_test(p.data, s).p_value).epsilon(1e-12));
        BlockTestOptions b;
        b.block_size = 10;
        CHECK(mmd_block_test(p.data, scaled, b).p_value == mmd_block_test(p.data, s, b).p_value);
    }
}

TEST_CASE("mmd: estimates and tests are bitwise identical for 1 and 2 threads") {
    test::Rng rng(35);
    const Problem p = problem(700, rng);  // more than one tile of the engine
    for (const MmdNotion notion : notions) {
        CAPTURE(to_string(notion));
        const MmdSpec s = spec_for(notion, p);
        const MmdEstimate one = mmd_unbiased(p.data, s, {1}), two = mmd_unbiased(p.data, s, {2});
        CHECK(one.estimate == two.estimate);
        CHECK(one.per_class == two.per_class);
        BootstrapOptions o;
        o.replicates = 50;
        o.parallel = {1};
        const TestResult b1 = mmd_bootstrap_test(p.data, s, o);
        o.parallel = {2};
        const TestResult b2 = mmd_bootstrap_test(p.data, s, o);
        CHECK(b1.p_value == b2.p_value);
        CHECK(b1.statistic == b2.statistic);
        CHECK(mmd_gamma_test(p.data, s, {1}).statistic == mmd_gamma_test(p.data, s, {2}).statistic);
    }
    MmdSpec s = spec_for(MmdNotion::top_label, p);
    MedianOptions m1, m2;
    m1.parallel = {1};
    m2.parallel = {2};
    CHECK(mmd_median_lengthscales(p.data, s, m1) == mmd_median_lengthscales(p.data, s, m2));
}

TEST_CASE("mmd: unbiased under calibration (mean of the estimates within Monte-Carlo error of 0)") {
    // 300 calibrated data sets of n = 60: the mean estimate lies within 4 standard errors of 0 for
    // every notion; uniform labels (miscalibrated) put it far above (the canonical notion).
    test::Rng rng(36);
    const std::size_t reps = 300;
    std::vector<std::vector<double>> estimates(notions.size());
    std::vector<double> miscalibrated;
    for (std::size_t r = 0; r < reps; ++r) {
        const Problem p = problem(60, rng);
        for (std::size_t k = 0; k < notions.size(); ++k)
            estimates[k].push_back(mmd_unbiased(p.data, spec_for(notions[k], p)).estimate);
        const Problem bad = problem(60, rng, true);
        miscalibrated.push_back(mmd_unbiased(bad.data, spec_for(MmdNotion::canonical, bad)).estimate);
    }
    const auto mean_se = [](const std::vector<double>& v) {
        double mean = 0, var = 0;
        for (double x : v) mean += x;
        mean /= double(v.size());
        for (double x : v) var += (x - mean) * (x - mean);
        return std::make_pair(mean, std::sqrt(var / double(v.size() - 1) / double(v.size())));
    };
    for (std::size_t k = 0; k < notions.size(); ++k) {
        CAPTURE(to_string(notions[k]));
        const auto [mean, se] = mean_se(estimates[k]);
        CAPTURE(mean);
        CAPTURE(se);
        CHECK(std::abs(mean) < 4 * se);
    }
    const auto [mean, se] = mean_se(miscalibrated);
    CHECK(mean > 10 * se);
}

// `trials` calibrated data sets of n = 80 per notion: the bootstrap's rejections at α = 0.05 lie in
// the 99% binomial band [lo, hi] of trials · 0.05; the Gamma null, a heuristic, at most gamma_hi, the
// upper end of the band at 2α (as test_validity.cpp). Miscalibrated data (uniform labels, n = 150):
// all reject.
static void mmd_level_and_power(std::size_t trials, std::size_t lo, std::size_t hi, std::size_t gamma_hi) {
    test::Rng rng(37);
    for (const MmdNotion notion : {MmdNotion::canonical, MmdNotion::top_label, MmdNotion::class_wise}) {
        CAPTURE(to_string(notion));
        std::size_t bootstrap = 0, gamma = 0;
        for (std::size_t t = 0; t < trials; ++t) {
            const Problem p = problem(80, rng);
            const MmdSpec s = spec_for(notion, p);
            BootstrapOptions o;
            o.replicates = 100;
            o.seed = t;
            bootstrap += mmd_bootstrap_test(p.data, s, o).p_value < 0.05;
            gamma += mmd_gamma_test(p.data, s).p_value < 0.05;
        }
        CAPTURE(bootstrap);
        CAPTURE(gamma);
        CHECK(bootstrap >= lo);
        CHECK(bootstrap <= hi);
        CHECK(gamma <= gamma_hi);
        for (int t = 0; t < 5; ++t) {
            const Problem bad = problem(150, rng, true);
            const MmdSpec s = spec_for(notion, bad);
            BootstrapOptions o;
            o.replicates = 200;
            CHECK(mmd_bootstrap_test(bad.data, s, o).p_value < 0.05);
            CHECK(mmd_gamma_test(bad.data, s).p_value < 0.05);
        }
    }
}

// The study at full size (200 data sets per notion) is in `make test-slow`; `make test` runs 40 per
// notion (99% bands of Binomial(40, 0.05): [0, 6], of Binomial(40, 0.1): at most 10) and the power checks.
TEST_CASE("mmd: the bootstrap and Gamma tests hold their level under calibration and have power (40 data sets)") {
    mmd_level_and_power(40, 0, 6, 10);
}

TEST_CASE("mmd: the bootstrap and Gamma tests hold their level under calibration and have power" * doctest::test_suite("mmd slow")) {
    mmd_level_and_power(200, 3, 19, 33);
}

TEST_CASE("mmd: the group notion finds a miscalibration confined to one group that the marginal notion misses") {
    // Forecasts q = (1/2, 1/2) for every observation; group 0's labels are always class 0, group 1's
    // always class 1: marginally calibrated (half of each), badly miscalibrated within each group.
    const std::size_t n = 200;
    Matrix q = Matrix::Constant(n, 2, 0.5);
    std::vector<int> y(n), g(n);
    for (std::size_t i = 0; i < n; ++i) y[i] = g[i] = static_cast<int>(i % 2);
    const CategoricalData data(q, y);
    MmdSpec group;
    group.notion = MmdNotion::group;
    group.groups = g;
    MmdSpec marginal;
    marginal.notion = MmdNotion::marginal;
    // Exactly: marginal Σ_{i≠j} r_iᵀ r_j = |Σ r|² − Σ|r|² = 0 − n/2; group: pairs within a group add 1/2.
    CHECK(mmd_unbiased(data, marginal).estimate == doctest::Approx(-0.5 / double(n - 1)).epsilon(1e-12));
    const double within = 2.0 * (n / 2) * (n / 2 - 1) * 0.5;
    CHECK(mmd_unbiased(data, group).estimate == doctest::Approx(within / (double(n) * double(n - 1))).epsilon(1e-12));
    BootstrapOptions o;
    o.replicates = 300;
    CHECK(mmd_bootstrap_test(data, group, o).p_value < 0.01);
    CHECK(mmd_bootstrap_test(data, marginal, o).p_value > 0.5);
}

TEST_CASE("mmd: the median heuristic is the exact median of the conditioning distances") {
    test::Rng rng(38);
    const Problem p = problem(57, rng);
    const Matrix q = p.data.probabilities();
    const auto median_of = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const std::size_t k = v.size();
        return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
    };
    const auto pair_median = [&](const std::function<double(std::size_t, std::size_t)>& d) {
        std::vector<double> v;
        for (std::size_t i = 0; i < 57; ++i)
            for (std::size_t j = i + 1; j < 57; ++j) v.push_back(d(i, j));
        return median_of(v);
    };
    const auto row = [](const Matrix& a, std::size_t i) { return a.row(static_cast<Eigen::Index>(i)); };
    CHECK(mmd_median_lengthscales(p.data, spec_for(MmdNotion::canonical, p))[0] ==
          doctest::Approx(pair_median([&](std::size_t i, std::size_t j) { return (row(q, i) - row(q, j)).norm(); })));
    CHECK(mmd_median_lengthscales(p.data, spec_for(MmdNotion::individual, p))[0] ==
          doctest::Approx(pair_median(
              [&](std::size_t i, std::size_t j) { return (row(p.features, i) - row(p.features, j)).norm(); })));
    // Class-wise: every class takes the top-label confidences' median.
    const std::vector<double> classes = mmd_median_lengthscales(p.data, spec_for(MmdNotion::class_wise, p));
    REQUIRE(classes.size() == 3);
    for (Eigen::Index c = 0; c < 3; ++c)
        CHECK(classes[static_cast<std::size_t>(c)] ==
              doctest::Approx(pair_median([&](std::size_t i, std::size_t j) {
                  return std::abs(q.row(static_cast<Eigen::Index>(i)).maxCoeff() -
                                  q.row(static_cast<Eigen::Index>(j)).maxCoeff());
              })));
    CHECK_THROWS_AS(mmd_median_lengthscales(p.data, spec_for(MmdNotion::group, p)), invalid_argument);
}

TEST_CASE("mmd: the paper code's RBF bandwidth is 2 l^2") {
    CHECK(rbf_lengthscale_from_bandwidth(2.0) == 1.0);
    CHECK(rbf_bandwidth_from_lengthscale(0.5) == 0.5);
    // exp(−d²/bandwidth) == exp(−d²/(2ℓ²)) at d = 0.3, bandwidth 0.01 (the code's label kernel).
    const double l = rbf_lengthscale_from_bandwidth(0.01);
    CHECK(std::exp(-0.09 / 0.01) == doctest::Approx(std::exp(-0.09 / (2 * l * l))).epsilon(1e-14));
    CHECK_THROWS_AS(rbf_lengthscale_from_bandwidth(0), invalid_argument);
    CHECK_THROWS_AS(rbf_bandwidth_from_lengthscale(-1), invalid_argument);
}

TEST_CASE("mmd: bad specs and inputs give clear errors") {
    test::Rng rng(39);
    const Problem p = problem(30, rng);
    MmdSpec s = spec_for(MmdNotion::individual, p);
    s.features = p.features.topRows(29);
    CHECK_THROWS_WITH_AS(mmd_unbiased(p.data, s), doctest::Contains("features of n = 30 rows"), invalid_argument);
    s.features = p.features;
    s.features(4, 1) = std::nan("");
    CHECK_THROWS_WITH_AS(mmd_unbiased(p.data, s), doctest::Contains("must be finite"), invalid_argument);
    s = spec_for(MmdNotion::canonical, p);
    s.features = p.features;
    CHECK_THROWS_WITH_AS(mmd_unbiased(p.data, s), doctest::Contains("features apply only to the individual notion"),
                         invalid_argument);
    s = spec_for(MmdNotion::group, p);
    s.groups.pop_back();
    CHECK_THROWS_WITH_AS(mmd_unbiased(p.data, s), doctest::Contains("needs n = 30 group ids"), invalid_argument);
    s = spec_for(MmdNotion::top_label, p);
    s.target_gram = Matrix::Identity(3, 3);
    CHECK_THROWS_AS(mmd_unbiased(p.data, s), invalid_argument);
    s = spec_for(MmdNotion::class_wise, p);
    s.class_lengthscales = {1.0, 2.0};
    CHECK_THROWS_WITH_AS(mmd_unbiased(p.data, s), doctest::Contains("one per class"), invalid_argument);
    s = spec_for(MmdNotion::canonical, p, 0.0);
    CHECK_THROWS_WITH_AS(mmd_unbiased(p.data, s), doctest::Contains("must be finite and > 0"), invalid_argument);
    s = spec_for(MmdNotion::individual, p);
    s.conditioning.metric = Metric::tv;
    CHECK_THROWS_WITH_AS(mmd_unbiased(p.data, s), doctest::Contains("takes l1 or euclidean"), invalid_argument);
    const CategoricalData one(Matrix::Constant(1, 2, 0.5), {0});
    CHECK_THROWS_WITH_AS(mmd_unbiased(one, MmdSpec{}), doctest::Contains("n = 1"), invalid_argument);
    CHECK_THROWS_WITH_AS(parse_mmd_notion("canon"),
                         "calib::parse_mmd_notion: notion = 'canon' is unknown; the notions are canonical, top-label, "
                         "class-wise, group, individual, marginal, distribution, quantile, threshold, decision, local",
                         invalid_argument);
    for (GaussianTarget t : {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment, GaussianTarget::pit})
        CHECK(parse_gaussian_target(to_string(t)) == t);
    CHECK(to_string(GaussianTarget::rbf) == "sqexp");
    CHECK_THROWS_WITH_AS(parse_gaussian_target("rbf", "--kernel-y"), doctest::Contains("--kernel-y = 'rbf' is unknown"),
                         invalid_argument);
    for (MmdMarginalisation v : {MmdMarginalisation::analytic, MmdMarginalisation::mc_paired, MmdMarginalisation::mc_all_pairs})
        CHECK(parse_mmd_marginalisation(to_string(v)) == v);
    CHECK_THROWS_WITH_AS(parse_mmd_marginalisation("mc"), doctest::Contains("the schemes are analytic, mc-paired, mc-all-pairs"),
                         invalid_argument);
    for (const MmdNotion notion : notions) CHECK(parse_mmd_notion(to_string(notion)) == notion);

    // The registry: a notion that needs a file without it, and an option of another notion.
    EstimatorSetup e = make_estimator("mmd");
    e.set("notion", "individual");
    CHECK_THROWS_WITH_AS(e.check(), doctest::Contains("`features`"), invalid_argument);
    EstimatorSetup g = make_estimator("mmd");
    g.set("notion", "group");
    CHECK_THROWS_WITH_AS(g.set("metric", "l1"), doctest::Contains("applies only with `notion`"), invalid_argument);
    TestSetup t = make_test("bootstrap");
    CHECK_THROWS_AS(t.set("notion", "group"), invalid_argument);  // only with `estimator` mmd
    t.set("estimator", "mmd");
    t.set("notion", "group");
    CHECK(t.kernel_use() == KernelUse::own);
}

TEST_CASE("mmd: the registry's estimator and tests equal the library calls, bitwise") {
    test::Rng rng(40);
    const Problem p = problem(90, rng, true);
    const AnyData any = p.data;
    MmdSpec s;
    s.notion = MmdNotion::top_label;
    s.conditioning.shape = PredictionKernelShape::exp;
    s.conditioning.lengthscale = mmd_median_lengthscales(p.data, s)[0];
    EstimatorSetup e = make_estimator("mmd");
    e.set("notion", "top-label");
    e.set("kernel_p", "exp");
    CHECK(e.run(any, nullptr, nullptr).estimate == mmd_unbiased(p.data, s).estimate);

    const auto configured = [](const std::string& method) {
        TestSetup t = make_test(method);
        t.set("estimator", "mmd");
        t.set("notion", "top-label");
        t.set("kernel_p", "exp");
        return t;
    };
    TestSetup b = configured("bootstrap");
    b.set("replicates", "150");
    BootstrapOptions o;
    o.replicates = 150;
    const TestResult rb = b.run(any, nullptr, nullptr), lb = mmd_bootstrap_test(p.data, s, o);
    CHECK(rb.p_value == lb.p_value);
    CHECK(rb.statistic == lb.statistic);
    CHECK(rb.estimator == "mmd-unbiased");
    CHECK(std::get<std::string>(find(rb.estimator_details, "notion")) == "top-label");
    CHECK(configured("gamma").run(any, nullptr, nullptr).p_value == mmd_gamma_test(p.data, s).p_value);
    TestSetup k = configured("block");
    k.set("block_size", "sqrt");
    BlockTestOptions bo;
    bo.block_size = BlockSize::sqrt();
    CHECK(k.run(any, nullptr, nullptr).p_value == mmd_block_test(p.data, s, bo).p_value);
}

TEST_CASE("mmd: class-wise median lengthscale of a many-class model, whose class probabilities are mostly near 0") {
    // Sharp softmax outputs, m = 50, labels from softmax(z / 2): overconfident. Each class's own median
    // distance collapses (most of its probabilities are near 0), which made the kernel a δ and the test
    // powerless; the class-wise notion takes the top-label confidences' median instead.
    test::Rng rng(77);
    const CategoricalScores logits = synthetic::tempered_logits(400, 50, 6.0, 2.0, rng);
    const CategoricalData data = CategoricalData::from_logits(logits.scores, logits.labels);
    const Matrix q = data.probabilities();
    std::vector<double> class_0;
    for (Eigen::Index i = 0; i < q.rows(); ++i)
        for (Eigen::Index j = i + 1; j < q.rows(); ++j) class_0.push_back(std::abs(q(i, 0) - q(j, 0)));
    std::nth_element(class_0.begin(), class_0.begin() + static_cast<std::ptrdiff_t>(class_0.size() / 2), class_0.end());
    CHECK(class_0[class_0.size() / 2] < 1e-4);  // the collapse the rule avoids
    MmdSpec spec;
    spec.notion = MmdNotion::class_wise;
    const std::vector<double> classes = mmd_median_lengthscales(data, spec);
    spec.notion = MmdNotion::top_label;
    const double top = mmd_median_lengthscales(data, spec)[0];
    CHECK(top > 0.05);
    REQUIRE(classes.size() == 50);
    for (double l : classes) CHECK(l == top);
    spec.notion = MmdNotion::class_wise;
    spec.class_lengthscales = classes;
    BootstrapOptions options;
    options.replicates = 500;
    CHECK(mmd_bootstrap_test(data, spec, options).p_value < 0.01);
}

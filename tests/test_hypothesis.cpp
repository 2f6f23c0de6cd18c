// Calibration tests: each formula on small data against an independent evaluation, golden
// p-values with their provenance, thread-count invariance, and argument validation.
#include <calib/hypothesis.hpp>

#include "engine/count_forms.hpp"
#include "engine/term.hpp"
#include "kernels/family_ops.hpp"
#include "naive_h.hpp"
#include "support.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <random>

using namespace calib;
using doctest::Approx;

namespace {

BlockTestOptions block_options(std::size_t b, VarianceDivisor divisor = VarianceDivisor::s_minus_1,
                               bool null_variance = false) {
    BlockTestOptions o;
    o.block_size = b;
    o.divisor = divisor;
    o.null_variance = null_variance;
    return o;
}

DistributionFreeOptions bound_options(double bound) {
    DistributionFreeOptions o;
    o.bound = bound;
    return o;
}

// H from the independent definition of h (naive_h.hpp: no library code).
template <class Data>
Matrix gram(const Data& data, const Kernel& kernel) {
    const auto n = static_cast<Eigen::Index>(data.size());
    Matrix h(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j) h(i, j) = test::naive_h(data, kernel, std::size_t(i), std::size_t(j));
    return h;
}

// Two Monte-Carlo estimates of the same p-value, from R1 and R2 draws, agree within 5 standard
// errors of their difference (a false failure has probability below 10⁻⁶).
void check_same_p_value(double p1, std::size_t r1, double p2, std::size_t r2) {
    const double p = (p1 * double(r1) + p2 * double(r2)) / double(r1 + r2);
    const double se = std::sqrt(std::max(p * (1 - p), 1e-4) * (1.0 / double(r1) + 1.0 / double(r2)));
    CAPTURE(p1);
    CAPTURE(p2);
    CHECK(std::abs(p1 - p2) <= 5 * se);
}

}  // namespace

// The engine's pair-term contract is checked at compile time where the engine takes a term
// (CALIB_CHECK_PAIR_TERM): a type with size() and row() keeps it; one without row(), or with another
// row(), does not.
namespace contract {
struct RowTerm {
    std::size_t size() const { return 1; }
    void row(std::size_t, std::size_t, std::size_t, double*) const {}
};
struct SizeOnly {
    std::size_t size() const { return 1; }
};
struct RowOfFloats {
    std::size_t size() const { return 1; }
    void row(std::size_t, std::size_t, std::size_t, float*) const {}
};
static_assert(calib::detail::is_pair_term_v<RowTerm>);
static_assert(!calib::detail::is_pair_term_v<SizeOnly>);
static_assert(!calib::detail::is_pair_term_v<RowOfFloats>);
static_assert(!calib::detail::is_pair_term_v<int>);
}  // namespace contract

TEST_SUITE("hypothesis") {

TEST_CASE("golden p-values of the reference distributions") {
    // 1 − Φ(1.6448536269514722) = 0.05: the 95% standard normal quantile (Abramowitz & Stegun 26.2).
    const boost::math::normal z;
    CHECK(boost::math::cdf(boost::math::complement(z, 1.6448536269514722)) == Approx(0.05).epsilon(1e-14));
    // Upper regularised incomplete gamma for integer shape: Q(2, x) = e^{−x}(1 + x); Boost's
    // gamma_distribution takes a scale, so P(Gamma(2, θ) ≥ t) = Q(2, t/θ).
    CHECK(boost::math::gamma_q(2.0, 3.0) == Approx(4 * std::exp(-3.0)).epsilon(1e-14));
}

TEST_CASE("block test: z, p, standard error and confidence bound by hand") {
    test::Rng rng(21);
    const CategoricalData data = synthetic::dirichlet_data(60, 3, 0.5, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    for (std::size_t b : {2, 5, 7}) {
        const BlockSkce block = skce_block(data, kernel, b);
        const double s = double(block.block_estimates.size());
        double sq = 0;
        for (double eta : block.block_estimates) sq += (eta - block.estimate) * (eta - block.estimate);
        const double se = std::sqrt(sq / (s - 1) / s);
        const TestResult t = block_test(data, kernel, block_options(b));
        CHECK(t.method == "block");
        CHECK(t.estimator == "skce-block");
        CHECK(t.estimate == block.estimate);
        CHECK(t.details_as<BlockTestDetails>().std_error == Approx(se).epsilon(1e-12));
        CHECK(t.statistic == Approx(block.estimate / se).epsilon(1e-12));
        CHECK(t.p_value == Approx(0.5 * std::erfc(block.estimate / se / std::sqrt(2.0))).epsilon(1e-12));
        CHECK(t.details_as<BlockTestDetails>().ci_lower == Approx(std::max(0.0, block.estimate - 1.6448536269514722 * se)).epsilon(1e-12));
        // 2019 A_l: divisor s.
        const TestResult t2 = block_test(data, kernel, block_options(b, VarianceDivisor::s));
        CHECK(t2.details_as<BlockTestDetails>().std_error == Approx(std::sqrt(sq / s / s)).epsilon(1e-12));
        // Remark B.1(ii): z = √(s·B(B−1)/2)·est/σ̂, σ̂² the mean within-block h².
        double m2 = 0;
        for (double q : block.block_mean_squares) m2 += q / s;
        const TestResult t3 = block_test(data, kernel, block_options(b, VarianceDivisor::s_minus_1, true));
        CHECK(t3.statistic == Approx(std::sqrt(s * double(b) * double(b - 1) / 2) * block.estimate / std::sqrt(m2)).epsilon(1e-12));
    }
}

TEST_CASE("block test: degenerate standard error and invalid calls") {
    // One-hot predictions with the predicted labels: every residual e_y − p is 0, so h ≡ 0.
    Matrix p = Matrix::Zero(6, 2);
    std::vector<int> y(6);
    for (int i = 0; i < 6; ++i) p(i, i % 2) = 1, y[std::size_t(i)] = i % 2;
    const CategoricalData perfect(p, y);
    const TestResult t = block_test(perfect, default_kernel<CategoricalData>(), block_options(2));
    CHECK(t.details_as<BlockTestDetails>().degenerate == 1);
    CHECK(t.p_value == 1);
    CHECK_THROWS_WITH_AS(block_test(perfect, default_kernel<CategoricalData>(), block_options(4)),
                         "calib::block_test: `block_size` = 4 gives 1 block of n = 6 observations; the test needs at "
                         "least 2 blocks (`block_size` <= n/2)",
                         calib::invalid_argument);
    CHECK_THROWS_AS(block_test(perfect, default_kernel<CategoricalData>(), block_options(7)), calib::invalid_argument);
    CHECK_THROWS_AS(block_test(perfect, default_kernel<CategoricalData>(), block_options(1)), calib::invalid_argument);
    BlockTestOptions bad;
    bad.confidence_level = 1;
    CHECK_THROWS_AS(block_test(perfect, default_kernel<CategoricalData>(), bad), calib::invalid_argument);
}

// n = 37 fits in one strip of the Gram product; n = 300 needs three, of different lengths. 600
// replicates take three passes (256, 256, 88 replicates).
TEST_CASE("bootstrap: the counts form by definition, both Gram paths, any thread count and budget") {
    for (const std::size_t size : {std::size_t(37), std::size_t(300)}) {
        CAPTURE(size);
        test::Rng rng(13);
        const NormalData data = test::normal_data(size, rng, 0.3);
        const Kernel kernel = default_kernel<NormalData>();
        const Matrix h = gram(data, kernel);
        const double n = double(size), alpha = n / (n - 1);
        const double biased = h.sum() / (n * n), unbiased = (h.sum() - h.trace()) / (n * (n - 1));
        BootstrapOptions options;
        options.replicates = 600;
        options.seed = 99;
        const TestResult t = bootstrap_test(data, kernel, options);
        CHECK(t.details_as<BootstrapDetails>().cached_gram_matrix == 1);
        CHECK(t.statistic == Approx(alpha * unbiased - biased).epsilon(1e-10));
        CHECK(t.estimate == Approx(unbiased).epsilon(1e-12));
        // Replicate statistics from the same resamples, in the definitional (2019) form
        // T = 2/n Σ_{i<j} [h(W*_i,W*_j) − mean_k h(W*_i,W_k) − mean_k h(W_k,W*_j) + mean_kl h(W_k,W_l)],
        // and T = (n−1)(T' + SKCE_b) (widmann §6.3), so T' ≥ t ⇔ T/(n−1) − SKCE_b ≥ t.
        const Vector row_mean = h.rowwise().mean();
        const double total_mean = h.mean();
        int count = 0;
        for (std::size_t r = 0; r < options.replicates; ++r) {
            Rng stream = make_stream(options.seed, r);
            std::vector<Eigen::Index> idx(size);
            for (auto& i : idx) i = Eigen::Index(uniform_index(stream, size));
            double big_t = 0;
            for (std::size_t a = 0; a < idx.size(); ++a)
                for (std::size_t b = a + 1; b < idx.size(); ++b)
                    big_t += h(idx[a], idx[b]) - row_mean(idx[a]) - row_mean(idx[b]) + total_mean;
            big_t *= 2 / n;
            count += big_t / (n - 1) - biased >= t.statistic - 1e-12;
        }
        CHECK(t.p_value == Approx(count / 600.0));
        // A budget of exactly the working memory without the cached n×n triangle: recomputed tiles,
        // the same p-value (with one thread too), and the bound on the working memory holds.
        BootstrapOptions streamed = options;
        const double cache_bytes = 8 * n * n;
        streamed.memory_budget = std::size_t(t.details_as<BootstrapDetails>().working_memory - cache_bytes);
        streamed.parallel.num_threads = 1;
        const TestResult u = bootstrap_test(data, kernel, streamed);
        CHECK(u.details_as<BootstrapDetails>().cached_gram_matrix == 0);
        CHECK(u.details_as<BootstrapDetails>().working_memory <= double(*streamed.memory_budget));
        CHECK(u.p_value == t.p_value);
        // One byte less does not fit: refused before any work.
        *streamed.memory_budget -= 1;
        CHECK_THROWS_WITH_AS(bootstrap_test(data, kernel, streamed), doctest::Contains("memory_budget"),
                             calib::invalid_argument);
        options.parallel.num_threads = 1;
        CHECK(bootstrap_test(data, kernel, options).p_value == t.p_value);
        options.rule = PValueRule::plus_one;
        CHECK(bootstrap_test(data, kernel, options).p_value == Approx((count + 1) / 601.0));
        options.replicates = 0;
        CHECK_THROWS_AS(bootstrap_test(data, kernel, options), calib::invalid_argument);
    }
}

// The bootstrap's replicates are the same bits whether the n×n triangle is cached or its tiles are
// recomputed, whatever the thread count: on the normal family (its vectorised exp rounds an entry
// differently at another position of a row chunk, which once made 87 of 35350 cached entries differ).
TEST_CASE("bootstrap replicates: cached and recomputed Gram tiles give the same bits") {
    test::Rng rng(41);
    const NormalData data = test::normal_data(300, rng);
    const std::size_t replicates = 300;  // two passes
    const detail::CountSource counts = [&](std::size_t r0, std::size_t, Eigen::Ref<Eigen::MatrixXd> out) {
        detail::resampling_counts(7, r0, out, ParallelOptions{1});
    };
    {
        using Ops = detail::FamilyOps<NormalData>;
        const Kernel kernel = default_kernel<NormalData>();
        const detail::CountForms cached = Ops::count_forms(data, kernel, replicates, counts, true, ParallelOptions{2});
        const detail::CountForms recomputed = Ops::count_forms(data, kernel, replicates, counts, false, ParallelOptions{1});
        CHECK(cached.cached);
        CHECK_FALSE(recomputed.cached);
        CHECK(cached.quadratic == recomputed.quadratic);
        CHECK(cached.linear == recomputed.linear);
        CHECK(cached.diagonal == recomputed.diagonal);
    }
}

TEST_CASE("gamma test: moments, shape and scale by hand") {
    test::Rng rng(17);
    const CategoricalData data = synthetic::dirichlet_data(25, 4, 1.0, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    const Matrix h = gram(data, kernel);
    const double n = 25;
    const double mean = h.trace() / n;
    const double m2 = (h.array().square().sum() - h.diagonal().squaredNorm()) / (n * (n - 1));
    const double var = 2 * n / (n - 1) * m2;
    const double stat = h.sum() / n;
    const TestResult t = gamma_test(data, kernel);
    CHECK(t.statistic == Approx(stat).epsilon(1e-12));
    CHECK(t.details_as<GammaDetails>().shape == Approx(mean * mean / var).epsilon(1e-12));
    CHECK(t.details_as<GammaDetails>().scale == Approx(var / mean).epsilon(1e-12));
    CHECK(t.p_value == Approx(boost::math::gamma_q(mean * mean / var, stat / (var / mean))).epsilon(1e-10));
    CHECK(gamma_test(data, kernel, {1}).p_value == gamma_test(data, kernel, {2}).p_value);
}

TEST_CASE("spectral test") {
    test::Rng rng(19);
    const CategoricalData data = synthetic::dirichlet_data(120, 3, 1.0, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    SpectralOptions options;
    options.replicates = 300;
    const TestResult t = spectral_test(data, kernel, options);
    CHECK(t.statistic == Approx(120 * skce_unbiased(data, kernel)).epsilon(1e-12));
    // The largest eigenvalue of the centred H/n, computed independently.
    Matrix h = gram(data, kernel);
    const Matrix c = Matrix::Identity(120, 120) - Matrix::Constant(120, 120, 1.0 / 120);
    const Matrix centred = c * h * c / 120.0;
    CHECK(t.details_as<SpectralDetails>().largest_eigenvalue ==
          Approx(Eigen::SelfAdjointEigenSolver<Matrix>(centred).eigenvalues().maxCoeff()).epsilon(1e-9));
    options.parallel.num_threads = 1;
    CHECK(spectral_test(data, kernel, options).p_value == t.p_value);
    // The p-value against a naive simulation of its null, Σ λ_i (Z_i² − 1) with the eigenvalues λ
    // of the independently computed centred H/n and our own normal draws.
    const Vector lambda = Eigen::SelfAdjointEigenSolver<Matrix>(centred).eigenvalues();
    std::mt19937_64 engine(20261125);
    std::normal_distribution<double> z;
    const std::size_t naive_draws = 100000;
    std::size_t above = 0;
    for (std::size_t r = 0; r < naive_draws; ++r) {
        double draw = 0;
        for (Eigen::Index i = 0; i < lambda.size(); ++i) {
            const double zi = z(engine);
            draw += lambda(i) * (zi * zi - 1);
        }
        above += draw >= t.statistic;
    }
    SpectralOptions many;
    many.replicates = 20000;
    const double p = spectral_test(data, kernel, many).p_value;
    CHECK(p > 0.05);  // a calibrated model: a p-value the comparison can resolve
    check_same_p_value(p, many.replicates, double(above) / double(naive_draws), naive_draws);
    options.max_n = 100;
    CHECK_THROWS_AS(spectral_test(data, kernel, options), calib::invalid_argument);
}

TEST_CASE("distribution-free bounds") {
    test::Rng rng(23);
    const CategoricalData data = synthetic::dirichlet_data(50, 3, 1.0, rng, true);
    const Kernel kernel = default_kernel<CategoricalData>();
    const double b = 2;  // sup|h| of exp-TV ⊗ δ
    const double est_b = skce_biased(data, kernel), est_u = skce_unbiased(data, kernel);
    const double excess = std::max(0.0, std::sqrt(50 * est_b / b) - 1);
    CHECK(dfree_biased_test(data, kernel).p_value == Approx(std::exp(-0.5 * excess * excess)).epsilon(1e-12));
    const TestResult u = dfree_unbiased_test(data, kernel);
    CHECK(u.p_value == Approx(est_u > 0 ? std::exp(-25 * est_u * est_u / (2 * b * b)) : 1.0).epsilon(1e-12));
    // Block B = 7: Hoeffding count ⌊50/7⌋·⌊7/2⌋ = 7·3 = 21 (julia-reference §2.12 #3: not ⌊n/2⌋).
    const TestResult k = dfree_block_test(data, kernel, 7);
    CHECK(k.details_as<DistributionFreeDetails>().hoeffding_count == 21);
    const double est_k = skce_block(data, kernel, 7).estimate;
    CHECK(k.p_value == Approx(est_k > 0 ? std::exp(-21 * est_k * est_k / 8) : 1.0).epsilon(1e-12));
    // A user bound; a negative estimate gives p = 1 (julia-reference §2.12 #2).
    CHECK(dfree_unbiased_test(data, kernel, bound_options(4.0)).details_as<DistributionFreeDetails>().bound == 4);
    Matrix p(2, 2);
    p << 1, 0, 0, 1;
    const CategoricalData negative(p, {1, 0});  // E1: SKCE_uq = −2/e
    REQUIRE(skce_unbiased(negative, kernel) < 0);
    CHECK(dfree_unbiased_test(negative, kernel).p_value == 1);
    CHECK_THROWS_AS(dfree_biased_test(data, kernel, bound_options(-1.0)), calib::invalid_argument);
}

TEST_CASE("consistency resampling") {
    test::Rng rng(29);
    const CategoricalData data = synthetic::dirichlet_data(80, 3, 1.0, rng);
    const CategoricalEstimator ece10 = [](const CategoricalData& d) { return ece(d, {}); };
    ConsistencyOptions options;
    options.replicates = 200;
    const TestResult t = consistency_test(data, ece10, "ece", options);
    CHECK(t.estimator == "ece");
    CHECK(t.estimate == ece(data, {}));
    CHECK(t.p_value >= 0);
    CHECK(t.p_value <= 1);
    options.parallel.num_threads = 1;
    CHECK(consistency_test(data, ece10, "ece", options).p_value == t.p_value);
    // The p-value against a naive consistency resampling with our own draws: n predictions drawn
    // with replacement, a label drawn from each, the estimator (here the unbiased SKCE) recomputed.
    const Kernel kernel = default_kernel<CategoricalData>();
    const CategoricalEstimator skce = [&](const CategoricalData& d) { return skce_unbiased(d, kernel, {1}); };
    const double observed = skce(data);
    test::Rng naive_rng(20261125);
    const std::size_t naive_replicates = 10000;
    std::size_t above = 0;
    const Matrix& p = data.probabilities();
    for (std::size_t r = 0; r < naive_replicates; ++r) {
        Matrix q(p.rows(), p.cols());
        std::vector<int> y(data.size());
        for (Eigen::Index i = 0; i < q.rows(); ++i) {
            q.row(i) = p.row(static_cast<Eigen::Index>(calib::uniform_index(naive_rng, data.size())));
            y[std::size_t(i)] = synthetic::draw_label(q.row(i), naive_rng);
        }
        above += skce(CategoricalData(q, y)) >= observed;
    }
    ConsistencyOptions many;
    many.replicates = 10000;
    const double p_library = consistency_test(data, skce, "skce-unbiased", many).p_value;
    CHECK(p_library > 0.05);
    check_same_p_value(p_library, many.replicates, double(above) / double(naive_replicates), naive_replicates);
    // An estimator's exception reaches the caller.
    const CategoricalEstimator failing = [](const CategoricalData& d) -> double {
        if (d.labels()[0] >= 0) throw calib::invalid_argument("boom");
        return 0;
    };
    CHECK_THROWS_WITH_AS(consistency_test(data, failing, "x", options), "boom", calib::invalid_argument);
    options.replicates = 0;
    CHECK_THROWS_AS(consistency_test(data, ece10, "ece", options), calib::invalid_argument);
}

TEST_CASE("CME test: Hotelling statistic, chi-squared and F references") {
    test::Rng rng(31);
    const NormalData data = test::normal_data(90, rng);
    const NormalData locations = test::normal_data(2, rng);
    const Kernel kernel = default_kernel<NormalData>();
    const Matrix z = ucme_deviations(data, locations, kernel);
    const Vector mean = z.colwise().mean();
    const Matrix centred = z.rowwise() - mean.transpose();
    const Matrix s = centred.transpose() * centred / 89.0;
    const double q = 90 * mean.dot(s.ldlt().solve(mean));
    CmeOptions chi2;
    chi2.reference = CmeReference::chi2;
    const TestResult t = cme_test(data, locations, kernel, chi2);
    CHECK(t.null_approximation == "chi2");
    CHECK(t.statistic == Approx(q).epsilon(1e-10));
    CHECK(t.estimate == Approx(ucme(data, locations, kernel)).epsilon(1e-12));
    // χ²₂ upper tail is exp(−q/2) exactly.
    CHECK(t.p_value == Approx(std::exp(-q / 2)).epsilon(1e-10));
    const TestResult tf = cme_test(data, locations, kernel);  // F by default
    CHECK(tf.null_approximation == "f");
    CHECK(tf.p_value >= t.p_value);
    CHECK(tf.details_as<CmeDetails>().f_statistic == Approx(88.0 / (2 * 89.0) * q).epsilon(1e-10));
    // F(2, m) upper tail: (1 + 2x/m)^{−m/2}.
    CHECK(tf.p_value == Approx(std::pow(1 + 2 * tf.details_as<CmeDetails>().f_statistic / 88, -44)).epsilon(1e-10));
    CmeOptions ridge;
    ridge.ridge = 1e-3;
    CHECK(cme_test(data, locations, kernel, ridge).statistic < q);
}

TEST_CASE("CME test: locations drawn from the data, and its failures") {
    test::Rng rng(37);
    const NormalData data = test::normal_data(200, rng);
    const TestResult t = cme_test(data, 3, 5, default_kernel<NormalData>());
    CHECK(t.n == 197);
    CHECK(t.details_as<CmeDetails>().num_locations == 3);
    CHECK(cme_test(data, 3, 5, default_kernel<NormalData>()).p_value == t.p_value);
    CHECK_THROWS_AS(cme_test(data, 0, 5, default_kernel<NormalData>()), calib::invalid_argument);
    CHECK_THROWS_AS(cme_test(data, 200, 5, default_kernel<NormalData>()), calib::invalid_argument);
    // n ≤ J, and a singular covariance (two identical locations).
    CHECK_THROWS_AS(cme_test(subset(data, {0, 1}), subset(data, {2, 3, 4}), default_kernel<NormalData>()), calib::numerical_error);
    const NormalData twice = subset(data, {5, 5});
    CHECK_THROWS_AS(cme_test(data, twice, default_kernel<NormalData>()), calib::numerical_error);
    CmeOptions ridge;
    ridge.ridge = 1e-6;
    CHECK_NOTHROW(cme_test(data, twice, default_kernel<NormalData>(), ridge));
}

// The validity range J² ≤ 0.07·n (F) or 0.05·n (χ²) comes from repro-validity's measured type-I
// errors (docs/tests.md). The defect it closes: on 60 calibrated rows, 29 drawn locations gave
// χ² p-values between 0 and 4e-79 for seeds 1–6 with exit 0.
TEST_CASE("CME test: refused outside its validity range unless asked, and then flagged") {
    CHECK(cme_max_locations(100, CmeReference::f) == 2);      // √7
    CHECK(cme_max_locations(100, CmeReference::chi2) == 2);   // √5
    CHECK(cme_max_locations(1000, CmeReference::f) == 8);     // √70
    CHECK(cme_max_locations(1000, CmeReference::chi2) == 7);  // √50
    CHECK(cme_max_locations(14, CmeReference::f) == 0);       // √0.98
    CHECK(cme_max_locations(15, CmeReference::f) == 1);       // √1.05
    test::Rng rng(43);
    const NormalData data = test::normal_data(60, rng);
    const Kernel kernel = default_kernel<NormalData>();
    CmeOptions chi2;
    chi2.reference = CmeReference::chi2;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        CHECK_THROWS_WITH_AS(cme_test(data, 29, seed, kernel, chi2),
                             "calib::cme_test: J = 29 test locations on n = 31 observations is outside the validity "
                             "range of the chi-squared null (J^2 <= 0.05 n; beyond it calibrated models are rejected "
                             "far more often than alpha, docs/tests.md): use at most J = 1 or at least n = 16820 "
                             "observations",
                             calib::invalid_argument);
        CHECK_THROWS_AS(cme_test(data, 29, seed, kernel), calib::invalid_argument);
    }
    // On the boundary: J = 2 on 58 observations is inside for F (4 ≤ 4.06), outside for χ² (4 > 2.9).
    CHECK(cme_test(data, 2, 1, kernel).details_as<CmeDetails>().outside_validity_range == 0);
    CHECK_THROWS_AS(cme_test(data, 2, 1, kernel, chi2), calib::invalid_argument);
    // Asked for (a paper's reproduction): computed and flagged.
    chi2.allow_outside_validity = true;
    const TestResult t = cme_test(data, 29, 1, kernel, chi2);
    CHECK(t.details_as<CmeDetails>().outside_validity_range == 1);
    CHECK(t.p_value >= 0);
}

// Predictions of two classes have the narrower range J² ≤ 0.002·n for both references (repro-validity's
// binary design, docs/tests.md: 6.3–6.6 % false rejections at J²/n = 0.004–0.005, 6.7 % at n = 1000 with
// J = 3, inside the wider range).
TEST_CASE("CME test: predictions of two classes have the narrower validity range") {
    for (const CmeReference reference : {CmeReference::f, CmeReference::chi2}) {
        CHECK(cme_max_locations(499, reference, true) == 0);   // √0.998
        CHECK(cme_max_locations(500, reference, true) == 1);   // √1
        CHECK(cme_max_locations(1000, reference, true) == 1);  // √2
        CHECK(cme_max_locations(1999, reference, true) == 1);  // √3.998
        CHECK(cme_max_locations(2000, reference, true) == 2);  // √4
        CHECK(cme_max_locations(4500, reference, true) == 3);  // √9
        CHECK(cme_max_locations(4499, reference, true) == 2);  // √8.998
    }
    test::Rng rng(44);
    const CategoricalData two = synthetic::dirichlet_data(1003, 2, 1.0, rng);  // binary, p ~ U(0, 1)
    const Kernel kernel = default_kernel<CategoricalData>();
    CHECK_THROWS_WITH_AS(cme_test(two, 3, 1, kernel),
                         "calib::cme_test: J = 3 test locations on n = 1000 observations is outside the validity "
                         "range of the F null for predictions of two classes (J^2 <= 0.002 n; beyond it calibrated "
                         "models are rejected far more often than alpha, docs/tests.md): use at most J = 1 or at "
                         "least n = 4500 observations",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(cme_test(two, 2, 1, kernel), doctest::Contains("use at most J = 1 or at least n = 2000"),
                         calib::invalid_argument);
    CHECK(cme_test(two, 1, 1, kernel).details_as<CmeDetails>().outside_validity_range == 0);
    // Three classes keep the wider range: J = 3 on 1000 observations is inside it (9 ≤ 70).
    const CategoricalData three = synthetic::dirichlet_data(1003, 3, 1.0, rng);
    CHECK(cme_test(three, 3, 1, kernel).details_as<CmeDetails>().outside_validity_range == 0);
}

TEST_CASE("results as JSON") {
    test::Rng rng(41);
    const TestResult t = gamma_test(synthetic::dirichlet_data(30, 3, 1.0, rng), default_kernel<CategoricalData>());
    const std::string json = t.to_json();
    CHECK(json.rfind("{\"method\":\"gamma\",\"null\":\"gamma\",\"estimator\":\"skce-biased\",", 0) == 0);
    CHECK(json.find("\"shape\":") != std::string::npos);
    CHECK_THROWS_AS(t.details_as<BlockTestDetails>(), calib::invalid_argument);
}

}  // TEST_SUITE

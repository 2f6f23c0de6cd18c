// Tests of the paired bootstrap comparison of models (compare.hpp). Every replicate is checked
// against the estimator run from scratch on the resample it stands for, rebuilt here from the
// documented streams (replicate r draws n indices from stream r + 1 of the seed), so the fast
// replicate paths are compared with the direct definition.
#include <calib/compare.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace calib;

namespace {

CategoricalData tempered(const CategoricalData& d, double power) {
    Matrix p = d.probabilities().array().pow(power).matrix();
    for (Eigen::Index i = 0; i < p.rows(); ++i) p.row(i) /= p.row(i).sum();
    return CategoricalData(p, d.labels());
}

std::vector<std::size_t> resample(std::size_t n, std::uint64_t seed, std::size_t r) {
    Rng rng = make_stream(seed, r + 1);
    std::vector<std::size_t> idx(n);
    for (std::size_t& i : idx) i = uniform_index(rng, n);
    return idx;
}

struct Setting {
    std::vector<CategoricalData> models;
    ComparisonOptions options;
};

Setting setting(std::size_t n, std::size_t replicates, CkceMethod method) {
    test::Rng rng(20261124);
    const CategoricalData calibrated = synthetic::dirichlet_data(n, 4, 0.8, rng);
    Setting s;
    s.models = {calibrated, tempered(calibrated, 0.6)};
    s.options.replicates = replicates;
    s.options.seed = 77;
    for (const CategoricalData& d : s.models) {
        CkceOptions o;
        o.kernel.lengthscale = simplex_median_lengthscale(d.probabilities()).value;
        o.method = method;
        o.features = 20;
        s.options.ckce.push_back(o);
    }
    return s;
}

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace

TEST_SUITE("compare") {

TEST_CASE("estimates equal the estimators; skce and ece replicates equal the estimators on the resamples") {
    const Setting s = setting(120, 15, CkceMethod::exact);
    const ModelComparison c = compare_models(s.models, s.options);
    REQUIRE(c.results.size() == 3);
    CHECK(c.n == 120);
    for (std::size_t k = 0; k < 2; ++k) {
        const CkceOptions& o = s.options.ckce[k];
        CHECK(c.results[0].estimates[k] == ckce(s.models[k], o).estimate);
        CHECK(c.results[1].estimates[k] == jkce_unbiased(s.models[k], o.kernel));
        CHECK(c.results[2].estimates[k] == ece(s.models[k], s.options.ece));
        for (std::size_t r = 0; r < 15; ++r) {
            const CategoricalData d = subset(s.models[k], resample(120, 77, r));
            CAPTURE(r);
            CHECK(relative(c.results[1].replicates[k][r], jkce_unbiased(d, o.kernel)) < 1e-11);
            CHECK(c.results[2].replicates[k][r] == ece(d, s.options.ece));
        }
    }
}

TEST_CASE("ckce replicates from the factor agree with exact factorisations of the resamples") {
    for (const double tolerance : {0.0, 1e-5}) {
        Setting s = setting(150, 10, CkceMethod::exact);
        s.options.estimators = {ComparedEstimator::ckce};
        s.options.replicate_tolerance = tolerance;
        const ModelComparison c = compare_models(s.models, s.options);
        double worst = 0;
        for (std::size_t k = 0; k < 2; ++k)
            for (std::size_t r = 0; r < 10; ++r) {
                const double exact = ckce(subset(s.models[k], resample(150, 77, r)), s.options.ckce[k]).estimate;
                worst = std::max(worst, relative(c.results[0].replicates[k][r], exact));
            }
        CAPTURE(tolerance);
        CHECK(worst < (tolerance == 0 ? 1e-9 : 1e-4));
        CHECK(c.results[0].replicate_ranks.size() == 2);
        if (tolerance > 0) CHECK(c.results[0].replicate_ranks[0] < 150);
    }
}

TEST_CASE("rff ckce replicates equal rff on the resamples (the same features)") {
    Setting s = setting(140, 8, CkceMethod::rff);
    s.options.estimators = {ComparedEstimator::ckce};
    const ModelComparison c = compare_models(s.models, s.options);
    for (std::size_t k = 0; k < 2; ++k) {
        CHECK(c.results[0].replicate_ranks[k] == 4 + 2 * 20);
        for (std::size_t r = 0; r < 8; ++r)
            CHECK(relative(c.results[0].replicates[k][r],
                           ckce(subset(s.models[k], resample(140, 77, r)), s.options.ckce[k]).estimate) < 1e-10);
    }
}

TEST_CASE("the summaries follow from the replicates") {
    Setting s = setting(400, 41, CkceMethod::exact);
    s.options.level = 0.5;
    const ModelComparison c = compare_models(s.models, s.options);
    for (const EstimatorComparison& e : c.results) {
        REQUIRE(e.pairs.size() == 1);
        const PairComparison& p = e.pairs[0];
        std::vector<double> d(41);
        for (std::size_t r = 0; r < 41; ++r) d[r] = e.replicates[0][r] - e.replicates[1][r];
        std::sort(d.begin(), d.end());
        // R = 41, level 0.5: the 25 % and 75 % type-7 quantiles are the order statistics 11 and 31
        // (h = 0.25·40 = 10 and 0.75·40 = 30, exact in binary).
        CHECK(p.lower == d[10]);
        CHECK(p.upper == d[30]);
        CHECK(p.difference == e.estimates[0] - e.estimates[1]);
        CHECK(p.probability_first_lower == double(std::count_if(d.begin(), d.end(), [](double x) { return x < 0; })) / 41);
        CHECK(p.verdict == (p.upper < 0 ? -1 : p.lower > 0 ? 1 : 0));
        CHECK(e.ranking == (e.estimates[0] <= e.estimates[1] ? std::vector<std::size_t>{0, 1} : std::vector<std::size_t>{1, 0}));
        CHECK(e.std_errors[0] > 0);
    }
    // The tempered model is far from calibrated: the kernel estimators (not the 3-bin ECE at this n)
    // find the calibrated one better.
    for (const EstimatorComparison& e : {c.results[0], c.results[1]}) {
        CAPTURE(to_string(e.estimator));
        CHECK(e.pairs[0].verdict == -1);
    }
}

TEST_CASE("results do not depend on the thread count") {
    Setting s = setting(600, 12, CkceMethod::exact);
    s.options.parallel.num_threads = 1;
    const ModelComparison one = compare_models(s.models, s.options);
    s.options.parallel.num_threads = 2;
    const ModelComparison two = compare_models(s.models, s.options);
    for (std::size_t e = 0; e < 3; ++e) {
        CHECK(one.results[e].estimates == two.results[e].estimates);
        CHECK(one.results[e].replicates == two.results[e].replicates);
    }
}

TEST_CASE("invalid comparisons are refused") {
    Setting s = setting(50, 5, CkceMethod::exact);
    CHECK_THROWS_AS(compare_models({}, s.options), calib::invalid_argument);
    std::vector<int> labels = s.models[1].labels();
    labels[7] = (labels[7] + 1) % 4;
    const std::vector<CategoricalData> relabelled = {s.models[0], CategoricalData(s.models[1].probabilities(), labels)};
    CHECK_THROWS_WITH_AS(compare_models(relabelled, s.options),
                         doctest::Contains("models[1] has label"), calib::invalid_argument);
    const std::vector<CategoricalData> shorter = {s.models[0], subset(s.models[1], {0, 1, 2})};
    CHECK_THROWS_AS(compare_models(shorter, s.options), calib::invalid_argument);
    ComparisonOptions o = s.options;
    o.replicates = 0;
    CHECK_THROWS_AS(compare_models(s.models, o), calib::invalid_argument);
    o = s.options;
    o.level = 1;
    CHECK_THROWS_AS(compare_models(s.models, o), calib::invalid_argument);
    o = s.options;
    o.ckce.pop_back();
    CHECK_THROWS_AS(compare_models(s.models, o), calib::invalid_argument);
    o.estimators = {ComparedEstimator::ece};  // ece needs no kernel options
    CHECK_NOTHROW(compare_models(s.models, o));
    o.estimators = {ComparedEstimator::ece, ComparedEstimator::ece};
    CHECK_THROWS_AS(compare_models(s.models, o), calib::invalid_argument);
    CHECK(parse_compared_estimator("jkce") == ComparedEstimator::jkce);
    // calib estimate's skce-unbiased is another quantity (the family's kernel): not a name here.
    CHECK_THROWS_AS(parse_compared_estimator("skce-unbiased"), calib::invalid_argument);
    CHECK_THROWS_AS(parse_compared_estimator("skce"), calib::invalid_argument);
    // The ECE compared is calib estimate's by default (one name, one quantity).
    const EceOptions ece_default = ComparisonOptions().ece, estimate_default;
    CHECK((ece_default.binning == estimate_default.binning && ece_default.nbins == estimate_default.nbins &&
           ece_default.distance == estimate_default.distance && ece_default.mode == estimate_default.mode));
}

TEST_CASE("one model: its estimates and intervals, no pairs; the intervals are the replicates' percentiles") {
    const Setting both = setting(200, 40, CkceMethod::exact);
    ComparisonOptions o = both.options;
    o.ckce.resize(1);
    const ModelComparison one = compare_models({both.models[0]}, o);
    const ModelComparison two = compare_models(both.models, both.options);
    for (std::size_t e = 0; e < 3; ++e) {
        const EstimatorComparison& c = one.results[e];
        CHECK(c.pairs.empty());
        CHECK(c.estimates[0] == two.results[e].estimates[0]);
        CHECK(c.replicates[0] == two.results[e].replicates[0]);  // the same resamples as with two models
        std::vector<double> sorted = c.replicates[0];
        std::sort(sorted.begin(), sorted.end());
        // type 7 at 2.5 % of 40: h = 0.975, between the first and second order statistics.
        CHECK(c.lower[0] == doctest::Approx(sorted[0] + 0.975 * (sorted[1] - sorted[0])).epsilon(1e-14));
        CHECK(c.upper[0] == doctest::Approx(sorted[38] + 0.025 * (sorted[39] - sorted[38])).epsilon(1e-14));
    }
}

TEST_CASE("single-model intervals: the resamples of compare_models, any family, any thread count") {
    const Setting s = setting(150, 30, CkceMethod::exact);
    IntervalOptions o;
    o.replicates = 30;
    o.seed = 77;
    // resample_interval draws the resamples of compare_models: the ECE replicates are bitwise equal.
    const ModelComparison c = compare_models(s.models, s.options);
    const CategoricalData& d = s.models[1];
    const auto ece_of = [&](const std::vector<std::size_t>& idx) { return ece(subset(d, idx), s.options.ece); };
    const BootstrapInterval e = resample_interval(d.size(), ece_of, o);
    CHECK(e.estimate == c.results[2].estimates[1]);
    CHECK(e.replicates == c.results[2].replicates[1]);
    CHECK(e.lower == c.results[2].lower[1]);
    CHECK(e.std_error == c.results[2].std_errors[1]);
    // The SKCE of any family: each replicate is the mean of h over the resample's pairs of distinct
    // observations, i.e. the unbiased SKCE of the resample, n(n − 1)·SKCE = Σ_{a≠b} c_a c_b h_ab +
    // Σ_a c_a(c_a − 1) h_aa, without the pairs of copies (h_aa is the SKCE of the pair {a, a}).
    test::Rng rng(31);
    const NormalData normal = test::normal_data(120, rng, 0.3);
    const Kernel kernel = default_kernel(normal);
    const BootstrapInterval k = skce_unbiased_interval(normal, kernel, o);
    CHECK(k.estimate == skce_unbiased(normal, kernel));
    for (std::size_t r = 0; r < 30; ++r) {
        const std::vector<std::size_t> idx = resample(120, 77, r);
        std::vector<double> counts(120, 0);
        for (const std::size_t i : idx) counts[i] += 1;
        double copies = 0, copy_pairs = 0, squares = 0;
        for (std::size_t a = 0; a < 120; ++a) {
            squares += counts[a] * counts[a];
            if (counts[a] < 2) continue;
            copy_pairs += counts[a] * (counts[a] - 1);
            copies += counts[a] * (counts[a] - 1) * skce_unbiased(subset(normal, {a, a}), kernel);
        }
        const double distinct = 120.0 * 119.0 * skce_unbiased(subset(normal, idx), kernel) - copies;
        CAPTURE(r);
        CHECK(copy_pairs > 0);
        CHECK(relative(k.replicates[r], distinct / (120.0 * 120.0 - squares)) < 1e-9);
    }
    CHECK(k.lower <= k.estimate);
    CHECK(k.estimate <= k.upper);
    // Bitwise the same for any thread count.
    for (const int threads : {1, 2, 3}) {
        IntervalOptions t = o;
        t.parallel.num_threads = threads;
        CHECK(skce_unbiased_interval(normal, kernel, t).replicates == k.replicates);
        CHECK(resample_interval(d.size(), ece_of, t).replicates == e.replicates);
    }
    o.level = 1;
    CHECK_THROWS_AS(resample_interval(d.size(), ece_of, o), calib::invalid_argument);
    CHECK_THROWS_AS(skce_unbiased_interval(subset(normal, {0}), kernel), calib::invalid_argument);
}

TEST_CASE("single-model intervals hold the estimate and shrink with n") {
    test::Rng rng(32);
    IntervalOptions o;
    o.replicates = 100;
    double previous = INFINITY;
    for (const std::size_t n : {100, 400, 1600}) {
        const NormalData d = test::normal_data(n, rng, 0.5);
        const BootstrapInterval k = skce_unbiased_interval(d, default_kernel(d), o);
        CHECK(k.lower <= k.estimate);
        CHECK(k.estimate <= k.upper);
        CHECK(k.upper - k.lower < previous);
        previous = k.upper - k.lower;
    }
}

}  // TEST_SUITE

// Hardening: a numerical failure is an exception, never a p-value; bounded options and inputs.
#include <calib/ckce.hpp>
#include <calib/compare.hpp>
#include <calib/hypothesis.hpp>
#include <calib/working_memory.hpp>

#include "hypothesis/p_values.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <string>

using namespace calib;

namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();
constexpr double inf_value = std::numeric_limits<double>::infinity();

TestResult valid_result() {
    TestResult r;
    r.method = "bootstrap";
    r.estimate = 0.1;
    r.statistic = 0.2;
    r.p_value = 0.3;
    BootstrapDetails d;
    d.replicates = 10;
    r.details = d;
    return r;
}

}  // namespace

TEST_SUITE("hardening") {

TEST_CASE("a NaN replicate or statistic raises numerical_error instead of counting as below the statistic") {
    // Before: NaN ≥ T is false, so NaN replicates gave p = 0 — a rejection out of a failure.
    CHECK(detail::resampling_p_value("t", {0.1, 0.5, 0.9}, 0.5, PValueRule::count) == doctest::Approx(2.0 / 3));
    CHECK(detail::resampling_p_value("t", {0.1, 0.5, 0.9}, 0.5, PValueRule::plus_one) == doctest::Approx(3.0 / 4));
    for (const double bad : {nan_value, inf_value, -inf_value}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(detail::resampling_p_value("t", {0.1, bad, 0.9}, 0.5, PValueRule::count), numerical_error);
        CHECK_THROWS_AS(detail::resampling_p_value("t", {0.1, 0.5, 0.9}, bad, PValueRule::count), numerical_error);
    }
    CHECK_THROWS_WITH(detail::resampling_p_value("spectral_test", {nan_value}, 0.5, PValueRule::count),
                      doctest::Contains("calib::spectral_test: replicate 0 of the null distribution is nan"));
}

TEST_CASE("every test result is checked before it is returned") {
    CHECK(detail::checked_test_result("t", valid_result()).p_value == 0.3);
    TestResult degenerate_z = valid_result();
    degenerate_z.statistic = inf_value;  // the block test's zero standard error: a legitimate z
    CHECK_NOTHROW(detail::checked_test_result("t", degenerate_z));
    const auto throws = [](const TestResult& r) { CHECK_THROWS_AS(detail::checked_test_result("t", r), numerical_error); };
    for (const double bad : {nan_value, inf_value}) {
        TestResult r = valid_result();
        r.estimate = bad;
        throws(r);
    }
    TestResult r = valid_result();
    r.statistic = nan_value;
    throws(r);
    for (const double bad : {nan_value, -0.1, 1.5, inf_value}) {
        r = valid_result();
        r.p_value = bad;
        throws(r);
    }
    r = valid_result();
    BlockTestDetails block;
    block.std_error = nan_value;
    r.details = block;
    CHECK_THROWS_WITH(detail::checked_test_result("block_test", r),
                      doctest::Contains("calib::block_test: the std_error is nan"));
}

TEST_CASE("consistency test: an estimator returning NaN or infinity gives no p-value") {
    test::Rng rng(17);
    const CategoricalData data = synthetic::dirichlet_data(60, 3, 1.0, rng);
    ConsistencyOptions options;
    options.replicates = 20;
    for (const double bad : {nan_value, inf_value}) {
        CAPTURE(bad);
        const CategoricalEstimator always = [bad](const CategoricalData&) { return bad; };
        CHECK_THROWS_WITH_AS(consistency_test(data, always, "x", options),
                             doctest::Contains("the estimator returned"), numerical_error);
        // Finite on the data, non-finite on one resample only: still no p-value (was p = 0 or 1).
        std::atomic<int> calls{0};
        const CategoricalEstimator late = [&](const CategoricalData&) { return calls++ == 7 ? bad : 0.5; };
        options.parallel.num_threads = 1;
        CHECK_THROWS_WITH_AS(consistency_test(data, late, "x", options), doctest::Contains("on resample 6"),
                             numerical_error);
    }
}

TEST_CASE("thread counts are bounded: negative and huge teams are refused, not attempted") {
    // Before: --threads 100000 overflowed libgomp's stack; ParallelOptions{-5} was accepted.
    CHECK(max_num_threads() >= 64);
    CHECK(resolve_num_threads(3) == 3);
    CHECK(resolve_num_threads(0) >= 1);
    CHECK(resolve_num_threads(0) <= max_num_threads());
    CHECK_THROWS_AS(resolve_num_threads(-5), invalid_argument);
    CHECK_THROWS_WITH_AS(resolve_num_threads(max_num_threads() + 1), doctest::Contains("num_threads = "),
                         invalid_argument);
    test::Rng rng(3);
    const CategoricalData data = synthetic::dirichlet_data(50, 3, 1.0, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    CHECK_THROWS_AS(skce_unbiased(data, kernel, ParallelOptions{-5}), invalid_argument);
    BootstrapOptions o;
    o.parallel.num_threads = 100000;
    CHECK_THROWS_AS(bootstrap_test(data, kernel, o), invalid_argument);
}

TEST_CASE("working memory: the bound is malloc's int") {
    // What is kept and released is checked in fresh processes (tests/python/test_module.py): in this
    // one, the heap's state after the other tests decides which pages a new block reuses.
    CHECK_THROWS_WITH_AS(keep_working_memory(-1), "calib::keep_working_memory: bytes = -1, must be in [0, 2147483647] "
                                                  "(malloc's int)", invalid_argument);
    CHECK_THROWS_AS(keep_working_memory(std::int64_t(1) << 31), invalid_argument);
    keep_working_memory(64 << 20);
}

TEST_CASE("replicates are bounded and their buffers checked against the machine before allocation") {
    // Before: SIZE_MAX replicates was undefined behaviour, 2^63 − 1 aborted in an Eigen assertion.
    test::Rng rng(5);
    const CategoricalData data = synthetic::dirichlet_data(40, 3, 1.0, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    for (const std::size_t bad : {std::size_t{0}, max_replicates + 1, std::numeric_limits<std::size_t>::max()}) {
        CAPTURE(bad);
        BootstrapOptions b;
        b.replicates = bad;
        CHECK_THROWS_AS(bootstrap_test(data, kernel, b), invalid_argument);
        SpectralOptions s;
        s.replicates = bad;
        CHECK_THROWS_AS(spectral_test(data, kernel, s), invalid_argument);
        ConsistencyOptions c;
        c.replicates = bad;
        CHECK_THROWS_AS(consistency_test(data, [](const CategoricalData&) { return 0.0; }, "x", c), invalid_argument);
    }
    // Within the bound but not within the memory budget, refused before any work: the counts of one
    // pass at n = 10⁶ are 4.1 GB, R = 10⁸ replicates' values 3.2 GB. Before: the whole n × (R+1)
    // counts were allocated whatever the budget (which bounded only the Gram cache).
    test::Rng big_rng(6);
    const CategoricalData big = synthetic::dirichlet_data(1000000, 2, 1.0, big_rng);
    BootstrapOptions b;
    b.replicates = max_replicates;
    b.memory_budget = std::size_t{1} << 30;
    CHECK_THROWS_WITH_AS(bootstrap_test(big, kernel, b), doctest::Contains("more than `memory_budget` = 1 GiB"),
                         invalid_argument);
    // A budget beyond the machine is refused rather than trusted (before: an 80 GB allocation after
    // seconds of work).
    b.replicates = 10;
    b.memory_budget = std::numeric_limits<std::size_t>::max();
    CHECK_THROWS_WITH_AS(bootstrap_test(big, kernel, b), doctest::Contains("exceeds this machine's memory"),
                         invalid_argument);
    ComparisonOptions compare;
    compare.estimators = {ComparedEstimator::ece};
    compare.replicates = max_replicates;
    CHECK_THROWS_WITH_AS(compare_models({big, big}, compare), doctest::Contains("more than this machine's memory"),
                         invalid_argument);
}

TEST_CASE("C++ API edges: sizes and values checked by calib, not by Eigen assertions") {
    CHECK_THROWS_WITH_AS(CategoricalData::from_logits(Matrix(3, 0), {0, 0, 0}), doctest::Contains("m >= 2"),
                         invalid_argument);
    CHECK_THROWS_AS(CategoricalData::from_logits(Matrix::Zero(3, 1), {0, 0, 0}), invalid_argument);
    Matrix p(3, 2);
    p << 0.5, 0.5, nan_value, 0.5, 0.2, 0.8;
    CHECK_THROWS_WITH_AS(simplex_median_lengthscale(p), doctest::Contains("must be finite"), invalid_argument);
}

TEST_CASE("CKCE: a vanishing bandwidth reaches its limit, a vanishing ridge is refused") {
    test::Rng rng(8);
    const CategoricalData data = synthetic::dirichlet_data(120, 3, 1.0, rng);
    // γ → 0: the Gaussian part becomes the identity (distinct predictions), already exactly at γ = 1e-100
    // (every off-diagonal exp underflows); γ = 1e-300 overflows 1/(2γ²) and once gave exp(−0·∞) = NaN.
    CkceOptions o;
    o.kernel.lengthscale = 1e-100;
    const double limit = ckce(data, o).estimate;
    REQUIRE(std::isfinite(limit));
    o.kernel.lengthscale = 1e-300;
    CHECK(ckce(data, o).estimate == limit);
    // λn below 1e-12·tr K: K + λnI cannot be solved meaningfully in double precision.
    o.kernel.lengthscale = 0.5;
    o.regularization = Regularization::fixed(1e-300);
    CHECK_THROWS_WITH_AS(ckce(data, o), doctest::Contains("too ill-conditioned"), invalid_argument);
    CHECK_THROWS_AS(ckce_lambda_path(data, CkceOptions{}, {1e-3, 1e-300}), invalid_argument);
    o.regularization = Regularization::fixed(1e-6);
    CHECK(std::isfinite(ckce(data, o).estimate));
}

}  // TEST_SUITE

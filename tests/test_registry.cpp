// The registry (registry.hpp): every option documented as it behaves, every method's run equal to the
// direct library call, option values and errors, typed results and their records.
#include <calib/calibration_curve.hpp>
#include <calib/corp.hpp>
#include <calib/debiased_l2.hpp>
#include <calib/mmd.hpp>
#include <calib/registry.hpp>
#include <calib/scores.hpp>
#include <calib/tool/command.hpp>
#include <calib/smooth_ece.hpp>
#include <calib/squared_ce.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include "map_options.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include <unistd.h>

using namespace calib;

namespace {

const char* const command_names[] = {"estimate", "test", "rank", "metrics", "reproduce", "report", "recalibrate fit",
                                     "recalibrate apply"};

// Every setup of the registry, fresh, by name (the containers keep them in place).
struct AllSetups {
    std::vector<EstimatorSetup> estimators;
    std::vector<TestSetup> tests;
    std::vector<KernelSetup> kernels;
    ComparisonSetup comparison;
    std::vector<RecalibrationSetup> fits;
    std::vector<MetricsSetup> metrics;
    std::vector<ReadingSetup> readings;
    std::vector<CommandSetup> commands;
    std::vector<DiagramSetup> diagrams;
    std::vector<std::pair<std::string, Setup*>> list;

    AllSetups() {
        for (const char* family : {"categorical", "normal"}) fits.emplace_back(find_family(family));
        for (const char* family : {"categorical", "normal"}) metrics.emplace_back(find_family(family));
        for (const MethodInfo& m : estimator_methods()) estimators.push_back(make_estimator(m.name));
        for (const MethodInfo& m : test_methods()) tests.push_back(make_test(m.name));
        for (const FamilyInfo& f : families()) kernels.emplace_back(f);
        for (const FamilyInfo& f : families()) readings.emplace_back(f, true);
        for (auto& e : estimators) list.emplace_back("estimator " + e.info().name, &e);
        for (auto& t : tests) list.emplace_back("test " + t.info().name, &t);
        for (std::size_t k = 0; k < kernels.size(); ++k) list.emplace_back("kernel " + families()[k].name, &kernels[k]);
        list.emplace_back("comparison", &comparison);
        list.emplace_back("recalibrate fit categorical", &fits[0]);
        list.emplace_back("recalibrate fit normal", &fits[1]);
        list.emplace_back("metrics categorical", &metrics[0]);
        list.emplace_back("metrics normal", &metrics[1]);
        for (std::size_t k = 0; k < readings.size(); ++k) list.emplace_back("reading " + families()[k].name, &readings[k]);
        for (const char* command : command_names) commands.emplace_back(command);
        for (auto& c : commands) list.emplace_back("command " + c.info().name, &c);
        for (const MethodInfo& m : diagram_methods()) diagrams.emplace_back(m.name);
        for (auto& d : diagrams) list.emplace_back("diagram " + d.info().name, &d);
    }
};

bool snake_case(const std::string& name) {
    return !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
}

}  // namespace

TEST_SUITE("registry") {

TEST_CASE("every option is documented, and its documented default is the value a fresh setup has") {
    AllSetups all;
    for (auto& [what, setup] : all.list) {
        std::set<std::string> earlier;
        for (const OptionInfo& o : setup->options()) {
            CAPTURE(what);
            CAPTURE(o.name);
            CHECK(snake_case(o.name));
            CHECK(earlier.insert(o.name).second);  // no name twice
            CHECK(!o.help.empty());
            // A condition refers to an option declared before it (front-ends set options in order).
            if (!o.condition.option.empty()) CHECK(earlier.count(o.condition.option) == 1);
            if (o.required) CHECK(o.default_value.empty());
            if (!o.default_value.empty()) CHECK(to_text(setup->get(o.name)) == o.default_value);
        }
    }
}

TEST_CASE("every option takes back the text of its own value") {
    AllSetups all;
    for (auto& [what, setup] : all.list)
        for (const OptionInfo& o : setup->options()) {
            if (!setup->applies(o.name) || o.default_value.empty()) continue;
            CAPTURE(what);
            CAPTURE(o.name);
            const Value before = setup->get(o.name);
            setup->set(o.name, to_text(before));
            CHECK(to_text(setup->get(o.name)) == to_text(before));
            CHECK(setup->given(o.name));
        }
}

TEST_CASE("values: text and typed values alike, bad values named with their rule") {
    TestSetup bootstrap = make_test("bootstrap");
    bootstrap.set("replicates", "250");
    CHECK(std::get<std::uint64_t>(bootstrap.get("replicates")) == 250);
    bootstrap.set("replicates", std::int64_t{300});
    CHECK(std::get<std::uint64_t>(bootstrap.get("replicates")) == 300);
    bootstrap.set("replicates", 400.0);  // an integral number from a program
    CHECK(std::get<std::uint64_t>(bootstrap.get("replicates")) == 400);
    CHECK_THROWS_WITH_AS(bootstrap.set("replicates", "0"), "option `replicates` = '0', must be an integer in [1, 100000000]",
                         option_error);
    CHECK_THROWS_AS(bootstrap.set("replicates", "1e3"), option_error);
    CHECK_THROWS_AS(bootstrap.set("replicates", 2.5), option_error);
    CHECK_THROWS_AS(bootstrap.set("replicates", std::int64_t{-1}), option_error);
    CHECK_THROWS_AS(bootstrap.set("replicates", true), option_error);
    // Seeds are 64-bit unsigned integers, exactly.
    bootstrap.set("seed", "18446744073709551615");
    CHECK(std::get<std::uint64_t>(bootstrap.get("seed")) == std::numeric_limits<std::uint64_t>::max());
    CHECK_THROWS_AS(bootstrap.set("seed", "18446744073709551616"), option_error);
    bootstrap.set("memory_budget", "2M");
    CHECK(std::get<std::uint64_t>(bootstrap.get("memory_budget")) == 2u << 20);
    bootstrap.set("memory_budget", "auto");
    CHECK(to_text(bootstrap.get("memory_budget")) == "auto");
    CHECK_THROWS_AS(bootstrap.set("memory_budget", "2X"), option_error);
    CHECK_THROWS_WITH_AS(bootstrap.set("pvalue_rule", "sometimes"),
                         "option `pvalue_rule` = sometimes, must be one of count or plus-one", option_error);
    CHECK_THROWS_WITH_AS(bootstrap.set("nope", "1"), "`nope` is not an option of bootstrap", invalid_argument);

    KernelSetup kernel(find_family("normal"));
    CHECK_THROWS_WITH_AS(kernel.set("metric", "tv"), "option `metric` = tv, must be one of w2 for the normal family",
                         option_error);
    kernel.set("lengthscale", 0.5);
    CHECK(std::get<double>(kernel.get("lengthscale")) == 0.5);
    CHECK_THROWS_AS(kernel.set("lengthscale", "-1"), option_error);
    CHECK_THROWS_AS(kernel.set("lengthscale", "inf"), option_error);
}

TEST_CASE("conditions: an option applies only when the option it depends on allows it") {
    EstimatorSetup ckce = make_estimator("ckce");
    CHECK_FALSE(ckce.applies("features"));
    CHECK_THROWS_WITH_AS(ckce.set("features", "10"), "`features` applies only with `ckce_method` rff",
                         invalid_argument);
    ckce.set("ckce_method", "rff");
    ckce.set("features", "10");
    CHECK(ckce.applies("seed"));
    // A chain: median_seed needs median_subsample, which needs a median lengthscale.
    CHECK_FALSE(ckce.applies("median_seed"));
    ckce.set("median_subsample", "100");
    CHECK(ckce.applies("median_seed"));
    ckce.set("lengthscale", "0.3");
    CHECK_FALSE(ckce.applies("median_subsample"));
    CHECK_FALSE(ckce.applies("median_seed"));
    // Exclusive options and required ones: check() before any data.
    ckce.set("lambda", "0.1");
    ckce.set("lambda_power", "0.5");
    CHECK_THROWS_WITH_AS(ckce.check(), "`lambda` and `lambda_power` exclude each other (give one)", invalid_argument);
    TestSetup consistency = make_test("consistency");
    CHECK_THROWS_AS(consistency.check(), invalid_argument);
    CHECK_NOTHROW(make_test("block").check());  // block_size has the estimator's default, 2
    TestSetup cme = make_test("cme");
    CHECK_THROWS_AS(cme.check(), invalid_argument);
    cme.set("locations", "3");
    cme.check();
    cme.set("test_locations", "file.csv");
    CHECK_THROWS_AS(cme.check(), invalid_argument);
    // A list meets a condition when one of its items does.
    ComparisonSetup rank;
    rank.set("estimators", "ece");
    CHECK_FALSE(rank.applies("lengthscale"));
    CHECK(rank.applies("binning"));
    rank.set("estimators", "ece,jkce");
    CHECK(rank.applies("lengthscale"));
    CHECK_FALSE(rank.applies("ckce_method"));
    CHECK_THROWS_AS(rank.set("estimators", "ece,ece"), option_error);
}

TEST_CASE("a front-end's arguments: set in order, missing options, why an option does not apply") {
    // set_given asks for each option that applies, in order: features is asked for only because
    // ckce_method = rff was set before it; seed (rff's) likewise, lowrank's rank never.
    EstimatorSetup ckce = make_estimator("ckce");
    std::vector<std::string> asked;
    ckce.set_given([&](const OptionInfo& o) -> std::optional<Value> {
        asked.push_back(o.name);
        if (o.name == "ckce_method") return Value("rff");
        if (o.name == "features") return Value(std::int64_t{20});
        return std::nullopt;
    });
    CHECK(to_text(ckce.get("features")) == "20");
    CHECK(std::find(asked.begin(), asked.end(), "features") != asked.end());
    CHECK(std::find(asked.begin(), asked.end(), "seed") != asked.end());
    CHECK(std::find(asked.begin(), asked.end(), "rank") == asked.end());
    CHECK(ckce.why_not("rank") == "applies only with `ckce_method` lowrank, not rff");
    CHECK(ckce.why_not("median_seed") == "applies only with `median_subsample`");
    CHECK(ckce.why_not("no_such_option").empty());
    CHECK(ckce.missing() == nullptr);
    TestSetup consistency = make_test("consistency");
    REQUIRE(consistency.missing() != nullptr);
    CHECK(consistency.missing()->name == "estimator");
    consistency.set("estimator", "ece");
    CHECK(consistency.missing() == nullptr);
    TestSetup nested = make_test("block");
    nested.set("null_variance", "true");
    CHECK(nested.why_not("variance_divisor") == "applies only without `null_variance`");
}

TEST_CASE("the recalibration fit: the family's methods, the library's defaults and bounds, the features' rule") {
    const RecalibrationOptions library;
    RecalibrationSetup fit(find_family("categorical"));
    CHECK_THROWS_WITH_AS(fit.check(), "recalibrate fit needs the option `method` (temperature|temperature-bias|platt|beta|vector|matrix|dirichlet|isotonic|top-label-isotonic|histogram|venn-abers|auto)",
                         invalid_argument);
    fit.set("method", "matrix");
    fit.check();
    CHECK(fit.method() == RecalibrationMethod::matrix);
    const RecalibrationOptions o = fit.fit_options();
    CHECK(o.objective == library.objective);
    CHECK(o.ridge == library.ridge);
    CHECK(o.probability_floor == library.probability_floor);
    CHECK(o.max_iterations == library.max_iterations);
    CHECK(o.gradient_tolerance == library.gradient_tolerance);
    CHECK_THROWS_WITH_AS(fit.set("method", "affine"),
                         "option `method` = affine, must be one of temperature, temperature-bias, platt, beta, vector, matrix, "
                         "dirichlet, isotonic, top-label-isotonic, histogram, venn-abers or auto for family categorical",
                         option_error);
    {  // method auto: the cross-validated choice, its options only with it
        RecalibrationSetup chooser(calib::find_family("categorical"));
        CHECK_FALSE(chooser.selection());
        chooser.set("method", "auto");
        chooser.set("folds", "3");
        chooser.set("selection_score", "brier");
        chooser.check();
        REQUIRE(chooser.selection());
        CHECK(chooser.selection()->folds == 3);
        CHECK(chooser.selection()->score == calib::CorpScore::brier);
        CHECK(chooser.selection()->seed == calib::default_seed);
        CHECK_THROWS_WITH_AS(chooser.set("folds", "1"), doctest::Contains("option `folds` = '1', must be an integer in [2,"),
                             option_error);
        RecalibrationSetup given(calib::find_family("categorical"));
        given.set("method", "vector");
        CHECK_THROWS_WITH_AS(given.set("folds", "3"), "`folds` applies only with `method` auto", invalid_argument);
    }
    CHECK_THROWS_WITH_AS(fit.set("lambda", "1"), "`lambda` applies only with `objective` nll+mmd", invalid_argument);
    fit.set("objective", "nll+mmd");
    CHECK(fit.missing()->name == "lambda");
    fit.set("lambda", "0.5");
    CHECK(fit.fit_options().notion == MmdNotion::canonical);
    CHECK(fit.option("kernel_y") == nullptr);  // the normal maps' MMD options
    CHECK(!fit.needs_features());
    CHECK_THROWS_WITH_AS(fit.check_features(true),
                         "`features` applies only with `method` affine-features or `notion` individual", invalid_argument);

    RecalibrationSetup normal(find_family("normal"));
    normal.set("method", "affine");
    normal.set("objective", "nll+mmd");
    normal.set("lambda", "1");
    CHECK(normal.fit_options().notion == MmdNotion::distribution);
    CHECK(normal.why_not("samples") == "applies only with `marginalisation` mc-paired|mc-all-pairs, not analytic");
    normal.set("kernel_y", "sign");
    CHECK(normal.why_not("marginalisation") == "applies only with `kernel_y` sqexp|moment|pit, not sign");
    normal.set("kernel_y", "pit");
    normal.set("marginalisation", "mc-paired");
    // One bound for the samples: the library's (fit_recalibration and the MMD's Monte-Carlo modes).
    normal.set("samples", std::to_string(max_mc_samples));
    CHECK_THROWS_AS(normal.set("samples", std::to_string(max_mc_samples + 1)), option_error);
    EstimatorSetup mmd = make_estimator("mmd");
    for (const auto& [name, value] : {std::pair<const char*, const char*>{"notion", "distribution"},
                                      {"kernel_y", "sqexp"}, {"marginalisation", "mc-paired"}})
        mmd.set(name, value);
    mmd.set("samples", std::to_string(max_mc_samples));
    CHECK_THROWS_AS(mmd.set("samples", std::to_string(max_mc_samples + 1)), option_error);
    normal.set("mc_seed", std::to_string(max_map_seed));
    CHECK_THROWS_AS(normal.set("mc_seed", std::to_string(max_map_seed + 1)), option_error);
    normal.set("notion", "individual");
    CHECK(normal.needs_features());
    CHECK_THROWS_WITH_AS(normal.check_features(false),
                         "`notion` individual needs `features` (the conditioning variable, n rows)", invalid_argument);
    normal.check_features(true);
    CHECK(message_context(normal) == "recalibrate fit `method` affine");
    CHECK_THROWS_AS(RecalibrationSetup(find_family("laplace")), invalid_argument);

    // The setup's options are what the library fits with: the same map as the direct call, bitwise.
    Rng rng = make_stream(5, 0);
    const CategoricalScores scores = synthetic::tempered_logits(200, 3, 2.0, 1.5, rng);
    RecalibrationSetup temperature(find_family("categorical"));
    temperature.set("method", "temperature");
    temperature.set("max_iterations", "5");
    RecalibrationOptions direct;
    direct.max_iterations = 5;
    CHECK(fit_recalibration(scores, temperature.method(), temperature.fit_options()).map.parameters ==
          fit_recalibration(scores, RecalibrationMethod::temperature, direct).map.parameters);
}

TEST_CASE("messages every front-end shares: unused and missing options, their context") {
    EstimatorSetup ece = make_estimator("ece");
    CHECK(unused_option_message("bins", {&ece}, message_context(ece)) ==
          "option `bins` does not apply to `estimator` ece; its options are `binning`, `distance`, `mode`, `aggregate`");
    EstimatorSetup ckce = make_estimator("ckce");
    CHECK(unused_option_message("features", {&ckce, nullptr}, message_context(ckce)) ==
          "option `features` applies only with `ckce_method` rff, not exact (`estimator` ckce)");
    TestSetup bootstrap = make_test("bootstrap");
    bootstrap.set("estimator", "mmd");
    CHECK(message_context(bootstrap) == "`method` bootstrap `estimator` mmd");
    TestSetup consistency = make_test("consistency");
    CHECK(missing_option_message(*consistency.missing()) ==
          "missing option `estimator` ece|skce-unbiased|skce-biased|skce-block");
    CHECK(render_message(missing_option_message(*consistency.missing()), NameStyle::command_line) ==
          "missing option --estimator ece|skce-unbiased|skce-biased|skce-block");
}

TEST_CASE("copies of a setup are independent") {
    TestSetup a = make_test("bootstrap");
    TestSetup b = a;
    b.set("replicates", "10");
    CHECK(to_text(a.get("replicates")) == "1000");
    CHECK(to_text(b.get("replicates")) == "10");
}

TEST_CASE("every test run through the registry equals the library call, bitwise") {
    test::Rng rng(5);
    const CategoricalData data = synthetic::dirichlet_data(120, 3, 0.7, rng);
    const Kernel kernel = default_kernel(data);
    const AnyData any = data;
    const auto same = [](const TestResult& a, const TestResult& b) {
        CHECK(a.method == b.method);
        CHECK(a.p_value == b.p_value);
        CHECK(a.statistic == b.statistic);
        CHECK(a.estimate == b.estimate);
        Record ra = a.record(), rb = b.record();
        for (Record* r : {&ra, &rb})  // the default budget follows the memory available at the call
            r->erase(std::remove_if(r->begin(), r->end(), [](const Field& f) { return f.name == "memory_budget"; }),
                     r->end());
        CHECK(to_json(ra) == to_json(rb));
    };
    const CategoricalData binary = synthetic::dirichlet_data(120, 2, 0.7, rng);
    const AnyData any_binary = binary;
    const ParallelOptions two{2};
    for (const MethodInfo& m : test_methods()) {
        CAPTURE(m.name);
        TestSetup setup = make_test(m.name);
        if (m.name == "block" || m.name == "dfree-block") setup.set("block_size", "sqrt");
        if (m.name == "consistency") setup.set("estimator", "skce-block"), setup.set("replicates", "40");
        if (m.name == "cme") setup.set("locations", "2");
        if (m.name == "bootstrap" || m.name == "spectral") setup.set("replicates", "200");
        if (m.name == "hosmer-lemeshow") setup.set("grouping", "fixed"), setup.set("groups", "5");
        if (m.name == "t-cal") setup.set("replicates", "300"), setup.set("null_draws", "consistency");
        const TestResult r = setup.run(m.binary_only ? any_binary : any, &kernel, nullptr, two);
        const std::size_t b = sqrt_block_size(data.size());
        if (m.name == "block") {
            BlockTestOptions o;
            o.block_size = BlockSize::sqrt();
            same(r, block_test(data, kernel, o));
        } else if (m.name == "bootstrap") {
            BootstrapOptions o;
            o.replicates = 200;
            same(r, bootstrap_test(data, kernel, o));
        } else if (m.name == "gamma") {
            same(r, gamma_test(data, kernel));
        } else if (m.name == "spectral") {
            SpectralOptions o;
            o.replicates = 200;
            same(r, spectral_test(data, kernel, o));
        } else if (m.name == "dfree-biased") {
            same(r, dfree_biased_test(data, kernel));
        } else if (m.name == "dfree-unbiased") {
            same(r, dfree_unbiased_test(data, kernel));
        } else if (m.name == "dfree-block") {
            same(r, dfree_block_test(data, kernel, b));
        } else if (m.name == "consistency") {
            ConsistencyOptions o;
            o.replicates = 40;
            same(r, consistency_test(
                        data, [&](const CategoricalData& d) { return skce_block(d, kernel, 2, {1}).estimate; },
                        "skce-block", o));
        } else if (m.name == "cme") {
            same(r, cme_test(data, 2, default_seed, kernel));
        } else if (m.name == "spiegelhalter") {
            same(r, spiegelhalter_test(binary));
        } else if (m.name == "citl") {
            same(r, calibration_in_the_large_test(binary));
        } else if (m.name == "ks") {
            same(r, ks_test(binary));
        } else if (m.name == "kuiper") {
            same(r, kuiper_test(binary));
        } else if (m.name == "cox") {
            same(r, cox_test(binary));
        } else if (m.name == "t-cal") {
            TCalOptions o;
            o.replicates = 300;
            o.null = TCalNull::consistency;
            same(r, t_cal_test(binary, o));
        } else if (m.name == "hosmer-lemeshow") {
            HosmerLemeshowOptions o;
            o.grouping = HosmerLemeshowGrouping::fixed;
            o.groups = 5;
            same(r, hosmer_lemeshow_test(binary, o));
        } else {
            FAIL("a test method without a reference here: add one");
        }
    }
}

TEST_CASE("every estimator run through the registry equals the library call, bitwise") {
    test::Rng rng(6);
    const CategoricalData data = synthetic::dirichlet_data(90, 4, 0.5, rng);
    const CategoricalData locations = synthetic::dirichlet_data(5, 4, 0.5, rng);
    const Kernel kernel = default_kernel(data);
    const CategoricalData binary = synthetic::dirichlet_data(90, 2, 0.7, rng);
    Vector mean(90), sd(90), y(90);
    for (Eigen::Index i = 0; i < 90; ++i) mean(i) = std::sin(0.3 * i), sd(i) = 0.5 + 0.01 * i, y(i) = std::cos(0.7 * i);
    const NormalData normal(mean, sd, y);
    for (const MethodInfo& m : estimator_methods()) {
        CAPTURE(m.name);
        EstimatorSetup setup = make_estimator(m.name);
        const AnyData any = m.univariate_only ? AnyData(normal) : m.binary_only ? AnyData(binary) : AnyData(data),
                      at = locations;
        if (m.name == "ucme") setup.set("test_locations", "five points");
        if (m.name == "ici") setup.set("replicates", "20"), setup.set("span", "0.5");
        if (m.name == "debiased-l2") setup.set("replicates", "10"), setup.set("binning", "equal-mass:5");
        if (m.name == "smooth-ece") setup.set("replicates", "10"), setup.set("curve_points", "3");
        const EstimateResult r = setup.run(any, &kernel, &at, ParallelOptions{2});
        CHECK(r.estimator == m.name);
        CHECK(r.n == 90);
        if (m.name == "skce-biased") CHECK(r.estimate == skce_biased(data, kernel));
        else if (m.name == "skce-unbiased") CHECK(r.estimate == skce_unbiased(data, kernel));
        else if (m.name == "skce-block") CHECK(r.estimate == skce_block(data, kernel, 2).estimate);
        else if (m.name == "ucme") CHECK(r.estimate == ucme(data, locations, kernel));
        else if (m.name == "ece") {  // the front-ends' ECE is the top-label one (docs/ece.md)
            EceOptions top_label;
            top_label.mode = EceMode::top_label;
            CHECK(r.estimate == ece(data, top_label));
            CHECK(r.estimate != ece(data));  // not EceOptions' canonical default
        }
        else if (m.name == "ckce") {
            CkceOptions o;
            o.kernel.lengthscale = simplex_median_lengthscale(data.probabilities()).value;
            CHECK(r.estimate == ckce(data, o).estimate);
            CHECK(std::get<double>(find(r.details, "lengthscale")) == o.kernel.lengthscale);
        } else if (m.name.rfind("ce-", 0) == 0) {
            const CeEstimator e = m.name == "ce-bins"  ? CeEstimator::bins
                                  : m.name == "ce-kde" ? CeEstimator::kde
                                  : m.name == "ce-kkr" ? CeEstimator::kkr
                                                       : CeEstimator::ukkr;
            CHECK(to_string(e) == m.name);
            const SquaredCeResult reference = squared_ce(data, e);
            CHECK(r.estimate == reference.estimate);
            CHECK(std::get<double>(find(r.details, "validation_risk")) == 100 * reference.risk_sqrt_mean);
        } else if (m.name == "brier") {
            const BrierDecomposition reference = brier_decomposition(data);
            CHECK(r.estimate == reference.brier);
            CHECK(std::get<double>(find(r.details, "calibration")) == reference.calibration);
            CHECK(std::get<double>(find(r.details, "uncertainty")) == reference.uncertainty);
        } else if (m.name == "mmd") {  // the default notion: canonical, RBF on q with the median lengthscale
            MmdSpec spec;
            spec.conditioning.lengthscale = mmd_median_lengthscales(data, spec)[0];
            CHECK(r.estimate == mmd_unbiased(data, spec).estimate);
        } else if (m.name == "ici") {
            FlexibleCalibrationOptions o;
            o.resampling.replicates = 20;
            o.loess.span = 0.5;
            o.parallel.num_threads = 1;
            const FlexibleCalibration reference = flexible_calibration(binary, o);
            CHECK(r.estimate == reference.ici);
            CHECK(std::get<double>(find(r.details, "emax")) == reference.emax);
            CHECK(std::get<double>(find(r.details, "e90_upper")) == reference.intervals[2].upper);
        } else if (m.name == "debiased-l2") {  // class predictions of 4 classes: marginal by default
            DebiasedL2Options o;
            o.bins = 5;
            o.resampling.replicates = 10;
            const DebiasedL2 reference = debiased_l2(data, o);
            CHECK(r.estimate == reference.error);
            CHECK(std::get<double>(find(r.details, "square")) == reference.square);
            CHECK(std::get<double>(find(r.details, "square_upper")) == reference.intervals[1].upper);
            CHECK(std::get<Record>(find(r.details, "class_squares")).size() == 4);
        } else if (m.name == "smooth-ece") {
            SmoothEceOptions o;
            o.resampling.replicates = 10;
            o.curve_points = 3;
            const SmoothEce reference = smooth_ece(binary, o);
            CHECK(r.estimate == reference.value);
            CHECK(std::get<double>(find(r.details, "bandwidth_used")) == reference.bandwidth);
            CHECK(std::get<double>(find(r.details, "smooth_ece_lower")) == reference.intervals[0].lower);
            const Record curve = std::get<Record>(find(r.details, "curve"));
            CHECK(std::get<std::vector<double>>(find(curve, "frequency")) == reference.frequency);
        } else if (m.name == "corp") {  // binary predictions: the Brier score by default
            const CorpDecomposition reference = corp_decomposition(binary);
            CHECK(r.estimate == reference.mcb);
            CHECK(std::get<double>(find(r.details, "dsc")) == reference.dsc);
            CHECK(std::get<double>(find(r.details, "unc")) == reference.unc);
        } else if (m.name == "crps") {
            CHECK(r.estimate == mean_crps(normal));
        } else if (m.name == "calibration-ratio") {
            const CalibrationRatio reference = calibration_ratio(binary);
            CHECK(r.estimate == reference.ratio);
            CHECK(std::get<double>(find(r.details, "events")) == reference.events);
        } else if (m.name == "normalized-entropy") {
            const NormalizedEntropy reference = normalized_entropy(binary);
            CHECK(r.estimate == reference.value);
            CHECK(std::get<double>(find(r.details, "base_rate_used")) == reference.base_rate);
        } else {
            FAIL("an estimator without a reference here: add one");
        }
    }
}

TEST_CASE("the kernel setup: family defaults, the median rule, the record") {
    test::Rng rng(7);
    const NormalData data = test::normal_data(80, rng);
    KernelSetup setup(find_family("normal"));
    const Kernel median = setup.resolve(data);
    CHECK(median.prediction.lengthscale == median_distance(data, Metric::w2));
    CHECK(median.target.type == TargetKernelType::sqexp);
    setup.set("lengthscale", "median-full");
    MedianOptions full;
    full.variant = MedianVariant::full;
    CHECK(setup.resolve(data).prediction.lengthscale == median_distance(data, Metric::w2, full));
    setup.set("lengthscale", "0.25");
    setup.set("lengthscale_y", "2");
    const Kernel given = setup.resolve(data);
    CHECK(given.prediction.lengthscale == 0.25);
    CHECK(given.target.lengthscale == 2);
    const Record r = setup.record(given);
    CHECK(to_text(find(r, "lengthscale_rule")) == "given");
    CHECK(to_json(r).find("\"target\":{\"type\":\"sqexp\",\"lengthscale\":2}") != std::string::npos);
    // A kernel the family does not support is refused when the option is set.
    KernelSetup classes(find_family("categorical"));
    CHECK_THROWS_AS(classes.set("kernel_y", "sqexp"), option_error);
    CHECK_FALSE(classes.applies("lengthscale_y"));
}

TEST_CASE("validate: the limits that depend on n, in the library's words") {
    TestSetup block = make_test("block");
    block.set("block_size", "150");
    CHECK_THROWS_WITH_AS(block.validate(200), doctest::Contains("needs at least 2 blocks"), invalid_argument);
    block.validate(300);
    TestSetup spectral = make_test("spectral");
    CHECK_THROWS_WITH_AS(spectral.validate(5000), doctest::Contains("exceeds max_n = 4000"), invalid_argument);
    TestSetup cme = make_test("cme");
    cme.set("locations", "5");
    CHECK_THROWS_WITH_AS(cme.validate(10), doctest::Contains("n > 2J"), invalid_argument);
    CHECK_THROWS_WITH_AS(cme.validate(200), doctest::Contains("outside the validity range"), invalid_argument);
    cme.validate(2000);
}

TEST_CASE("methods of class predictions refuse other data; unknown names list the known ones") {
    test::Rng rng(8);
    const AnyData normal = test::normal_data(30, rng);
    CHECK_THROWS_WITH_AS(make_estimator("ece").run(normal, nullptr, nullptr),
                         doctest::Contains("applies only to class predictions"), invalid_argument);
    CHECK_THROWS_WITH_AS(make_test("nope"), doctest::Contains("expected one of block|bootstrap|gamma"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(make_estimator("nope"), doctest::Contains("skce-biased|skce-unbiased"), invalid_argument);
    CHECK_THROWS_AS(make_test("gamma").run(normal, nullptr, nullptr), invalid_argument);  // no kernel given
}

TEST_CASE("typed details: records, JSON, exact seeds") {
    test::Rng rng(9);
    const CategoricalData data = synthetic::dirichlet_data(60, 3, 1.0, rng);
    BootstrapOptions o;
    o.replicates = 50;
    o.seed = std::numeric_limits<std::uint64_t>::max();
    const TestResult t = bootstrap_test(data, default_kernel(data), o);
    CHECK(t.details_as<BootstrapDetails>().seed == o.seed);
    CHECK(t.to_json().find("\"seed\":18446744073709551615") != std::string::npos);
    CHECK(to_text(find(t.record(), "pvalue_rule")) == "count");
    CHECK(std::get<bool>(find(t.record(), "cached_gram_matrix")));
    CHECK_THROWS_AS(find(t.record(), "nope"), invalid_argument);
    CHECK_THROWS_AS(t.details_as<GammaDetails>(), invalid_argument);
}

TEST_CASE("families: the table, readers and default kernels") {
    std::string names;
    for (const FamilyInfo& f : families()) names += f.name + " ";
    CHECK(names == "categorical binary normal laplace mvnormal-diag mvnormal mixture-normal ");
    CHECK(find_family("binary").classes);
    CHECK_FALSE(find_family("binary").labels_options);
    CHECK(find_family("mixture-normal").simplex_rows);
    CHECK(find_family("laplace").targets == std::vector<TargetKernelType>{TargetKernelType::exp});
    CHECK_THROWS_WITH_AS(find_family("poisson"),
                         doctest::Contains("option `family` = poisson, must be one of categorical, binary, normal"), option_error);
    test::Rng rng(10);
    const AnyData normal = test::normal_data(20, rng);
    CHECK(default_kernel(normal).target.type == TargetKernelType::sqexp);
    CHECK(data_size(normal) == 20);
    CHECK_FALSE(max_simplex_deviation(normal).has_value());
}

TEST_CASE("families from keyword arrays: which family, which arrays, the data set equal to its constructor's") {
    const auto family = [](std::vector<ArrayInfo> given) { return family_of_arrays(given).name; };
    CHECK(family({{"probs", 2}, {"labels", 1}}) == "categorical");
    CHECK(family({{"probs", 1}, {"labels", 1}}) == "binary");
    CHECK(family({{"mean", 1}, {"std", 1}, {"y", 1}}) == "normal");
    CHECK(family({{"mean", 1}, {"scale", 1}, {"y", 1}}) == "laplace");
    CHECK(family({{"mean", 2}, {"std", 2}, {"y", 2}}) == "mvnormal-diag");
    CHECK(family({{"mean", 2}, {"cov", 3}, {"y", 2}}) == "mvnormal");
    CHECK(family({{"weights", 2}, {"means", 2}, {"stds", 2}, {"y", 1}}) == "mixture-normal");
    CHECK(family({{"mean", 1}}) == "normal");  // then check_arrays says what is missing
    CHECK_THROWS_WITH_AS(family({{"p", 2}}), doctest::Contains("no predictions given"), invalid_argument);
    const FamilyInfo& normal = find_family("normal");
    CHECK(array_names(normal) == "mean, std, y");
    CHECK_THROWS_WITH_AS(check_arrays(normal, {{"mean", 1}, {"y", 1}}), "missing std: family normal needs mean, std, y",
                         invalid_argument);
    CHECK_THROWS_WITH_AS(check_arrays(normal, {{"mean", 1}, {"std", 1}, {"y", 1}, {"labels", 1}}),
                         "labels does not apply to family normal, whose arrays are mean, std, y", invalid_argument);

    // Every family's data set from views of arrays is its constructor's, bitwise (the same memory).
    test::Rng rng(3);
    const Matrix p = synthetic::dirichlet_data(12, 3, 1.0, rng).probabilities();
    Matrix labels(12, 1);
    for (Eigen::Index i = 0; i < 12; ++i) labels(i, 0) = double(i % 3 + 1);  // 1-based
    ReadOptions one_based;
    one_based.one_based_labels = true;
    const AnyData c = find_family("categorical").from_arrays({{view_of(p), {}}, {view_of(labels), {}}}, nullptr, one_based);
    const auto& cd = std::get<CategoricalData>(c);
    CHECK(cd.probabilities() == p);
    CHECK(cd.labels()[0] == 0);
    labels(4, 0) = 7;
    CHECK_THROWS_WITH_AS(find_family("categorical").from_arrays({{view_of(p), {}}, {view_of(labels), {}}}, nullptr, one_based),
                         doctest::Contains("labels[4]: label = 7"), invalid_argument);
    const NormalData nd = test::normal_data(8, rng);
    const Matrix m = nd.mean(), s = nd.stddev(), y = nd.targets();
    const AnyData n2_data = normal.from_arrays({{view_of(m), {}}, {view_of(s), {}}, {view_of(y), {}}}, nullptr, {});
    const auto& n2 = std::get<NormalData>(n2_data);
    CHECK((n2.mean() == nd.mean() && n2.stddev() == nd.stddev() && n2.targets() == nd.targets()));
    ArrayInput covariances;
    covariances.matrices.assign(8, Matrix::Identity(2, 2));
    const Matrix mean2 = Matrix::Zero(8, 2), y2 = Matrix::Ones(8, 2);
    const AnyData mv_data = find_family("mvnormal").from_arrays({{view_of(mean2), {}}, covariances, {view_of(y2), {}}},
                                                                nullptr, {});
    const auto& mv = std::get<MvNormalData>(mv_data);
    CHECK((mv.dimension() == 2 && mv.size() == 8 && !mv.is_diagonal()));
    CHECK(describe_predictions(mv_data, find_family("mvnormal")) == "multivariate normal predictions of dimension 2");
    CHECK(describe_predictions(c, find_family("categorical")) == "3 classes (categorical)");
}

TEST_CASE("the PIT and the report's predictive checks of any family") {
    test::Rng rng(5);
    const NormalData nd = test::normal_data(50, rng);
    CHECK(pit(AnyData(nd)) == pit(nd));
    const PredictiveChecks checks = predictive_checks(AnyData(nd), 5, {0.5, 0.9});
    CHECK((checks.dimension == 0 && checks.pit.counts == pit_histogram(pit(nd), 5).counts &&
           checks.coverage.observed == interval_coverage(pit(nd), {0.5, 0.9}).observed));
    const AnyData classes = synthetic::dirichlet_data(20, 3, 1.0, rng);
    CHECK_THROWS_WITH_AS(pit(classes), doctest::Contains("not class predictions"), invalid_argument);
    CHECK_THROWS_AS(predictive_checks(classes, 5, {0.5}), invalid_argument);
}

TEST_CASE("messages name options in backquotes, written in each front-end's style") {
    const std::string m = "`block_size` = 3, must be <= `n` or `other_thing`";
    CHECK(render_message(m, NameStyle::command_line) == "--block-size = 3, must be <= --n or --other-thing");
    CHECK(render_message(m, NameStyle::command_line, {"block_size"}) ==
          "--block-size = 3, must be <= `n` or `other_thing`");
    CHECK(render_message(m, NameStyle::python) == m);
    CHECK(render_message("a `Cell with spaces` stays", NameStyle::command_line) == "a `Cell with spaces` stays");
    CHECK(describe_condition({"ckce_method", {"rff"}}) == "applies only with `ckce_method` rff");
    CHECK(describe_condition({"null_variance", {"false"}}) == "applies only without `null_variance`");
    CHECK(describe_condition({"median_subsample", {}}) == "applies only with `median_subsample`");
}

TEST_CASE("ce-* with --train: the fixed-hyperparameter mode through the registry, with its data sets") {
    test::Rng rng(12);
    const CategoricalData train = synthetic::dirichlet_data(60, 3, 0.5, rng), data = synthetic::dirichlet_data(40, 3, 0.5, rng),
                          validation = synthetic::dirichlet_data(30, 3, 0.5, rng);
    EstimatorSetup setup = make_estimator("ce-kkr");
    CHECK(setup.data_set_options().empty());
    CHECK_FALSE(setup.applies("ridge_constant"));
    setup.set("notion", "canonical");
    setup.set("train", "train.csv");
    setup.set("ridge_constant", "1e-3");
    CHECK(setup.data_set_options() == std::vector<std::string>{"train"});
    setup.set("validation", "validation.csv");
    CHECK(setup.data_set_options() == std::vector<std::string>{"train", "validation"});
    const AnyData any = data;
    CHECK_THROWS_WITH_AS(setup.run(any, nullptr, nullptr, {}, {{"train", train}}), "ce-kkr needs the data set of validation",
                         invalid_argument);
    const EstimateResult r = setup.run(any, nullptr, nullptr, {}, {{"train", train}, {"validation", validation}});
    SquaredCeOptions o;
    o.notion = CeNotion::canonical;
    const FixedCeResult reference = fixed_squared_ce(train, data, &validation, CeEstimator::kkr, 1e-3, o);
    CHECK(r.estimate == reference.estimate);
    CHECK(std::get<double>(find(r.details, "validation_risk")) == reference.validation_risk);
    CHECK(std::get<std::uint64_t>(find(r.details, "train_size")) == 60);
    // The cross-validation's own options do not go with --train; without --train the hyperparameter is refused.
    setup.set("folds", "3");
    CHECK_THROWS_WITH_AS(setup.check(), doctest::Contains("do not go with --train"), invalid_argument);
    EstimatorSetup plain = make_estimator("ce-bins");
    CHECK_THROWS_AS(plain.set("bins", "10"), invalid_argument);
    plain.check();  // the conditional required option does not apply
}

}  // TEST_SUITE

TEST_CASE("registry: the MMD's features and groups as tables in memory (Setup::set_table), in estimates and tests") {
    test::Rng rng(1401);
    const CategoricalData data = synthetic::dirichlet_data(70, 3, 0.8, rng);
    Matrix x(70, 2), g(70, 1);
    for (Eigen::Index i = 0; i < 70; ++i) {
        x.row(i) << data.probabilities()(i, 0) * 3, double(i % 5);
        g(i, 0) = double(i % 4) - 1;
    }
    EstimatorSetup e = make_estimator("mmd");
    e.set("notion", "individual");
    CHECK(e.takes_table("features"));
    CHECK(e.takes_table("groups"));
    CHECK(!e.takes_table("lengthscale"));
    e.set("features", "arrays");
    e.set_table("features", x);
    e.check();
    const EstimateResult r = e.run(data, nullptr, nullptr);
    MmdSpec spec;  // the reference: the library's call on the same features
    spec.notion = MmdNotion::individual;
    spec.features = x;
    spec.conditioning.lengthscale = mmd_median_lengthscales(data, spec)[0];
    CHECK(r.estimate == mmd_unbiased(data, spec).estimate);
    CHECK(to_text(find(e.record(70), "features")) == "arrays");
    // The tests take the MMD's options nested: the table reaches them too.
    TestSetup t = make_test("gamma");
    t.set("estimator", "mmd");
    t.set("notion", "group");
    t.set("groups", "arrays");
    t.set_table("groups", g);
    MmdSpec group;
    group.notion = MmdNotion::group;
    for (Eigen::Index i = 0; i < 70; ++i) group.groups.push_back(static_cast<int>(g(i, 0)));
    CHECK(t.run(data, nullptr, nullptr).p_value == mmd_gamma_test(data, group).p_value);
    // Rows against n, integral group ids, options that take no table or do not apply.
    e.set_table("features", Matrix(x.topRows(69)));
    CHECK_THROWS_WITH_AS(e.run(data, nullptr, nullptr), doctest::Contains("`features` has 69 rows, but the input has n = 70"),
                         invalid_argument);
    Matrix half = g;
    half(3, 0) = 0.5;
    t.set_table("groups", half);
    CHECK_THROWS_WITH_AS(t.run(data, nullptr, nullptr), doctest::Contains("`groups`[3] = 0.5, must be an integer"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(e.set_table("lengthscale", x), doctest::Contains("does not take a table"), invalid_argument);
    CHECK_THROWS_WITH_AS(e.set_table("groups", g), doctest::Contains("applies only with `notion` group"), invalid_argument);
}

TEST_CASE("registry: the tests of binary predictions class-wise (event class-wise); estimators refuse it") {
    test::Rng rng(1403);
    const CategoricalData data = synthetic::dirichlet_data(80, 4, 0.8, rng);
    TestSetup citl = make_test("citl");
    citl.set("event", "class-wise");
    const TestResult r = citl.run(data, nullptr, nullptr);
    const TestResult reference = class_wise_test(data, [](const CategoricalData& e) {
        return calibration_in_the_large_test(e);
    });
    CHECK(r.p_value == reference.p_value);
    CHECK(r.details_as<ClassWiseDetails>().p_values == reference.details_as<ClassWiseDetails>().p_values);
    CHECK(to_text(find(r.record(), "smallest_class")) == std::to_string(reference.details_as<ClassWiseDetails>().smallest));
    CHECK(test_in_words(r).settings.find("4 classes") == 0);
    TestSetup cox = make_test("cox");
    cox.set("event", "class-wise");
    CHECK(cox.run(data, nullptr, nullptr).details_as<ClassWiseDetails>().p_values.size() == 4);
    EstimatorSetup ici = make_estimator("ici");
    CHECK_THROWS_WITH_AS(ici.set("event", "class-wise"), doctest::Contains("auto, top-label or class:K"),
                         invalid_argument);
}

TEST_CASE("registry: Spiegelhalter's test with covariates from a table in memory and from a file") {
    test::Rng rng(1402);
    const CategoricalData data = synthetic::dirichlet_data(60, 2, 0.8, rng);
    Matrix x(60, 2);
    for (Eigen::Index i = 0; i < 60; ++i) x.row(i) << std::sin(double(i)), double(i % 3);
    TestSetup t = make_test("spiegelhalter");
    CHECK(t.takes_table("covariates"));
    t.set("covariates", "arrays");
    t.set_table("covariates", x);
    const TestResult in_memory = t.run(data, nullptr, nullptr);
    CHECK(in_memory.statistic == spiegelhalter_test(data, x).statistic);
    const std::string path =
        (std::filesystem::temp_directory_path() / ("calib_test_covariates_" + std::to_string(::getpid()) + ".csv"))
            .string();
    {
        std::ofstream out(path);
        out.precision(17);
        for (Eigen::Index i = 0; i < 60; ++i) out << x(i, 0) << "," << x(i, 1) << "\n";
    }
    TestSetup from_file = make_test("spiegelhalter");
    from_file.set("covariates", path);
    CHECK(from_file.run(data, nullptr, nullptr).statistic == in_memory.statistic);
    std::remove(path.c_str());
    CHECK(make_test("spiegelhalter").run(data, nullptr, nullptr).statistic == spiegelhalter_test(data).statistic);
    x(5, 0) = std::numeric_limits<double>::infinity();
    t.set_table("covariates", x);
    CHECK_THROWS_WITH_AS(t.run(data, nullptr, nullptr), doctest::Contains("`covariates`[5, 0] = inf, must be finite"),
                         invalid_argument);
}

TEST_CASE("reading options: each family's, the library's bounds, one message for another family's option") {
    const FamilyInfo& categorical = find_family("categorical");
    ReadingSetup arrays(categorical, false), files(categorical, true);
    const auto names = [](const Setup& s) {
        std::vector<std::string> out;
        for (const OptionInfo& o : s.options()) out.push_back(o.name);
        return out;
    };
    CHECK(names(arrays) == std::vector<std::string>{"one_based_labels", "logits", "simplex_tolerance", "renormalize"});
    CHECK(names(files) == std::vector<std::string>{"labels", "header", "delimiter", "one_based_labels", "logits",
                                                   "simplex_tolerance", "renormalize"});
    CHECK(names(ReadingSetup(find_family("mixture-normal"), false)) ==
          std::vector<std::string>{"simplex_tolerance", "renormalize"});
    CHECK(ReadingSetup(find_family("normal"), false).options().empty());
    CHECK(ReadingSetup(find_family("binary"), false).options().empty());

    // The defaults are ReadOptions' own; each value reaches its field.
    const ReadOptions defaults = files.read_options();
    CHECK((defaults.labels.empty() && !defaults.logits && !defaults.one_based_labels && !defaults.simplex.tolerance &&
           !defaults.simplex.renormalize && defaults.text.header == HeaderMode::automatic &&
           defaults.text.delimiter == Delimiter::automatic));
    files.set("labels", "y.csv");
    files.set("header", "no");
    files.set("delimiter", "tab");
    files.set("one_based_labels", true);
    files.set("simplex_tolerance", "0");  // [0, 1), the library's rule (resolve_simplex_tolerance)
    files.set("renormalize", true);
    const ReadOptions r = files.read_options();
    CHECK((r.labels == "y.csv" && r.text.header == HeaderMode::no && r.text.delimiter == Delimiter::tab &&
           r.one_based_labels && r.simplex.tolerance == 0.0 && r.simplex.renormalize));
    files.set("simplex_tolerance", "auto");
    CHECK(!files.read_options().simplex.tolerance);
    CHECK_THROWS_WITH_AS(arrays.set("simplex_tolerance", 1.0), "option `simplex_tolerance` = '1', must be in [0, 1)",
                         option_error);
    CHECK_THROWS_WITH_AS(arrays.set("simplex_tolerance", -1e-300), doctest::Contains("must be in [0, 1)"), option_error);

    // Logits are softmaxed onto the simplex: its options do not apply.
    arrays.set("logits", true);
    CHECK(!arrays.applies("renormalize"));
    CHECK(reading_option_message("renormalize", arrays) == "option `renormalize` applies only without `logits`");
    CHECK(reading_option_message("logits", arrays).empty());
    // Another family's option names the families that take it; a name that is no reading option, nothing.
    const ReadingSetup normal(find_family("normal"), false);
    CHECK(reading_option_message("logits", normal) == "option `logits` applies only to `family` categorical, not normal");
    CHECK(reading_option_message("simplex_tolerance", normal) ==
          "option `simplex_tolerance` applies only to `family` categorical or mixture-normal, not normal");
    CHECK(reading_option_message("block_size", normal).empty());

    // The union, with the families as the condition where not all take an option.
    const std::vector<OptionInfo> all = reading_options(true);
    REQUIRE(all.size() == 7);
    CHECK(all[0].name == "labels");
    CHECK(all[0].condition.option.empty());
    CHECK(all[4].name == "logits");
    CHECK(describe_condition(all[4].condition) == "applies only with `family` categorical");
    CHECK(describe_condition(all[5].condition) == "applies only with `family` categorical|mixture-normal");
}

TEST_CASE("command options: each command's, the library's bounds, the held-out split's limit") {
    const auto names = [](const Setup& s) {
        std::vector<std::string> out;
        for (const OptionInfo& o : s.options()) out.push_back(o.name);
        return out;
    };
    CHECK(names(CommandSetup("estimate")) == std::vector<std::string>{"threads", "format", "quiet"});
    // test's alpha is the test operation's own option (tests/test_operation.cpp).
    CHECK(names(CommandSetup("test")) == std::vector<std::string>{"threads", "format", "quiet"});
    CHECK(names(CommandSetup("report")) ==
          std::vector<std::string>{"threads", "format", "quiet", "output"});  // the rest is the operation's
    CHECK(names(CommandSetup("recalibrate fit")) == std::vector<std::string>{"threads", "out"});
    CHECK(names(CommandSetup("recalibrate apply")) == std::vector<std::string>{"output", "intervals"});  // the rest: the operation's
    CHECK_THROWS_WITH_AS(CommandSetup("plot"), doctest::Contains("unknown command 'plot'"), invalid_argument);

    // Defaults: json, html.
    CHECK(CommandSetup("estimate").values().format == "json");
    CHECK(CommandSetup("report").values().format == "html");

    CommandSetup test("test");
    CHECK_THROWS_WITH_AS(test.set("format", "html"), "option `format` = html, must be one of json or table", option_error);
    CHECK_THROWS_WITH_AS(test.set("threads", std::int64_t(-1)), doctest::Contains("must be an integer in [0, "),
                         option_error);
    CHECK_THROWS_AS(test.set("threads", std::to_string(max_num_threads() + 1)), option_error);
    test.set("threads", std::uint64_t(2));
    CHECK(test.values().threads == 2);

    CommandSetup command("recalibrate fit");
    CHECK_THROWS_WITH_AS(command.check(), "recalibrate fit needs the option `out` (FILE)", invalid_argument);

    // The held-out split (a recalibration option, so that Python has it too): a fraction in (0, 1), both
    // parts of at least 2 rows; the seed only with it.
    RecalibrationSetup fit(find_family("categorical"));
    fit.set("method", "temperature");
    CHECK(!fit.applies("seed"));
    CHECK(!fit.holdout());
    CHECK_NOTHROW(fit.validate(1));  // no split asked
    CHECK_THROWS_WITH_AS(fit.set("holdout", 1.0), "option `holdout` = '1', must be in (0, 1)", option_error);
    fit.set("holdout", 0.25);
    fit.set("seed", "7");
    CHECK((fit.seed() == 7 && *fit.holdout() == 0.25));
    CHECK_NOTHROW(fit.validate(8));  // 2 held out, 6 fitted
    CHECK_THROWS_WITH_AS(fit.validate(7), "`holdout` 0.25 leaves 1 of 7 rows held out; both parts need at least 2",
                         invalid_argument);
    fit.set("holdout", 0.9);
    CHECK_NOTHROW(fit.validate(20));  // 18 held out, 2 fitted
    CHECK_THROWS_WITH_AS(fit.validate(10), doctest::Contains("leaves 9 of 10 rows held out"), invalid_argument);
}

TEST_CASE("diagram options: the bounds of reliability.hpp's functions, the nominal levels as a list") {
    DiagramSetup reliability("reliability");
    const ReliabilityOptions defaults;
    CHECK((reliability.values().reliability.bins == defaults.bins && reliability.values().reliability.level == defaults.level &&
           reliability.values().reliability.binning == defaults.binning && !reliability.values().k));
    reliability.set("k", "3");
    reliability.set("binning", "equal-mass");
    reliability.set("smooth_points", "60");
    CHECK((*reliability.values().k == 3 && reliability.values().reliability.binning == ReliabilityBinning::equal_mass &&
           reliability.values().reliability.smooth_points == 60));
    CHECK_THROWS_WITH_AS(reliability.set("smooth_points", "100001"), doctest::Contains("in [0, 100000]"), option_error);
    CHECK_THROWS_WITH_AS(reliability.set("level", 1.0), "option `level` = '1', must be in (0, 1)", option_error);
    CHECK_THROWS_WITH_AS(DiagramSetup("pit").set("bins", "100001"), doctest::Contains("in [1, 100000]"),
                         option_error);
    DiagramSetup coverage("coverage");
    CHECK(coverage.values().nominal.size() == 10);
    coverage.set("nominal", "0.5,0.9,0.99");
    CHECK(coverage.values().nominal == std::vector<double>{0.5, 0.9, 0.99});
    CHECK_THROWS_WITH_AS(coverage.set("nominal", "0.5,1"), doctest::Contains("a comma-separated list of levels in (0, 1)"),
                         option_error);
    CHECK_THROWS_AS(coverage.set("bins", "3"), invalid_argument);  // not an option of the coverage
    CHECK_THROWS_WITH_AS(DiagramSetup("calibration_plot"), doctest::Contains("unknown diagram"), invalid_argument);
}

TEST_CASE("option_groups: the options of metrics and recalibrate fit by family, each listed once") {
    const auto names = [](const std::vector<OptionInfo>& options) {
        std::vector<std::string> out;
        for (const OptionInfo& o : options) out.push_back(o.name);
        return out;
    };
    const std::vector<OptionGroup> metrics = option_groups("metrics");
    REQUIRE(metrics.size() == 2);
    CHECK(metrics[0].families == std::vector<std::string>{"categorical", "binary"});
    CHECK(metrics[1].families == std::vector<std::string>{"normal", "laplace", "mixture-normal"});
    CHECK(names(metrics[0].options) == names(MetricsSetup(find_family("binary")).options()));
    // bins and features are the same option for both: listed once, in the first group.
    CHECK(names(metrics[1].options) == std::vector<std::string>{"qce_binning", "threshold", "lce_lengthscale"});
    const std::vector<OptionGroup> fit = option_groups("recalibrate fit");
    REQUIRE(fit.size() == 2);
    CHECK(fit[0].families == std::vector<std::string>{"categorical"});
    CHECK(fit[1].families == std::vector<std::string>{"normal"});
    CHECK(names(fit[0].options) == names(RecalibrationSetup(find_family("categorical")).options()));
    // Every option of the normal maps is in one of the groups, and the second holds none of the first's.
    const RecalibrationSetup normal(find_family("normal"));
    for (const OptionInfo& o : normal.options()) {
        const auto in = [&](const OptionGroup& g) {
            return std::any_of(g.options.begin(), g.options.end(), [&](const OptionInfo& e) { return e.name == o.name; });
        };
        CHECK_MESSAGE((in(fit[0]) || in(fit[1])), o.name);
    }
    for (const OptionInfo& o : fit[1].options)
        for (const OptionInfo& e : fit[0].options)
            CHECK_MESSAGE(!(e.name == o.name && e.help == o.help && e.metavar == o.metavar), o.name);
    CHECK_THROWS_WITH_AS(option_groups("estimate"), doctest::Contains("must be metrics or recalibrate fit"), invalid_argument);
}

TEST_CASE("run_method: validate, the kernel on the data, the method and its records, as each front-end ran them") {
    test::Rng rng(11);
    const AnyData data = synthetic::dirichlet_data(60, 3, 1.0, rng);
    const KernelSetup kernel_setup(find_family("categorical"));
    TestSetup block = make_test("block");
    block.set("block_size", "sqrt");
    const MethodRun<TestResult> done = run_method(block, &kernel_setup, data, nullptr);
    const Kernel kernel = kernel_setup.resolve(data);
    const TestResult direct = block.run(data, &kernel, nullptr);
    CHECK((done.result.p_value == direct.p_value && done.result.statistic == direct.statistic));
    CHECK(to_json(done.kernel_record) == to_json(kernel_setup.record(kernel)));
    CHECK(to_json(done.options) == to_json(block.record(60)));
    CHECK(done.compute_seconds >= 0);
    EstimatorSetup ece_setup = make_estimator("ece");
    const MethodRun<EstimateResult> e = run_method(ece_setup, nullptr, data, nullptr, {});
    EceOptions top_label;
    top_label.mode = EceMode::top_label;
    CHECK((e.result.estimate == ece(std::get<CategoricalData>(data), top_label) && !e.kernel && e.kernel_record.empty()));
    // The limits on n come first: nothing is computed for data the options do not fit.
    block.set("block_size", "61");
    CHECK_THROWS_WITH_AS(run_method(block, &kernel_setup, data, nullptr), doctest::Contains("block_size"),
                         invalid_argument);
}

using test::MapOptions;

TEST_CASE("configure: the method's options, the kernel's, a preset's where none was given, the rest refused") {
    const FamilyInfo& categorical = find_family("categorical");
    MapOptions given({{"lengthscale", Value(0.5)}, {"block_size", Value("sqrt")}});
    const ConfiguredMethod<TestSetup> block = configure(make_test("block"), categorical, nullptr, given);
    CHECK(given.left().empty());
    CHECK(to_text(block.method.get("block_size")) == "sqrt");
    REQUIRE(block.kernel_setup() != nullptr);
    CHECK(to_text(block.kernel->get("lengthscale")) == "0.5");
    CHECK(block.preset == nullptr);
    // No kernel for a method without the SKCE's; the preset's conventions where no value was given.
    MapOptions none({});
    const Preset& neurips = find_preset("neurips2019");
    const ConfiguredMethod<EstimatorSetup> ece_setup = configure(make_estimator("ece"), categorical, &neurips, none);
    CHECK((ece_setup.kernel_setup() == nullptr && ece_setup.preset == &neurips));
    MapOptions divisor_given({{"variance_divisor", Value("s-1")}});
    const ConfiguredMethod<TestSetup> with_preset = configure(make_test("block"), categorical, &neurips, divisor_given);
    CHECK(to_text(with_preset.method.get("variance_divisor")) == "s-1");  // a given value wins
    MapOptions divisor_not_given({});
    CHECK(to_text(configure(make_test("block"), categorical, &neurips, divisor_not_given).method.get("variance_divisor")) ==
          "s");
    // What is left: an option whose condition does not hold, an option no setup has (unknown_option_error,
    // Python's TypeError); a missing required option; class predictions only; the preset's family.
    MapOptions conditional({{"null_variance", Value(true)}, {"variance_divisor", Value("s")}});
    CHECK_THROWS_WITH_AS(configure(make_test("block"), categorical, nullptr, conditional),
                         "option `variance_divisor` applies only without `null_variance` (`method` block `estimator` skce)",
                         invalid_argument);
    MapOptions unknown({{"blocksize", Value("sqrt")}});
    CHECK_THROWS_AS(configure(make_test("block"), categorical, nullptr, unknown), unknown_option_error);
    MapOptions missing({});
    CHECK_THROWS_WITH_AS(configure(make_test("consistency"), categorical, nullptr, missing),
                         doctest::Contains("missing option `estimator`"), invalid_argument);
    MapOptions empty({});
    CHECK_THROWS_WITH_AS(configure(make_estimator("ece"), find_family("normal"), nullptr, empty),
                         "`estimator` ece applies only to `family` categorical or binary, not normal", invalid_argument);
    CHECK_THROWS_WITH_AS(configure(make_test("spiegelhalter"), find_family("laplace"), nullptr, empty),
                         "`method` spiegelhalter applies only to binary predictions (`family` binary, or categorical "
                         "with two classes or an `event`), not laplace",
                         invalid_argument);
    CHECK_THROWS_AS(configure(make_test("block"), find_family("normal"), &neurips, empty), invalid_argument);
}

TEST_CASE("check_classes and check_features: the rules of class predictions and of a fit's features") {
    CHECK_NOTHROW(check_classes("calib rank", find_family("binary")));
    CHECK_THROWS_WITH_AS(check_classes("`estimator` ece", find_family("laplace")),
                         "`estimator` ece applies only to `family` categorical or binary, not laplace", invalid_argument);

    RecalibrationSetup fit(find_family("normal"));
    fit.set("method", "affine-features");
    CHECK_NOTHROW(fit.check_features(Matrix::Zero(5, 1), 5));
    CHECK_THROWS_WITH_AS(fit.check_features(Matrix::Zero(5, 2), 5),
                         "`features` is 5 x 2, must be n = 5 x 1 (one value x per observation)", invalid_argument);
    CHECK_THROWS_WITH_AS(fit.check_features(Matrix::Zero(4, 1), 5), doctest::Contains("must be n = 5 x 1"),
                         invalid_argument);
}

TEST_CASE("a recalibration run: the library's fit on every row, or on the rows not held out and judged on the rest") {
    test::Rng rng(31);
    RecalibrationData data;
    data.data = synthetic::tempered_logits(120, 3, 2.0, 1.5, rng);
    RecalibrationSetup setup(find_family("categorical"));
    setup.set("method", "temperature");
    // Without holdout: fit_recalibration itself, bitwise, and no judgement.
    const RecalibrationRun all = setup.run(data);
    CHECK(all.holdout.empty());
    CHECK(to_json(all.fit) == to_json(fit_recalibration(std::get<CategoricalScores>(data.data),
                                                        RecalibrationMethod::temperature, setup.fit_options())));
    // The options as used: those that apply, given or with their default, in the registry's order.
    std::vector<std::string> used;
    for (const Field& f : all.options) used.push_back(f.name);
    CHECK(used == std::vector<std::string>{"method", "objective", "probability_floor", "max_iterations",
                                           "gradient_tolerance"});
    CHECK(to_text(find(all.options, "method")) == "temperature");
    CHECK(to_double(find(all.options, "max_iterations")) == 1000);
    CHECK(to_double(find(all.options, "gradient_tolerance")) == 1e-8);
    // With holdout: floor(0.25 n) rows held out, the map fitted on the others (rows() of the same split
    // gives the same map), the judgement's fields in order; the same seed the same run.
    setup.set("holdout", 0.25);
    setup.set("seed", "9");
    const RecalibrationRun held = setup.run(data);
    std::vector<std::string> fields;
    for (const Field& f : held.holdout) fields.push_back(f.name);
    CHECK(fields == std::vector<std::string>{"fraction", "seed", "n_fit", "n_held_out", "nll_before", "nll_after",
                                             "skce_bootstrap_p_value_before", "skce_bootstrap_p_value_after",
                                             "mmd_notion", "mmd_lengthscale", "mmd_before", "mmd_after"});
    CHECK(to_double(find(held.holdout, "n_held_out")) == 30);
    CHECK(to_double(find(held.holdout, "n_fit")) == 90);
    CHECK(to_double(find(held.options, "holdout")) == 0.25);
    CHECK(to_double(find(held.options, "seed")) == 9);
    CHECK(to_json(held.fit) != to_json(all.fit));
    CHECK(to_json(setup.run(data).fit) == to_json(held.fit));
    CHECK(to_json(setup.run(data).holdout) == to_json(held.holdout));
    // The rows of a data set keep their features; features of another n are refused.
    RecalibrationData normal;
    normal.data = NormalData(Vector::LinSpaced(6, 0, 5), Vector::Ones(6), Vector::Zero(6));
    normal.features = Vector::LinSpaced(6, 10, 15);
    const RecalibrationData picked = normal.rows({5, 0, 5});
    CHECK(picked.size() == 3);
    CHECK((picked.features(0, 0) == 15 && picked.features(1, 0) == 10 && picked.features(2, 0) == 15));
    CHECK(std::get<NormalData>(picked.data).mean()(0) == 5);
    normal.features = Matrix::Zero(4, 1);
    CHECK_THROWS_WITH_AS(normal.rows({0}), "`features` has 4 rows, the data 6", invalid_argument);
    RecalibrationSetup affine(find_family("normal"));
    affine.set("method", "affine-features");
    CHECK_THROWS_WITH_AS(affine.run(normal), doctest::Contains("must be n = 6 x 1"), invalid_argument);
    // A split that leaves one row on a side is refused before the fit.
    setup.set("holdout", 0.01);
    CHECK_THROWS_WITH_AS(setup.run(data), "`holdout` 0.01 leaves 1 of 120 rows held out; both parts need at least 2",
                         invalid_argument);
}

TEST_CASE("presets: the conventions where no value was given, a row equal to its columns' library calls") {
    CHECK_THROWS_WITH_AS(find_preset("nips"), "unknown preset 'nips', expected one of neurips2019", invalid_argument);
    const Preset& p = find_preset("neurips2019");
    TestSetup block = make_test("block");
    CHECK(apply_preset(p, block) == std::vector<std::string>{"variance_divisor"});
    CHECK(to_text(block.get("variance_divisor")) == "s");
    TestSetup given = make_test("block");
    given.set("variance_divisor", "s-1");
    CHECK(apply_preset(p, given).empty());  // a given value wins
    TestSetup null_variance = make_test("block");
    null_variance.set("null_variance", "true");
    CHECK(apply_preset(p, null_variance).empty());  // the divisor does not apply
    EstimatorSetup ece_setup = make_estimator("ece");
    // The 2019 table's ECE is the canonical one; its bins are calib's defaults.
    CHECK(apply_preset(p, ece_setup) == std::vector<std::string>{"mode"});
    CHECK(to_text(ece_setup.get("mode")) == "canonical");
    // debiased-l2's `mode` (marginal|top-label) refuses the convention's value: not the convention's.
    EstimatorSetup l2 = make_estimator("debiased-l2");
    CHECK(apply_preset(p, l2).empty());
    CHECK(to_text(l2.get("mode")) == "marginal");
    // Its median-variance bins hold at least 100 predictions: refused below, before any column runs.
    ece_setup.set("binning", "median-variance:100");
    CHECK_THROWS_WITH_AS(ece_setup.validate(99), doctest::Contains("makes bins of at least 100 observations, but n = 99"),
                         invalid_argument);
    CHECK_NOTHROW(ece_setup.validate(100));
    {
        test::Rng small_rng(3);
        CHECK_THROWS_WITH_AS(run_preset(p, synthetic::dirichlet_data(60, 3, 0.5, small_rng)),
                             doctest::Contains("median-variance:100"), invalid_argument);
    }

    // The row against the library's functions with the 2019 conventions written out here.
    test::Rng rng(9);
    const CategoricalData data = synthetic::dirichlet_data(300, 4, 0.5, rng);
    CHECK_THROWS_AS(run_preset(p, AnyData(NormalData(Vector::Zero(3), Vector::Ones(3), Vector::Zero(3)))),
                    invalid_argument);
    const Timed<Record> timed = run_preset(p, data);
    CHECK(timed.compute_seconds > 0);
    const Record& row = timed.result;
    const Record& errors = std::get<Record>(find(row, "errors"));
    const Record& pvalues = std::get<Record>(find(row, "pvalues"));
    REQUIRE(errors.size() + pvalues.size() == p.columns.size());
    Kernel kernel = default_kernel(data);
    MedianOptions full;
    full.variant = MedianVariant::full;
    kernel.prediction.lengthscale = median_distance(data, Metric::tv, full);
    CHECK(to_double(find(row, "lengthscale")) == kernel.prediction.lengthscale);
    EceOptions dynamic;
    dynamic.binning = BinningScheme::median_variance;
    dynamic.minsize = 100;
    CHECK(to_double(find(errors, "ECE_uniform")) == ece(data));
    CHECK(to_double(find(errors, "ECE_dynamic")) == ece(data, dynamic));
    CHECK(to_double(find(errors, "SKCEb_median")) == skce_biased(data, kernel));
    CHECK(to_double(find(errors, "SKCEuq_median")) == skce_unbiased(data, kernel));
    CHECK(to_double(find(errors, "SKCEul_median")) == skce_block(data, kernel, 2).estimate);
    BlockTestOptions linear;
    linear.divisor = VarianceDivisor::s;
    CHECK(to_double(find(pvalues, "SKCEul_median_asymptotic")) == block_test(data, kernel, linear).p_value);
    CHECK(to_double(find(pvalues, "SKCEuq_median_distribution_free")) == dfree_unbiased_test(data, kernel).p_value);
    CHECK(to_double(find(pvalues, "SKCEul_median_distribution_free")) == dfree_block_test(data, kernel, 2).p_value);
    CHECK(to_double(find(pvalues, "ECE_dynamic")) ==
          consistency_test(data, [&](const CategoricalData& d) { return ece(d, dynamic); }, "ece").p_value);
}

TEST_CASE("low_power_note: the block test below sqrt(n), the distribution-free bounds, cme at few locations") {
    test::Rng rng(4);
    const CategoricalData data = synthetic::dirichlet_data(400, 3, 0.7, rng);
    const Kernel kernel = default_kernel(data);
    const auto block = [&](std::size_t b) {
        BlockTestOptions o;
        o.block_size = b;
        return low_power_note(block_test(data, kernel, o));
    };
    CHECK(block(2) ==
          "the block test with B = 2 uses 200 of the 79800 pairs of the n = 400 observations and has little power; "
          "`block_size` sqrt (B = 20) has more, `method` bootstrap has the most power (O(n^2) per replicate)");
    CHECK(block(19) != "");
    CHECK(block(20) == "");  // floor(sqrt(400))
    CHECK(low_power_note(dfree_biased_test(data, kernel)).find("conservative") != std::string::npos);
    CHECK(low_power_note(dfree_block_test(data, kernel, 20)).find("conservative") != std::string::npos);
    CHECK(low_power_note(gamma_test(data, kernel)) == "");
    CHECK(low_power_note(cme_test(data, 3, 1, kernel)).find("J = 3 test locations") != std::string::npos);
    const CategoricalData large = synthetic::dirichlet_data(1500, 3, 0.7, rng);  // J = 10 needs n >= 1429 + J
    CHECK(low_power_note(cme_test(large, 10, 1, kernel)) == "");
}

TEST_CASE("methods of binary predictions: the binary event of class predictions, chosen or refused") {
    test::Rng rng(12);
    const CategoricalData data = synthetic::dirichlet_data(200, 4, 0.7, rng);
    const AnyData any = data;
    for (const MethodInfo& m : test_methods()) {
        if (!m.binary_only) continue;
        CAPTURE(m.name);
        TestSetup setup = make_test(m.name);
        CHECK_THROWS_WITH_AS(setup.run(any, nullptr, nullptr), doctest::Contains("choose the binary event"),
                             invalid_argument);
        setup.set("event", "top-label");
        const TestResult top = setup.run(any, nullptr, nullptr);
        TestSetup reference = make_test(m.name);
        const TestResult direct = reference.run(AnyData(data.top_label_event()), nullptr, nullptr);
        CHECK(to_json(top.record()) == to_json(direct.record()));
        setup.set("event", "class:2");
        CHECK(setup.run(any, nullptr, nullptr).statistic ==
              reference.run(AnyData(data.class_event(2)), nullptr, nullptr).statistic);
        CHECK(to_text(find(setup.record(200), "event")) == "class:2");
        CHECK_THROWS_AS(setup.set("event", "class:x"), invalid_argument);
        CHECK_THROWS_AS(setup.set("event", "top"), invalid_argument);
    }
    EstimatorSetup ici = make_estimator("ici");
    ici.set("event", "top-label");
    CHECK(ici.run(any, nullptr, nullptr).estimate == flexible_calibration(data.top_label_event()).ici);
}

TEST_CASE("test_in_words: every test's settings and statistic in words") {
    test::Rng rng(6);
    const CategoricalData data = synthetic::dirichlet_data(400, 3, 0.7, rng);
    const AnyData any = data;
    const Kernel kernel = default_kernel(data);
    const AnyData binary = synthetic::dirichlet_data(400, 2, 0.7, rng);
    for (const MethodInfo& m : test_methods()) {
        CAPTURE(m.name);
        TestSetup setup = make_test(m.name);
        if (m.name == "consistency") setup.set("estimator", "ece");
        if (m.name == "cme") setup.set("locations", "3");
        if (setup.option("replicates")) setup.set("replicates", "50");
        if (m.name == "block") setup.set("block_size", "sqrt");
        const TestInWords words = test_in_words(setup.run(m.binary_only ? binary : any, &kernel, nullptr));
        CHECK(!words.settings.empty());
        CHECK(!words.statistic.empty());
        CHECK(words.settings.find('_') == std::string::npos);  // no internal option names
        if (m.name == "block") CHECK(words.settings == "20 blocks of B = 20 observations (B = floor(sqrt(n)))");
        if (m.name == "bootstrap") CHECK(words.settings == "50 bootstrap replicates, seed 1234");
        if (m.name == "bootstrap") CHECK(words.statistic.find("usually negative") != std::string::npos);
        if (m.name == "hosmer-lemeshow")
            CHECK(words.settings.find("10 groups by rank, chi-squared with 10 degrees of freedom (validation data)") == 0);
    }
}

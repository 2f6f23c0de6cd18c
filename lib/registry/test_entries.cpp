// The registered calibration tests (registry.hpp): one entry each, with its options, its validation
// against n and its library call. What a result says in words is test_words.cpp.
#include "core/check.hpp"
#include "registry/common_options.hpp"
#include "registry/mmd_options.hpp"
#include "registry/models.hpp"

#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>
#include <calib/mmd.hpp>

#include <algorithm>
#include <cstdio>

namespace calib::detail {

namespace {

// Calls test(d, kernel, options) for the data set's family.
template <class F>
TestResult on_data(const AnyData& data, F&& test) {
    return std::visit(std::forward<F>(test), data);
}

OptionInfo required(OptionInfo i) {
    i.required = true;
    return i;
}

// ---- the statistic of a quadratic or block test: the SKCE (with the kernel options) or the MMD ---------------

template <class O>
struct Estimated {
    O options;
    std::string estimator = "skce";
    MmdChoice mmd;
};

template <class O>
OptionList<Estimated<O>> with_estimator(const OptionList<O>& own) {
    OptionList<Estimated<O>> list = nested(&Estimated<O>::options, own);
    list.push_back(custom_option<Estimated<O>>(
        info("estimator", "skce|mmd", "skce",
             "the statistic tested: the SKCE (with the kernel options) or the conditional MMD of a notion of "
             "calibration (with the options of the estimator mmd)"),
        [](Estimated<O>& e, const Value& v) {
            const std::string name = text_value(v);
            if (name != "skce" && name != "mmd") throw option_error("estimator", "'" + name + "'", "one of skce or mmd");
            e.estimator = name;
        },
        [](const Estimated<O>& e) { return Value(e.estimator); },
        // Recorded only for the MMD: the SKCE's outputs stay as they were (their estimator field names it).
        [](Record& r, const Estimated<O>& e, std::size_t) {
            if (e.estimator == "mmd") r.push_back({"estimator", e.estimator});
        }));
    return list + nested(&Estimated<O>::mmd, mmd_options({"estimator", {"mmd"}}));
}

template <class O>
KernelUse estimated_kernel_use(const Estimated<O>& e) {
    return e.estimator == "mmd" ? KernelUse::own : KernelUse::skce;
}

// test(d, spec) on the MMD spec resolved on the data; the result records the notion and kernel used.
template <class F>
TestResult on_mmd(const AnyData& data, const MmdChoice& choice, const ParallelOptions& parallel, F&& test) {
    Record used;
    TestResult result = with_mmd(data, choice, parallel, used, std::forward<F>(test));
    result.estimator_details = std::move(used);
    return result;
}

// ---- the options of each test ---------------------------------------------------------------------------

OptionList<BlockTestOptions> block_options() {
    return {
        block_size_option(&BlockTestOptions::block_size, "; at least 2 blocks (B <= n/2)"),
        flag_option(&BlockTestOptions::null_variance,
                    info("null_variance", "", "false", "the standard error from the within-block mean of h^2")),
        enum_option(&BlockTestOptions::divisor,
                    info("variance_divisor", "s-1|s", "s-1", "the divisor of the block estimates' variance",
                         {"null_variance", {"false"}}),
                    named<VarianceDivisor>({VarianceDivisor::s_minus_1, VarianceDivisor::s})),
    };
}

// The bootstrap's memory budget: auto (half of the available memory) or bytes with K, M or G.
OptionList<BootstrapOptions> bootstrap_options() {
    OptionList<BootstrapOptions> list = resampling_options(&BootstrapOptions::replicates, &BootstrapOptions::seed,
                                                           &BootstrapOptions::rule);
    list.push_back(custom_option<BootstrapOptions>(
        info("memory_budget", "auto|BYTES", "auto",
             "a bound on the test's whole working memory, with the suffix K, M or G allowed (auto: half of the "
             "available memory); it needs at least 16n*257 bytes, and the n x n matrix (8n^2 bytes) is cached when "
             "it fits too"),
        [](BootstrapOptions& o, const Value& v) {
            const std::string text = text_value(v);
            if (text == "auto") {
                o.memory_budget.reset();
                return;
            }
            const char last = text.empty() ? '\0' : text.back();
            const std::uint64_t unit = last == 'K' ? 1ull << 10 : last == 'M' ? 1ull << 20 : last == 'G' ? 1ull << 30 : 1;
            const std::string rule = "auto or a number of bytes, optionally with the suffix K, M or G";
            std::uint64_t count = 0;
            try {
                count = unsigned_value("memory_budget", unit == 1 ? v : Value(text.substr(0, text.size() - 1)), 0,
                                       SIZE_MAX / unit);
            } catch (const option_error&) {
                throw option_error("memory_budget", "'" + text + "'", rule);
            }
            o.memory_budget = static_cast<std::size_t>(count * unit);
        },
        [](const BootstrapOptions& o) {
            return o.memory_budget ? Value(std::uint64_t(*o.memory_budget)) : Value(std::string("auto"));
        },
        [](Record& r, const BootstrapOptions& o, std::size_t) {
            r.push_back({"memory_budget_rule", o.memory_budget ? "given" : "auto"});
        }));
    return list;
}

struct DfreeBlock {
    BlockSize block_size;
    DistributionFreeOptions options;
};

// The consistency test resamples one of the estimators of class predictions.
struct Consistency {
    ConsistencyOptions options;
    std::string estimator;
    EceOptions ece = default_ece_options();
    BlockSize block_size;
};
const std::vector<std::string> consistency_estimators = {"ece", "skce-unbiased", "skce-biased", "skce-block"};

OptionList<Consistency> consistency_options() {
    OptionList<Consistency> list = {custom_option<Consistency>(
        required(info("estimator", "ece|skce-unbiased|skce-biased|skce-block", "",
                      "the estimator to resample: ece (with its binning, distance and mode) or an SKCE")),
        [](Consistency& c, const Value& v) {
            const std::string name = text_value(v);
            if (std::find(consistency_estimators.begin(), consistency_estimators.end(), name) ==
                consistency_estimators.end())
                throw option_error("estimator", "'" + name + "'", "one of " + one_of(consistency_estimators));
            c.estimator = name;
        },
        [](const Consistency& c) { return Value(c.estimator); })};
    for (Option<Consistency> o : nested(&Consistency::ece, ece_options())) {
        o.info.condition = {"estimator", {"ece"}};
        list.push_back(std::move(o));
    }
    list.push_back(block_size_option(&Consistency::block_size, " (of skce-block)", {"estimator", {"skce-block"}}));
    return list + nested(&Consistency::options,
                         resampling_options(&ConsistencyOptions::replicates, &ConsistencyOptions::seed,
                                            &ConsistencyOptions::rule));
}

// The estimator of a consistency test, run serially inside the parallel replicates.
CategoricalEstimator consistency_estimator(const Consistency& c, const Kernel* kernel, std::size_t n) {
    const ParallelOptions serial{1};
    if (c.estimator == "ece") return [ece = c.ece](const CategoricalData& d) { return calib::ece(d, ece); };
    const Kernel k = *kernel;
    if (c.estimator == "skce-biased") return [k, serial](const CategoricalData& d) { return skce_biased(d, k, serial); };
    if (c.estimator == "skce-unbiased")
        return [k, serial](const CategoricalData& d) { return skce_unbiased(d, k, serial); };
    const std::size_t b = c.block_size.resolve(n);  // resamples have n observations too
    return [k, serial, b](const CategoricalData& d) { return skce_block(d, k, b, serial).estimate; };
}

// The CME test at locations from a file, or at J locations drawn from the data.
struct Cme {
    CmeOptions options;
    std::string test_locations;  // the name of the locations given (a file)
    std::size_t locations = 0;   // J drawn from the data (and removed from the sample)
    std::uint64_t seed = default_seed;
};

OptionList<Cme> cme_options() {
    OptionList<Cme> list = {
        custom_option<Cme>(info("test_locations", "FILE", "", "test locations in the format of the input"),
                           [](Cme& c, const Value& v) { c.test_locations = text_value(v); },
                           [](const Cme& c) { return Value(c.test_locations); }),
        integer_option(&Cme::locations,
                       info("locations", "J", "",
                            "J >= 1 locations drawn from the data and removed from the sample (needs n > 2J)"),
                       1),
        integer_option(&Cme::seed,
                       info("seed", "S", std::to_string(default_seed), "the seed of the draw of the locations",
                            {"locations", {}}),
                       0),
    };
    return list + nested(&Cme::options,
                         OptionList<CmeOptions>{
                             enum_option(&CmeOptions::reference,
                                         info("reference", "f|chi2", "f",
                                              "the null of Hotelling's statistic: F(J, n-J) (never more liberal) or "
                                              "the paper's chi2_J"),
                                         named<CmeReference>({CmeReference::f, CmeReference::chi2})),
                             real_option(&CmeOptions::ridge,
                                         info("ridge", "EPS", "0", "added to the covariance's diagonal"),
                                         [](double x) { return x >= 0; }, ">= 0"),
                         });
}

// ---- the registry of tests ---------------------------------------------------------------------------

std::vector<Registered<MethodModel<TestResult>>> make_tests() {
    std::vector<Registered<MethodModel<TestResult>>> all;

    using BlockRun = Estimated<BlockTestOptions>;
    all.push_back(test_entry<BlockRun>(
        linear_method("block", "z-test of the block SKCE (or MMD), O(nB): the fastest, asymptotically valid",
               "block test: z-test of the SKCE over blocks (normal null)"),
        with_estimator(block_options()), {},
        {estimated_kernel_use<BlockTestOptions>, nullptr,
         [](const BlockRun& o, std::size_t n, std::size_t) { validate(o.options, n); },
         [](const AnyData& data, const Kernel* k, const AnyData*, const BlockRun& o, const ParallelOptions& p) {
             BlockTestOptions run = o.options;
             run.parallel = p;
             if (o.estimator == "mmd")
                 return on_mmd(data, o.mmd, p, [&](const auto& d, const auto& s) { return mmd_block_test(d, s, run); });
             return on_data(data, [&](const auto& d) { return block_test(d, *k, run); });
         }}));

    using BootstrapRun = Estimated<BootstrapOptions>;
    all.push_back(test_entry<BootstrapRun>(
        method("bootstrap", "quadratic SKCE (or MMD) with a bootstrap null, O(n^2 R): the most powerful, the reference",
               "quadratic test with a bootstrap null"),
        with_estimator(bootstrap_options()), {},
        {estimated_kernel_use<BootstrapOptions>, nullptr,
         [](const BootstrapRun& o, std::size_t n, std::size_t) { validate(o.options, n); },
         [](const AnyData& data, const Kernel* k, const AnyData*, const BootstrapRun& o, const ParallelOptions& p) {
             BootstrapOptions run = o.options;
             run.parallel = p;
             if (o.estimator == "mmd")
                 return on_mmd(data, o.mmd, p,
                               [&](const auto& d, const auto& s) { return mmd_bootstrap_test(d, s, run); });
             return on_data(data, [&](const auto& d) { return bootstrap_test(d, *k, run); });
         }}));

    struct NoOptions {};
    using GammaRun = Estimated<NoOptions>;
    all.push_back(test_entry<GammaRun>(
        method("gamma", "quadratic SKCE (or MMD) with a moment-matched Gamma null, one O(n^2) pass: a heuristic",
               "quadratic test with a moment-matched Gamma null"),
        with_estimator(OptionList<NoOptions>{}), {},
        {estimated_kernel_use<NoOptions>, nullptr,
         [](const GammaRun&, std::size_t n, std::size_t) {
             detail::check_min_size("gamma_test", n, 2);
         },
         [](const AnyData& data, const Kernel* k, const AnyData*, const GammaRun& o, const ParallelOptions& p) {
             if (o.estimator == "mmd")
                 return on_mmd(data, o.mmd, p, [&](const auto& d, const auto& s) { return mmd_gamma_test(d, s, p); });
             return on_data(data, [&](const auto& d) { return gamma_test(d, *k, p); });
         }}));

    all.push_back(test_entry<SpectralOptions>(
        method("spectral", "quadratic SKCE with the Gram spectrum null, O(n^3), n <= 4000",
               "quadratic test with the Gram-spectrum null"),
        resampling_options(&SpectralOptions::replicates, &SpectralOptions::seed, &SpectralOptions::rule), {},
        {nullptr, nullptr, [](const SpectralOptions& o, std::size_t n, std::size_t) { validate(o, n); },
         [](const AnyData& data, const Kernel* k, const AnyData*, const SpectralOptions& o, const ParallelOptions& p) {
             SpectralOptions run = o;
             run.parallel = p;
             return on_data(data, [&](const auto& d) { return spectral_test(d, *k, run); });
         }}));

    all.push_back(test_entry<DistributionFreeOptions>(
        method("dfree-biased", "distribution-free bound on the biased SKCE (McDiarmid): valid at every n, conservative",
               "distribution-free test of the biased SKCE (McDiarmid bound; conservative)"),
        {}, {},
        {nullptr, nullptr, nullptr,
         [](const AnyData& data, const Kernel* k, const AnyData*, const DistributionFreeOptions& o,
            const ParallelOptions& p) {
             DistributionFreeOptions run = o;
             run.parallel = p;
             return on_data(data, [&](const auto& d) { return dfree_biased_test(d, *k, run); });
         }}));

    all.push_back(test_entry<DistributionFreeOptions>(
        method("dfree-unbiased",
               "distribution-free bound on the unbiased SKCE (Hoeffding): valid at every n, conservative",
               "distribution-free test of the unbiased SKCE (Hoeffding bound; conservative)"),
        {}, {},
        {nullptr, nullptr,
         [](const DistributionFreeOptions&, std::size_t n, std::size_t) {
             detail::check_min_size("dfree_unbiased_test", n, 2);
         },
         [](const AnyData& data, const Kernel* k, const AnyData*, const DistributionFreeOptions& o,
            const ParallelOptions& p) {
             DistributionFreeOptions run = o;
             run.parallel = p;
             return on_data(data, [&](const auto& d) { return dfree_unbiased_test(d, *k, run); });
         }}));

    all.push_back(test_entry<DfreeBlock>(
        linear_method("dfree-block", "distribution-free bound on the block SKCE (Hoeffding): valid at every n, conservative",
               "distribution-free test of the block SKCE (Hoeffding bound; conservative)"),
        {block_size_option(&DfreeBlock::block_size)},
        {},
        {nullptr, nullptr,
         [](const DfreeBlock& o, std::size_t n, std::size_t) {
             check_block_size("dfree_block_test", o.block_size.resolve(n), n);
         },
         [](const AnyData& data, const Kernel* k, const AnyData*, const DfreeBlock& o, const ParallelOptions& p) {
             DistributionFreeOptions run = o.options;
             run.parallel = p;
             const std::size_t b = o.block_size.resolve(data_size(data));
             return on_data(data, [&](const auto& d) { return dfree_block_test(d, *k, b, run); });
         }}));

    all.push_back(test_entry<Consistency>(
        method("consistency",
               "consistency resampling of an estimator: anti-conservative with ece; for reproducing the 2019 "
               "experiments",
               "consistency resampling", true),
        consistency_options(), {},
        {[](const Consistency& c) { return c.estimator == "ece" ? KernelUse::none : KernelUse::skce; }, nullptr,
         [](const Consistency& c, std::size_t n, std::size_t) {
             validate(c.options, n);
             if (c.estimator == "skce-block") check_block_size("consistency_test", c.block_size.resolve(n), n);
             if (c.estimator == "ece") check_ece_binning("consistency_test", c.ece, n);
         },
         [](const AnyData& data, const Kernel* k, const AnyData*, const Consistency& c, const ParallelOptions& p) {
             const CategoricalData& d = classes_of("consistency", data);
             ConsistencyOptions run = c.options;
             run.parallel = p;
             return consistency_test(d, consistency_estimator(c, k, d.size()), c.estimator, run);
         }}));

    all.push_back(test_entry<Cme>(
        linear_method("cme",
               "Hotelling test of the CME at J test locations, O(nJ): needs J^2 <= 0.07 n (two classes: 0.002 n)",
               "CME test: Hotelling statistic at test locations"),
        cme_options(), {},
        {nullptr,
         [](const Cme& c) { return c.test_locations.empty() ? LocationsUse::none : LocationsUse::required; },
         [](const Cme& c, std::size_t n, std::size_t num_locations) {
             if (!c.test_locations.empty()) return validate(c.options, n, num_locations);
             // The J locations are drawn from the data and removed from the sample.
             if (2 * c.locations >= n)
                 fail("cme_test", "`locations` = ", c.locations, " with n = ", n,
                      " observations: the J locations are removed from the sample and the test needs more than J of "
                      "the rest (n > 2J); use fewer locations");
             validate(c.options, n - c.locations, c.locations);
         },
         [](const AnyData& data, const Kernel* k, const AnyData* locations, const Cme& c, const ParallelOptions& p) {
             CmeOptions run = c.options;
             run.parallel = p;
             return on_data(data, [&](const auto& d) {
                 using Data = std::decay_t<decltype(d)>;
                 if (locations) return cme_test(d, std::get<Data>(*locations), *k, run);
                 return cme_test(d, c.locations, c.seed, *k, run);
             });
         }},
        [](const Cme& c) {
            if (c.test_locations.empty() == (c.locations == 0))
                throw invalid_argument("the CME test needs exactly one of `test_locations` FILE and `locations` J");
        }));

    struct Spiegelhalter {
        BinaryEvent event;
        std::string covariates;  // a file, or "arrays" with the table in memory
        std::shared_ptr<const Matrix> covariate_table;
    };
    all.push_back(test_entry<Spiegelhalter>(
        binary_method("spiegelhalter",
                      "Spiegelhalter's z: the Brier score against its expectation, O(n); with --covariates the "
                      "unweighted sum-of-squares test of development data",
                      "Spiegelhalter's z-test of the Brier score"),
        {event_option(&Spiegelhalter::event, true),
         table_option(info("covariates", "FILE", "",
                           "development data: the covariates of the logistic model fitted to these observations, one "
                           "row each (an intercept is added); the variance of Hosmer et al. 1997 (the le Cessie-van "
                           "Houwelingen-Copas-Hosmer unweighted sum-of-squares test)"),
                      &Spiegelhalter::covariates, &Spiegelhalter::covariate_table)},
        {},
        {always<Spiegelhalter>(KernelUse::none), nullptr, nullptr,
         [](const AnyData& data, const Kernel*, const AnyData*, const Spiegelhalter& o, const ParallelOptions&) {
             if (o.covariates.empty() && !o.covariate_table)
                 return binary_test("spiegelhalter", data, o.event,
                                    [](const CategoricalData& d) { return spiegelhalter_test(d); });
             const Matrix x = observation_table("covariates", o.covariates, o.covariate_table, data_size(data));
             return binary_test("spiegelhalter", data, o.event,
                                [&](const CategoricalData& d) { return spiegelhalter_test(d, x); });
         }}));

    // The other tests of binary predictions without options: the CITL z-test and the cumulative-difference tests.
    using BinaryTest = TestResult (*)(const CategoricalData&);
    const std::pair<MethodInfo, BinaryTest> binary_tests[] = {
        {binary_method("citl", "calibration-in-the-large: the mean outcome against the mean prediction, O(n)",
                       "calibration-in-the-large z-test"),
         calibration_in_the_large_test},
        {binary_method("ks",
                       "Kolmogorov-Smirnov test of the cumulative differences y - p in the order of p, O(n log n)",
                       "cumulative-difference Kolmogorov-Smirnov test"),
         ks_test},
        {binary_method("kuiper", "Kuiper test of the cumulative differences y - p in the order of p, O(n log n)",
                       "cumulative-difference Kuiper test"),
         kuiper_test},
    };
    struct EventOnly {
        BinaryEvent event;
    };
    for (const auto& [info, test] : binary_tests)
        all.push_back(test_entry<EventOnly>(
            info, {event_option(&EventOnly::event, true)}, {},
            {always<EventOnly>(KernelUse::none), nullptr, nullptr,
             [test = test, name = info.name](const AnyData& data, const Kernel*, const AnyData*, const EventOnly& o,
                                             const ParallelOptions&) {
                 return binary_test(name, data, o.event, test);
             }}));

    // The options of a binary test's library call and the binary event of class predictions.
    using HosmerLemeshowRun = WithEvent<HosmerLemeshowOptions>;
    using CoxRun = WithEvent<CoxOptions>;

    all.push_back(test_entry<HosmerLemeshowRun>(
        binary_method("hosmer-lemeshow", "Hosmer-Lemeshow chi-squared test over groups of predictions, O(n log n)",
                      "Hosmer-Lemeshow test"),
        with_event(OptionList<HosmerLemeshowOptions>{
            integer_option(&HosmerLemeshowOptions::groups,
                           info("groups", "G", "10", "the number of groups (at most n with quantiles)"), 2,
                           detail::max_histogram_bins),
            enum_option(&HosmerLemeshowOptions::grouping,
                        info("grouping", "quantiles|quantile-breaks|fixed", "quantiles",
                             "groups of equal size by the predictions' ranks (\"deciles of risk\"; tied predictions "
                             "share a group), between the predictions' sample quantiles at k/G (R's hoslem.test), "
                             "or between the fixed cut points k/G"),
                        named<HosmerLemeshowGrouping>({HosmerLemeshowGrouping::quantiles,
                                                       HosmerLemeshowGrouping::quantile_breaks,
                                                       HosmerLemeshowGrouping::fixed})),
            enum_option(&HosmerLemeshowOptions::df,
                        info("df", "validation|development", "validation",
                             "the chi-squared's degrees of freedom: G for predictions of held-out data, G - 2 when "
                             "the model was fitted to these data (the original test's setting)"),
                        named<HosmerLemeshowDf>({HosmerLemeshowDf::validation, HosmerLemeshowDf::development})),
        }, true),
        {},
        {always<HosmerLemeshowRun>(KernelUse::none), nullptr,
         [](const HosmerLemeshowRun& o, std::size_t n, std::size_t) { validate(o.options, n); },
         [](const AnyData& data, const Kernel*, const AnyData*, const HosmerLemeshowRun& o, const ParallelOptions&) {
             return binary_test("hosmer-lemeshow", data, o.event,
                                [&](const CategoricalData& d) { return hosmer_lemeshow_test(d, o.options); });
         }}));

    all.push_back(test_entry<CoxRun>(
        binary_method("cox",
                      "Cox's logistic recalibration: the calibration slope and intercept, likelihood-ratio test of "
                      "(0, 1)",
                      "Cox's calibration test (logistic recalibration)"),
        with_event(OptionList<CoxOptions>{level_option(&CoxOptions::level, "the Wald and likelihood-ratio intervals"),
                                          real_option(&CoxOptions::clip,
                                                      info("clip", "EPS", "0",
                                                           "> 0: predictions are taken into [EPS, 1 - EPS] before their "
                                                           "logit, so that predictions of exactly 0 or 1 can be tested "
                                                           "(details clip, clipped); 0: they are refused"),
                                                      [](double e) { return e >= 0 && e < 0.5; }, "in [0, 0.5)")},
                   true),
        {},
        {always<CoxRun>(KernelUse::none), nullptr,
         [](const CoxRun& o, std::size_t n, std::size_t) { validate(o.options, n); },
         [](const AnyData& data, const Kernel*, const AnyData*, const CoxRun& o, const ParallelOptions&) {
             return binary_test("cox", data, o.event, [&](const CategoricalData& d) { return cox_test(d, o.options); });
         }}));

    using TCalRun = WithEvent<TCalOptions>;
    OptionList<TCalOptions> t_cal = replicates_options(&TCalOptions::replicates, &TCalOptions::seed, "3000");
    t_cal.insert(t_cal.begin(),
                 custom_option<TCalOptions>(
                     info("bins", "adaptive|M", "adaptive",
                          "M equal-width bins (1 <= M <= 2^53), or adaptive: every M = 2, 4, ..., 2^B with B = "
                          "floor(2 log2(n / sqrt(ln n))), Bonferroni's combination"),
                     [](TCalOptions& o, const Value& v) {
                         const std::string text = text_value(v);
                         if (text == "adaptive") {
                             o.bins = 0;
                             return;
                         }
                         try {
                             o.bins = unsigned_value("bins", v, 1, max_t_cal_bins);
                         } catch (const option_error&) {
                             throw option_error("bins", "'" + text + "'", "adaptive or a whole number in [1, 2^53]");
                         }
                     },
                     [](const TCalOptions& o) {
                         return o.bins ? Value(std::uint64_t(o.bins)) : Value(std::string("adaptive"));
                     }));
    t_cal.push_back(enum_option(&TCalOptions::null,
                                info("null_draws", "conditional|consistency", "conditional",
                                     "the Monte-Carlo null: labels drawn from the predictions (conditional), or from "
                                     "a resample of the predictions with replacement (consistency, the authors' code)"),
                                named<TCalNull>({TCalNull::conditional, TCalNull::consistency})));
    all.push_back(test_entry<TCalRun>(
        binary_method("t-cal",
                      "T-Cal: the debiased binned squared ECE over a dyadic grid of bin counts against its "
                      "Monte-Carlo null, O(R n B)",
                      "T-Cal test of the debiased plug-in squared ECE"),
        with_event(t_cal, true), {},
        {always<TCalRun>(KernelUse::none), nullptr,
         [](const TCalRun& o, std::size_t n, std::size_t) { validate(o.options, n); },
         [](const AnyData& data, const Kernel*, const AnyData*, const TCalRun& o, const ParallelOptions& p) {
             TCalOptions run = o.options;
             run.parallel = p;
             return binary_test("t-cal", data, o.event, [&](const CategoricalData& d) { return t_cal_test(d, run); });
         }}));
    return all;
}

}  // namespace

const std::vector<Registered<MethodModel<TestResult>>>& registered_tests() {
    static const std::vector<Registered<MethodModel<TestResult>>> all = make_tests();
    return all;
}

}  // namespace calib::detail

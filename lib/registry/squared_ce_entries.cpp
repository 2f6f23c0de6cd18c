// The registry entries of the squared-CE estimators (squared_ce.hpp): one per estimation function,
// sharing the pipeline's options; each runs squared_ce (docs/squared_ce.md); and brier, the Brier score alone
// or with its decomposition, whose calibration term is the canonical ce-kde pipeline.
#include "registry/squared_ce_entries.hpp"

#include "registry/option_table.hpp"

#include <calib/squared_ce.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace calib::detail {

namespace {

// The grid as text: "paper" (the default grids of default_ce_grid) or comma-separated numbers.
std::string grid_text(const std::vector<double>& grid) {
    if (grid.empty()) return "paper";
    std::string text;
    for (double g : grid) text += (text.empty() ? "" : ",") + to_text(Value(g));
    return text;
}

OptionList<SquaredCeOptions> pipeline_options(CeEstimator estimator) {
    const bool bins = estimator == CeEstimator::bins, krr = estimator == CeEstimator::kkr || estimator == CeEstimator::ukkr;
    const std::string grid_help =
        bins ? "the numbers of bins to choose from, comma-separated; paper: 5, 10, ..., 100"
             : estimator == CeEstimator::kde
                   ? "the bandwidths to choose from, comma-separated; paper: 15 from 1e-5 to 1e-1 (log-spaced) and "
                     "0.2, ..., 1"
                   : "the ridge constants c to choose from, comma-separated (ridges as --ridge-preset says); paper: "
                     "the paper's grid for the notion (docs/squared_ce.md)";
    OptionList<SquaredCeOptions> list = {
        enum_option(&SquaredCeOptions::notion,
                    info("notion", bins ? "top-label|class-wise" : "canonical|top-label|class-wise", "top-label",
                         bins ? "the squared error of the top-label confidence (TCE2^2) or of each class (class-wise)"
                              : "the squared error of the whole probability vector (canonical, CCE2^2; on network-like "
                                "outputs its estimates run low, a lower bound: warned when below the top-label estimate, "
                                "docs/squared_ce.md), of the top-label confidence (TCE2^2) or of each class (class-wise)"),
                    bins ? std::vector<std::pair<CeNotion, std::string>>{{CeNotion::top_label, "top-label"},
                                                                        {CeNotion::class_wise, "class-wise"}}
                         : std::vector<std::pair<CeNotion, std::string>>{{CeNotion::canonical, "canonical"},
                                                                        {CeNotion::top_label, "top-label"},
                                                                        {CeNotion::class_wise, "class-wise"}}),
        enum_option(&SquaredCeOptions::aggregation,
                    info("class_aggregation", "sum|mean", "sum", "sum or average the classes' squared errors",
                         {"notion", {"class-wise"}}),
                    {{ClassAggregation::sum, "sum"}, {ClassAggregation::mean, "mean"}}),
        integer_option(&SquaredCeOptions::folds, info("folds", "K", "5", "the number of cross-validation folds"), 2, 100),
        real_option(&SquaredCeOptions::test_fraction,
                    info("test_fraction", "F", "0.2", "the fraction of the data held out as the test part"),
                    [](double x) { return x > 0 && x < 1; }, "in (0, 1)"),
        integer_option(&SquaredCeOptions::seed,
                       info("seed", "S", std::to_string(default_seed), "the seed of the CV/test split"), 0),
        custom_option<SquaredCeOptions>(
            info("grid", "LIST|paper", "paper", grid_help),
            [](SquaredCeOptions& o, const Value& v) {
                const std::string text = text_value(v);
                o.grid.clear();
                if (text == "paper") return;
                for (const std::string& part : split(text, ','))
                    o.grid.push_back(real_value("grid", part, [](double x) { return x >= 0; },
                                                "a comma-separated list of numbers >= 0, or paper"));
            },
            [](const SquaredCeOptions& o) { return Value(grid_text(o.grid)); }),
        enum_option(&SquaredCeOptions::selection,
                    info("selection", "mean-risk|mean-sqrt-risk", "mean-risk",
                         "choose by the fold mean of the validation risk, or of its square root (the paper's tables)"),
                    {{CeSelection::mean_risk, "mean-risk"}, {CeSelection::mean_sqrt_risk, "mean-sqrt-risk"}}),
    };
    if (bins)
        list.push_back(enum_option(&SquaredCeOptions::binning,
                                   info("bin_scheme", "equal-width|equal-mass", "equal-width",
                                        "bins of equal width, or cut at the training confidences' quantiles"),
                                   {{CeBinning::equal_width, "equal-width"}, {CeBinning::equal_mass, "equal-mass"}}));
    if (krr) {
        list.push_back(enum_option(&SquaredCeOptions::ridge_preset,
                                   info("ridge_preset", "reference-code|paper-text", "reference-code",
                                        "the ridges of a constant c on n training points: c n^1.5 (Kronecker) and c "
                                        "n^0.75 (two-step) as the authors' code, or lambda = c sqrt(n) in lambda n^2 "
                                        "and lambda n as the paper's text"),
                                   named<RidgePreset>({RidgePreset::reference_code, RidgePreset::paper_text})));
        list.push_back(real_option(&SquaredCeOptions::rbf_gamma,
                                   info("rbf_gamma", "G", "1", "gamma of the RBF kernel exp(-gamma |z - z'|^2)"),
                                   [](double x) { return x > 0; }, "a number > 0"));
        list.push_back(custom_option<SquaredCeOptions>(
            info("krr_tolerance", "T|auto", "auto",
                 "the low-rank factorisation of the kernel matrix stops at a residual trace of T times its trace; "
                 "0 = the exact dense eigendecomposition (O(n^3)); auto = the rounding floor (top-label, class-wise: "
                 "rank about 10, agreeing with the exact path); canonical: exact up to 2000 training points, 1e-6 "
                 "above"),
            [](SquaredCeOptions& o, const Value& v) {
                o.krr_tolerance = text_value(v) == "auto"
                                      ? -1
                                      : real_value("krr_tolerance", v, [](double x) { return x >= 0 && x < 1; },
                                                   "a number in [0, 1), or auto");
            },
            [](const SquaredCeOptions& o) { return o.krr_tolerance < 0 ? Value("auto") : Value(o.krr_tolerance); }));
    }
    return list;
}

Record fold_record(const std::vector<double>& values) {
    Record r;
    for (std::size_t k = 0; k < values.size(); ++k) r.push_back({"fold_" + std::to_string(k + 1), values[k]});
    return r;
}

const char* to_text(CeGridEdge edge) {
    return edge == CeGridEdge::smallest ? "smallest" : edge == CeGridEdge::largest ? "largest" : "none";
}

// How the search ended, per problem (docs/squared_ce.md, "The search and its warnings"): the chosen
// value's edge among the candidates, the grid values below the rounding floor and beyond the low-rank
// factor's accuracy, the chosen value's rounding sensitivity and truncation error, and whether a
// neighbour's risk was within noise while its estimate was not.
Field search_record(const SquaredCeResult& r) {
    Record problems;
    for (std::size_t c = 0; c < r.problems.size(); ++c) {
        const CeProblemResult& p = r.problems[c];
        std::uint64_t below = 0, beyond = 0;
        for (std::size_t g = 0; g < r.grid.size(); ++g) {
            const bool rounding = p.rounding_sensitivity[g] > max_rounding_sensitivity;
            below += rounding;
            beyond += !rounding && p.truncation_error_in_se[g] > max_truncation_error_in_se;
        }
        Record one{{"edge", std::string(to_text(p.edge))},
                   {"below_rounding_floor", below},
                   {"beyond_low_rank_accuracy", beyond},
                   {"rounding_sensitivity", p.rounding_sensitivity[p.chosen]},
                   {"truncation_error_in_se", p.truncation_error_in_se[p.chosen]},
                   {"unsettled", p.unsettled_neighbour.has_value()}};
        if (r.problems.size() == 1) return {"search", one};
        problems.push_back({"class_" + std::to_string(c), one});
    }
    return {"search", problems};
}

Record details(const SquaredCeResult& r, const SquaredCeOptions& o) {
    Record d{{"sqrt_estimate", r.sqrt_mean},
             {"sqrt_estimate_std", r.sqrt_std},
             {"sqrt_estimate_se", r.sqrt_se},
             {"validation_risk", 100 * r.risk_sqrt_mean},
             {"validation_risk_se", 100 * r.risk_sqrt_se},
             {"cv_size", std::uint64_t(r.cv_size)},
             {"test_size", std::uint64_t(r.test_size)}};
    if (o.notion == CeNotion::class_wise) {
        Record chosen, estimates;
        for (std::size_t c = 0; c < r.problems.size(); ++c) {
            const CeProblemResult& p = r.problems[c];
            double e = 0;
            for (double f : p.fold_estimate) e += f / static_cast<double>(p.fold_estimate.size());
            chosen.push_back({"class_" + std::to_string(c), r.grid[p.chosen]});
            estimates.push_back({"class_" + std::to_string(c), e});
        }
        d.push_back({"hyperparameters", chosen});
        d.push_back({"class_estimates", estimates});
    } else {
        d.push_back({"hyperparameter", r.grid[r.problems[0].chosen]});
    }
    d.push_back({"fold_estimates", fold_record(r.fold_estimate)});
    d.push_back({"fold_validation_risks", fold_record(r.fold_validation_risk)});
    d.push_back({"negative_diagonal", std::uint64_t(r.negative_diagonal)});
    d.push_back(search_record(r));
    d.push_back({"negative_fold_estimates", std::uint64_t(r.negative_fold_estimates)});
    d.push_back({"negative_fold_risks", std::uint64_t(r.negative_fold_risks)});
    if (o.notion == CeNotion::canonical) d.push_back({"top_label_estimate", r.top_label_estimate});
    return d;
}

// A ce-* entry's values: the pipeline's options, or with `train` the fixed-hyperparameter mode
// (fixed_squared_ce), whose training and validation files the front-end reads (DataSets).
struct CeEntryOptions {
    SquaredCeOptions pipeline;
    std::string train, validation;
    double hyperparameter = std::numeric_limits<double>::quiet_NaN();  // --bins, --bandwidth or --ridge-constant
    bool cv_option_given = false;  // one of the options that only the cross-validation uses
};

// A file option: a path, in the output only when given.
Option<CeEntryOptions> file_option(std::string CeEntryOptions::*member, OptionInfo i) {
    const std::string name = i.name;
    return custom_option<CeEntryOptions>(
        std::move(i), [member](CeEntryOptions& o, const Value& v) { o.*member = text_value(v); },
        [member](const CeEntryOptions& o) { return Value(o.*member); },
        [member, name](Record& r, const CeEntryOptions& o, std::size_t) {
            if (!(o.*member).empty()) r.push_back({name, o.*member});
        });
}

OptionList<CeEntryOptions> entry_options(CeEstimator estimator) {
    const Condition fixed{"train", {}};
    OptionInfo hyper = estimator == CeEstimator::bins
                           ? info("bins", "M", "", "with --train: the number of equal-width bins (bin-scheme applies)", fixed)
                       : estimator == CeEstimator::kde
                           ? info("bandwidth", "B", "", "with --train: the kernel bandwidth b > 0", fixed)
                           : info("ridge_constant", "C", "",
                                  "with --train: the ridge constant c >= 0 (effective ridge by --ridge-preset, n the "
                                  "training size)",
                                  fixed);
    hyper.required = true;
    OptionList<CeEntryOptions> list = {
        file_option(&CeEntryOptions::train,
                    info("train", "FILE", "", "fit the function with a fixed hyperparameter on FILE (no cross-validation; "
                                              "same family, labels in its last column)")),
        file_option(&CeEntryOptions::validation,
                    info("validation", "FILE", "", "with --train: report the risk (20) of the function on FILE", fixed)),
        real_option(&CeEntryOptions::hyperparameter, hyper, [](double x) { return x >= 0; }, "a number >= 0"),
    };
    // The options only the cross-validation uses are marked when given (they do not go with --train) and
    // left out of the output of a --train run.
    for (Option<CeEntryOptions> o : nested(&CeEntryOptions::pipeline, pipeline_options(estimator))) {
        const std::string name = o.info.name;
        if (name == "folds" || name == "test_fraction" || name == "seed" || name == "grid" || name == "selection") {
            const auto set = o.set;
            const auto get = o.get;
            o.set = [set](CeEntryOptions& s, const Value& v) {
                set(s, v);
                s.cv_option_given = true;
            };
            o.record = [get, name](Record& r, const CeEntryOptions& s, std::size_t) {
                if (s.train.empty()) r.push_back({name, get(s)});
            };
        }
        list.push_back(std::move(o));
    }
    return list;
}

// The fixed-hyperparameter mode's output fields.
Record fixed_details(const FixedCeResult& r, const CeEntryOptions& o, std::size_t train_size, CeEstimator estimator) {
    Record d{{"sqrt_estimate", std::sqrt(std::max(r.estimate, 0.0))},
             {"hyperparameter", o.hyperparameter},
             {"train_size", std::uint64_t(train_size)}};
    if (!o.validation.empty()) d.push_back({"validation_risk", r.validation_risk});
    if (o.pipeline.notion == CeNotion::class_wise) {
        Record classes;
        for (std::size_t c = 0; c < r.problem_estimates.size(); ++c)
            classes.push_back({"class_" + std::to_string(c), r.problem_estimates[c]});
        d.push_back({"class_estimates", classes});
    }
    d.push_back({"negative_diagonal", std::uint64_t(r.negative_diagonal)});
    if (estimator == CeEstimator::kkr || estimator == CeEstimator::ukkr)
        d.push_back({"rounding_sensitivity", r.rounding_sensitivity});
    return d;
}

Registered<MethodModel<EstimateResult>> entry_of(CeEstimator estimator, const char* summary, const char* title) {
    const std::string name = to_string(estimator);
    return estimator_entry<CeEntryOptions>(
        method(name, summary, title, true), entry_options(estimator), {},
        {always<CeEntryOptions>(KernelUse::none), nullptr,
         [](const CeEntryOptions& o, std::size_t n, std::size_t) {
             if (o.train.empty()) ce_split(n, o.pipeline.folds, o.pipeline.test_fraction, o.pipeline.seed);
         },
         [estimator, name](const AnyData& data, const Kernel*, const AnyData*, const CeEntryOptions& given,
                           const ParallelOptions& p) {
             SquaredCeOptions o = given.pipeline;
             o.parallel = p;
             const CategoricalData& d = classes_of(name, data);
             const SquaredCeResult r = squared_ce(d, estimator, o);
             return EstimateResult{name, r.estimate, d.size(), details(r, o), squared_ce_warnings(r, estimator)};
         }},
        [name](const CeEntryOptions& o) {
            if (!o.train.empty() && o.cv_option_given)
                throw invalid_argument(name + ": --folds, --test-fraction, --seed, --grid and --selection choose the "
                                              "hyperparameter by cross-validation; they do not go with --train");
        },
        {[](const CeEntryOptions& o) {
             std::vector<std::string> names;
             if (!o.train.empty()) names.push_back("train");
             if (!o.validation.empty()) names.push_back("validation");
             return names;
         },
         [estimator, name](const AnyData& data, const DataSets& sets, const CeEntryOptions& given,
                           const ParallelOptions& p) {
             SquaredCeOptions o = given.pipeline;
             o.parallel = p;
             const CategoricalData& d = classes_of(name, data);
             const CategoricalData& train = classes_of(name, sets.at("train"));
             const auto v = sets.find("validation");
             const FixedCeResult r = fixed_squared_ce(train, d, v == sets.end() ? nullptr : &classes_of(name, v->second),
                                                      estimator, given.hyperparameter, o);
             return EstimateResult{name, r.estimate, d.size(), fixed_details(r, given, train.size(), estimator),
                                   fixed_squared_ce_warnings(r, estimator)};
         }});
}

// brier: the score alone (score_only, O(n m)), or with its decomposition, whose calibration term is
// the canonical ce-kde pipeline: the options of that pipeline that apply to it, set after score_only.
struct BrierOptions {
    bool score_only = false;
    SquaredCeOptions pipeline;
};

Registered<MethodModel<EstimateResult>> brier_entry() {
    OptionList<BrierOptions> options = {flag_option(
        &BrierOptions::score_only,
        info("score_only", "", "false",
             "the Brier score alone, O(n m), without the decomposition (whose calibration term, the canonical "
             "ce-kde, is O(n^2) per bandwidth)"))};
    for (Option<BrierOptions> o : nested(&BrierOptions::pipeline, pipeline_options(CeEstimator::kde))) {
        if (o.info.name == "notion" || o.info.name == "class_aggregation") continue;
        o.info.condition = {"score_only", {"false"}};
        options.push_back(std::move(o));
    }
    return estimator_entry<BrierOptions>(
        method("brier",
               "Brier score with its calibration - resolution + uncertainty decomposition (calibration by ce-kde); "
               "with --score-only the score alone, O(n)",
               "the Brier score, decomposed into calibration (CCE2^2 by ce-kde), resolution and uncertainty", true),
        options, {},
        {always<BrierOptions>(KernelUse::none), nullptr,
         [](const BrierOptions& o, std::size_t n, std::size_t) {
             if (!o.score_only) ce_split(n, o.pipeline.folds, o.pipeline.test_fraction, o.pipeline.seed);
         },
         [](const AnyData& data, const Kernel*, const AnyData*, const BrierOptions& given, const ParallelOptions& p) {
             const CategoricalData& d = classes_of("brier", data);
             // Two classes: also the binary convention (scikit-learn's brier_score_loss), half the score.
             Record binary;
             if (d.num_classes() == 2) binary.push_back({"brier_binary", binary_brier_score(d)});
             if (given.score_only) return EstimateResult{"brier", brier_score(d), d.size(), binary, {}};
             SquaredCeOptions o = given.pipeline;
             o.parallel = p;
             const BrierDecomposition b = brier_decomposition(d, o);
             Record details = binary;
             details.insert(details.end(),
                            {{"calibration", b.calibration},
                             {"resolution", b.resolution},
                             {"uncertainty", b.uncertainty},
                             {"calibration_bandwidth", b.calibration_fit.grid[b.calibration_fit.problems[0].chosen]},
                             {"calibration_validation_risk", 100 * b.calibration_fit.risk_sqrt_mean},
                             {"calibration_top_label_estimate", b.calibration_fit.top_label_estimate}});
             return EstimateResult{"brier", b.brier, d.size(), details,
                                   squared_ce_warnings(b.calibration_fit, CeEstimator::kde)};
         }});
}

}  // namespace

std::vector<Registered<MethodModel<EstimateResult>>> squared_ce_estimators() {
    return {
        entry_of(CeEstimator::bins, "squared top-label or class-wise error by tuned binning (Gruber & Bach), O(n)",
                 "the squared calibration error estimated by binning tuned on its risk (Gruber & Bach)"),
        entry_of(CeEstimator::kde, "squared calibration error by a tuned kernel-density estimate (Gruber & Bach), O(n^2)",
                 "the squared calibration error estimated by a kernel density estimate tuned on its risk (Gruber & Bach)"),
        entry_of(CeEstimator::kkr, "squared calibration error by tuned Kronecker kernel ridge regression, O(n^3)",
                 "the squared calibration error estimated by Kronecker kernel ridge regression tuned on its risk "
                 "(Gruber & Bach)"),
        entry_of(CeEstimator::ukkr,
                 "squared calibration error by tuned two-step kernel ridge regression, O(n^3); of the four, the least "
                 "biased top-label and class-wise estimates on network-like outputs (docs/squared_ce.md)",
                 "the squared calibration error estimated by two-step kernel ridge regression tuned on its risk "
                 "(Gruber & Bach)"),
        brier_entry(),
    };
}

}  // namespace calib::detail

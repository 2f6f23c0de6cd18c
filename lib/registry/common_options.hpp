// Options that several methods share: block sizes, the binned ECE's options, the resampling tests'
// replicates, seed and p-value rule, and the CKCE's options with its median lengthscale.
#pragma once

#include "registry/option_table.hpp"

#include <calib/ckce.hpp>
#include <calib/compare.hpp>
#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>
#include <calib/io.hpp>
#include <calib/registry.hpp>
#include <calib/seed.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace calib::detail {

// Throws unless a table given for `option` (from the file `source`, or in memory when empty) has one row
// per observation: "`features` x.csv has 800 rows, but the input has n = 1500 observations; …".
void check_rows(const std::string& option, const std::string& source, std::size_t rows, std::size_t n);

// ---- tables of one row per observation (features, groups, covariates) --------------------------------

// A FILE option whose table can also be given in memory (Setup::set_table: Python's arrays).
template <class S>
Option<S> table_option(OptionInfo i, std::string S::*file, std::shared_ptr<const Matrix> S::*table) {
    Option<S> o = custom_option<S>(
        std::move(i), [=](S& s, const Value& v) { s.*file = text_value(v); },
        [=](const S& s) { return Value(s.*file); });
    o.set_table = [=](S& s, std::shared_ptr<const Matrix> t) { s.*table = std::move(t); };
    return o;
}
// The table of `option`: the one given in memory, else the one read from `file` (in the format `text`);
// throws unless it has n rows of finite numbers.
Matrix observation_table(const std::string& option, const std::string& file,
                         const std::shared_ptr<const Matrix>& table, std::size_t n, const TextFormat& text = {});

// ---- block sizes: B >= 2, or sqrt = max(2, floor(sqrt(n))) once n is known ----------------------------

// The option `block_size` of every block method (the estimator skce-block, the block and dfree-block
// tests, consistency resampling of skce-block), with one rule and one default: 2, the linear estimator
// of the 2019 paper and its test (the cheapest, and the least powerful: docs/tests.md); sqrt is the
// 2021 paper's choice. `note` adds the method's own limit; `condition` when it applies. Recorded as
// block_size_rule (sqrt or given): the result reports the size used.
// ---- the event of a method of binary predictions -------------------------------------------------

// Which binary event such a method reads (docs/cli.md, "Methods of binary predictions"): the data's own
// (automatic: two classes, P(Y = 1); class predictions of more classes need a choice), top-label,
// class k one-vs-rest, or (tests only) every class one-vs-rest, combined by class_wise_test.
struct BinaryEvent {
    enum class Kind { automatic, top_label, one_class, class_wise } kind = Kind::automatic;
    int k = 1;
};
std::string to_text(const BinaryEvent& event);  // "auto", "top-label", "class:K", "class-wise"
// Throws option_error; "class-wise" only when `class_wise`.
BinaryEvent binary_event_value(const Value& value, bool class_wise);

// The option `event`; `test`: a test, which also takes class-wise.
template <class S>
Option<S> event_option(BinaryEvent S::*member, bool test = false) {
    return custom_option<S>(
        info("event", test ? "auto|top-label|class:K|class-wise" : "auto|top-label|class:K", "auto",
             std::string("the binary event of class predictions: auto (two classes: class 1), top-label (the "
                         "confidence against whether the top class is right)") +
                 (test ? ", class:K (class K against the rest, 0-based) or class-wise (every class against the "
                         "rest, Bonferroni's combination)"
                       : " or class:K (class K against the rest, 0-based)")),
        [=](S& s, const Value& v) { s.*member = binary_event_value(v, test); },
        [=](const S& s) { return Value(to_text(s.*member)); });
}

// A library call's options with the binary event, and their option list: the call's, then `event`.
template <class T>
struct WithEvent {
    T options;
    BinaryEvent event;
};
template <class T>
OptionList<WithEvent<T>> with_event(const OptionList<T>& options, bool test) {
    OptionList<WithEvent<T>> out = nested(&WithEvent<T>::options, options);
    out.push_back(event_option(&WithEvent<T>::event, test));
    return out;
}

// The binary predictions of `event` in the class predictions `data`; throws invalid_argument for other
// families, and for more than two classes with the automatic event.
CategoricalData binary_of(const std::string& method, const AnyData& data, const BinaryEvent& event);
// `test` on the binary predictions of `event`, or class_wise_test with event class-wise.
TestResult binary_test(const std::string& method, const AnyData& data, const BinaryEvent& event,
                       const std::function<TestResult(const CategoricalData&)>& test);

// The level of a method's intervals, in (0, 1), default 0.95; `intervals` says which ("the Wald
// intervals").
template <class S>
Option<S> level_option(double S::*member, const std::string& intervals) {
    return real_option(member, info("level", "L", "0.95", "the level of " + intervals + ", in (0, 1)"),
                       [](double x) { return x > 0 && x < 1; }, "in (0, 1)");
}

// ---- the bootstrap intervals of a one-sample estimate -------------------------------------------------

// replicates (default 0: no intervals), level and seed of the percentile bootstrap intervals of
// `what` ("the ICI, E50, E90 and Emax").
template <class S>
OptionList<S> resampling_options(Resampling S::*member, const std::string& what) {
    return nested(member,
                  OptionList<Resampling>{
                      integer_option(&Resampling::replicates,
                                     info("replicates", "R", "0",
                                          "bootstrap replicates of the intervals of " + what + " (0: no intervals)"),
                                     0, max_replicates),
                      level_option(&Resampling::level, "the percentile intervals"),
                      integer_option(&Resampling::seed, info("seed", "S", std::to_string(default_seed),
                                                             "the seed of the bootstrap's resamples"),
                                     0)});
}
// Appends `name`_lower and `name`_upper of each interval (none when there are none).
void add_intervals(Record& details, const std::vector<std::string>& names,
                   const std::vector<BootstrapInterval>& intervals);

template <class S>
Option<S> block_size_option(BlockSize S::*member, const std::string& note = "", Condition condition = {}) {
    OptionInfo i = info("block_size", "B|sqrt", "2",
                        "the block size B >= 2, or sqrt = max(2, floor(sqrt(n))); 2 is the linear estimator, "
                        "sqrt has more power" + note,
                        std::move(condition));
    return custom_option<S>(
        std::move(i),
        [=](S& s, const Value& v) {
            s.*member = text_value(v) == "sqrt" ? BlockSize::sqrt()
                                                : BlockSize(static_cast<std::size_t>(
                                                      unsigned_value("block_size", v, 2, SIZE_MAX)));
        },
        [=](const S& s) {
            return (s.*member).is_sqrt() ? Value(std::string("sqrt")) : Value(std::uint64_t((s.*member).value));
        },
        [=](Record& r, const S& s, std::size_t n) {
            if (n) r.push_back({"block_size", std::uint64_t((s.*member).resolve(n))});
            r.push_back({"block_size_rule", (s.*member).is_sqrt() ? "sqrt" : "given"});
        });
}
// Throws unless 2 <= B <= n (`function` names the caller).
void check_block_size(const char* function, std::size_t block_size, std::size_t n);

// ---- lengthscales: a number, or a median rule chosen on the data -------------------------------------

struct LengthscaleChoice {
    std::string rule = "median";  // "given" or a median rule ("median", "median-full")
    double value = 1.0;           // when given
    bool given() const { return rule == "given"; }
};
// The option (rules: the median rules it accepts), recorded as lengthscale_rule.
template <class S>
Option<S> lengthscale_option(LengthscaleChoice S::*member, OptionInfo i, std::vector<std::string> rules) {
    std::string metavar = "L";
    for (const std::string& r : rules) metavar += "|" + r;
    i.metavar = metavar;
    return custom_option<S>(
        std::move(i),
        [=](S& s, const Value& v) {
            const std::string text = text_value(v);
            if (std::find(rules.begin(), rules.end(), text) != rules.end()) {
                (s.*member).rule = text;
                return;
            }
            std::vector<std::string> forms{"a number > 0"};
            forms.insert(forms.end(), rules.begin(), rules.end());
            (s.*member).value = real_value("lengthscale", v, [](double x) { return x > 0; }, one_of(forms));
            (s.*member).rule = "given";
        },
        [=](const S& s) { return (s.*member).given() ? Value((s.*member).value) : Value((s.*member).rule); },
        [=](Record& r, const S& s, std::size_t) { r.push_back({"lengthscale_rule", (s.*member).rule}); });
}

// ---- the median heuristic's subsample ------------------------------------------------------------------

// median_subsample K (0: all observations, the exact median; default none given: all, or
// linear_median_subsample for a linear-time method, set by configure) and median_seed, applying
// when the option `lengthscale` is one of `rules` (median, median-full).
template <class S>
OptionList<S> median_subsample_options(std::size_t S::*subsample, std::uint64_t S::*seed, const std::vector<std::string>& rules) {
    return {integer_option(subsample,
                           info("median_subsample", "K", "",
                                "take the median on K observations drawn without replacement (0: all, the exact "
                                "median); default all, or " + std::to_string(linear_median_subsample) +
                                    " for the methods whose own cost is linear in n (block, dfree-block, cme, "
                                    "skce-block, ucme)",
                                {"lengthscale", rules}),
                           0),
            integer_option(seed,
                           info("median_seed", "S", std::to_string(default_seed), "the seed of the median's subsample",
                                {"median_subsample", {}}),
                           0)};
}

// ---- how files are read (the reading options; recalibrate apply's tables) -------------------------------

OptionList<TextFormat> text_format_options();
// simplex_tolerance and renormalize: how rows of probabilities are checked (the reading options of the
// families with rows on the simplex; recalibrate apply's probabilities), applying when `condition` holds.
OptionList<SimplexOptions> simplex_options(const Condition& condition);

// ---- the binned ECE ------------------------------------------------------------------------------

// binning (uniform:NBINS or median-variance:MINSIZE[:MAXBINS]), distance and mode; their defaults are
// default_ece_options()'s.
OptionList<EceOptions> ece_options();
// The ECE the front-ends mean when only its name is given (calib estimate, rank, the consistency test;
// Python): the top-label ECE of ML practice (docs/ece.md, "Which ECE is the default"). EceOptions itself
// keeps the canonical mode of Widmann et al. (2019), which the reproductions call directly.
EceOptions default_ece_options();
std::string binning_text(const EceOptions& options);
// Throws unless the binning fits n observations: median-variance bins hold at least MINSIZE of them.
void check_ece_binning(const char* function, const EceOptions& options, std::size_t n);

// ---- resampling: replicates and seed, and the p-value rule ----------------------------------------------------

template <class S>
OptionList<S> replicates_options(std::size_t S::*replicates, std::uint64_t S::*seed,
                                 const std::string& replicates_default = "1000") {
    return {
        integer_option(replicates,
                       info("replicates", "R", replicates_default, "the number of resampling replicates, at most 1e8"),
                       1, max_replicates),
        integer_option(seed, info("seed", "S", std::to_string(default_seed), "the seed of the replicates' draws"), 0),
    };
}
template <class S>
OptionList<S> resampling_options(std::size_t S::*replicates, std::uint64_t S::*seed, PValueRule S::*rule,
                                 const std::string& replicates_default = "1000") {
    OptionList<S> list = replicates_options(replicates, seed, replicates_default);
    list.push_back(enum_option(rule,
                               info("pvalue_rule", "count|plus-one", "count",
                                    "#{T* >= T}/R (count) or (1 + #{T* >= T})/(1 + R) (plus-one, never 0)"),
                               named<PValueRule>({PValueRule::count, PValueRule::plus_one})));
    return list;
}

// ---- the CKCE ------------------------------------------------------------------------------------------

// The CKCE's options as given: the lengthscale (a number or the median heuristic on each data set),
// the regularisation (a fixed lambda or a power of n) and the method's own.
struct CkceSpec {
    LengthscaleChoice lengthscale;       // a number or median
    std::size_t median_subsample = 0;
    std::uint64_t median_seed = default_seed;
    CkceOptions options;                 // method, features, max_rank, tolerance, seed
    std::optional<double> lambda;        // fixed λ
    std::optional<double> lambda_power;  // λ = n^(−a); empty and no lambda: the paper's a = 1/4
};
// with_seed: the option seed, applying to ckce_method rff only (the estimator); the model comparison
// declares its own seed, for its bootstrap and the random features alike.
OptionList<CkceSpec> ckce_options(bool with_seed);
// Throws when lambda and lambda_power are both given.
void check_ckce_spec(const CkceSpec& spec);

struct ResolvedCkce {
    CkceOptions options;           // with the lengthscale and regularisation set
    MedianLengthscale lengthscale; // the value and the median's fallback (none when given)
};
ResolvedCkce resolve_ckce(const CkceSpec& spec, const CategoricalData& data, const ParallelOptions& parallel);
// "given" or "n^(-a)" with the power.
std::string lambda_rule(const CkceSpec& spec);
// The fields of a resolved CKCE and its result: lengthscale, lengthscale_fallback (median only), kernel,
// lambda, ridge, and the method's numbers (feature_dimension; rank, residual_trace).
Record ckce_details(const CkceSpec& spec, const ResolvedCkce& resolved, const CkceResult* result);

}  // namespace calib::detail

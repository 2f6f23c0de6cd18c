// The registry: every estimator and calibration test of calib, the kernel options of the SKCE and the
// model comparison, each described once with its options (calib/options.hpp). A Setup is one method
// with values for its options: made by name, given values by name (text, as the command line gives
// them, or typed values), checked, then validated against the data and run. The command-line tool and
// the Python module are built on it, so that they share names, defaults, rules and results; C++
// programs can use it as well, or call the functions of estimators.hpp, hypothesis.hpp, ckce.hpp and
// compare.hpp directly.
//
// A front-end's order of work:
//   setup = make_test("bootstrap");                 // unknown names throw, listing the known ones
//   setup.set("replicates", "2000");                // each option in the order of options():
//                                                   // conditions refer only to earlier options
//   setup.check();                                  // required options, exclusive pairs
//   ... read the data ...
//   setup.validate(n);                              // the limits that depend on n
//   kernel = KernelSetup(family).resolve(data);     // when kernel_use() is skce
//   TestResult r = setup.run(data, &kernel, nullptr, parallel);
// Messages name options in backquotes (`block_size`); render_message writes them in a front-end's
// style.
#pragma once

#include <calib/ckce.hpp>
#include <calib/compare.hpp>
#include <calib/corp.hpp>
#include <calib/families.hpp>
#include <calib/hypothesis.hpp>
#include <calib/kernels.hpp>
#include <calib/metrics.hpp>
#include <calib/options.hpp>
#include <calib/parallel.hpp>
#include <calib/recalibration.hpp>
#include <calib/reliability.hpp>
#include <calib/record.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace calib {

namespace detail {
class SetupModel;
class KernelModel;
template <class Result>
class MethodModel;
class ComparisonModel;
}  // namespace detail

struct MethodInfo {
    std::string name;           // "bootstrap", "skce-unbiased"
    std::string summary;        // one line for the lists of methods in help texts
    std::string title;          // what is computed, in words ("quadratic test with a bootstrap null")
    bool classes_only = false;  // applies only to class predictions (categorical and binary)
    bool binary_only = false;   // applies only to binary predictions (binary, or categorical with two classes)
    bool univariate_only = false;  // applies only to univariate distributions (FamilyInfo::univariate)
    // Its own cost grows at most linearly in n (O(n B), O(n J)): its median lengthscale is then taken on
    // linear_median_subsample observations by default, so that choosing it never costs more than the
    // method (configure; docs/cli.md, "The median lengthscale of linear-time methods").
    bool linear_time = false;
};

// The subsample of the median heuristic (`median_subsample`) that configure gives a linear-time method
// (MethodInfo::linear_time) whose lengthscale is `median` when none is given and no preset is used; at
// n <= 2000 it is the exact median. Its level and power beside the exact median: docs/tests.md.
inline constexpr std::size_t linear_median_subsample = 2000;

// What a method uses beside its own options and the data.
enum class KernelUse { none, skce, own };  // no kernel; the kernel of a KernelSetup; its own (the CKCE)
enum class LocationsUse { none, optional, required };  // test locations (a data set of the same family)
// Further labelled data sets of the input's family, by the name of the option that names their file
// (ce-*: train, validation); a front-end reads them (EstimatorSetup::data_set_options).
using DataSets = std::map<std::string, AnyData>;

// The options of one method, with their values.
class Setup {
public:
    const MethodInfo& info() const;
    const std::vector<OptionInfo>& options() const;
    // The option of that name, or nullptr when the method has none.
    const OptionInfo* option(const std::string& name) const;
    // Whether the option's condition holds for the values set so far.
    bool applies(const std::string& name) const;
    // Sets an option from text or a typed value. Throws option_error for a value the option does not
    // take, invalid_argument for an option the method does not have or that does not apply.
    void set(const std::string& name, const Value& value);
    // Options whose value on the command line is a FILE holding a table of numbers, one row per
    // observation (the MMD's features and groups), can take the table itself, from a front-end that has
    // it in memory (Python's arrays); the option must apply, its value names the source in records
    // (set it, e.g. to "arrays"). The table's rows are checked against the data when the method runs.
    // set_table throws invalid_argument for an option that takes no table or does not apply.
    bool takes_table(const std::string& name) const;
    void set_table(const std::string& name, Matrix table);
    Value get(const std::string& name) const;
    bool given(const std::string& name) const;
    // A front-end's way to take its arguments: sets, in the order of options() (a condition refers to
    // earlier options only), each option that applies and for which `given` returns a value.
    void set_given(const std::function<std::optional<Value>(const OptionInfo&)>& given);
    // The first required option that applies and was not given, or nullptr.
    const OptionInfo* missing() const;
    // Why the option `name` cannot be given with the values set so far, naming options in backquotes
    // ("applies only with `ckce_method` rff, not exact"); empty when the method has no such option.
    std::string why_not(const std::string& name) const;
    // Throws invalid_argument when the values do not go together (a required option is missing, two
    // options exclude each other): everything that can be said before the data are read.
    void check() const;
    // The options as the method uses them, for output. Values chosen on the data appear as their rule
    // (block_size_rule = "sqrt") and, when the number of observations n is given, as the value chosen.
    Record record(std::size_t n = 0) const;

protected:
    explicit Setup(std::shared_ptr<detail::SetupModel> model);
    std::shared_ptr<detail::SetupModel> model_;
};

// The kernel k_P ⊗ k_Y of the SKCE, UCME and their tests for one family: kernel_p (exp|sqexp),
// metric, lengthscale (a number, median or median-full), median_subsample, median_seed, kernel_y,
// lengthscale_y; the family's defaults unless given.
class KernelSetup : public Setup {
public:
    explicit KernelSetup(const FamilyInfo& family);
    // The kernel, with the prediction lengthscale chosen on the data when a median rule was asked
    // (median_distance). Throws invalid_argument as median_distance (a median of 0) and validate_kernel.
    Kernel resolve(const AnyData& data, const ParallelOptions& parallel = {}) const;
    // lengthscale, lengthscale_rule, the median's subsample and seed when used, and kernel
    // {prediction: {shape, metric, lengthscale}, target: {type[, lengthscale]}}.
    Record record(const Kernel& resolved) const;

private:
    const detail::KernelModel& model() const;
};

struct EstimateResult {
    std::string estimator;  // its name
    double estimate = 0;
    std::size_t n = 0;      // observations used
    Record details;         // its own numbers (block_size, num_blocks; num_locations; lambda, ridge, …)
    // What a front-end says besides the numbers (the command line on stderr, Python as CalibWarning):
    // e.g. a squared-CE search that chose a grid edge. Options in backquotes (render_message).
    std::vector<std::string> warnings;
};

class EstimatorSetup : public Setup {
public:
    KernelUse kernel_use() const;
    LocationsUse locations_use() const;
    // Throws invalid_argument when the options do not fit n observations (and J test locations).
    void validate(std::size_t n, std::size_t num_locations = 0) const;
    // The given options whose values name further labelled data sets (ce-*: train, validation): the
    // front-end reads each and passes it to run under the option's name.
    std::vector<std::string> data_set_options() const;
    // `kernel` is needed when kernel_use() is skce, `locations` when locations_use() is required,
    // `data_sets` holds one data set per name of data_set_options().
    EstimateResult run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                       const ParallelOptions& parallel = {}, const DataSets& data_sets = {}) const;

private:
    friend EstimatorSetup make_estimator(const std::string& name);
    using Setup::Setup;
    const detail::MethodModel<EstimateResult>& model() const;
};

class TestSetup : public Setup {
public:
    KernelUse kernel_use() const;
    LocationsUse locations_use() const;
    void validate(std::size_t n, std::size_t num_locations = 0) const;
    TestResult run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                   const ParallelOptions& parallel = {}) const;

private:
    friend TestSetup make_test(const std::string& name);
    using Setup::Setup;
    const detail::MethodModel<TestResult>& model() const;
};

// A result and the seconds its computation took, for the front-ends to record (compute_seconds).
template <class Result>
struct Timed {
    Result result;
    double compute_seconds = 0;
};

// The options a user gave, by the registry's names, as a front-end holds them: the command line's
// arguments, Python's keyword arguments. The registry takes them in its order (set_given_options) and
// refuses what is left (reject_unused), in the same words for every front-end.
class GivenOptions {
public:
    virtual ~GivenOptions() = default;
    // The value given for `option`, taken out of what is left; nullopt when it was not given.
    virtual std::optional<Value> take(const OptionInfo& option) = 0;
    // The names given and not taken, in the order given.
    virtual std::vector<std::string> left() const = 0;
};
// Sets each given option of `setup` that applies (Setup::set_given), then throws invalid_argument for
// a required option that is missing (missing_option_message) and runs setup.check().
void set_given_options(Setup& setup, GivenOptions& given);
// Throws for the first option left in `given`: invalid_argument with unused_option_message when one of
// `setups` has it, unknown_option_error (the same message) when none has it.
void reject_unused(const GivenOptions& given, const std::vector<const Setup*>& setups, const std::string& context);

struct Preset;  // below: a published experiment's conventions

// An estimator or a test with its options set, before any data is read: the first steps of every
// front-end's run (configure), then run_method.
template <class MethodSetup>
struct ConfiguredMethod {
    MethodSetup method;
    std::optional<KernelSetup> kernel;  // the SKCE's kernel, when method.kernel_use() is skce
    const Preset* preset = nullptr;     // its conventions were set where no value was given
    const KernelSetup* kernel_setup() const { return kernel ? &*kernel : nullptr; }
};
// Checks that the method applies to the family (a method of class predictions on other data throws
// check_classes's message), sets its given options, then the kernel's when the method uses the SKCE's
// kernel, then the preset's conventions (when `preset` is not null) where no value was given, and
// refuses the options left — in this order for every front-end. Throws as check_preset_family,
// set_given_options and reject_unused.
ConfiguredMethod<EstimatorSetup> configure(EstimatorSetup method, const FamilyInfo& family, const Preset* preset,
                                           GivenOptions& given);
ConfiguredMethod<TestSetup> configure(TestSetup method, const FamilyInfo& family, const Preset* preset,
                                      GivenOptions& given);

// The last steps of every front-end's run of an estimator or a test, in one place: the limits on n (and J
// test locations: validate), the kernel chosen on the data when the method uses the SKCE's, the method,
// and what is recorded of them. The front-end has set and checked the setups and read the data (the
// first steps: its arguments and its data source, files or arrays).
template <class Result>
struct MethodRun {
    Result result;
    std::optional<Kernel> kernel;  // resolved, when the method uses the SKCE's kernel
    Record kernel_record;          // KernelSetup::record of it; empty without one
    Record options;                // Setup::record(n): the method's options as used
    double compute_seconds = 0;    // the kernel's lengthscale and the method
};
// `kernel` is needed when setup.kernel_use() is skce (nullptr otherwise); `locations` when
// locations_use() is required; `data_sets` holds one data set per name of data_set_options().
MethodRun<EstimateResult> run_method(const EstimatorSetup& setup, const KernelSetup* kernel, const AnyData& data,
                                     const AnyData* locations, const DataSets& data_sets,
                                     const ParallelOptions& parallel = {});
MethodRun<TestResult> run_method(const TestSetup& setup, const KernelSetup* kernel, const AnyData& data,
                                 const AnyData* locations, const ParallelOptions& parallel = {});

// The paired bootstrap comparison of models (compare.hpp) with its options: estimators (a
// comma-separated list), replicates, level, seed, the CKCE's options (its lengthscale chosen per model
// by the median heuristic unless given) and the ECE's.
struct ComparisonRun {
    ModelComparison comparison;
    std::vector<CkceOptions> ckce;               // per model, as used (with its lengthscale)
    std::vector<MedianLengthscale> lengthscales;  // per model: the lengthscale and the median's fallback
    std::vector<std::string> estimators;         // their names, in the order of comparison.results
    std::vector<std::string> descriptions;       // per estimator, which quantity ("binned ECE, uniform:10, tv, canonical")
    Record options;                              // ComparisonSetup::record(): the options as used
    double compute_seconds = 0;                  // the lengthscales and the comparison

    // The comparison as every front-end gives it, the models named by `names` (one per model): n, models,
    // estimators, replicates, seed, level, interval, results (per estimator: description, estimates,
    // std_errors, ranking by name, lengthscales for the kernel estimators, replicate_factor_ranks,
    // comparisons: first, second, difference, lower, upper, bootstrap_mean, probability_first_lower,
    // verdict), and the options of the kernel estimators (kernel) and of the ECE (ece) when they ran.
    Record record(const std::vector<std::string>& names) const;
};
// One model's row of an estimator's ranking: its place in the models, its estimate and standard error.
struct RankedModel {
    std::size_t model = 0;
    double estimate = 0, std_error = 0;
};
// The rows of `estimator`'s ranking (best first) in a record of ComparisonRun::record, which names the
// models; a name given twice is one model given twice (the command line: one file), so its rows take
// its occurrences in order. Throws invalid_argument for a record without that estimator.
std::vector<RankedModel> ranked_models(const Record& comparison, const std::string& estimator);
// "NAME is better calibrated" (the model whose estimate is lower, when the interval excludes 0) or
// "no clear difference".
std::string verdict_text(const PairComparison& pair, const std::vector<std::string>& names);
// The same n, the same classes and the same labels in every model, the models named by `names` (their
// files, Python's names) and `command` ("calib rank") in the words: "b.csv has 2 classes but a.csv has 3;
// calib rank compares models evaluated on the same labelled data" (compare_models checks it too, by
// model index). Throws calib::invalid_argument (with the observation, for a label that differs).
void check_same_labels(const std::vector<CategoricalData>& models, const std::vector<std::string>& names,
                       const std::string& command);
class ComparisonSetup : public Setup {
public:
    ComparisonSetup();
    std::vector<std::string> estimators() const;  // the estimators asked for, in order
    // Checks the options, chooses each model's lengthscale, compares, and records (ComparisonRun).
    ComparisonRun run(const std::vector<CategoricalData>& models, const ParallelOptions& parallel = {}) const;

private:
    const detail::ComparisonModel& model() const;
};

// The fit of a recalibration map (recalibration.hpp; `calib recalibrate fit`, calib.recalibrate_fit) with
// the options of the family's maps (categorical or normal; another family throws invalid_argument):
// method (required), objective, lambda (required with nll+mmd), notion, the normal maps' MMD options
// (kernel_y, threshold, lengthscale, lengthscale_y, marginalisation, samples, mc_seed), ridge and
// probability_floor (categorical), max_iterations, gradient_tolerance; method auto's folds,
// selection_score and cv_seed (MethodSelection); and holdout (a fraction F in (0, 1)) with its seed:
// fit on a seeded random 1 - F of the rows and judge the map on the rest. The front-end reads the data
// and calls run.
//
// What a map is fitted on: a categorical model's raw scores (logits or probabilities) with their labels,
// or normal forecasts with the features the fit takes (affine-features' x, the individual notion's Z;
// 0 x 0 when none).
struct RecalibrationData {
    std::variant<CategoricalScores, NormalData> data;
    Matrix features;
    std::size_t size() const;
    // The observations at `index` (repeats allowed), their features with them: a held-out split.
    RecalibrationData rows(const std::vector<std::size_t>& index) const;
};
// A fit, and with `holdout` its judgement on the held-out rows: fraction, seed, n_fit, n_held_out,
// nll_before, nll_after, skce_bootstrap_p_value_before/_after (the SKCE bootstrap test with the registry's
// defaults), mmd_notion, mmd_lengthscale (k_Z's, but for the marginal notion), mmd_before, mmd_after
// (the conditional MMD², unbiased; empty without holdout).
struct RecalibrationRun {
    RecalibrationFit fit;
    Record selection;  // method auto: folds, cv_seed, score, candidates (each method's mean held-out score), chosen
    Record options;  // Setup::record(n): the fit's options as used (given, or their defaults)
    Record holdout;
    double compute_seconds = 0;  // the fit and the judgement
    // What a front-end says besides the map (the command line on stderr, Python as CalibWarning), options
    // in backquotes: a fit stopped by `max_iterations`, a map whose held-out NLL is above the identity's.
    std::vector<std::string> warnings;
};
// `method` auto (categorical maps): the method is chosen by its mean held-out score over `folds` seeded
// folds (`cv_seed`), the log score (−log max(q_y, probability_floor)) or the Brier score, among every
// categorical method that applies (docs/recalibration.md), or the `candidates` given, each with its
// defaults; the map is then the chosen method's fitted on every row (without holdout) or on the rows
// not held out.
struct MethodSelection {
    std::size_t folds = 5;
    CorpScore score = CorpScore::log;
    std::uint64_t seed = default_seed;
    std::vector<RecalibrationMethod> candidates;  // empty: every categorical method that applies to m
};
class RecalibrationSetup : public Setup {
public:
    explicit RecalibrationSetup(const FamilyInfo& family);
    // The method given; with `method` auto, selection() is set and method() is the first candidate.
    RecalibrationMethod method() const;
    std::optional<MethodSelection> selection() const;
    RecalibrationOptions fit_options() const;
    // The features (affine-features' x; the individual notion's Z) of the normal maps: the option
    // `features`, a FILE or its table in memory (set_table). Whether the fit needs them, and
    // check_features (after check()) throws invalid_argument when they are given but unused or needed
    // but missing; features() is the table (read from the file; 0 x 0 when not given).
    bool needs_features() const;
    Matrix features() const;
    void check_features(bool given) const;
    // Throws invalid_argument unless the features fit n observations: n x 1 for affine-features, n rows
    // (of d features) for the individual notion.
    void check_features(const Matrix& features, std::size_t n) const;
    std::optional<double> holdout() const;  // the held-out fraction, if asked
    std::uint64_t seed() const;             // the seed of the split and of the held-out test
    // Throws invalid_argument when the held-out split leaves fewer than 2 rows in either part.
    void validate(std::size_t n) const;
    // validate(n) and check_features (given or not, and of the data's n), then fit_recalibration with
    // method() and fit_options() on the data of the setup's family (another throws invalid_argument), on
    // every row or, with holdout, on the rows not held out; `parallel` serves the held-out tests.
    RecalibrationRun run(const RecalibrationData& data, const ParallelOptions& parallel = {}) const;
};

// The evaluation metrics of Marx et al. (metrics.hpp; `calib metrics`, calib.metrics) with the options
// of the family (class predictions, or univariate distributions: normal, laplace, mixture-normal;
// another family throws invalid_argument): bins, features (a FILE, or its table in memory through
// set_table), and for the univariate families qce_binning, threshold and lce_lengthscale (with
// features).
class MetricsSetup : public Setup {
public:
    explicit MetricsSetup(const FamilyInfo& family);
    const std::string& family() const { return family_; }
    // evaluation_metrics with these options, timed (a features file is read here, and the table's rows
    // are checked against the data's).
    Timed<Record> run(const AnyData& data, const ParallelOptions& parallel = {}) const;

private:
    std::string family_;
};

// The options of an operation whose options depend on the family, grouped for help texts and docstrings:
// the first group's families have them all, each later group lists only those of its families that an
// earlier group does not have with the same name, form and help. "metrics": the families of class
// predictions, then the univariate ones; "recalibrate fit": categorical, then normal. `families` are
// those whose options are the group's representative's (categorical, normal). Another operation throws
// invalid_argument.
struct OptionGroup {
    std::vector<std::string> families;
    std::vector<OptionInfo> options;
};
std::vector<OptionGroup> option_groups(const std::string& operation);

// How a family's data are read (io.hpp's ReadOptions), one description for the command line's files and
// the Python module's arrays: one_based_labels and logits (categorical), simplex_tolerance and
// renormalize (rows on the simplex: categorical probabilities, not with logits, and mixture weights);
// with `files` also labels (a separate targets file), header and delimiter. A family has only the options
// that apply to it.
class ReadingSetup : public Setup {
public:
    ReadingSetup(const FamilyInfo& family, bool files);
    const std::string& family() const { return family_; }
    ReadOptions read_options() const;

private:
    std::string family_;
};
// Every reading option of some family, in order (the command line's and Python's lists of them), with
// the families that take it as its condition ("applies only with `family` categorical") when not all do.
std::vector<OptionInfo> reading_options(bool files);
// Why the reading option `name` cannot be given to `setup`: "option `logits` applies only to `family`
// categorical, not normal", "option `renormalize` applies only without `logits`"; empty when it can, or
// when `name` is no reading option.
std::string reading_option_message(const std::string& name, const ReadingSetup& setup);

// The diagrams (calib diagram; Python's diagram, corp_diagram, reliability_diagram, pit_histogram and
// interval_coverage; calib report draws its own), each a setup of its options: "corp" (corp.hpp's CORP
// reliability diagram of binary predictions or of an `event` of class predictions: event, level,
// replicates, seed, points, score), "reliability" (the binned diagram: k, the class of a class-wise
// diagram, none: top-label; binning, bins, level, smooth_points), "pit" (the PIT histogram of predictive
// distributions: bins, level) and "coverage" (of central intervals: nominal, a comma-separated list of
// levels, and level). Another name throws, listing these.
struct DiagramOptions {
    std::optional<int> k;
    ReliabilityOptions reliability;  // binning, bins, level, smooth_points (pit: bins, level)
    std::vector<double> nominal = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
    CorpDiagramOptions corp;  // level, replicates, seed, points, score (parallel: run's)
};
class DiagramSetup : public Setup {
public:
    explicit DiagramSetup(const std::string& diagram);
    const DiagramOptions& values() const;
    // The diagram of `data` as its record (CorpDiagram::record, with event and, for event class-wise, a
    // list `classes` of the classes' records; ReliabilityDiagram::record; PitHistogram::record and
    // CoverageCurve's, for multivariate normals of the squared Mahalanobis distance with `dimension`).
    // Throws invalid_argument for a family the diagram does not read.
    Record run(const AnyData& data, const ParallelOptions& parallel = {}) const;
};
// The diagrams, in the order of the option `diagram`: name, summary, title; classes_only for the
// diagrams of class predictions.
const std::vector<MethodInfo>& diagram_methods();

// Why the option `name`, given with a method, is not taken, in the same words for every front-end:
// "option `name` applies only with `ckce_method` rff (<context>)" when one of `setups` (nullptr
// entries are skipped) has it, else "option `name` does not apply to <context>; its options are
// `a`, `b`, …". `context` names the method, options in backquotes ("`estimator` ece").
std::string unused_option_message(const std::string& name, const std::vector<const Setup*>& setups,
                                  const std::string& context);
// Throws invalid_argument unless `family` holds class predictions: "`estimator` ece applies only to `family`
// categorical or binary, not normal" (`what` names the operation, options in backquotes); with `binary`,
// for a method of binary predictions (which takes categorical ones of two classes or with an `event`):
// "… applies only to binary predictions (`family` binary, or categorical with two classes or an `event`),
// not normal".
void check_classes(const std::string& what, const FamilyInfo& family, bool binary = false);
// The same for a method of univariate distributions: "`estimator` crps applies only to `family` normal,
// laplace or mixture-normal, not categorical".
void check_univariate(const std::string& what, const FamilyInfo& family);
// "missing option `block_size` B|sqrt": a required option that applies was not given (Setup::missing).
std::string missing_option_message(const OptionInfo& option);

// Why a test that does not reject may have missed a miscalibration the data hold: its power is low by
// construction — the block test with B below the 2021 paper's max(2, floor(sqrt(n))), a
// distribution-free bound (valid for every distribution, hence conservative), the CME test at fewer
// than the 2021 experiments' 10 locations — naming the stronger test to run; empty for the other tests.
// Options in backquotes (render_message). The command line prints it as `low_power` and beside a
// verdict that does not reject; Python's TestResult has it as low_power.
std::string low_power_note(const TestResult& result);

// A test's result in words, for a reader who has only the output (the HTML report): its settings ("1000
// bootstrap replicates, seed 1234") and what its statistic is, with its sign convention (the bootstrap's
// is usually negative, also for a miscalibrated model).
struct TestInWords {
    std::string settings;
    std::string statistic;
};
TestInWords test_in_words(const TestResult& result);

// The context of a setup's messages: "`estimator` ece", "`method` bootstrap `estimator` mmd",
// "rank `estimators` ckce,ece".
std::string message_context(const EstimatorSetup& setup);
std::string message_context(const TestSetup& setup);
std::string message_context(const ComparisonSetup& setup);
std::string message_context(const RecalibrationSetup& setup);  // "recalibrate fit `method` temperature"
std::string message_context(const MetricsSetup& setup);        // "`family` categorical"

// ---- presets: the conventions and the table of a published experiment ----------------------------------
// A preset sets the options in which a paper's computations differ from calib's defaults (`conventions`,
// each set where a setup has the option, it applies, and it was not given), and lists the columns of the
// paper's published table, each an estimator or a test with its own options, so that one call computes a
// row from a model's outputs (`calib reproduce`, calib.reproduce).
struct PresetColumn {
    std::string table;   // the published file or table it belongs to ("errors", "pvalues")
    std::string name;    // its column there ("ECE_dynamic")
    bool test = false;   // a test (its p-value), else an estimator (its estimate)
    std::string method;  // the registry's name
    std::vector<std::pair<std::string, std::string>> options;  // besides the conventions
};
struct Preset {
    std::string name;      // "neurips2019"
    std::string source;    // the paper and its published table, in words
    bool classes_only = true;  // its table was computed for class predictions (categorical, binary)
    std::vector<std::pair<std::string, std::string>> conventions;
    std::vector<PresetColumn> columns;
};
const std::vector<Preset>& presets();
// Throws invalid_argument for an unknown name, listing the known ones.
const Preset& find_preset(const std::string& name);
// Throws invalid_argument when the preset's table was not computed for the family: "the preset
// neurips2019 is a table of class predictions (categorical or binary), not of family normal".
void check_preset_family(const Preset& preset, const FamilyInfo& family);
// Sets each convention of the preset that `setup` has, that applies with the values set so far and that
// was not given; returns the names it set.
std::vector<std::string> apply_preset(const Preset& preset, Setup& setup);
// One row of the preset's table: {table: {column: estimate or p-value}} in the order of the columns, then
// lengthscale (the kernel's, when a column used one; chosen once, by the conventions' rule). Throws
// invalid_argument for data of a family the table was not computed for, and as the columns' methods do.
Timed<Record> run_preset(const Preset& preset, const AnyData& data, const ParallelOptions& parallel = {});

// The registered estimators and tests, in the order of the documentation.
const std::vector<MethodInfo>& estimator_methods();
const std::vector<MethodInfo>& test_methods();
// A method with its defaults; throws invalid_argument for an unknown name, listing the known ones.
EstimatorSetup make_estimator(const std::string& name);
TestSetup make_test(const std::string& name);

}  // namespace calib

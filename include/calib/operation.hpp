// Operations: what calib does with models' outputs (estimate, test, metrics, reproduce, rank), each one
// object of the registry, so that a front-end has one runner for all of them: the command line's
// subcommands, Python's calib._calib.run. An operation declares its options (its own, its methods', their kernel's);
// configure takes the options a user gave (all of them checked before any input is read) and says
// which inputs beside the data it needs; run returns one record, which each front-end renders (one
// JSON object, a readable table, a Python dict).
//
//   const Operation& op = find_operation("test");
//   std::unique_ptr<ConfiguredOperation> c = op.configure(family, given);  // throws as the setups do
//   DataSets inputs;                                                       // read what c->inputs() names
//   OperationRecord r = c->run({{"model.csv", data}}, inputs, parallel);
//
// Adding an operation is one file under lib/registry/ (an Operation registered in operations(),
// lib/registry/operation.cpp) and its rendering where a front-end has its own (docs/architecture.md).
#pragma once

#include <calib/registry.hpp>

#include <any>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace calib {

// What a front-end reads a model's file or arrays as: the family's data set (its predictions checked as
// every method needs them: probabilities on the simplex, positive scales) or, for family categorical,
// the scores as given with their labels (CategoricalScores: logits, or the probabilities as read),
// which is what a recalibration map is fitted on; another family is read as its data set. Or the
// predictions alone (Predictions, observations optional), read as the configured operation says
// (ConfiguredOperation::reading: recalibrate apply's map decides the family, classes and logits).
enum class ModelKind { data, scores, predictions };

// A model's predictions alone, as a recalibration map takes them (ModelKind::predictions): class scores
// n x m (logits, or probabilities as read) or a normal family's n x 2 (mu, sigma); with their
// observations when given (the labels as given, e.g. 1-based, or the targets y), else empty; and the
// intervals [lower, upper] of class 2's probability when the map that gave them has them (venn-abers:
// n x 2, recalibration.hpp's venn_abers_intervals), else empty.
struct Predictions {
    Matrix values;
    Vector observations;
    Matrix intervals;
};

// How a front-end reads an operation's Predictions: the family (categorical or normal), the reading
// options (classes and logits among them), and whether the observations are given (the input's last
// column); and, so that a front-end can refuse an option for them before the work, whether the
// product will carry intervals (Predictions::intervals: a venn-abers map's) and the map's method.
struct PredictionReading {
    const FamilyInfo* family = nullptr;
    ReadOptions read;
    bool labelled = false;
    bool intervals = false;
    std::string method;
};

struct OperationInfo {
    std::string name;     // "estimate", "test": the subcommand, and the Python function
    std::string summary;  // one line for `calib --help`
    std::string method;   // the option that chooses its method ("estimator", "method"); empty: none
    // Its work is split over the processes of ParallelOptions (MPI ranks); else a front-end runs it on
    // one process only (the command line refuses mpirun -np > 1).
    bool spread_over_processes = true;
    // How many models' predictions of the same observations it takes (the command line: the files after
    // `--input`; Python: a list of them): one, or for a comparison (rank) at least two.
    std::size_t min_models = 1, max_models = 1;
    bool classes_only = false;  // it takes class predictions only (categorical, binary)
    // Several models are compared on their common labels, which only class predictions have (report);
    // one model may be of any family.
    bool compares_classes = false;
    // What each model's file or arrays are read as (ModelKind). With ModelKind::predictions the family
    // is the operation's (its reading()): a front-end takes no family option, passes configure the
    // first family (families().front()), which such an operation ignores, and reads by reading().
    ModelKind reads = ModelKind::data;
};

// One model's predictions with their observations, and its name in the record (the command line: its
// file's; Python: `names`): a data set of the family, or with ModelKind::scores a categorical model's
// scores as given, or with ModelKind::predictions the predictions alone.
struct ModelData {
    std::string name;
    std::variant<AnyData, CategoricalScores, Predictions> value;
    // The data set; throws std::logic_error for another kind (an operation reads the kind it declares).
    const AnyData& data() const;
};

// What a front-end checks before any option or input: that the operation takes `count` models ("calib
// rank needs at least 2 models, got 1"; "calib estimate takes one model (one `input`), got 2") and
// `count` models of `family` ("calib rank applies only to --family categorical or binary, not
// normal"). Throw invalid_argument.
void check_model_count(const OperationInfo& info, std::size_t count);
void check_family(const OperationInfo& info, const FamilyInfo& family, std::size_t count);

// An input beside the data that a configured operation needs: a further data set of the data's family
// (test locations; ce-*'s train and validation sets), named by the option whose value locates it.
struct InputRequest {
    std::string option;  // "test_locations", "train", "validation"
    std::string source;  // the option's value: a file name (the command line) or "arrays" (Python)
};

// A readable line of a result: a label and its text, options in backquotes (render_message).
using Words = std::vector<std::pair<std::string, std::string>>;

// What a run of an operation says, for every front-end: the command line flattens result, n,
// details, kernel and options (in this order, a name once) into its JSON object; Python keeps
// details, options and kernel as dicts.
struct OperationRecord {
    std::string title;     // what was computed, in words ("quadratic test with a bootstrap null")
    Record result;         // the operation's own fields: estimator, estimate; method, null, …, p_value, alpha, reject
    std::size_t n = 0;     // the observations used
    Record details;        // the method's own numbers
    Record kernel;         // the kernel as used (KernelSetup::record); empty without one
    Record options;        // the options as used (Setup::record(n)), then preset when one was used
    std::vector<std::string> warnings;  // to say besides the numbers (stderr; CalibWarning)
    Words words;           // the result in words, after the front-end's line on the data
    double compute_seconds = 0;
    // What an operation makes beyond its fields, for a front-end that writes or draws it: the report's
    // content (report.hpp, report_content), recalibrate fit's map (a shared_ptr<const RecalibrationFit>),
    // recalibrate apply's recalibrated Predictions; empty for the others.
    std::any product;
};

class ConfiguredOperation {
public:
    virtual ~ConfiguredOperation() = default;
    // The method's name ("bootstrap"), for progress bars; empty unless the operation has methods.
    virtual const std::string& method_name() const;
    // The inputs beside the data that run needs, in order; run takes one data set per request. None
    // unless the operation says.
    virtual std::vector<InputRequest> inputs() const { return {}; }
    // How the models are read when the operation reads ModelKind::predictions; none for the others. A
    // front-end asks after every option is checked and before it reads the models: the operation may
    // read its own inputs then (recalibrate apply's map) and check the options against them (throws
    // invalid_argument).
    virtual std::optional<PredictionReading> reading() const { return std::nullopt; }
    // Options whose value is a table of numbers (Setup::takes_table), for a front-end that holds it in
    // memory; set_table throws invalid_argument for another name. None unless the operation says.
    virtual bool takes_table(const std::string& option) const;
    virtual void set_table(const std::string& option, Matrix table);
    // Runs on the models' data (as many as check_model_count allows, of a family check_family allows) and the inputs (by the option of
    // each request). Throws invalid_argument for data the options do not fit (validate), and as the
    // method does.
    virtual OperationRecord run(const std::vector<ModelData>& models, const DataSets& inputs,
                                const ParallelOptions& parallel) const = 0;
};

class Operation {
public:
    virtual ~Operation() = default;
    virtual const OperationInfo& info() const = 0;
    // Its own options (the method's choice, preset, and e.g. test's alpha), for help texts; none unless
    // the operation says.
    virtual const std::vector<OptionInfo>& own_options() const;
    // Every option it may take, once per name: its own, every method's, the kernel's (a front-end's
    // grammar, e.g. the command line's option specs).
    virtual std::vector<OptionInfo> options() const = 0;
    // Takes the given options (its own first, then configure's of registry.hpp: the method's, the
    // kernel's, the preset's conventions) and refuses the rest. Throws invalid_argument.
    virtual std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const = 0;
};

// The registered operations, in the order of `calib --help`.
const std::vector<const Operation*>& operations();
// Throws invalid_argument for an unknown name, listing the known ones.
const Operation& find_operation(const std::string& name);
// Whether `name` is a registered operation.
bool is_operation(const std::string& name);

// ---- words: the readable form of numbers and results, the same in every front-end -------------------
// A number with `digits` significant digits ("0.0123457", "inf").
std::string readable(double x, int digits = 6);
// "block_size 28, num_blocks 28": the fields of a record, numbers readable.
std::string describe_record(const Record& record);
// "exp(-tv/l) x white, l = 0.9039 (median of the distances between predictions)".
std::string describe_kernel(const KernelSetup& setup, const Kernel& kernel);
// The p-value ("< 0.001 (no replicate of 1000 reached the statistic; …)" for a resampling p-value of 0).
std::string describe_p_value(const TestResult& result);
// The verdict at alpha, with the low-power note when it does not reject; `alpha_given` false adds
// "(the default; `alpha` changes it)".
std::string describe_verdict(const TestResult& result, double alpha, bool alpha_given);

}  // namespace calib

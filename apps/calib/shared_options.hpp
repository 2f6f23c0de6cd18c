// Options shared by the analysis subcommands (`calib estimate`, `calib test`, `calib rank`): the
// family, the input files and how to read them, the thread count and the output format; reading a
// data set and its test locations.
#pragma once

#include "args.hpp"

#include <calib/families.hpp>
#include <calib/io.hpp>
#include <calib/operation.hpp>
#include <calib/registry.hpp>
#include <calib/tool/command.hpp>

#include <optional>
#include <string>
#include <vector>

namespace calib::cli {

struct InputOptions {
    const FamilyInfo* family = nullptr;
    std::string path;
    ReadOptions read;
};

// --labels/--targets, --header, --delimiter, --one-based-labels, --logits, --simplex-tolerance,
// --renormalize: the reading options of every family (the registry's reading_options).
extern const std::vector<OptionSpec> reading_option_specs;
// --family, --input, --help, the reading options and the command's own (the registry's CommandSetup:
// --threads, --format, --quiet, ...).
std::vector<OptionSpec> command_option_specs(const std::string& command);

// Throws usage_error for an unknown family name.
const FamilyInfo& take_family(Args& args);
// Takes --family and --input (both required) and the reading options. Throws usage_error.
InputOptions take_input_options(Args& args);
// The reading options for data of `family`; the class and simplex options are refused for families
// they do not apply to.
ReadOptions take_reading_options(Args& args, const FamilyInfo& family);

// The command's own options (the registry's CommandSetup), checked by the library. Throws usage_error.
CommandSetup take_command_options(Args& args, const std::string& command);

// Before the work: the file `path`, which the command writes as its option `option` (`out`,
// `output`), can be written (check_writable) and is none of the files the command reads — every file
// option given in `args` and the `model_files` of report's --input (check_not_an_input). Throws.
void check_output(const Args& args, const std::string& option, const std::string& path,
                  const std::vector<std::string>& model_files = {});

enum class OutputFormat { json, table };
OutputFormat output_format(const CommandOptions& options);  // --format json|table

// A warning on stderr: "calib: warning: " and the library's message with its options spelled as
// options of the command line (render_message). Python gives the same text as a calib.CalibWarning.
void warn(const std::string& message);

// Reads the input (and labels) file in the family's format; warns on stderr about labels that look
// 1-based. Throws calib::invalid_argument on a bad file; `files` receives a summary of each file.
AnyData read_input(const InputOptions& input, std::vector<FileSummary>* files);

// Warns on stderr of labels that look 1-based (zero_label_warning), naming the input's labels file:
// for readers other than read_input's (recalibrate fit's raw scores).
void warn_if_one_based(const std::vector<int>& labels, long num_classes, const InputOptions& input);

// A further labelled data set of the input's family (an operation's inputs: test locations, ce-* --train,
// --validation), one file with the predictions and targets of each row whatever --labels says for the
// input; its summary is appended to `files`. The method checks it against the data (classes, space).
AnyData read_data_set(const InputOptions& input, const std::string& path, std::vector<FileSummary>* files);

// A model's predictions alone as an operation reads them (ModelKind::predictions: recalibrate apply's),
// from one file: class scores (exactly read.classes columns, probabilities checked as read_categorical
// checks them unless read.logits) or mu, sigma; with `labelled` one more column, the labels (checked as
// calib estimate checks them, kept as given: 1-based with one_based_labels) or y.
Predictions read_predictions(const std::string& path, const PredictionReading& reading, std::vector<FileSummary>* files);

}  // namespace calib::cli

// Options shared by the analysis subcommands (`calib estimate`, `calib test`, `calib rank`): the
// family, the input files and how to read them, the thread count and the output format; reading a
// data set and its test locations.
#pragma once

#include "args.hpp"

#include <calib/families.hpp>
#include <calib/io.hpp>

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
// --renormalize.
extern const std::vector<OptionSpec> reading_option_specs;
// --family, --input, the reading options, --threads, --quiet, --format, --help.
extern const std::vector<OptionSpec> shared_option_specs;

// Throws usage_error for an unknown family name.
const FamilyInfo& take_family(Args& args);
// Takes --family and --input (both required) and the reading options. Throws usage_error.
InputOptions take_input_options(Args& args);
// The reading options for data of `family`; the class and simplex options are refused for families
// they do not apply to.
ReadOptions take_reading_options(Args& args, const FamilyInfo& family);

// --threads N in [0, calib::max_num_threads()] (default 0: OpenMP's default, OMP_NUM_THREADS or
// all cores).
int take_threads(Args& args);

// --alpha in (0, 1), the level of a verdict; empty when not given. Throws usage_error.
std::optional<double> take_alpha(Args& args);

enum class OutputFormat { json, table };
OutputFormat take_format(Args& args);  // --format json|table (default json)

// A warning on stderr: "calib: warning: " and the library's message with its options spelled as
// options of the command line (render_message). Python gives the same text as a calib.CalibWarning.
void warn(const std::string& message);

// Reads the input (and labels) file in the family's format; warns on stderr about labels that look
// 1-based. Throws calib::invalid_argument on a bad file; `files` receives a summary of each file.
AnyData read_input(const InputOptions& input, std::vector<FileSummary>* files);

// Reads test locations (one file with the predictions and targets of each location, whatever
// --labels says for the input) and checks that they live in the space of the predictions (same
// classes, same dimension), naming both files.
AnyData read_locations(const InputOptions& input, const std::string& path, const AnyData& data);
// A further labelled data set of the input's family (DataSets: ce-* --train, --validation), its labels in
// its last column, with as many classes as `data`; its summary is appended to `files`.
AnyData read_data_set(const InputOptions& input, const std::string& path, const AnyData& data,
                      std::vector<FileSummary>* files);

}  // namespace calib::cli

// The tail every analysis subcommand prints after its own fields: what was read, the threads, the
// times and the version, then the object as one line on stdout.
#pragma once

#include "shared_options.hpp"

#include <calib/io.hpp>
#include <calib/operation.hpp>
#include <calib/tool/json.hpp>

#include <optional>
#include <vector>

namespace calib::cli {

// Adds the options a run used, except where the result already reports a field of that name (the
// block test's variance_divisor: the number used, rather than the rule s-1).
void add_options(JsonObject& out, const Record& options);

// An operation's record (calib/operation.hpp) as the fields of its JSON object: result, n, details,
// kernel, warnings (when there are; also said on stderr), then the options as used (a name once); the
// texts (low_power, the warnings) in the command line's words.
JsonObject operation_json(const OperationRecord& record);

// Seconds since the program started: the whole command, reading and the median heuristic included.
double seconds_since_start();

// What one run read and how long it took.
struct RunRecord {
    std::vector<FileSummary> files;       // the input (and labels) files
    std::vector<std::string> inputs;      // several models' files (rank): "input" lists them
    std::optional<double> max_simplex_deviation;
    int threads = 0;                       // the --threads request (0: the default)
    double compute_seconds = 0;            // the library call(s)
};

// The JSON object of a file summary: path, format, rows, columns, and header and delimiter (text) or
// dtype (npy).
JsonObject file_fields(const FileSummary& file);

// The JSON text of a command's output (one line, no newline), after warning on stderr of each number
// written null because it is not finite ("calib: warning: statistic = -inf, written null (JSON has no
// infinity)"): every JSON a command prints or writes goes through here, so no null is silent.
std::string json_output(const JsonObject& out);

// Adds family, input (the file, or the list of several models'), labels (when given), files, max_simplex_deviation (categorical and mixture
// data), threads (the number used), compute_seconds, wall_time_seconds (the whole command) and
// calib_version, and prints `out` as one line (easy to append to a JSON Lines log).
void print_with_run_fields(JsonObject& out, const InputOptions& input, const RunRecord& run);
// The same object as text (one line, no newline), for a command that writes it to a file (report).
std::string json_with_run_fields(JsonObject& out, const InputOptions& input, const RunRecord& run);

}  // namespace calib::cli

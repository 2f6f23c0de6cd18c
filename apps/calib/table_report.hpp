// The readable form of the analysis subcommands (--format table): what was computed, on what data,
// the numbers (an operation's words, calib/operation.hpp), as aligned "label  text" lines.
#pragma once

#include "run_output.hpp"
#include "shared_options.hpp"

#include <calib/operation.hpp>  // readable, describe_record, …: the words of results
#include <calib/registry.hpp>

#include <string>
#include <utility>
#include <vector>

namespace calib::cli {

class Report {
public:
    explicit Report(std::string title) : title_(std::move(title)) {}
    Report& line(const std::string& label, const std::string& text);
    std::string str() const;

private:
    std::string title_;
    std::vector<std::pair<std::string, std::string>> lines_;
};

// "preds.npy + labels.npy: 10000 observations, 10 classes (categorical)".
std::string describe_data(const InputOptions& input, const AnyData& data);
// The run's threads and times: "0.18 s in all, 0.05 s computing, 2 threads".
std::string describe_run(const RunRecord& run);

// An operation's own readable layout of its record, for an operation whose result is not a few lines
// (rank: a table per estimator); null for the others, which print a Report of their words.
using TableLayout = std::string (*)(const OperationRecord& record);
TableLayout table_layout(const std::string& operation);

// Prints `report` with the time line (--format table) or `out` with the run fields
// (print_with_run_fields) on stdout.
void print_result(OutputFormat format, JsonObject& out, Report& report, const InputOptions& input,
                  const RunRecord& run);

}  // namespace calib::cli

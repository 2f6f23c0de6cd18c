// The readable form of `calib estimate` and `calib test` (--format table): what was computed, on
// what data, the numbers and, for a test, the verdict, as aligned "label  text" lines.
#pragma once

#include "run_output.hpp"
#include "shared_options.hpp"

#include <calib/hypothesis.hpp>
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

// A number with `digits` significant digits, for people.
std::string readable(double x, int digits = 6);
// "block_size 28, num_blocks 28": the fields of a record, numbers readable.
std::string describe_record(const Record& record);

// "preds.npy + labels.npy: 10000 observations, 10 classes (categorical)".
std::string describe_data(const InputOptions& input, const AnyData& data);
// "exp(-tv/l) x white, l = 0.9039 (median of the pairwise distances)".
std::string describe_kernel(const KernelSetup& setup, const Kernel& kernel);
// The run's threads and times: "0.18 s in all, 0.05 s computing, 2 threads".
std::string describe_run(const RunRecord& run);

// Prints `report` with the time line (--format table) or `out` with the run fields
// (print_with_run_fields) on stdout.
void print_result(OutputFormat format, JsonObject& out, Report& report, const InputOptions& input,
                  const RunRecord& run);

// The p-value line ("< 0.001 (no replicate ...)" for a resampling p-value of 0) and the verdict at
// alpha.
std::string describe_p_value(const TestResult& result);
std::string describe_verdict(const TestResult& result, double alpha, bool alpha_given);

}  // namespace calib::cli

// The common output fields of the analysis subcommands (run_output.hpp).
#include "run_output.hpp"

#include "setup_options.hpp"

#include <calib/parallel.hpp>
#include <calib/version.hpp>

#include <chrono>
#include <iostream>

namespace calib::cli {

namespace {
// Initialised before main() runs: the start of the command.
const std::chrono::steady_clock::time_point program_start = std::chrono::steady_clock::now();
}  // namespace

void add_options(JsonObject& out, const Record& options) {
    for (const Field& f : options)
        if (!out.contains(f.name)) out.set(f.name, f.value);
}

namespace {

// A value of a result with its texts (messages: low_power, the report's warnings) in the command line's
// words, nested records and lists too.
Value in_command_line_words(const Value& value) {
    if (const auto* text = std::get_if<std::string>(&value)) return command_line_message(*text);
    if (const auto* texts = std::get_if<std::vector<std::string>>(&value)) {
        std::vector<std::string> out;
        for (const std::string& t : *texts) out.push_back(command_line_message(t));
        return out;
    }
    const auto record = [](const Record& r) {
        Record out;
        for (const Field& f : r) out.push_back({f.name, in_command_line_words(f.value)});
        return out;
    };
    if (const auto* r = std::get_if<Record>(&value)) return record(*r);
    if (const auto* list = std::get_if<std::vector<Record>>(&value)) {
        std::vector<Record> out;
        for (const Record& r : *list) out.push_back(record(r));
        return out;
    }
    return value;
}

}  // namespace

JsonObject operation_json(const OperationRecord& record) {
    JsonObject out;
    for (const Field& f : record.result) out.set(f.name, in_command_line_words(f.value));
    out.set("n", record.n).merge(record.details).merge(record.kernel);
    if (!record.warnings.empty()) out.set("warnings", in_command_line_words(record.warnings));
    add_options(out, record.options);
    return out;
}

double seconds_since_start() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - program_start).count();
}

JsonObject file_fields(const FileSummary& file) {
    JsonObject out;
    out.set("path", file.path == "-" ? "stdin" : file.path).set("format", file.format);
    out.set("rows", file.rows).set("columns", file.columns);
    if (file.format == "npy")
        out.set("dtype", file.dtype);
    else
        out.set("header", file.header).set("delimiter", file.delimiter);
    return out;
}

std::string json_output(const JsonObject& out) {
    for (const std::string& entry : out.non_finite()) warn(entry + ", written null (JSON has no infinity)");
    return out.dump();
}

void print_with_run_fields(JsonObject& out, const InputOptions& input, const RunRecord& run) {
    std::cout << json_with_run_fields(out, input, run) << '\n';
}

std::string json_with_run_fields(JsonObject& out, const InputOptions& input, const RunRecord& run) {
    out.set("family", input.family->name);
    if (run.inputs.empty())
        out.set("input", input.path == "-" ? "stdin" : input.path);
    else
        out.set("input", run.inputs);
    if (!input.read.labels.empty()) out.set("labels", input.read.labels == "-" ? "stdin" : input.read.labels);
    std::vector<JsonObject> files;
    for (const FileSummary& f : run.files) files.push_back(file_fields(f));
    out.set("files", files);
    if (run.max_simplex_deviation) out.set("max_simplex_deviation", *run.max_simplex_deviation);
    out.set("threads", calib::resolve_num_threads(run.threads));
    out.set("compute_seconds", run.compute_seconds);
    out.set("wall_time_seconds", seconds_since_start());
    out.set("calib_version", version);
    return json_output(out);
}

}  // namespace calib::cli

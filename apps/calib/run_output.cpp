// The common output fields of the analysis subcommands (run_output.hpp).
#include "run_output.hpp"

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
    std::cout << json_output(out) << '\n';
}

}  // namespace calib::cli

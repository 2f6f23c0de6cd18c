// The readable reports of the analysis subcommands (table_report.hpp).
#include "table_report.hpp"

#include "rank_output.hpp"
#include "setup_options.hpp"

#include <iostream>

namespace calib::cli {

Report& Report::line(const std::string& label, const std::string& text) {
    lines_.emplace_back(label, text);
    return *this;
}

std::string Report::str() const {
    std::size_t width = 0;
    for (const auto& [label, text] : lines_) width = std::max(width, label.size());
    std::string out = title_ + "\n";
    for (const auto& [label, text] : lines_)
        out += "  " + label + std::string(width - label.size() + 2, ' ') + text + "\n";
    return out;
}

namespace {

std::string shown_path(const std::string& path) { return path == "-" ? "stdin" : path; }

}  // namespace

std::string describe_data(const InputOptions& input, const AnyData& data) {
    std::string files = shown_path(input.path);
    if (!input.read.labels.empty()) files += " + " + shown_path(input.read.labels);
    return files + ": " + std::to_string(data_size(data)) + " observations, " + describe_predictions(data, *input.family);
}

std::string describe_run(const RunRecord& run) {
    return readable(seconds_since_start(), 3) + " s in all, " + readable(run.compute_seconds, 3) + " s computing, " +
           std::to_string(calib::resolve_num_threads(run.threads)) + " thread(s)";
}

TableLayout table_layout(const std::string& operation) {
    static const std::vector<std::pair<std::string, TableLayout>> layouts{{"rank", &rank_table}};
    for (const auto& [name, layout] : layouts)
        if (name == operation) return layout;
    return nullptr;
}

void print_result(OutputFormat format, JsonObject& out, Report& report, const InputOptions& input,
                  const RunRecord& run) {
    if (format == OutputFormat::json) return print_with_run_fields(out, input, run);
    report.line("time", describe_run(run));
    std::cout << report.str();
}

}  // namespace calib::cli

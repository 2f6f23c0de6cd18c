// `calib report`: the library's operation `report` (calib/report.hpp) called as every operation is
// (operation_call.hpp), drawn as its HTML page (apps/report, the page Python's calib.report draws too)
// or printed as its JSON object, to --output or report.html; a line on stderr says where and the
// verdicts.
#include "commands.hpp"

#include "operation_call.hpp"
#include "progress_bar.hpp"

#include "../report/report_page.hpp"

#include <calib/report.hpp>

#include <iostream>

namespace calib::cli {

namespace {

std::string command_line(const std::vector<std::string>& arguments) {
    std::string line = "calib report";
    for (const std::string& a : arguments)
        line += " " + (a.find_first_of(" \t'\"$") == std::string::npos ? a : "'" + a + "'");
    return line;
}

}  // namespace

int run_report(const std::vector<std::string>& arguments, Stage stage) {
    const Operation& operation = find_operation("report");
    if (wants_help(arguments)) {
        std::cout << operation_help(operation);
        return 0;
    }
    OperationCall call(operation, arguments);
    const CommandSetup& command = call.command;
    const CommandOptions& o = command.values();
    const bool html = o.format == "html";
    const std::optional<std::string> output = command.given("output") ? std::optional<std::string>(o.output) : std::nullopt;
    if (stage == Stage::options) return 0;
    if (output || html) check_output(call.args, "output", output.value_or("report.html"), call.model_files);  // before the work

    RunRecord run;
    run.threads = o.threads;
    ProgressBar bar("calib report", !o.quiet);
    std::vector<std::vector<std::string>> files;  // per model: its input and labels files, for the page
    const std::vector<ModelData> models = call.read_models(run, &files);
    const OperationRecord record = call.configured->run(models, {}, ParallelOptions{run.threads, &bar});
    run.compute_seconds = record.compute_seconds;
    bar.finish();
    for (const std::string& warning : record.warnings) warn(warning);

    if (!html) {
        JsonObject out = operation_json(record);
        out.set("command_line", command_line(arguments)).set("created", page::now_utc());
        const std::string text = json_with_run_fields(out, call.input, run) + "\n";
        if (output)
            write_file(*output, text);
        else
            std::cout << text;
        return 0;
    }
    const std::string path = output.value_or("report.html");
    write_file(path, page::report_html(report_content(record),
                                       page::PageInfo{files, command_line(arguments), page::now_utc(), seconds_since_start()}));
    std::string verdicts;
    for (const auto& [model, verdict] : record.words)
        verdicts += (verdicts.empty() ? "" : "; ") + (models.size() > 1 ? model + ": " : "") + verdict;
    std::cerr << "calib report: wrote " << path << " (" << verdicts << ")\n";
    return 0;
}

}  // namespace calib::cli

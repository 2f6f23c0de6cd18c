// `calib estimate`, `calib test`, `calib metrics`, `calib rank`: the command line's runner of the
// library's operations (calib/operation.hpp). Every option is checked before the (possibly large) input
// is read; the models are the files after --input (one, or for a comparison several); the inputs the
// operation asks for are read as files of the input's family; the record is printed as one JSON object
// or a readable table (the operation's own layout where it has one, table_report.hpp).
#include "commands.hpp"

#include "operation_call.hpp"
#include "processes.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "table_report.hpp"

#include <calib/operation.hpp>
#include <calib/tool/json.hpp>

#include <iostream>

namespace calib::cli {

int run_operation(const Operation& operation, const std::vector<std::string>& arguments, Stage stage) {
    const std::string& name = operation.info().name;
    if (wants_help(arguments)) {
        std::cout << operation_help(operation);
        return 0;
    }
    OperationCall call(operation, arguments);
    const CommandOptions& command = call.command.values();
    RunRecord run;
    run.threads = command.threads;
    const OutputFormat format = output_format(command);
    if (stage == Stage::options) return 0;

    const std::string& method = call.configured->method_name();
    ProgressBar bar("calib " + name + (method.empty() ? "" : " " + method), !command.quiet);
    const ParallelOptions parallel{run.threads, &bar, run_processes()};
    const std::vector<ModelData> models = call.read_models(run);
    const DataSets inputs = call.read_inputs(run);
    const OperationRecord record = call.configured->run(models, inputs, parallel);
    run.compute_seconds = record.compute_seconds;
    bar.finish();
    for (const std::string& warning : record.warnings) warn(warning);

    JsonObject out = operation_json(record);
    if (format == OutputFormat::table)
        if (const TableLayout layout = table_layout(name)) {
            std::cout << layout(record);
            return 0;
        }
    Report report("calib " + name + ": " + record.title);
    const AnyData& data = models.front().data();
    const std::size_t n = data_size(data);
    report.line("data", describe_data(call.input, data) +
                            (record.n != n ? " (" + std::to_string(record.n) + " used)" : ""));
    for (const auto& [label, text] : record.words) report.line(label, command_line_message(text));
    print_result(format, out, report, call.input, run);
    return 0;
}

}  // namespace calib::cli

// `calib estimate`, `calib test`, `calib metrics`, `calib rank`: the command line's runner of the
// library's operations (calib/operation.hpp). Every option is checked before the (possibly large) input
// is read; the models are the files after --input (one, or for a comparison several); the inputs the
// operation asks for are read as files of the input's family; the record is printed as one JSON object
// or a readable table (the operation's own layout where it has one, table_report.hpp).
#include "commands.hpp"

#include "args.hpp"
#include "model_files.hpp"
#include "processes.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"
#include "table_report.hpp"

#include <calib/operation.hpp>
#include <calib/tool/json.hpp>

#include <iostream>

namespace calib::cli {

namespace {

std::vector<OptionSpec> operation_option_specs(const Operation& operation) {
    std::vector<OptionSpec> specs = command_option_specs(operation.info().name);
    add_option_specs(specs, operation.options());
    return specs;
}

}  // namespace

int run_operation(const Operation& operation, const std::vector<std::string>& arguments, Stage stage) {
    const std::string& name = operation.info().name;
    if (wants_help(arguments)) {
        std::cout << operation_help(operation);
        return 0;
    }
    // Several models: the files after --input (take_model_files); one: --input FILE as any option.
    const OperationInfo& info = operation.info();
    std::vector<std::string> model_files, rest;
    if (info.max_models > 1) model_files = take_model_files(arguments, rest, info);
    Args args(info.max_models > 1 ? rest : arguments, operation_option_specs(operation), name);
    InputOptions input;
    if (info.max_models > 1) {
        input.family = &take_family(args);
        check_family(info, *input.family);
        input.read = take_reading_options(args, *input.family);
    } else {
        input = take_input_options(args);
        check_family(info, *input.family);
        model_files = {input.path};
    }
    const CommandOptions command = take_command_options(args, name).values();
    RunRecord run;
    run.threads = command.threads;
    const OutputFormat format = output_format(command);
    ArgumentOptions given(args);
    const std::unique_ptr<ConfiguredOperation> configured = operation.configure(*input.family, given);
    if (stage == Stage::options) return 0;

    const std::string& method = configured->method_name();
    ProgressBar bar("calib " + name + (method.empty() ? "" : " " + method), !command.quiet);
    const ParallelOptions parallel{run.threads, &bar, run_processes()};
    std::vector<ModelData> models;
    for (const std::string& file : model_files) {
        input.path = file;
        models.push_back({file, read_input(input, &run.files)});
        if (const auto deviation = max_simplex_deviation(models.back().data))
            run.max_simplex_deviation = std::max(run.max_simplex_deviation.value_or(0), *deviation);
    }
    if (models.size() > 1) run.inputs = model_files;
    DataSets inputs;
    for (const InputRequest& request : configured->inputs())
        inputs.emplace(request.option, read_data_set(input, request.source, &run.files));
    const OperationRecord record = configured->run(models, inputs, parallel);
    run.compute_seconds = record.compute_seconds;
    bar.finish();
    for (const std::string& warning : record.warnings) warn(warning);

    JsonObject out;
    for (const Field& f : record.result)  // a text field may be a message (low_power): in the command line's words
        if (const auto* text = std::get_if<std::string>(&f.value)) out.set(f.name, command_line_message(*text));
        else out.set(f.name, f.value);
    out.set("n", record.n).merge(record.details).merge(record.kernel);
    add_options(out, record.options);
    if (format == OutputFormat::table)
        if (const TableLayout layout = table_layout(name)) {
            std::cout << layout(record);
            return 0;
        }
    Report report("calib " + name + ": " + record.title);
    const AnyData& data = models.front().data;
    const std::size_t n = data_size(data);
    report.line("data", describe_data(input, data) +
                            (record.n != n ? " (" + std::to_string(record.n) + " used)" : ""));
    for (const auto& [label, text] : record.words) report.line(label, command_line_message(text));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

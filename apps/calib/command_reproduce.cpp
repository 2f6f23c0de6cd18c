// `calib reproduce PRESET`: one row of a published table (the registry's presets) computed from one
// model's outputs, printed as one JSON object with the table's own column names.
#include "commands.hpp"

#include "args.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"
#include "table_report.hpp"
#include "usage_error.hpp"

#include <calib/registry.hpp>
#include <calib/tool/json.hpp>

#include <algorithm>
#include <iostream>

namespace calib::cli {

int run_reproduce(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << reproduce_help();
        return 0;
    }
    if (arguments.empty() || arguments.front().rfind("--", 0) == 0)
        throw usage_error("calib reproduce needs a preset first: calib reproduce NAME --input FILE (see 'calib reproduce --help')");
    const Preset* preset = &find_preset(arguments.front());
    std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    // Class predictions unless --family says binary (--family F or --family=F).
    if (std::none_of(rest.begin(), rest.end(), [](const std::string& a) { return a == "--family" || a.rfind("--family=", 0) == 0; }))
        rest.insert(rest.begin(), {"--family", "categorical"});
    Args args(rest, command_option_specs("reproduce"), "reproduce " + preset->name);
    const InputOptions input = take_input_options(args);
    check_preset_family(*preset, *input.family);
    const CommandSetup setup = take_command_options(args, "reproduce");
    const CommandOptions& command = setup.values();
    RunRecord run;
    run.threads = command.threads;
    const OutputFormat format = output_format(command);
    ProgressBar bar("calib reproduce " + preset->name, !command.quiet);
    reject_unused(args, {&setup}, "calib reproduce");
    if (stage == Stage::options) return 0;

    const AnyData data = read_input(input, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    const auto [row, compute_seconds] = run_preset(*preset, data, {run.threads, &bar});
    run.compute_seconds = compute_seconds;
    bar.finish();

    JsonObject out;
    out.set("command", "reproduce").set("preset", preset->name).set("source", preset->source).set("n", data_size(data));
    out.merge(row);
    Report report("calib reproduce " + preset->name + ": " + preset->source);
    report.line("data", describe_data(input, data));
    for (const Field& table : row) {
        if (const Record* columns = std::get_if<Record>(&table.value))
            for (const Field& c : *columns) report.line(table.name + " " + c.name, readable(to_double(c.value)));
        else
            report.line(table.name, readable(to_double(table.value)));
    }
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

// `calib metrics`: every evaluation metric of Marx et al. (2023) that applies to the family, in one
// JSON object or a table. The list, the formulas and their order are the library's
// (calib::evaluation_metrics, metrics.hpp); this file reads the files and prints.
#include "commands.hpp"

#include "args.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"
#include "table_report.hpp"

#include <calib/metrics.hpp>
#include <calib/registry.hpp>
#include <calib/tool/json.hpp>

#include <iostream>
#include <variant>

namespace calib::cli {

namespace {

std::vector<OptionSpec> metrics_option_specs() {
    std::vector<OptionSpec> specs = command_option_specs("metrics");
    for (const char* family : {"categorical", "normal"}) add_option_specs(specs, MetricsSetup(find_family(family)).options());
    return specs;
}

}  // namespace

int run_metrics(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << metrics_help();
        return 0;
    }
    Args args(arguments, metrics_option_specs(), "metrics");
    const InputOptions input = take_input_options(args);
    const CommandOptions command = take_command_options(args, "metrics").values();  // --quiet: no progress to show
    RunRecord run;
    run.threads = command.threads;
    const OutputFormat format = output_format(command);
    MetricsSetup setup(*input.family);
    take_setup_options(args, setup);
    reject_unused(args, {&setup}, message_context(setup));
    if (stage == Stage::options) return 0;

    const AnyData data = read_input(input, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    const std::size_t n = data_size(data);
    const auto [metrics, compute_seconds] = setup.run(data, ParallelOptions{run.threads});
    run.compute_seconds = compute_seconds;

    JsonObject out;
    out.set("command", "metrics").set("n", n).merge(metrics);
    if (setup.given("features")) out.set("features", to_text(setup.get("features")));
    Report report("calib metrics: the evaluation metrics of Marx et al. (2023)");
    report.line("data", describe_data(input, data));
    for (const Field& f : metrics)
        report.line(f.name, std::holds_alternative<double>(f.value) ? readable(std::get<double>(f.value)) : to_text(f.value));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

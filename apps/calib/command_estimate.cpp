// `calib estimate`: one calibration-error estimate of a data file, printed as one JSON object. Every
// estimator, its options and its kernel's come from the registry (calib/registry.hpp).
#include "commands.hpp"

#include "args.hpp"
#include "processes.hpp"
#include "progress_bar.hpp"
#include "table_report.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"

#include <calib/registry.hpp>
#include <calib/tool/json.hpp>

#include <cmath>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace calib::cli {

namespace {

std::vector<OptionSpec> estimate_option_specs() {
    std::vector<OptionSpec> specs = command_option_specs("estimate");
    specs.push_back({"preset", true});
    specs.push_back({"estimator", true});
    for (const MethodInfo& m : estimator_methods()) add_option_specs(specs, make_estimator(m.name).options());
    add_option_specs(specs, KernelSetup(families().front()).options());
    return specs;
}

}  // namespace

int run_estimate(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << estimate_help();
        return 0;
    }
    // Every option is checked before the (possibly large) input is read.
    Args args(arguments, estimate_option_specs(), "estimate");
    const InputOptions input = take_input_options(args);
    EstimatorSetup method = take_method(args, "estimator", estimator_methods(), make_estimator);
    const CommandOptions command = take_command_options(args, "estimate").values();
    RunRecord run;
    run.threads = command.threads;
    const OutputFormat format = output_format(command);
    const std::string name = method.info().name;
    ProgressBar bar("calib estimate " + name, !command.quiet);
    const ParallelOptions parallel{run.threads, &bar, run_processes()};
    const Preset* preset = take_preset(args);
    ArgumentOptions given(args);
    const ConfiguredMethod<EstimatorSetup> configured = configure(std::move(method), *input.family, preset, given);
    const EstimatorSetup& setup = configured.method;
    if (stage == Stage::options) return 0;

    const AnyData data = read_input(input, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    std::optional<AnyData> locations;
    if (setup.locations_use() == LocationsUse::required)
        locations = read_locations(input, to_text(setup.get("test_locations")));
    DataSets data_sets;  // ce-* --train, --validation
    for (const std::string& option : setup.data_set_options())
        data_sets.emplace(option, read_data_set(input, to_text(setup.get(option)), &run.files));
    const std::size_t n = data_size(data);
    const MethodRun<EstimateResult> done = run_method(setup, configured.kernel_setup(), data,
                                                      locations ? &*locations : nullptr, data_sets, parallel);
    const EstimateResult& result = done.result;
    run.compute_seconds = done.compute_seconds;
    bar.finish();
    JsonObject out;
    out.set("estimator", name).set("estimate", result.estimate).set("n", n).merge(done.kernel_record);
    Report report("calib estimate: " + setup.info().title);
    report.line("data", describe_data(input, data));
    if (done.kernel) report.line("kernel", describe_kernel(*configured.kernel, *done.kernel));
    // A non-finite estimate is a failure of the library, never a result to print as null.
    if (!std::isfinite(result.estimate))
        throw std::runtime_error(name + " returned a non-finite estimate (" + std::to_string(result.estimate) + ")");
    for (const std::string& warning : result.warnings) warn(warning);
    out.merge(result.details);
    add_options(out, done.options);
    if (preset) out.set("preset", preset->name);
    if (!setup.options().empty()) report.line("options", describe_record(done.options));
    if (!result.details.empty()) report.line("details", describe_record(result.details));
    report.line("estimate", readable(result.estimate));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

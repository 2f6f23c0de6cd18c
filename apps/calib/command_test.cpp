// `calib test`: a calibration test of a data file, printed as one JSON object. Every method, its
// options and its kernel's come from the registry (calib/registry.hpp).
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

#include <algorithm>
#include <iostream>
#include <optional>

namespace calib::cli {

namespace {

std::vector<OptionSpec> test_option_specs() {
    std::vector<OptionSpec> specs = command_option_specs("test");
    specs.push_back({"preset", true});
    specs.push_back({"method", true});
    for (const MethodInfo& m : test_methods()) add_option_specs(specs, make_test(m.name).options());
    add_option_specs(specs, KernelSetup(families().front()).options());
    return specs;
}

// The result's fields with alpha and reject after the p-value.
JsonObject result_fields(const TestResult& result, double alpha) {
    JsonObject out;
    for (const Field& f : result.record()) {
        out.set(f.name, f.value);
        if (f.name == "p_value") out.set("alpha", alpha).set("reject", result.p_value < alpha);
    }
    if (const std::string note = low_power_note(result); !note.empty()) out.set("low_power", command_line_message(note));
    return out;
}

}  // namespace

int run_test(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << test_help();
        return 0;
    }
    // Every option is checked before the (possibly large) input is read.
    Args args(arguments, test_option_specs(), "test");
    const InputOptions input = take_input_options(args);
    TestSetup method = take_method(args, "method", test_methods(), make_test);
    const std::string name = method.info().name;
    const CommandSetup command_setup = take_command_options(args, "test");
    const CommandOptions& command = command_setup.values();
    RunRecord run;
    run.threads = command.threads;
    const OutputFormat format = output_format(command);
    ProgressBar bar("calib test " + name, !command.quiet);
    const ParallelOptions parallel{run.threads, &bar, run_processes()};
    const double alpha = *command.alpha;  // 0.05 unless given
    const Preset* preset = take_preset(args);
    ArgumentOptions given(args);
    const ConfiguredMethod<TestSetup> configured = configure(std::move(method), *input.family, preset, given);
    const TestSetup& setup = configured.method;
    if (stage == Stage::options) return 0;

    const AnyData data = read_input(input, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    std::optional<AnyData> locations;
    if (setup.locations_use() == LocationsUse::required)
        locations = read_locations(input, to_text(setup.get("test_locations")));
    const std::size_t n = data_size(data);
    const MethodRun<TestResult> done =
        run_method(setup, configured.kernel_setup(), data, locations ? &*locations : nullptr, parallel);
    const TestResult& result = done.result;
    run.compute_seconds = done.compute_seconds;
    bar.finish();

    JsonObject out = result_fields(result, alpha);
    add_options(out, done.options);
    if (preset) out.set("preset", preset->name);
    out.merge(done.kernel_record);

    Report report("calib test: " + setup.info().title);
    report.line("data", describe_data(input, data) + (result.n != n ? " (" + std::to_string(result.n) + " used)" : ""));
    if (done.kernel) report.line("kernel", describe_kernel(*configured.kernel, *done.kernel));
    if (!result.estimator_details.empty()) report.line("kernel", describe_record(result.estimator_details));
    const Record details = std::visit([](const auto& d) { return d.record(); }, result.details);
    Record options;  // those the details do not report already
    for (const Field& f : done.options)
        if (std::none_of(details.begin(), details.end(), [&](const Field& d) { return d.name == f.name; }))
            options.push_back(f);
    if (!options.empty()) report.line("options", describe_record(options));
    report.line("estimate", result.estimator + " = " + readable(result.estimate))
        .line("statistic", readable(result.statistic))
        .line("details", describe_record(details))
        .line("p-value", describe_p_value(result))
        .line("verdict", describe_verdict(result, alpha, command_setup.given("alpha")));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

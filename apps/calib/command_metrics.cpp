// `calib metrics`: every evaluation metric of Marx et al. (2023) that applies to the family, in one
// JSON object or a table. The list, the formulas and their order are the library's
// (calib::evaluation_metrics, metrics.hpp); this file reads the files and prints.
#include "commands.hpp"

#include "args.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"
#include "table_report.hpp"
#include "usage_error.hpp"

#include <calib/metrics.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/json.hpp>

#include <cmath>
#include <iostream>
#include <optional>
#include <variant>

namespace calib::cli {

namespace {

std::vector<OptionSpec> metrics_option_specs() {
    std::vector<OptionSpec> specs = shared_option_specs;
    for (const char* name : {"features", "threshold", "qce-binning", "bins", "lce-lengthscale"}) specs.push_back({name, true});
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
    RunRecord run;
    run.threads = take_threads(args);
    const OutputFormat format = take_format(args);
    args.take_flag("quiet");  // nothing long-running to show progress for
    MetricsOptions options;
    options.qce_binning = parse_qce_binning(args.take("qce-binning", "floor"));
    options.bins = static_cast<std::size_t>(parse_integer("bins", args.take("bins", "20"), 1, 100000));
    if (const auto c = args.take("threshold")) options.threshold = parse_double("threshold", *c);
    const std::optional<std::string> features_path = args.take("features");
    if (const auto l = args.take("lce-lengthscale")) {
        if (!features_path) throw usage_error("--lce-lengthscale applies only with --features");
        options.lce_lengthscale = parse_positive_double("lce-lengthscale", *l);
    }
    if (input.family->classes) {
        for (const char* name : {"threshold", "qce-binning", "lce-lengthscale"})
            if (args.has(name))
                throw usage_error(std::string("--") + name + " does not apply to --family " + input.family->name +
                                  " (it is for univariate predictions: normal, laplace, mixture-normal)");
    }
    args.reject_unused("calib metrics");
    if (stage == Stage::options) return 0;

    const AnyData data = read_input(input, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    const std::size_t n = data_size(data);
    std::optional<Matrix> features;
    if (features_path) {
        features = read_table(*features_path, input.read.text);
        if (static_cast<std::size_t>(features->rows()) != n)
            throw usage_error(*features_path + ": " + std::to_string(features->rows()) + " rows, but the input has " +
                              std::to_string(n) + " observations");
        options.features = &*features;
    }
    options.parallel = ParallelOptions{run.threads};
    const Stopwatch stopwatch;
    const Record metrics = evaluation_metrics(data, options);
    run.compute_seconds = stopwatch.seconds();

    // JSON has no infinity: a metric that is not finite (an NLL of +inf) is written null, and said so.
    for (const std::string& warning : non_finite_warnings(metrics))
        warn(warning + ", written null (JSON has no infinity)");
    JsonObject out;
    out.set("command", "metrics").set("n", n).merge(metrics);
    if (features_path) out.set("features", *features_path);
    Report report("calib metrics: the evaluation metrics of Marx et al. (2023)");
    report.line("data", describe_data(input, data));
    for (const Field& f : metrics)
        report.line(f.name, std::holds_alternative<double>(f.value) ? readable(std::get<double>(f.value)) : to_text(f.value));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

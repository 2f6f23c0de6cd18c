// `calib estimate`: one calibration-error estimate of a data file, printed as one JSON object.
#include "commands.hpp"

#include "args.hpp"
#include "ckce_options.hpp"
#include "dataset.hpp"
#include "ece_options.hpp"
#include "kernel_options.hpp"
#include "progress_bar.hpp"
#include "report.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/estimators.hpp>
#include <calib/tool/json.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace calib::cli {

namespace {

const char* const estimator_choices = "skce-biased|skce-unbiased|skce-block|ucme|ece|ckce";

std::vector<OptionSpec> estimate_option_specs() {
    std::vector<OptionSpec> specs = shared_option_specs;
    specs.insert(specs.end(), kernel_option_specs.begin(), kernel_option_specs.end());
    specs.insert(specs.end(), ece_option_specs.begin(), ece_option_specs.end());
    for (const OptionSpec& spec : ckce_option_specs)  // --lengthscale and the median options are shared
        if (std::none_of(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == spec.name; }))
            specs.push_back(spec);
    for (const char* name : {"estimator", "block-size", "test-locations", "format"}) specs.push_back({name, true});
    return specs;
}

// What each estimator is, for the readable report.
std::string estimator_title(const std::string& estimator) {
    if (estimator == "skce-biased") return "the biased estimator of the squared kernel calibration error (SKCE)";
    if (estimator == "skce-unbiased") return "the unbiased estimator of the squared kernel calibration error (SKCE)";
    if (estimator == "skce-block") return "the block estimator of the squared kernel calibration error (SKCE)";
    if (estimator == "ucme") return "the unnormalised calibration mean embedding (UCME) at test locations";
    if (estimator == "ece") return "the binned expected calibration error (ECE)";
    return "the conditional kernel calibration error (CKCE)";
}

// The estimator's own options, taken from the command line before any data is read.
struct EstimatorOptions {
    BlockSizeChoice block_size;  // skce-block
    std::string test_locations;  // ucme
    EceChoice ece;               // ece
};

EstimatorOptions take_estimator_options(Args& args, const std::string& estimator) {
    EstimatorOptions options;
    if (estimator == "skce-block") options.block_size = take_block_size(args, "2");
    else if (estimator == "ucme") options.test_locations = args.take_required("test-locations", "FILE.csv");
    else if (estimator == "ece") options.ece = take_ece_options(args);
    return options;
}

// --estimator ckce: the simplex kernel and the CKCE's own options instead of the kernel options.
int run_ckce_estimate(Args& args, const InputOptions& input, Stage stage) {
    if (!is_categorical(input.family))
        throw usage_error("--estimator ckce applies only to --family categorical or binary, not " +
                          to_string(input.family));
    RunRecord run;
    run.threads = take_threads(args);
    const OutputFormat format = take_format(args);
    ProgressBar bar("calib estimate ckce", !args.take_flag("quiet"));
    const ParallelOptions parallel{run.threads, &bar};
    const CkceChoice choice = take_ckce_options(args, true);
    args.reject_unused("--estimator ckce");
    if (stage == Stage::options) return 0;

    const Dataset data = read_dataset(input.family, input.path, input.read, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    const auto& categorical = std::get<CategoricalData>(data);
    JsonObject out;
    out.set("estimator", "ckce").set("estimate", 0.0).set("n", categorical.size());
    const ResolvedCkce resolved = resolve_ckce(choice, categorical, parallel);
    const Stopwatch stopwatch;
    const CkceResult result = ckce(categorical, resolved.options);
    run.compute_seconds = stopwatch.seconds();
    bar.finish();
    if (!std::isfinite(result.estimate))
        throw std::runtime_error("ckce returned a non-finite estimate (" + std::to_string(result.estimate) + ")");
    out.set("estimate", result.estimate);
    add_ckce_fields(out, choice, resolved, &result);
    Report report("calib estimate: " + estimator_title("ckce"));
    report.line("data", describe_data(input, data))
        .line("kernel", "simplex kernel p'q + exp(-|p-q|^2/(2 g^2)), g = " + readable(resolved.options.kernel.lengthscale) +
                            (choice.bandwidth ? " (given)" : " (median of the distances between predictions)"))
        .line("ridge", "lambda = " + readable(result.lambda) + " (" + choice.lambda_rule + "), " +
                           to_string(result.method) + " method")
        .line("estimate", readable(result.estimate));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace

int run_estimate(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << estimate_help;
        return 0;
    }
    // Every option is checked before the (possibly large) input is read.
    Args args(arguments, estimate_option_specs(), "estimate");
    const InputOptions input = take_input_options(args);
    const std::string estimator = args.take_required("estimator", estimator_choices);
    const bool is_ece = estimator == "ece";
    if (!is_ece && estimator != "skce-biased" && estimator != "skce-unbiased" &&
        estimator != "skce-block" && estimator != "ucme" && estimator != "ckce")
        throw usage_error("unknown estimator '" + estimator + "', expected one of " +
                          estimator_choices);
    if (estimator == "ckce") return run_ckce_estimate(args, input, stage);
    if (is_ece && !is_categorical(input.family))
        throw usage_error("--estimator ece applies only to --family categorical or binary, not " +
                          to_string(input.family));
    // The ECE has no kernel: the kernel options are rejected below for it. It bins serially, so
    // --threads is accepted (scripts pass the same flags to every call) and has no effect.
    RunRecord run;
    run.threads = take_threads(args);
    const OutputFormat format = take_format(args);
    ProgressBar bar("calib estimate " + estimator, !args.take_flag("quiet"));
    const ParallelOptions parallel{run.threads, &bar};
    const std::optional<KernelOptions> kernel_options =
        is_ece ? std::nullopt : std::optional(take_kernel_options(args, input.family));
    const EstimatorOptions options = take_estimator_options(args, estimator);
    args.reject_unused("--estimator " + estimator);
    if (stage == Stage::options) return 0;

    const Dataset data = read_dataset(input.family, input.path, input.read, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    const std::size_t n = size_of(data);
    JsonObject out;  // "estimate" is set now to fix its place near the top, and filled in below
    out.set("estimator", estimator).set("estimate", 0.0).set("n", n);
    Report report("calib estimate: " + estimator_title(estimator));
    report.line("data", describe_data(input, data));

    std::optional<Kernel> kernel;
    if (kernel_options) {
        kernel = resolve_kernel(*kernel_options, data, parallel);
        add_kernel_fields(out, *kernel_options, *kernel);
        report.line("kernel", describe_kernel(*kernel_options, *kernel));
    }
    std::optional<Dataset> locations;
    if (estimator == "ucme")
        locations = read_locations(input.family, options.test_locations, input.read, data, input.path);

    const Stopwatch stopwatch;
    double estimate = 0;
    if (estimator == "skce-biased") {
        estimate = std::visit([&](const auto& d) { return skce_biased(d, *kernel, parallel); }, data);
    } else if (estimator == "skce-unbiased") {
        estimate =
            std::visit([&](const auto& d) { return skce_unbiased(d, *kernel, parallel); }, data);
    } else if (estimator == "skce-block") {
        const std::size_t block_size = options.block_size.resolve(n);
        const BlockSkce block = std::visit(
            [&](const auto& d) { return skce_block(d, *kernel, block_size, parallel); }, data);
        estimate = block.estimate;
        out.set("block_size", block.block_size)
            .set("block_size_rule", options.block_size.rule())
            .set("num_blocks", block.block_estimates.size());
        report.line("blocks", std::to_string(block.block_estimates.size()) + " blocks of B = " +
                                  std::to_string(block.block_size) + " (" + options.block_size.rule() + ")");
    } else if (estimator == "ucme") {
        estimate = std::visit(
            [&](const auto& d) {
                using Data = std::decay_t<decltype(d)>;
                return ucme(d, std::get<Data>(*locations), *kernel, parallel);
            },
            data);
        out.set("test_locations", options.test_locations)
            .set("num_locations", size_of(*locations));
        report.line("locations", std::to_string(size_of(*locations)) + " test locations from " + options.test_locations);
    } else {
        estimate = ece(std::get<CategoricalData>(data), options.ece.options);
        add_ece_fields(out, options.ece);
        report.line("bins", options.ece.binning + ", " + to_string(options.ece.options.distance) + " distance, " +
                                to_string(options.ece.options.mode) + " mode");
    }
    run.compute_seconds = stopwatch.seconds();
    bar.finish();
    // A non-finite estimate is a failure of the library, never a result to print as null.
    if (!std::isfinite(estimate))
        throw std::runtime_error(estimator + " returned a non-finite estimate (" +
                                 std::to_string(estimate) + ")");

    out.set("estimate", estimate);
    report.line("estimate", readable(estimate));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

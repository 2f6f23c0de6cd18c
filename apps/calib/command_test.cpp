// `calib test`: a calibration test of a data file, printed as one JSON object.
#include "commands.hpp"

#include "args.hpp"
#include "dataset.hpp"
#include "kernel_options.hpp"
#include "progress_bar.hpp"
#include "report.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"
#include "test_methods.hpp"
#include "test_options.hpp"

#include <calib/tool/json.hpp>

#include <cmath>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace calib::cli {

namespace {

// A p-value outside [0, 1] or a non-finite estimate is a failure of the library, never a result to
// print. The statistic may be infinite: the block test with a zero standard error (degenerate).
void check_result(const TestResult& result) {
    if (!(result.p_value >= 0 && result.p_value <= 1) || std::isnan(result.statistic) ||
        !std::isfinite(result.estimate))
        throw std::runtime_error(result.method + " test returned p_value = " + json_number(result.p_value) +
                                 ", statistic = " + json_number(result.statistic) +
                                 ", estimate = " + json_number(result.estimate));
}

// The result's fields in TestResult::to_json() order, with alpha and reject after the p-value.
JsonObject result_fields(const TestResult& result, const std::optional<double>& alpha) {
    JsonObject out;
    out.set("method", result.method)
        .set("null", result.null_approximation)
        .set("estimator", result.estimator)
        .set("estimate", result.estimate)
        .set("statistic", result.statistic)
        .set("p_value", result.p_value);
    if (alpha) out.set("alpha", *alpha).set("reject", result.p_value < *alpha);
    out.set("n", result.n);
    for (const auto& [name, value] : result.details) out.set(name, value);
    return out;
}

// What the test is, in words, with the numbers that define it.
std::string method_title(const TestPlan& plan, const TestResult& result, std::size_t n) {
    const std::string replicates = readable(double(plan.replicates)) + " replicates, seed " +
                                   (plan.seed ? std::to_string(*plan.seed) : "");
    switch (plan.method) {
        case Method::block:
            return "block test: z-test of the SKCE over blocks of B = " + std::to_string(plan.block_size.resolve(n)) +
                   " (normal null)";
        case Method::bootstrap: return "quadratic test with a bootstrap null (" + replicates + ")";
        case Method::gamma: return "quadratic test with a moment-matched Gamma null";
        case Method::spectral: return "quadratic test with the Gram-spectrum null (" + replicates + ")";
        case Method::dfree_biased: return "distribution-free test of the biased SKCE (McDiarmid bound; conservative)";
        case Method::dfree_unbiased:
            return "distribution-free test of the unbiased SKCE (Hoeffding bound; conservative)";
        case Method::dfree_block:
            return "distribution-free test of the block SKCE, B = " + std::to_string(plan.block_size.resolve(n)) +
                   " (Hoeffding bound; conservative)";
        case Method::consistency:
            return "consistency resampling of the " + result.estimator + " (" + replicates + ")";
        case Method::cme:
            return "CME test: Hotelling statistic at " + std::to_string(plan.num_locations) + " test locations (" +
                   result.null_approximation + " null)";
    }
    return plan.method_name;
}

}  // namespace

int run_test(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << test_help;
        return 0;
    }
    // Every option is checked before the (possibly large) input is read.
    Args args(arguments, test_option_specs(), "test");
    const InputOptions input = take_input_options(args);
    TestPlan plan = take_test_options(args, input.family);
    RunRecord run;
    run.threads = take_threads(args);
    const OutputFormat format = take_format(args);
    ProgressBar bar("calib test " + plan.method_name, !args.take_flag("quiet"));
    const ParallelOptions parallel{run.threads, &bar};
    const std::optional<KernelOptions> kernel_options =
        plan.uses_kernel() ? std::optional(take_kernel_options(args, input.family)) : std::nullopt;
    args.reject_unused(plan.context());
    if (stage == Stage::options) return 0;

    const Dataset data = read_dataset(input.family, input.path, input.read, &run.files);
    run.max_simplex_deviation = max_simplex_deviation(data);
    std::optional<Dataset> locations;
    if (!plan.test_locations.empty()) {
        locations = read_locations(input.family, plan.test_locations, input.read, data, input.path);
        plan.num_locations = size_of(*locations);
    }
    const std::size_t n = size_of(data);
    check_size(plan, n);
    std::optional<Kernel> kernel;
    if (kernel_options) kernel = resolve_kernel(*kernel_options, data, parallel);

    const Stopwatch stopwatch;
    const TestResult result = run_method(plan, data, kernel ? &*kernel : nullptr,
                                         locations ? &*locations : nullptr, parallel);
    run.compute_seconds = stopwatch.seconds();
    bar.finish();
    check_result(result);

    JsonObject out = result_fields(result, plan.alpha);
    add_plan_fields(out, plan, n);
    if (kernel) add_kernel_fields(out, *kernel_options, *kernel);
    if (plan.seed) out.set("seed", *plan.seed);  // exactly, also where the details hold it as a double

    Report report("calib test: " + method_title(plan, result, n));
    report.line("data", describe_data(input, data) + (result.n != n ? " (" + std::to_string(result.n) + " used)" : ""));
    if (kernel) report.line("kernel", describe_kernel(*kernel_options, *kernel));
    report.line("estimate", result.estimator + " = " + readable(result.estimate))
        .line("statistic", readable(result.statistic))
        .line("p-value", describe_p_value(result))
        .line("verdict", describe_verdict(result, plan.alpha.value_or(0.05), plan.alpha.has_value()));
    print_result(format, out, report, input, run);
    return 0;
}

}  // namespace calib::cli

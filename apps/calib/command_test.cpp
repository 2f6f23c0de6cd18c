// `calib test`: a calibration test of a data file, printed as one JSON object.
#include "commands.hpp"

#include "args.hpp"
#include "dataset.hpp"
#include "kernel_options.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"
#include "test_methods.hpp"
#include "test_options.hpp"

#include <calib/json.hpp>

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

}  // namespace

int run_test(const std::vector<std::string>& arguments) {
    if (wants_help(arguments)) {
        std::cout << test_help;
        return 0;
    }
    // Every option is checked before the (possibly large) input is read.
    Args args(arguments, test_option_specs(), "test");
    const InputOptions input = take_input_options(args);
    TestPlan plan = take_test_options(args, input.family);
    const int threads = take_threads(args);
    const std::optional<KernelOptions> kernel_options =
        plan.uses_kernel() ? std::optional(take_kernel_options(args, input.family)) : std::nullopt;
    args.reject_unused(plan.context());

    const Dataset data = read_dataset(input.family, input.path, input.csv);
    std::optional<Dataset> locations;
    if (!plan.test_locations.empty()) {
        locations = read_locations(input.family, plan.test_locations, input.csv, data, input.path);
        plan.num_locations = size_of(*locations);
    }
    const std::size_t n = size_of(data);
    check_size(plan, n);
    std::optional<Kernel> kernel;
    if (kernel_options) kernel = resolve_kernel(*kernel_options, data);

    const Stopwatch stopwatch;
    const TestResult result = run_method(plan, data, kernel ? &*kernel : nullptr,
                                         locations ? &*locations : nullptr, threads);
    const double seconds = stopwatch.seconds();
    check_result(result);

    JsonObject out = result_fields(result, plan.alpha);
    add_plan_fields(out, plan, n);
    if (kernel) add_kernel_fields(out, *kernel_options, *kernel);
    if (plan.seed) out.set("seed", *plan.seed);  // exactly, also where the details hold it as a double
    print_with_run_fields(out, input, threads, seconds);
    return 0;
}

}  // namespace calib::cli

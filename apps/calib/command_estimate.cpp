// `calib estimate`: one calibration-error estimate of a data file, printed as one JSON object.
#include "commands.hpp"

#include "args.hpp"
#include "dataset.hpp"
#include "kernel_options.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/json.hpp>
#include <calib/version.hpp>

#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace calib::cli {

namespace {

const char* const estimator_choices = "skce-biased|skce-unbiased|skce-block|ucme|ece";

std::vector<OptionSpec> estimate_option_specs() {
    std::vector<OptionSpec> specs = shared_option_specs;
    specs.insert(specs.end(), kernel_option_specs.begin(), kernel_option_specs.end());
    for (const char* name : {"estimator", "block-size", "test-locations", "binning", "distance", "mode"})
        specs.push_back({name, true});
    return specs;
}

// The estimator's own options, taken from the command line before any data is read.
struct EstimatorOptions {
    std::optional<std::size_t> block_size;  // skce-block; empty: sqrt_block_size(n)
    std::string test_locations;             // ucme
    EceOptions ece;                         // ece
    std::string binning;                    // ece, as given (normalised)
};

int binning_count(const std::string& binning, const std::string& count) {
    try {
        return static_cast<int>(parse_integer("binning", count, 1, INT_MAX));
    } catch (const usage_error&) {
        throw usage_error("option --binning " + binning + ": '" + count +
                          "' must be an integer >= 1");
    }
}

// uniform:NBINS or median-variance:MINSIZE[:MAXBINS].
void parse_binning(const std::string& text, EceOptions& ece) {
    const std::size_t colon = text.find(':');
    const std::string scheme = text.substr(0, colon);
    std::vector<std::string> numbers;
    for (std::size_t start = colon; start != std::string::npos;) {
        const std::size_t next = text.find(':', start + 1);
        numbers.push_back(text.substr(start + 1, next == std::string::npos ? next : next - start - 1));
        start = next;
    }
    if (scheme == "uniform" && numbers.size() == 1) {
        ece.binning = BinningScheme::uniform;
        ece.nbins = binning_count(text, numbers[0]);
    } else if (scheme == "median-variance" && (numbers.size() == 1 || numbers.size() == 2)) {
        ece.binning = BinningScheme::median_variance;
        ece.minsize = binning_count(text, numbers[0]);
        if (numbers.size() == 2) ece.maxbins = binning_count(text, numbers[1]);
    } else {
        throw usage_error("option --binning " + text +
                          ", expected uniform:NBINS or median-variance:MINSIZE[:MAXBINS]");
    }
}

EstimatorOptions take_estimator_options(Args& args, const std::string& estimator) {
    EstimatorOptions options;
    if (estimator == "skce-block") {
        const std::string size = args.take("block-size", "2");
        if (size != "sqrt")
            options.block_size = static_cast<std::size_t>(parse_integer("block-size", size, 2));
    } else if (estimator == "ucme") {
        options.test_locations = args.take_required("test-locations", "FILE.csv");
    } else if (estimator == "ece") {
        options.binning = args.take("binning", "uniform:10");
        parse_binning(options.binning, options.ece);
        const std::string distance = args.take("distance", "tv");
        if (distance != "tv" && distance != "l1" && distance != "euclidean" &&
            distance != "sqeuclidean")
            throw usage_error("option --distance " + distance +
                              ", expected tv, l1, euclidean or sqeuclidean");
        options.ece.distance = parse_ece_distance(distance);
        const std::string mode = args.take("mode", "canonical");
        if (mode != "canonical" && mode != "top-label")
            throw usage_error("option --mode " + mode + ", expected canonical or top-label");
        options.ece.mode = parse_ece_mode(mode);
    }
    return options;
}

// Test locations must live in the space of the predictions; said here so that the message names
// the two files rather than the arguments of calib::ucme.
void check_locations(const Dataset& data, const Dataset& locations, const std::string& data_path,
                     const std::string& locations_path) {
    const auto fail = [&](const std::string& what, long of_locations, long of_data) {
        throw invalid_argument(locations_path + ": the test locations have " + what + " " +
                               std::to_string(of_locations) + " but " + data_path + " has " +
                               std::to_string(of_data));
    };
    if (const auto* c = std::get_if<CategoricalData>(&data)) {
        const int m = std::get<CategoricalData>(locations).num_classes();
        if (m != c->num_classes()) fail("number of classes", m, c->num_classes());
    } else if (const auto* mv = std::get_if<MvNormalData>(&data)) {
        const int dim = std::get<MvNormalData>(locations).dimension();
        if (dim != mv->dimension()) fail("dimension", dim, mv->dimension());
    }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int run_estimate(const std::vector<std::string>& arguments) {
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
        estimator != "skce-block" && estimator != "ucme")
        throw usage_error("unknown estimator '" + estimator + "', expected one of " +
                          estimator_choices);
    if (is_ece && !is_categorical(input.family))
        throw usage_error("--estimator ece applies only to --family categorical or binary, not " +
                          to_string(input.family));
    // The ECE bins predictions serially and has no kernel: --threads and the kernel options are
    // rejected below for it.
    const ParallelOptions parallel{is_ece ? 1 : take_threads(args)};
    const std::optional<KernelOptions> kernel_options =
        is_ece ? std::nullopt : std::optional(take_kernel_options(args, input.family));
    const EstimatorOptions options = take_estimator_options(args, estimator);
    args.reject_unused("--estimator " + estimator);

    const Dataset data = read_dataset(input.family, input.path, input.csv);
    const std::size_t n = size_of(data);
    JsonObject out;  // "estimate" is set now to fix its place near the top, and filled in below
    out.set("estimator", estimator).set("estimate", 0.0).set("n", n);

    std::optional<Kernel> kernel;
    if (kernel_options) {
        kernel = resolve_kernel(*kernel_options, data);
        add_kernel_fields(out, *kernel_options, *kernel);
    }
    std::optional<Dataset> locations;
    if (estimator == "ucme") {
        locations = read_dataset(input.family, options.test_locations, input.csv);
        check_locations(data, *locations, input.path, options.test_locations);
    }

    const auto start = std::chrono::steady_clock::now();
    double estimate = 0;
    if (estimator == "skce-biased") {
        estimate = std::visit([&](const auto& d) { return skce_biased(d, *kernel, parallel); }, data);
    } else if (estimator == "skce-unbiased") {
        estimate =
            std::visit([&](const auto& d) { return skce_unbiased(d, *kernel, parallel); }, data);
    } else if (estimator == "skce-block") {
        const std::size_t block_size = options.block_size.value_or(sqrt_block_size(n));
        const BlockSkce block = std::visit(
            [&](const auto& d) { return skce_block(d, *kernel, block_size, parallel); }, data);
        estimate = block.estimate;
        out.set("block_size", block.block_size)
            .set("block_size_rule", options.block_size ? "given" : "sqrt")
            .set("num_blocks", block.block_estimates.size());
    } else if (estimator == "ucme") {
        estimate = std::visit(
            [&](const auto& d) {
                using Data = std::decay_t<decltype(d)>;
                return ucme(d, std::get<Data>(*locations), *kernel, parallel);
            },
            data);
        out.set("test_locations", options.test_locations)
            .set("num_locations", size_of(*locations));
    } else {
        estimate = ece(std::get<CategoricalData>(data), options.ece);
        out.set("binning", options.binning)
            .set("distance", to_string(options.ece.distance))
            .set("mode", to_string(options.ece.mode));
    }
    const double seconds = seconds_since(start);
    // A non-finite estimate is a failure of the library, never a result to print as null.
    if (!std::isfinite(estimate))
        throw std::runtime_error(estimator + " returned a non-finite estimate (" +
                                 std::to_string(estimate) + ")");

    out.set("estimate", estimate);
    out.set("family", to_string(input.family)).set("input", input.path);
    out.set("threads", resolved_threads(parallel.num_threads));
    out.set("wall_time_seconds", seconds);
    out.set("calib_version", version);
    std::cout << out.dump() << '\n';  // one line: easy to append to a JSON Lines log
    return 0;
}

}  // namespace calib::cli

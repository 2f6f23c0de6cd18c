// Kernel options: defaults per family, the supported combinations, and the median heuristic.
#include "kernel_options.hpp"

#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/kernels.hpp>

namespace calib::cli {

const std::vector<OptionSpec> median_option_specs = {{"median-subsample", true}, {"median-seed", true}};

const std::vector<OptionSpec> kernel_option_specs = [] {
    std::vector<OptionSpec> specs = {{"kernel-p", true}, {"metric", true}, {"lengthscale", true},
                                     {"kernel-y", true}, {"lengthscale-y", true}};
    specs.insert(specs.end(), median_option_specs.begin(), median_option_specs.end());
    return specs;
}();

MedianSampling take_median_sampling(Args& args, bool median) {
    MedianSampling sampling;
    for (const char* option : {"median-subsample", "median-seed"})
        if (args.has(option) && !median)
            throw usage_error(std::string("option --") + option +
                              " applies only to a lengthscale chosen by the median heuristic");
    if (const auto k = args.take("median-subsample"))
        sampling.subsample = static_cast<std::size_t>(parse_integer("median-subsample", *k, 2));
    if (args.has("median-seed") && sampling.subsample == 0)
        throw usage_error("option --median-seed applies only with --median-subsample (the exact median draws nothing)");
    if (const auto seed = args.take("median-seed")) sampling.seed = parse_unsigned64("median-seed", *seed);
    return sampling;
}

void add_median_sampling_fields(JsonObject& out, const MedianSampling& sampling) {
    if (sampling.subsample == 0) return;
    out.set("median_subsample", sampling.subsample).set("median_seed", sampling.seed);
}

namespace {

// The metrics and target kernels with closed forms for each family (kernels.hpp).
struct FamilyKernels {
    std::vector<std::string> metrics, targets;
};

FamilyKernels supported(Family family) {
    if (is_categorical(family)) return {{"tv", "l1", "euclidean"}, {"white"}};
    if (family == Family::laplace) return {{"w2"}, {"exp"}};
    return {{"w2"}, {"sqexp"}};
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names) out += (out.empty() ? "" : "|") + name;
    return out;
}

std::string choose(const std::string& option, const std::string& value,
                   const std::vector<std::string>& allowed, Family family) {
    for (const std::string& name : allowed)
        if (value == name) return value;
    throw usage_error("option --" + option + " " + value + " is not available for --family " +
                      to_string(family) + " (choose " + join(allowed) + ")");
}

}  // namespace

KernelOptions take_kernel_options(Args& args, Family family) {
    const FamilyKernels allowed = supported(family);
    KernelOptions options;
    PredictionKernel& p = options.kernel.prediction;
    TargetKernel& y = options.kernel.target;

    const std::string shape = args.take("kernel-p", "exp");
    if (shape != "exp" && shape != "sqexp")
        throw usage_error("option --kernel-p " + shape + ", expected exp or sqexp");
    p.shape = parse_prediction_kernel_shape(shape);
    p.metric = parse_metric(choose("metric", args.take("metric", allowed.metrics.front()),
                                   allowed.metrics, family));

    const std::string lengthscale = args.take("lengthscale", "median");
    const bool median = lengthscale == "median" || lengthscale == "median-full";
    const MedianSampling sampling = take_median_sampling(args, median);
    if (median) {
        options.median = MedianOptions{};
        options.median->variant = lengthscale == "median" ? MedianVariant::pairs : MedianVariant::full;
        options.median->subsample = sampling.subsample;
        options.median->seed = sampling.seed;
        options.lengthscale_rule = lengthscale;
    } else {
        p.lengthscale = parse_positive_double("lengthscale", lengthscale);
    }

    y.type = parse_target_kernel_type(
        choose("kernel-y", args.take("kernel-y", allowed.targets.front()), allowed.targets, family));
    if (const auto text = args.take("lengthscale-y")) {
        if (y.type == TargetKernelType::white)
            throw usage_error("option --lengthscale-y does not apply to --kernel-y white");
        y.lengthscale = parse_positive_double("lengthscale-y", *text);
    }
    return options;
}

Kernel resolve_kernel(const KernelOptions& options, const Dataset& data, const ParallelOptions& parallel) {
    Kernel kernel = options.kernel;
    if (!options.median) return kernel;
    MedianOptions median = *options.median;
    median.parallel = parallel;
    try {
        kernel.prediction.lengthscale = std::visit(
            [&](const auto& d) { return median_distance(d, kernel.prediction.metric, median); },
            data);
    } catch (const invalid_argument& e) {
        // Name the option that asked for the median (e.g. all predictions equal: median 0).
        throw invalid_argument(std::string("--lengthscale ") + options.lengthscale_rule + ": " +
                               e.what());
    }
    return kernel;
}

void add_kernel_fields(JsonObject& out, const KernelOptions& options, const Kernel& kernel) {
    out.set("lengthscale", kernel.prediction.lengthscale);
    out.set("lengthscale_rule", options.lengthscale_rule);
    if (options.median) add_median_sampling_fields(out, {options.median->subsample, options.median->seed});
    JsonObject prediction, target;
    prediction.set("shape", to_string(kernel.prediction.shape))
        .set("metric", to_string(kernel.prediction.metric))
        .set("lengthscale", kernel.prediction.lengthscale);
    target.set("type", to_string(kernel.target.type));
    if (kernel.target.type != TargetKernelType::white)
        target.set("lengthscale", kernel.target.lengthscale);
    out.set("kernel", JsonObject().set("prediction", prediction).set("target", target));
}

}  // namespace calib::cli

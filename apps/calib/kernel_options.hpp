// The kernel options shared by the analysis subcommands: --kernel-p, --metric, --lengthscale,
// --kernel-y, --lengthscale-y. Parsed and checked against the family before the input is read;
// the median heuristic is resolved on the data afterwards.
#pragma once

#include "args.hpp"
#include "dataset.hpp"

#include <calib/tool/json.hpp>
#include <calib/kernels.hpp>
#include <calib/tool/random.hpp>

#include <optional>
#include <string>
#include <vector>

namespace calib::cli {

struct KernelOptions {
    Kernel kernel;                              // lengthscale not yet set when median is asked
    std::optional<MedianOptions> median;        // set: the lengthscale is a median heuristic
    std::string lengthscale_rule = "given";     // "given", "median" or "median-full"
};

extern const std::vector<OptionSpec> kernel_option_specs;

// --median-subsample K and --median-seed S (the median heuristic on K observations drawn with seed S
// instead of the exact median over all pairs), for a lengthscale chosen by a median heuristic;
// `median` says whether one is (else the options are rejected).
extern const std::vector<OptionSpec> median_option_specs;
struct MedianSampling {
    std::size_t subsample = 0;  // 0: exact, all observations
    std::uint64_t seed = default_seed;
};
MedianSampling take_median_sampling(Args& args, bool median);
// Adds median_subsample and median_seed when a subsample was asked for.
void add_median_sampling_fields(JsonObject& out, const MedianSampling& sampling);

// Takes the kernel options, applies the family's defaults and throws usage_error for a metric or
// target kernel the family does not support, or a bad lengthscale.
KernelOptions take_kernel_options(Args& args, Family family);

// The kernel with its prediction lengthscale resolved (median of the distances of `data`, on
// `threads` threads). Throws calib::invalid_argument when the median is 0.
Kernel resolve_kernel(const KernelOptions& options, const Dataset& data, const ParallelOptions& parallel);

// Adds "lengthscale", "lengthscale_rule" and "kernel" (prediction and target parts) to `out`.
void add_kernel_fields(JsonObject& out, const KernelOptions& options, const Kernel& kernel);

}  // namespace calib::cli

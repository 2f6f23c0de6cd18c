// The options of the CKCE in `calib estimate --estimator ckce` and `calib rank`: --lengthscale
// (the bandwidth γ of the simplex kernel), --ckce-method, --lambda / --lambda-power, --features,
// --rank, --tolerance and --seed. Parsed before the input is read; γ is resolved on each data set.
#pragma once

#include "args.hpp"
#include "kernel_options.hpp"

#include <calib/ckce.hpp>
#include <calib/tool/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace calib::cli {

struct CkceChoice {
    CkceOptions options;              // the kernel's bandwidth is set by resolve_ckce
    std::optional<double> bandwidth;  // --lengthscale G; empty: the median heuristic
    MedianSampling median;            // --median-subsample, --median-seed
    std::string lambda_rule;          // "n^(-a)" with the power, or "given"
};

// The option names; `calib estimate` and `calib rank` add them to their own.
extern const std::vector<OptionSpec> ckce_option_specs;

// Takes the CKCE options; throws usage_error for a bad value, --lambda with --lambda-power, or a
// method option given for another method (--features with a method other than rff, ...; --seed too
// when `seed_only_for_rff`: `calib rank` also seeds its bootstrap with it).
CkceChoice take_ckce_options(Args& args, bool seed_only_for_rff);

// The options with γ set for the predictions `data`: the given one, or the median of the
// Euclidean distances between predictions (ckce.hpp: simplex_median_lengthscale).
struct ResolvedCkce {
    CkceOptions options;
    MedianLengthscale bandwidth;
};
ResolvedCkce resolve_ckce(const CkceChoice& choice, const CategoricalData& data, const ParallelOptions& parallel);

// Adds lengthscale, lengthscale_rule, bandwidth_fallback, kernel, lambda, lambda_rule, ridge,
// ckce_method and the method's own fields (features, seed; rank, tolerance, residual_trace).
void add_ckce_fields(JsonObject& out, const CkceChoice& choice, const ResolvedCkce& resolved,
                     const CkceResult* result);

}  // namespace calib::cli

// Parsing and reporting the CKCE options (ckce_options.hpp).
#include "ckce_options.hpp"

#include "usage_error.hpp"

#include <cstdio>

namespace calib::cli {

const std::vector<OptionSpec> ckce_option_specs = [] {
    std::vector<OptionSpec> specs = {{"lengthscale", true}, {"ckce-method", true}, {"lambda", true},
                                     {"lambda-power", true}, {"features", true}, {"rank", true},
                                     {"tolerance", true},  {"seed", true}};
    specs.insert(specs.end(), median_option_specs.begin(), median_option_specs.end());
    return specs;
}();

namespace {

std::string number_text(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}

// An option that belongs to one method, given with another.
void reject_for_method(Args& args, const char* option, const std::string& method, const char* its_method) {
    if (args.has(option) && method != its_method)
        throw usage_error(std::string("option --") + option + " applies only to --ckce-method " + its_method +
                          ", not " + method);
}

}  // namespace

CkceChoice take_ckce_options(Args& args, bool seed_only_for_rff) {
    CkceChoice choice;
    CkceOptions& o = choice.options;
    const std::string lengthscale = args.take("lengthscale", "median");
    if (lengthscale != "median") choice.bandwidth = parse_positive_double("lengthscale", lengthscale);
    choice.median = take_median_sampling(args, !choice.bandwidth);

    const std::string method = args.take("ckce-method", "exact");
    if (method != "exact" && method != "eigen" && method != "rff" && method != "lowrank")
        throw usage_error("option --ckce-method " + method + ", expected exact, eigen, rff or lowrank");
    o.method = parse_ckce_method(method);
    reject_for_method(args, "features", method, "rff");
    reject_for_method(args, "rank", method, "lowrank");
    reject_for_method(args, "tolerance", method, "lowrank");
    if (seed_only_for_rff) reject_for_method(args, "seed", method, "rff");
    if (const auto text = args.take("features"))
        o.features = static_cast<std::size_t>(parse_integer("features", *text, 1, 1000000));
    if (const auto text = args.take("rank"))
        o.max_rank = static_cast<std::size_t>(parse_integer("rank", *text, 1));
    if (const auto text = args.take("tolerance")) {
        o.tolerance = parse_double("tolerance", *text);
        if (!(o.tolerance >= 0 && o.tolerance < 1))
            throw usage_error("option --tolerance = '" + *text + "', must be in [0, 1)");
    }
    if (const auto text = args.take("seed")) o.seed = parse_unsigned64("seed", *text);

    if (args.has("lambda") && args.has("lambda-power"))
        throw usage_error("options --lambda and --lambda-power exclude each other (give one)");
    if (const auto text = args.take("lambda")) {
        o.regularization = Regularization::fixed(parse_positive_double("lambda", *text));
        choice.lambda_rule = "given";
    } else {
        const auto power = args.take("lambda-power");
        if (power) {
            o.regularization.power = parse_double("lambda-power", *power);
            if (o.regularization.power < 0)
                throw usage_error("option --lambda-power = '" + *power + "', must be >= 0");
        }
        choice.lambda_rule = "n^(-" + number_text(o.regularization.power) + ")";
    }
    return choice;
}

ResolvedCkce resolve_ckce(const CkceChoice& choice, const CategoricalData& data, const ParallelOptions& parallel) {
    ResolvedCkce r{choice.options, {}};
    if (choice.bandwidth) {
        r.bandwidth.value = *choice.bandwidth;
    } else {
        MedianOptions median;
        median.subsample = choice.median.subsample;
        median.seed = choice.median.seed;
        median.parallel = parallel;
        r.bandwidth = simplex_median_lengthscale(data.probabilities(), median);
    }
    r.options.kernel.lengthscale = r.bandwidth.value;
    r.options.parallel = parallel;
    return r;
}

void add_ckce_fields(JsonObject& out, const CkceChoice& choice, const ResolvedCkce& resolved,
                     const CkceResult* result) {
    const CkceOptions& o = resolved.options;
    out.set("lengthscale", o.kernel.lengthscale);
    out.set("lengthscale_rule", choice.bandwidth ? "given" : "median");
    add_median_sampling_fields(out, choice.median);
    if (!choice.bandwidth) out.set("bandwidth_fallback", to_string(resolved.bandwidth.fallback));
    out.set("kernel", JsonObject()
                          .set("type", "simplex")
                          .set("linear", o.kernel.linear)
                          .set("gaussian", o.kernel.gaussian)
                          .set("bandwidth", o.kernel.lengthscale)
                          .set("label", "kronecker"));
    if (result) out.set("lambda", result->lambda);
    out.set("lambda_rule", choice.lambda_rule);
    if (result) out.set("ridge", result->ridge);
    out.set("ckce_method", to_string(o.method));
    if (o.method == CkceMethod::rff) {
        out.set("features", o.features);
        if (result) out.set("feature_dimension", result->rank);
    }
    if (o.method == CkceMethod::lowrank) {
        out.set("max_rank", o.max_rank).set("tolerance", o.tolerance);
        if (result) out.set("rank", result->rank).set("residual_trace", result->residual_trace);
    }
    if (o.method == CkceMethod::rff) out.set("seed", o.seed);
}

}  // namespace calib::cli

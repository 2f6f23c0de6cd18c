// Parsing and checking the options of `calib test` (test_options.hpp).
#include "test_options.hpp"

#include "kernel_options.hpp"
#include "usage_error.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace calib::cli {

const char* const method_choices =
    "block|bootstrap|gamma|spectral|dfree-biased|dfree-unbiased|dfree-block|consistency|cme";

namespace {

const std::pair<Method, const char*> method_names[] = {
    {Method::block, "block"},           {Method::bootstrap, "bootstrap"},
    {Method::gamma, "gamma"},           {Method::spectral, "spectral"},
    {Method::dfree_biased, "dfree-biased"}, {Method::dfree_unbiased, "dfree-unbiased"},
    {Method::dfree_block, "dfree-block"},   {Method::consistency, "consistency"},
    {Method::cme, "cme"},
};

const char* const consistency_estimators = "ece|skce-unbiased|skce-biased|skce-block";

bool is_resampling(Method m) {
    return m == Method::bootstrap || m == Method::spectral || m == Method::consistency;
}

// BYTES, or a number with the suffix K, M or G (powers of 1024).
std::size_t parse_bytes(const std::string& text) {
    const char last = text.empty() ? '\0' : text.back();
    const std::uint64_t unit =
        last == 'K' ? 1ull << 10 : last == 'M' ? 1ull << 20 : last == 'G' ? 1ull << 30 : 1;
    const std::string digits = unit == 1 ? text : text.substr(0, text.size() - 1);
    std::uint64_t value = 0;
    try {
        value = parse_unsigned64("memory-budget", digits);
    } catch (const usage_error&) {
        value = UINT64_MAX;  // reported below with the accepted forms
    }
    if (value == UINT64_MAX || value > SIZE_MAX / unit)
        throw usage_error("option --memory-budget = '" + text +
                          "', must be auto or a number of bytes, optionally with the suffix K, M or G");
    return static_cast<std::size_t>(value * unit);
}

std::size_t take_replicates(Args& args) {
    return static_cast<std::size_t>(
        parse_integer("replicates", args.take("replicates", "1000"), 1, calib::max_replicates));
}

PValueRule take_rule(Args& args) {
    const std::string rule = args.take("pvalue-rule", "count");
    if (rule == "count") return PValueRule::count;
    if (rule == "plus-one") return PValueRule::plus_one;
    throw usage_error("option --pvalue-rule " + rule + ", expected count or plus-one");
}

void take_block_options(Args& args, TestPlan& plan) {
    plan.block_size = take_block_size(args, nullptr);
    plan.null_variance = args.take_flag("null-variance");
    if (plan.null_variance && args.has("variance-divisor"))
        throw usage_error("option --variance-divisor does not apply with --null-variance (the standard "
                          "error then comes from the within-block mean of h^2)");
    const std::string divisor = args.take("variance-divisor", "s-1");
    if (divisor != "s-1" && divisor != "s")
        throw usage_error("option --variance-divisor " + divisor + ", expected s-1 or s");
    plan.divisor = divisor == "s" ? VarianceDivisor::s : VarianceDivisor::s_minus_1;
}

void take_consistency_options(Args& args, TestPlan& plan, Family family) {
    if (!is_categorical(family))
        throw usage_error("--method consistency applies only to --family categorical or binary, not " +
                          to_string(family));
    plan.estimator = args.take_required("estimator", consistency_estimators);
    if (plan.estimator == "ece") plan.ece = take_ece_options(args);
    else if (plan.estimator == "skce-block") plan.block_size = take_block_size(args, "2");
    else if (plan.estimator != "skce-unbiased" && plan.estimator != "skce-biased")
        throw usage_error("unknown estimator '" + plan.estimator +
                          "' for --method consistency, expected one of " + consistency_estimators);
}

void take_cme_options(Args& args, TestPlan& plan) {
    const auto file = args.take("test-locations");
    const auto count = args.take("locations");
    if (file.has_value() == count.has_value())
        throw usage_error("--method cme needs exactly one of --test-locations FILE.csv and --locations J");
    if (file) plan.test_locations = *file;
    else plan.num_locations = static_cast<std::size_t>(parse_integer("locations", *count, 1));
    const std::string reference = args.take("reference", "f");
    if (reference != "chi2" && reference != "f")
        throw usage_error("option --reference " + reference + ", expected chi2 or f");
    plan.reference = reference == "f" ? CmeReference::f : CmeReference::chi2;
    if (const auto ridge = args.take("ridge")) {
        plan.ridge = parse_double("ridge", *ridge);
        if (plan.ridge < 0) throw usage_error("option --ridge = '" + *ridge + "', must be >= 0");
    }
}

}  // namespace

std::string TestPlan::context() const {
    return "--method " + method_name + (method == Method::consistency ? " --estimator " + estimator : "");
}

std::vector<OptionSpec> test_option_specs() {
    std::vector<OptionSpec> specs = shared_option_specs;
    specs.insert(specs.end(), kernel_option_specs.begin(), kernel_option_specs.end());
    specs.insert(specs.end(), ece_option_specs.begin(), ece_option_specs.end());
    for (const char* name : {"method", "block-size", "variance-divisor", "replicates", "memory-budget",
                             "estimator", "test-locations", "locations", "reference", "ridge", "alpha",
                             "seed", "pvalue-rule", "format"})
        specs.push_back({name, true});
    specs.push_back({"null-variance", false});
    return specs;
}

TestPlan take_test_options(Args& args, Family family) {
    TestPlan plan;
    plan.method_name = args.take_required("method", method_choices);
    const auto* named = std::find_if(std::begin(method_names), std::end(method_names),
                                     [&](const auto& entry) { return plan.method_name == entry.second; });
    if (named == std::end(method_names))
        throw usage_error("unknown method '" + plan.method_name + "', expected one of " +
                          method_choices);
    plan.method = named->first;

    switch (plan.method) {
        case Method::block: take_block_options(args, plan); break;
        case Method::dfree_block: plan.block_size = take_block_size(args, nullptr); break;
        case Method::bootstrap:
            if (const auto budget = args.take("memory-budget"); budget && *budget != "auto")
                plan.memory_budget = parse_bytes(*budget);
            break;
        case Method::consistency: take_consistency_options(args, plan, family); break;
        case Method::cme: take_cme_options(args, plan); break;
        default: break;
    }
    if (is_resampling(plan.method)) {
        plan.replicates = take_replicates(args);
        plan.rule = take_rule(args);
    }
    const bool draws = is_resampling(plan.method) ||
                       (plan.method == Method::cme && plan.test_locations.empty());
    if (draws) plan.seed = args.has("seed") ? parse_unsigned64("seed", *args.take("seed")) : default_seed;
    if (const auto alpha = args.take("alpha")) {
        const double a = parse_double("alpha", *alpha);
        if (!(a > 0 && a < 1))
            throw usage_error("option --alpha = '" + *alpha + "', must be in (0, 1)");
        plan.alpha = a;
    }
    return plan;
}

void check_size(const TestPlan& plan, std::size_t n) {
    const std::string of_n = "the n = " + std::to_string(n) + " observations";
    const bool blocks = plan.method == Method::block || plan.method == Method::dfree_block ||
                        (plan.method == Method::consistency && plan.estimator == "skce-block");
    if (blocks) {
        const std::size_t b = plan.block_size.resolve(n);
        const std::string given = "--block-size " +
                                  std::string(plan.block_size.given ? "" : "sqrt = ") + std::to_string(b);
        if (b > n) throw usage_error(given + " exceeds " + of_n + "; use B <= n");
        if (plan.method == Method::block && n / b < 2)
            throw usage_error(given + " leaves one block of " + of_n +
                              "; the block test needs at least 2 blocks (B <= n/2)");
    }
    const std::size_t max_n = SpectralOptions{}.max_n;
    if (plan.method == Method::spectral && n > max_n)
        throw usage_error("--method spectral handles at most " + std::to_string(max_n) +
                          " observations (O(n^2) memory, O(n^3) time), not " + of_n +
                          "; use --method gamma or bootstrap");
    if (plan.method != Method::cme) return;
    const std::string j = std::to_string(plan.num_locations);
    if (!plan.test_locations.empty() && n <= plan.num_locations)
        throw usage_error("the CME test needs more observations than test locations, but " + of_n +
                          " face J = " + j + " locations in " + plan.test_locations +
                          "; use fewer locations");
    if (plan.test_locations.empty() && n <= 2 * plan.num_locations)
        throw usage_error("--locations " + j + " with " + of_n +
                          ": the J locations are removed from the sample and the test needs more "
                          "than J of the rest (n > 2J); use fewer locations");
}

void add_plan_fields(JsonObject& out, const TestPlan& plan, std::size_t n) {
    switch (plan.method) {
        case Method::block:
        case Method::dfree_block:
            out.set("block_size", plan.block_size.resolve(n))
                .set("block_size_rule", plan.block_size.rule());
            break;
        case Method::bootstrap: out.set("memory_budget_rule", plan.memory_budget ? "given" : "auto"); break;
        case Method::consistency:
            out.set("estimator", plan.estimator);
            if (plan.estimator == "ece") add_ece_fields(out, plan.ece);
            if (plan.estimator == "skce-block")
                out.set("block_size", plan.block_size.resolve(n))
                    .set("block_size_rule", plan.block_size.rule());
            break;
        case Method::cme:
            out.set("num_locations", plan.num_locations)
                .set("reference", plan.reference == CmeReference::f ? "f" : "chi2")
                .set("ridge", plan.ridge);
            if (!plan.test_locations.empty()) out.set("test_locations", plan.test_locations);
            break;
        default: break;
    }
    if (is_resampling(plan.method))
        out.set("replicates", plan.replicates).set("pvalue_rule", to_string(plan.rule));
}

}  // namespace calib::cli

// Test results: the typed details' records, the JSON form, and the names of the tests' options
// (hypothesis.hpp).
#include <calib/hypothesis.hpp>

#include "core/check.hpp"

namespace calib {

std::string to_string(PValueRule rule) { return rule == PValueRule::count ? "count" : "plus-one"; }
std::string to_string(VarianceDivisor divisor) { return divisor == VarianceDivisor::s_minus_1 ? "s-1" : "s"; }
std::string to_string(CmeReference reference) { return reference == CmeReference::f ? "f" : "chi2"; }

namespace {
Value count(std::size_t x) { return static_cast<std::uint64_t>(x); }
}  // namespace

Record BlockTestDetails::record() const {
    return {{"block_size", count(block_size)}, {"num_blocks", count(num_blocks)},   {"std_error", std_error},
            {"null_variance", null_variance},  {"variance_divisor", variance_divisor},
            {"confidence_level", confidence_level}, {"ci_lower", ci_lower},       {"degenerate", degenerate}};
}

Record BootstrapDetails::record() const {
    return {{"replicates", count(replicates)},          {"seed", seed},
            {"pvalue_rule", to_string(pvalue_rule)},    {"cached_gram_matrix", cached_gram_matrix},
            // Whole bytes, as integers (the doubles only hold them).
            {"memory_budget", std::uint64_t(memory_budget)}, {"working_memory", std::uint64_t(working_memory)}};
}

Record GammaDetails::record() const {
    if (degenerate) return {{"mean", mean}, {"variance", variance}, {"degenerate", true}};
    return {{"shape", shape}, {"scale", scale}, {"mean", mean}, {"variance", variance}, {"degenerate", false}};
}

Record SpectralDetails::record() const {
    return {{"replicates", count(replicates)}, {"seed", seed}, {"pvalue_rule", to_string(pvalue_rule)},
            {"centred", centred}, {"largest_eigenvalue", largest_eigenvalue}};
}

Record DistributionFreeDetails::record() const {
    Record r;
    if (block_size) r.push_back({"block_size", count(block_size)});
    r.push_back({"bound", bound});
    if (hoeffding_count > 0) r.push_back({"hoeffding_count", hoeffding_count});
    return r;
}

Record ConsistencyDetails::record() const {
    return {{"replicates", count(replicates)}, {"seed", seed}, {"pvalue_rule", to_string(pvalue_rule)}};
}

Record BinaryZDetails::record() const {
    // A degenerate z is ±∞ or 0 and says nothing beyond the p-value: left out, as the Gamma null's shape.
    Record r;
    if (!degenerate) r.push_back({"z", z});
    r.insert(r.end(), {{"expected", expected}, {"std_error", std_error}, {"degenerate", degenerate}});
    return r;
}

Record CoxDetails::record() const {
    Record r{{"intercept", intercept},
            {"intercept_se", intercept_se},
            {"intercept_lower", intercept_lower},
            {"intercept_upper", intercept_upper},
            {"intercept_lr_lower", intercept_lr_lower},
            {"intercept_lr_upper", intercept_lr_upper},
            {"slope", slope},
            {"slope_se", slope_se},
            {"slope_lower", slope_lower},
            {"slope_upper", slope_upper},
            {"slope_lr_lower", slope_lr_lower},
            {"slope_lr_upper", slope_lr_upper},
            {"citl_intercept", citl_intercept},
            {"citl_se", citl_se},
            {"citl_lower", citl_lower},
            {"citl_upper", citl_upper},
            {"citl_lr_lower", citl_lr_lower},
            {"citl_lr_upper", citl_lr_upper},
            {"citl_statistic", citl_statistic},
            {"citl_p_value", citl_p_value},
            {"slope_statistic", slope_statistic},
            {"slope_p_value", slope_p_value},
            {"level", level},
            {"iterations", count(iterations)}};
    if (clip > 0) r.insert(r.end(), {{"clip", clip}, {"clipped", count(clipped)}});
    return r;
}

Record ClassWiseDetails::record() const {
    return {{"class_p_values", p_values},
            {"class_statistics", statistics},
            {"class_estimates", estimates},
            {"smallest_class", std::uint64_t(smallest)}};
}

Record TCalDetails::record() const {
    return {{"bin_counts", bin_counts}, {"bin_statistics", statistics},    {"bin_p_values", p_values},
            {"selected_bins", selected_bins}, {"replicates", count(replicates)}, {"seed", seed},
            {"null_draws", to_string(null)}};
}

Record CumulativeDetails::record() const {
    return {{"std_error", std_error}, {"largest_at", largest_at}, {"degenerate", degenerate}};
}

Record HosmerLemeshowDetails::record() const {
    return {{"grouping", to_string(grouping)}, {"groups", count(groups)},  {"df", df},
            {"df_rule", to_string(df_rule)},   {"smallest_expected", smallest_expected}};
}

Record CmeDetails::record() const {
    Record r{{"num_locations", count(num_locations)}};
    if (reference == CmeReference::chi2)
        r.push_back({"df", df1});
    else
        r.insert(r.end(), {{"df1", df1}, {"df2", df2}, {"f_statistic", f_statistic}});
    r.push_back({"ridge", ridge});
    r.push_back({"outside_validity_range", outside_validity_range});
    if (locations_drawn) r.push_back({"locations_seed", locations_seed});
    return r;
}

Record TestResult::record() const {
    Record r{{"method", method},       {"null", null_approximation}, {"estimator", estimator},
             {"estimate", estimate},   {"statistic", statistic},     {"p_value", p_value},
             {"n", static_cast<std::uint64_t>(n)}};
    const Record own = std::visit([](const auto& d) { return d.record(); }, details);
    r.insert(r.end(), own.begin(), own.end());
    r.insert(r.end(), estimator_details.begin(), estimator_details.end());
    return r;
}

std::string TestResult::to_json() const { return calib::to_json(record()); }

}  // namespace calib

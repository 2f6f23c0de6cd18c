// Summaries and output formats of `calib rank` (rank_output.hpp).
#include "rank_output.hpp"

#include "shared_options.hpp"

#include <calib/version.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace calib::cli {

namespace {

// The p-quantile of the values with linear interpolation between order statistics (R's type 7).
double quantile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    const double h = p * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

// The standard deviation of the replicates (divisor R − 1; 0 for one replicate).
double std_error(const std::vector<double>& values) {
    if (values.size() < 2) return 0;
    double mean = 0, ss = 0;
    for (const double v : values) mean += v;
    mean /= static_cast<double>(values.size());
    for (const double v : values) ss += (v - mean) * (v - mean);
    return std::sqrt(ss / static_cast<double>(values.size() - 1));
}

// Model indices by increasing estimate (better calibrated first); ties keep the input order.
std::vector<std::size_t> ranking(const std::vector<double>& estimates) {
    std::vector<std::size_t> order(estimates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return estimates[a] < estimates[b]; });
    return order;
}

std::string verdict_text(const RankPlan& plan, const Comparison& c) {
    if (c.verdict < 0) return plan.files[c.first] + " is better calibrated";
    if (c.verdict > 0) return plan.files[c.second] + " is better calibrated";
    return "no clear difference";
}

std::string description(const RankPlan& plan, const std::string& estimator) {
    const CkceOptions& o = plan.ckce.options;
    const std::string gamma = plan.ckce.bandwidth ? "given" : "median";
    if (estimator == "ece")
        return "binned ECE, " + plan.ece.binning + ", " + to_string(plan.ece.options.distance) + ", " +
               to_string(plan.ece.options.mode);
    if (estimator == "skce-unbiased")
        return "unbiased SKCE (the paper's JKCE), simplex kernel, lengthscale " + gamma;
    return "CKCE, simplex kernel, lengthscale " + gamma + ", lambda " + plan.ckce.lambda_rule + ", " +
           to_string(o.method);
}

std::string format(const char* pattern, double x) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, x);
    return buffer;
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace

std::vector<Comparison> compare(const RankPlan& plan, const RankNumbers& numbers, std::size_t e) {
    const double tail = (1 - plan.level) / 2;
    const std::size_t count = plan.files.size(), reps = plan.replicates;
    std::vector<Comparison> out;
    for (std::size_t a = 0; a < count; ++a)
        for (std::size_t b = a + 1; b < count; ++b) {
            Comparison c;
            c.first = a, c.second = b;
            c.difference = numbers.estimates[e][a] - numbers.estimates[e][b];
            std::vector<double> d(reps);
            double sum = 0, lower = 0;
            for (std::size_t r = 0; r < reps; ++r) {
                d[r] = numbers.replicates[e][a][r] - numbers.replicates[e][b][r];
                sum += d[r];
                lower += d[r] < 0;
            }
            c.bootstrap_mean = sum / static_cast<double>(reps);
            c.probability_first_lower = lower / static_cast<double>(reps);
            c.lower = quantile(d, tail);
            c.upper = quantile(d, 1 - tail);
            c.verdict = c.upper < 0 ? -1 : c.lower > 0 ? 1 : 0;
            out.push_back(c);
        }
    return out;
}

JsonObject rank_json(const RankPlan& plan, const RankNumbers& numbers) {
    JsonObject out;
    out.set("command", "rank").set("n", plan.n).set("models", plan.files).set("estimators", plan.estimators);
    out.set("replicates", plan.replicates).set("seed", plan.seed).set("level", plan.level);
    out.set("interval", "percentile");
    JsonObject results;
    for (std::size_t e = 0; e < plan.estimators.size(); ++e) {
        JsonObject r;
        r.set("description", description(plan, plan.estimators[e]));
        r.set("estimates", numbers.estimates[e]);
        std::vector<double> errors;
        for (const std::vector<double>& reps : numbers.replicates[e]) errors.push_back(std_error(reps));
        r.set("std_errors", errors);
        std::vector<std::string> order;
        for (const std::size_t k : ranking(numbers.estimates[e])) order.push_back(plan.files[k]);
        r.set("ranking", order);
        if (plan.estimators[e] != "ece") {
            std::vector<double> gammas;
            for (const ResolvedCkce& m : plan.resolved) gammas.push_back(m.options.kernel.bandwidth);
            r.set("lengthscales", gammas);
        }
        std::vector<JsonObject> pairs;
        for (const Comparison& c : compare(plan, numbers, e))
            pairs.push_back(JsonObject()
                                .set("first", plan.files[c.first])
                                .set("second", plan.files[c.second])
                                .set("difference", c.difference)
                                .set("lower", c.lower)
                                .set("upper", c.upper)
                                .set("bootstrap_mean", c.bootstrap_mean)
                                .set("probability_first_lower", c.probability_first_lower)
                                .set("verdict", verdict_text(plan, c)));
        r.set("comparisons", pairs);
        results.set(plan.estimators[e], r);
    }
    out.set("results", results);
    if (plan.uses("ckce") || plan.uses("skce-unbiased")) {
        JsonObject k;
        k.set("lengthscale_rule", plan.ckce.bandwidth ? "given" : "median");
        if (plan.uses("ckce")) {
            k.set("lambda_rule", plan.ckce.lambda_rule).set("ckce_method", to_string(plan.ckce.options.method));
            if (plan.ckce.options.method == CkceMethod::rff) k.set("features", plan.ckce.options.features);
            if (plan.ckce.options.method == CkceMethod::lowrank)
                k.set("max_rank", plan.ckce.options.max_rank).set("tolerance", plan.ckce.options.tolerance);
        }
        out.set("kernel", k);
    }
    if (plan.uses("ece")) {
        JsonObject ece;
        add_ece_fields(ece, plan.ece);
        out.set("ece", ece);
    }
    out.set("family", to_string(plan.family)).set("threads", resolved_threads(plan.threads));
    out.set("wall_time_seconds", plan.seconds).set("calib_version", version);
    return out;
}

std::string rank_table(const RankPlan& plan, const RankNumbers& numbers) {
    const std::string level = format("%g%%", 100 * plan.level);
    std::size_t width = 5;
    for (const std::string& f : plan.files) width = std::max(width, f.size());
    std::string out = "calib rank: " + std::to_string(plan.files.size()) + " models, n = " + std::to_string(plan.n) +
                      " observations with the same labels, " + std::to_string(plan.replicates) +
                      " paired bootstrap replicates (seed " + std::to_string(plan.seed) + "), " + level +
                      " percentile intervals of the differences.\nLower is better calibrated.\n";
    for (std::size_t e = 0; e < plan.estimators.size(); ++e) {
        out += "\n" + plan.estimators[e] + " (" + description(plan, plan.estimators[e]) + ")\n";
        out += "  rank  " + pad("model", width) + "  estimate      bootstrap s.e.\n";
        std::size_t place = 1;
        for (const std::size_t k : ranking(numbers.estimates[e]))
            out += "  " + pad(std::to_string(place++), 4) + "  " + pad(plan.files[k], width) + "  " +
                   pad(format("%.6g", numbers.estimates[e][k]), 12) + "  " +
                   format("%.3g", std_error(numbers.replicates[e][k])) + "\n";
        out += "  differences (first - second):\n";
        for (const Comparison& c : compare(plan, numbers, e))
            out += "    " + plan.files[c.first] + " - " + plan.files[c.second] + " = " + format("%.4g", c.difference) +
                   "  " + level + " interval [" + format("%.4g", c.lower) + ", " + format("%.4g", c.upper) +
                   "]  P(first lower) = " + format("%.3f", c.probability_first_lower) + "  -> " +
                   verdict_text(plan, c) + "\n";
    }
    out += "\n(" + format("%.3f", plan.seconds) + " s, calib " + version + ")\n";
    return out;
}

}  // namespace calib::cli

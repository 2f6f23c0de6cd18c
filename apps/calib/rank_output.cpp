// Summaries and output formats of `calib rank` (rank_output.hpp).
#include "rank_output.hpp"

#include "run_output.hpp"
#include "shared_options.hpp"

#include <calib/parallel.hpp>
#include <calib/version.hpp>

#include <algorithm>
#include <cstdio>

namespace calib::cli {

namespace {

std::string verdict_text(const RankPlan& plan, const PairComparison& c) {
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

JsonObject rank_json(const RankPlan& plan, const ModelComparison& comparison) {
    JsonObject out;
    out.set("command", "rank").set("n", plan.n).set("models", plan.files).set("estimators", plan.estimators);
    out.set("replicates", plan.replicates).set("seed", plan.seed).set("level", plan.level);
    out.set("interval", "percentile");
    JsonObject results;
    for (std::size_t e = 0; e < plan.estimators.size(); ++e) {
        JsonObject r;
        r.set("description", description(plan, plan.estimators[e]));
        const EstimatorComparison& c = comparison.results[e];
        r.set("estimates", c.estimates);
        r.set("std_errors", c.std_errors);
        std::vector<std::string> order;
        for (const std::size_t k : c.ranking) order.push_back(plan.files[k]);
        r.set("ranking", order);
        if (plan.estimators[e] != "ece") {
            std::vector<double> gammas;
            for (const ResolvedCkce& m : plan.resolved) gammas.push_back(m.options.kernel.lengthscale);
            r.set("lengthscales", gammas);
        }
        if (!c.replicate_ranks.empty())
            r.set("replicate_factor_ranks", std::vector<double>(c.replicate_ranks.begin(), c.replicate_ranks.end()));
        std::vector<JsonObject> pairs;
        for (const PairComparison& p : c.pairs)
            pairs.push_back(JsonObject()
                                .set("first", plan.files[p.first])
                                .set("second", plan.files[p.second])
                                .set("difference", p.difference)
                                .set("lower", p.lower)
                                .set("upper", p.upper)
                                .set("bootstrap_mean", p.bootstrap_mean)
                                .set("probability_first_lower", p.probability_first_lower)
                                .set("verdict", verdict_text(plan, p)));
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
    std::vector<JsonObject> files;
    for (const FileSummary& f : plan.read) files.push_back(file_fields(f));
    out.set("family", to_string(plan.family)).set("files", files);
    out.set("max_simplex_deviation", plan.max_simplex_deviation)
        .set("threads", calib::resolve_num_threads(plan.threads));
    out.set("compute_seconds", plan.compute_seconds).set("wall_time_seconds", seconds_since_start());
    out.set("calib_version", version);
    return out;
}

std::string rank_table(const RankPlan& plan, const ModelComparison& comparison) {
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
        const EstimatorComparison& results = comparison.results[e];
        for (const std::size_t k : results.ranking)
            out += "  " + pad(std::to_string(place++), 4) + "  " + pad(plan.files[k], width) + "  " +
                   pad(format("%.6g", results.estimates[k]), 12) + "  " + format("%.3g", results.std_errors[k]) + "\n";
        out += "  differences (first - second):\n";
        for (const PairComparison& c : results.pairs)
            out += "    " + plan.files[c.first] + " - " + plan.files[c.second] + " = " + format("%.4g", c.difference) +
                   "  " + level + " interval [" + format("%.4g", c.lower) + ", " + format("%.4g", c.upper) +
                   "]  P(first lower) = " + format("%.3f", c.probability_first_lower) + "  -> " +
                   verdict_text(plan, c) + "\n";
    }
    out += "\n(" + format("%.3f", seconds_since_start()) + " s, calib " + version + ")\n";
    return out;
}

}  // namespace calib::cli

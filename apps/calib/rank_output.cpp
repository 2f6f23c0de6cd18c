// Summaries and output formats of `calib rank` (rank_output.hpp).
#include "rank_output.hpp"

#include "run_output.hpp"

#include <calib/parallel.hpp>
#include <calib/version.hpp>

#include <algorithm>
#include <cstdio>

namespace calib::cli {

std::string verdict_text(const RankRun& run, const PairComparison& c) {
    if (c.verdict < 0) return run.files[c.first] + " is better calibrated";
    if (c.verdict > 0) return run.files[c.second] + " is better calibrated";
    return "no clear difference";
}

namespace {

// The value of an option of the comparison, as text.
std::string option(const RankRun& run, const char* name) { return to_text(run.setup->get(name)); }

std::string lengthscale_rule(const RankRun& run) { return option(run, "lengthscale") == "median" ? "median" : "given"; }

}  // namespace

std::string description(const RankRun& run, const std::string& estimator) {
    if (estimator == "ece")
        return "binned ECE, " + option(run, "binning") + ", " + option(run, "distance") + ", " + option(run, "mode");
    if (estimator == "jkce")
        return "JKCE: the unbiased SKCE with the simplex kernel, lengthscale " + lengthscale_rule(run);
    const Record record = run.setup->record();
    return "CKCE, simplex kernel, lengthscale " + lengthscale_rule(run) + ", lambda " +
           to_text(find(record, "lambda_rule")) + ", " + option(run, "ckce_method");
}

namespace {

bool uses(const RankRun& run, const std::string& estimator) {
    const std::vector<std::string> names = run.setup->estimators();
    return std::find(names.begin(), names.end(), estimator) != names.end();
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

JsonObject rank_json(const RankRun& run) {
    const ModelComparison& comparison = run.comparison.comparison;
    const std::vector<std::string> estimators = run.setup->estimators();
    JsonObject out;
    out.set("command", "rank").set("n", run.n).set("models", run.files).set("estimators", estimators);
    out.set("replicates", run.setup->get("replicates")).set("seed", run.setup->get("seed"));
    out.set("level", run.setup->get("level"));
    out.set("interval", "percentile");
    JsonObject results;
    for (std::size_t e = 0; e < estimators.size(); ++e) {
        JsonObject r;
        r.set("description", description(run, estimators[e]));
        const EstimatorComparison& c = comparison.results[e];
        r.set("estimates", c.estimates);
        r.set("std_errors", c.std_errors);
        std::vector<std::string> order;
        for (const std::size_t k : c.ranking) order.push_back(run.files[k]);
        r.set("ranking", order);
        if (estimators[e] != "ece") {
            std::vector<double> gammas;
            for (const CkceOptions& m : run.comparison.ckce) gammas.push_back(m.kernel.lengthscale);
            r.set("lengthscales", gammas);
        }
        if (!c.replicate_ranks.empty())
            r.set("replicate_factor_ranks", std::vector<double>(c.replicate_ranks.begin(), c.replicate_ranks.end()));
        std::vector<JsonObject> pairs;
        for (const PairComparison& p : c.pairs)
            pairs.push_back(JsonObject()
                                .set("first", run.files[p.first])
                                .set("second", run.files[p.second])
                                .set("difference", p.difference)
                                .set("lower", p.lower)
                                .set("upper", p.upper)
                                .set("bootstrap_mean", p.bootstrap_mean)
                                .set("probability_first_lower", p.probability_first_lower)
                                .set("verdict", verdict_text(run, p)));
        r.set("comparisons", pairs);
        results.set(estimators[e], r);
    }
    out.set("results", results);
    // The options of the kernel estimators and of the ECE, as used.
    JsonObject kernel, ece;
    for (const Field& f : run.setup->record()) {
        if (f.name == "binning" || f.name == "distance" || f.name == "mode")
            ece.set(f.name, f.value);
        else if (f.name != "estimators" && f.name != "replicates" && f.name != "level" && f.name != "seed")
            kernel.set(f.name, f.value);
    }
    if (uses(run, "ckce") || uses(run, "jkce")) out.set("kernel", kernel);
    if (uses(run, "ece")) out.set("ece", ece);
    std::vector<JsonObject> files;
    for (const FileSummary& f : run.read) files.push_back(file_fields(f));
    out.set("family", run.family->name).set("files", files);
    out.set("max_simplex_deviation", run.max_simplex_deviation)
        .set("threads", calib::resolve_num_threads(run.threads));
    out.set("compute_seconds", run.compute_seconds).set("wall_time_seconds", seconds_since_start());
    out.set("calib_version", version);
    return out;
}

std::string rank_table(const RankRun& run) {
    const ModelComparison& comparison = run.comparison.comparison;
    const std::vector<std::string> estimators = run.setup->estimators();
    const std::string level = format("%g%%", 100 * to_double(run.setup->get("level")));
    std::size_t width = 5;
    for (const std::string& f : run.files) width = std::max(width, f.size());
    std::string out = "calib rank: " + std::to_string(run.files.size()) + " models, n = " + std::to_string(run.n) +
                      " observations with the same labels, " + option(run, "replicates") +
                      " paired bootstrap replicates (seed " + option(run, "seed") + "), " + level +
                      " percentile intervals of the differences.\nLower is better calibrated.\n";
    for (std::size_t e = 0; e < estimators.size(); ++e) {
        out += "\n" + estimators[e] + " (" + description(run, estimators[e]) + ")\n";
        out += "  rank  " + pad("model", width) + "  estimate      bootstrap s.e.\n";
        std::size_t place = 1;
        const EstimatorComparison& results = comparison.results[e];
        for (const std::size_t k : results.ranking)
            out += "  " + pad(std::to_string(place++), 4) + "  " + pad(run.files[k], width) + "  " +
                   pad(format("%.6g", results.estimates[k]), 12) + "  " + format("%.3g", results.std_errors[k]) + "\n";
        out += "  differences (first - second):\n";
        for (const PairComparison& c : results.pairs)
            out += "    " + run.files[c.first] + " - " + run.files[c.second] + " = " + format("%.4g", c.difference) +
                   "  " + level + " interval [" + format("%.4g", c.lower) + ", " + format("%.4g", c.upper) +
                   "]  P(first lower) = " + format("%.3f", c.probability_first_lower) + "  -> " +
                   verdict_text(run, c) + "\n";
    }
    out += "\n(" + format("%.3f", seconds_since_start()) + " s, calib " + version + ")\n";
    return out;
}

}  // namespace calib::cli

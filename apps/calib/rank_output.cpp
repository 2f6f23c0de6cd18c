// Summaries and output formats of `calib rank` (rank_output.hpp).
#include "rank_output.hpp"

#include "run_output.hpp"

#include <calib/parallel.hpp>
#include <calib/version.hpp>

#include <algorithm>
#include <cstdio>

namespace calib::cli {

namespace {

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
    JsonObject out;
    out.set("command", "rank").merge(run.comparison.record(run.files));
    std::vector<JsonObject> files;
    for (const FileSummary& f : run.read) files.push_back(file_fields(f));
    out.set("family", run.family->name).set("files", files);
    out.set("max_simplex_deviation", run.max_simplex_deviation)
        .set("threads", calib::resolve_num_threads(run.threads));
    out.set("compute_seconds", run.comparison.compute_seconds).set("wall_time_seconds", seconds_since_start());
    out.set("calib_version", version);
    return out;
}

std::string rank_table(const RankRun& run) {
    const ComparisonRun& compared = run.comparison;
    const std::vector<std::string>& estimators = compared.estimators;
    const std::string level = format("%g%%", 100 * to_double(find(compared.options, "level")));
    std::size_t width = 5;
    for (const std::string& f : run.files) width = std::max(width, f.size());
    std::string out = "calib rank: " + std::to_string(run.files.size()) + " models, n = " + std::to_string(compared.comparison.n) +
                      " observations with the same labels, " + to_text(find(compared.options, "replicates")) +
                      " paired bootstrap replicates (seed " + to_text(find(compared.options, "seed")) + "), " + level +
                      " percentile intervals of the differences.\nLower is better calibrated.\n";
    for (std::size_t e = 0; e < estimators.size(); ++e) {
        out += "\n" + estimators[e] + " (" + compared.descriptions[e] + ")\n";
        out += "  rank  " + pad("model", width) + "  estimate      bootstrap s.e.\n";
        std::size_t place = 1;
        const EstimatorComparison& results = compared.comparison.results[e];
        for (const std::size_t k : results.ranking)
            out += "  " + pad(std::to_string(place++), 4) + "  " + pad(run.files[k], width) + "  " +
                   pad(format("%.6g", results.estimates[k]), 12) + "  " + format("%.3g", results.std_errors[k]) + "\n";
        out += "  differences (first - second):\n";
        for (const PairComparison& c : results.pairs)
            out += "    " + run.files[c.first] + " - " + run.files[c.second] + " = " + format("%.4g", c.difference) +
                   "  " + level + " interval [" + format("%.4g", c.lower) + ", " + format("%.4g", c.upper) +
                   "]  P(first lower) = " + format("%.3f", c.probability_first_lower) + "  -> " +
                   verdict_text(c, run.files) + "\n";
    }
    out += "\n(" + format("%.3f", seconds_since_start()) + " s, calib " + version + ")\n";
    return out;
}

}  // namespace calib::cli

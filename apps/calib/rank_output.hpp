// The two output formats of `calib rank` (JSON and a readable table) of a comparison and its setup.
#pragma once

#include "run_output.hpp"

#include <calib/registry.hpp>
#include <calib/tool/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace calib::cli {

struct RankRun {
    std::vector<std::string> files;    // the models, in the order given
    const FamilyInfo* family = nullptr;
    const ComparisonSetup* setup = nullptr;
    ComparisonRun comparison;
    std::size_t n = 0;
    std::vector<FileSummary> read;     // every file read
    double max_simplex_deviation = 0;  // over all models
    int threads = 0;
    double compute_seconds = 0;        // the comparison itself
};

JsonObject rank_json(const RankRun& run);
// "ckce": "CKCE, simplex kernel, lengthscale median, …", as in the outputs.
std::string description(const RankRun& run, const std::string& estimator);
// "A.csv is better calibrated" or "no clear difference".
std::string verdict_text(const RankRun& run, const PairComparison& pair);
std::string rank_table(const RankRun& run);

}  // namespace calib::cli

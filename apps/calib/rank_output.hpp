// The two output formats of `calib rank` (JSON and a readable table) of a comparison: its fields are
// the registry's (ComparisonRun::record), the files read and the run's figures are the command line's.
#pragma once

#include "run_output.hpp"

#include <calib/registry.hpp>
#include <calib/tool/json.hpp>

#include <string>
#include <vector>

namespace calib::cli {

struct RankRun {
    std::vector<std::string> files;    // the models, in the order given
    const FamilyInfo* family = nullptr;
    ComparisonRun comparison;
    std::vector<FileSummary> read;     // every file read
    double max_simplex_deviation = 0;  // over all models
    int threads = 0;
};

JsonObject rank_json(const RankRun& run);
std::string rank_table(const RankRun& run);

}  // namespace calib::cli

// The plan, the numbers and the two output formats of `calib rank` (JSON and a readable table).
#pragma once

#include "ckce_options.hpp"
#include "dataset.hpp"
#include "ece_options.hpp"

#include <calib/compare.hpp>
#include <calib/io.hpp>
#include <calib/tool/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace calib::cli {

struct RankPlan {
    std::vector<std::string> files;       // the models, in the order given
    Family family = Family::categorical;
    std::vector<std::string> estimators;  // ckce, skce-unbiased, ece
    std::size_t replicates = 200;
    double level = 0.95;
    std::string format = "json";
    int threads = 0;
    std::uint64_t seed = 0;
    CkceChoice ckce;                      // ckce; its kernel also serves skce-unbiased
    EceChoice ece;                        // ece
    std::vector<ResolvedCkce> resolved;   // per model: the kernel with its γ
    std::size_t n = 0;
    std::vector<FileSummary> read;        // every file read
    double max_simplex_deviation = 0;     // over all models
    double compute_seconds = 0;           // the comparison itself

    bool uses(const std::string& estimator) const {
        for (const std::string& e : estimators)
            if (e == estimator) return true;
        return false;
    }
};

JsonObject rank_json(const RankPlan& plan, const ModelComparison& comparison);
std::string rank_table(const RankPlan& plan, const ModelComparison& comparison);

}  // namespace calib::cli

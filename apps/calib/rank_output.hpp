// The plan, the numbers and the two output formats of `calib rank` (JSON and a readable table).
#pragma once

#include "ckce_options.hpp"
#include "dataset.hpp"
#include "ece_options.hpp"

#include <calib/json.hpp>

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
    double seconds = 0;

    bool uses(const std::string& estimator) const {
        for (const std::string& e : estimators)
            if (e == estimator) return true;
        return false;
    }
};

struct RankNumbers {
    std::vector<std::vector<double>> estimates;                // [estimator][model]
    std::vector<std::vector<std::vector<double>>> replicates;  // [estimator][model][replicate]
};

// The summary of one pair of models under one estimator.
struct Comparison {
    std::size_t first = 0, second = 0;
    double difference = 0;        // estimate(first) − estimate(second)
    double lower = 0, upper = 0;  // percentile interval of the bootstrap differences
    double bootstrap_mean = 0;
    double probability_first_lower = 0;  // fraction of replicates with estimate(first) < estimate(second)
    int verdict = 0;              // −1: first better calibrated, +1: second better, 0: no clear difference
};
std::vector<Comparison> compare(const RankPlan& plan, const RankNumbers& numbers, std::size_t estimator);

JsonObject rank_json(const RankPlan& plan, const RankNumbers& numbers);
std::string rank_table(const RankPlan& plan, const RankNumbers& numbers);

}  // namespace calib::cli

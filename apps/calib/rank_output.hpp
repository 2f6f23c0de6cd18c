// The readable layouts of a ranking (the rank operation's record, calib/operation.hpp): `calib rank
// --format table`, and the report's ranking section draws the same rows.
#pragma once

#include <calib/operation.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace calib::cli {

// One model's row of an estimator's ranking: its place in `models`, its estimate and standard error.
struct RankedModel {
    std::size_t model = 0;
    double estimate = 0, std_error = 0;
};

// The rows of `estimator`'s ranking in the rank record's result (best first). The record names the
// models; a name given twice is one file given twice (the same model), so its rows take its
// occurrences in order.
std::vector<RankedModel> ranked_models(const Record& result, const std::string& estimator);

// `calib rank --format table`: per estimator, the ranking and the pairs' differences with their intervals.
std::string rank_table(const OperationRecord& record);

}  // namespace calib::cli

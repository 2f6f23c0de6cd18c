// The readable layouts of a ranking (the rank operation's record, calib/operation.hpp): `calib rank
// --format table`, and the report's ranking section draws the same rows.
#pragma once

#include <calib/operation.hpp>

#include <string>

namespace calib::cli {

// `calib rank --format table`: per estimator, the ranking and the pairs' differences with their intervals.
std::string rank_table(const OperationRecord& record);

}  // namespace calib::cli

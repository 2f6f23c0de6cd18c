// The options of the binned ECE (--binning, --distance, --mode), shared by `calib estimate
// --estimator ece` and `calib test --method consistency --estimator ece`.
#pragma once

#include "args.hpp"

#include <calib/estimators.hpp>
#include <calib/tool/json.hpp>

#include <string>
#include <vector>

namespace calib::cli {

struct EceChoice {
    EceOptions options;
    std::string binning;  // as given, e.g. "uniform:10"
};

extern const std::vector<OptionSpec> ece_option_specs;

// Takes --binning (default uniform:10), --distance (tv) and --mode (canonical); throws usage_error.
// `calib rank` passes the defaults of the CKCE paper's experiments (uniform:3, l1).
EceChoice take_ece_options(Args& args, const char* default_binning = "uniform:10",
                           const char* default_distance = "tv");

// Adds "binning", "distance" and "mode" to `out`.
void add_ece_fields(JsonObject& out, const EceChoice& choice);

}  // namespace calib::cli

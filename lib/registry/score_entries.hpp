// The registry entries of the proper scores and base-rate summaries (scores.hpp): crps,
// calibration-ratio, normalized-entropy.
#pragma once

#include "registry/models.hpp"

#include <vector>

namespace calib::detail {

std::vector<Registered<MethodModel<EstimateResult>>> score_estimators();

}  // namespace calib::detail

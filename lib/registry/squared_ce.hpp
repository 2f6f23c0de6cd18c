// The registry entries of Gruber & Bach's squared-CE estimators (ce-bins, ce-kde, ce-kkr, ce-ukkr).
#pragma once

#include "registry/models.hpp"

#include <vector>

namespace calib::detail {

std::vector<Registered<MethodModel<EstimateResult>>> squared_ce_estimators();

}  // namespace calib::detail

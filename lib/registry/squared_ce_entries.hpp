// The registry entries of Gruber & Bach's squared-CE estimators (ce-bins, ce-kde, ce-kkr, ce-ukkr) and the
// Brier decomposition (brier).
#pragma once

#include "registry/models.hpp"

#include <vector>

namespace calib::detail {

std::vector<Registered<MethodModel<EstimateResult>>> squared_ce_estimators();

}  // namespace calib::detail

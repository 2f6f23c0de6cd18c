// The named parameters of a recalibration map as a JSON object, as the map file holds them: shared by
// the file (to_json) and the output of `calib recalibrate fit`.
#pragma once

#include <calib/recalibration.hpp>
#include <calib/tool/json.hpp>

namespace calib {

JsonObject parameters_json(const RecalibrationMap& map);

}  // namespace calib

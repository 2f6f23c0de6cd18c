// Library version.
#pragma once

namespace calib {
inline constexpr const char* version = "0.1.0";
}

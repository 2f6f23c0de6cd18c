// The default seed of every seeded function of calib and of the command-line tool. Every random
// result takes a seed; the seeded streams themselves are internal (calib/tool/random.hpp has them for
// calib's own programs).
#pragma once

#include <cstdint>

namespace calib {

inline constexpr std::uint64_t default_seed = 1234;

}  // namespace calib

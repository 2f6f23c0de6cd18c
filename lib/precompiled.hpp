// The third-party headers that most of calib's sources include (the standard library and Eigen),
// compiled once per build into a GCC precompiled header and given to every unit
// (Makefile, "Precompiled header"), so that each unit does not parse them again: about 1 CPU-second
// of 3–25 per unit. Only headers that never change with calib's sources belong here — a calib
// header in it would rebuild every unit on each edit — and no unit may rely on it: each source
// still includes what it uses (the build without it, e.g. clang's, compiles the same sources).
// <iostream> and Boost's headers (which include it) are not here: they would give every unit a
// static initialiser of the standard streams.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Dense>

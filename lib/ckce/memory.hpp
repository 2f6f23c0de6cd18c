// The memory check of the CKCE's dense methods, before any work (the median lengthscale included):
// exact holds the n×n matrix K + λnI (8n² bytes), eigen K and its eigenvectors (16n²).
#pragma once

#include <calib/ckce.hpp>

#include <cstddef>

namespace calib::detail {

// Throws invalid_argument naming `function`, the bytes needed and the methods that fit, when
// `method` needs more than this machine's memory under the process's limits (ulimit -v, cgroup).
void check_ckce_memory(const char* function, std::size_t n, CkceMethod method);

}  // namespace calib::detail

// Guards for allocations whose size the caller chooses (replicates × observations, n² matrices):
// sizes are computed in double, so they cannot overflow, and compared with the machine's physical
// memory before anything is allocated — a request that cannot fit fails at once with its size
// instead of aborting inside the allocator after minutes of work.
#pragma once

#include "check.hpp"

#include <calib/hypothesis.hpp>

#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <limits>
#include <string>

namespace calib::detail {

// Physical memory of the machine in bytes (+∞ if the system does not say).
inline double physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return std::numeric_limits<double>::infinity();
    return static_cast<double>(pages) * static_cast<double>(page_size);
}

inline std::string format_bytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g GiB", bytes / double(std::size_t{1} << 30));
    return text;
}

// Fails if `bytes` (for `what`) exceed the machine's physical memory; `fix` says what to change.
inline void check_memory(const char* function, double bytes, const char* what, const char* fix) {
    const double available = physical_memory_bytes();
    if (bytes > available)
        fail(function, what, " need ", format_bytes(bytes), ", more than this machine's memory (",
             format_bytes(available), "); ", fix);
}

// 1 <= replicates <= max_replicates (hypothesis.hpp).
inline void check_replicates(const char* function, std::size_t replicates) {
    if (replicates < 1 || replicates > max_replicates)
        fail(function, "replicates = ", replicates, ", must be in [1, ", max_replicates, "]");
}

}  // namespace calib::detail

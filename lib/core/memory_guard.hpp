// Guards for allocations whose size the caller chooses (replicates × observations, n² matrices):
// sizes are computed in double, so they cannot overflow, and compared with the machine's physical
// memory before anything is allocated — a request that cannot fit fails at once with its size
// instead of aborting inside the allocator after minutes of work.
#pragma once

#include "core/check.hpp"

#include <calib/hypothesis.hpp>

#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

namespace calib::detail {

// Physical memory of the machine in bytes (+∞ if the system does not say).
inline double physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return std::numeric_limits<double>::infinity();
    return static_cast<double>(pages) * static_cast<double>(page_size);
}

// Memory available to a new computation in bytes: MemAvailable of /proc/meminfo (free memory plus
// what the kernel can reclaim), else the physical memory.
inline double available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:") return kib * 1024;
        meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return physical_memory_bytes();
}

// "168000 bytes", "5.2 MiB", "1 GiB", "1024 GiB".
inline std::string format_bytes(double bytes) {
    char text[40];
    const double mib = double(1 << 20), gib = double(1 << 30);
    const auto scaled = [&](double unit, const char* name) {
        std::snprintf(text, sizeof text, bytes / unit < 100 ? "%.3g %s" : "%.0f %s", bytes / unit, name);
    };
    if (bytes >= gib) scaled(gib, "GiB");
    else if (bytes >= mib) scaled(mib, "MiB");
    else std::snprintf(text, sizeof text, "%.0f bytes", bytes);
    return text;
}

// Fails if `bytes` (for `what`) exceed the machine's physical memory; `fix` says what to change.
inline void check_memory(const char* function, double bytes, const char* what, const char* fix) {
    const double available = physical_memory_bytes();
    if (bytes > available)
        fail(function, what, " need ", format_bytes(bytes), ", more than this machine's memory (",
             format_bytes(available), "); ", fix);
}

// A memory budget in bytes: the given one, which must not exceed the machine's memory, or, when none
// is given, half of the memory available now.
inline double resolve_memory_budget(const char* function, const std::optional<std::size_t>& given) {
    if (!given) return available_memory_bytes() / 2;
    const double available = physical_memory_bytes();
    if (double(*given) > available)
        fail(function, "memory_budget = ", format_bytes(double(*given)), " exceeds this machine's memory (",
             format_bytes(available), ")");
    return double(*given);
}

// 1 <= replicates <= max_replicates (hypothesis.hpp).
inline void check_replicates(const char* function, std::size_t replicates) {
    if (replicates < 1 || replicates > max_replicates)
        fail(function, "replicates = ", replicates, ", must be in [1, ", max_replicates, "]");
}

}  // namespace calib::detail

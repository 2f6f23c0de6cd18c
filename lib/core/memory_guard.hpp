// Guards for allocations whose size the caller chooses (replicates × observations, n² matrices):
// sizes are computed in double, so they cannot overflow, and compared with the machine's physical
// memory before anything is allocated — a request that cannot fit fails at once with its size
// instead of aborting inside the allocator after minutes of work.
#pragma once

#include "core/check.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

namespace calib::detail {

// The value of `wanted` ("MemAvailable:") in a /proc file of "key: value kB" lines, in bytes (+∞ if
// absent). Lines are read whole: /proc/self/status also has lines of text ("Name: calib").
inline double proc_kib_field(const char* file, const std::string& wanted) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);)
        if (line.compare(0, wanted.size(), wanted) == 0) {
            const double kib = std::strtod(line.c_str() + wanted.size(), nullptr);
            return kib > 0 ? kib * 1024 : std::numeric_limits<double>::infinity();
        }
    return std::numeric_limits<double>::infinity();
}

// What this process may still allocate under its own limits (+∞ if none): the address space left
// under `ulimit -v` (RLIMIT_AS minus the current VmSize) and the memory left in its cgroup (v2
// memory.max minus memory.current, as in a container).
inline double process_limit_bytes() {
    double left = std::numeric_limits<double>::infinity();
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        left = std::max(0.0, double(limit.rlim_cur) - proc_kib_field("/proc/self/status", "VmSize:"));
    std::ifstream max_file("/sys/fs/cgroup/memory.max"), current_file("/sys/fs/cgroup/memory.current");
    double max = 0, current = 0;
    if (max_file >> max && current_file >> current) left = std::min(left, std::max(0.0, max - current));
    return left;
}

// Physical memory of the machine in bytes, or less under the process's limits (+∞ if neither is
// known).
inline double physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    const double physical = pages <= 0 || page_size <= 0 ? std::numeric_limits<double>::infinity()
                                                         : static_cast<double>(pages) * static_cast<double>(page_size);
    return std::min(physical, process_limit_bytes());
}

// Memory available to a new computation in bytes: MemAvailable of /proc/meminfo (free memory plus
// what the kernel can reclaim), else the physical memory; at most what the process's limits leave.
inline double available_memory_bytes() {
    const double available = proc_kib_field("/proc/meminfo", "MemAvailable:");
    return std::min(std::isfinite(available) ? available : physical_memory_bytes(), process_limit_bytes());
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
        fail(function, what, " would take ", format_bytes(bytes), ", more than this machine's memory (",
             format_bytes(available), " with the process's limits: ulimit -v, the cgroup's memory.max); ", fix);
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

}  // namespace calib::detail

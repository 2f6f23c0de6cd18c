// Working memory kept between calls (working_memory.hpp): glibc's malloc parameters.
#include <calib/working_memory.hpp>

#include "core/check.hpp"

#include <algorithm>
#include <climits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace calib {

namespace {
constexpr std::int64_t smallest_mapping = std::int64_t(128) << 10;  // glibc's default M_MMAP_THRESHOLD
constexpr std::int64_t largest_mapping = std::int64_t(32) << 20;    // the largest it accepts on 64-bit systems
}  // namespace

void keep_working_memory(std::int64_t bytes) {
    if (bytes < 0 || bytes > INT_MAX)
        detail::fail("keep_working_memory", "bytes = ", bytes, ", must be in [0, ", INT_MAX, "] (malloc's int)");
#if defined(__GLIBC__)
    const std::int64_t mapping = std::clamp(bytes, smallest_mapping, largest_mapping);
    mallopt(M_MMAP_THRESHOLD, int(mapping));
    mallopt(M_TRIM_THRESHOLD, int(bytes));
#endif
}

void release_working_memory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

bool can_keep_working_memory() {
#if defined(__GLIBC__)
    return true;
#else
    return false;
#endif
}

}  // namespace calib

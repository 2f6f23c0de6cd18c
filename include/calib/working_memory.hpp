// Working memory kept between calls (docs/performance.md, "Working memory between calls").
#pragma once

#include <cstdint>

namespace calib {

// Every call allocates its working copies afresh (an estimator's n × m copies of the predictions and
// targets, its partial sums) and frees them at its end. glibc's malloc returns the freed top of its
// heap to the system beyond a threshold it adjusts by itself; in a process whose earlier allocations
// kept that threshold low (a Python interpreter), each call of a loop then page-faults its copies in
// again: 2.1–2.5 times the time of a call that finds them kept at n = 10⁴, m = 10 (C++ and Python).
//
// keep_working_memory(bytes) makes malloc keep up to `bytes` of freed memory at the top of its heaps
// (M_TRIM_THRESHOLD) and serve requests below min(max(bytes, 128 KiB), 32 MiB) from them rather
// than from separate mappings (M_MMAP_THRESHOLD), so that the next call reuses the pages. It is a
// setting of the whole process, as malloc is, and fixes the thresholds that glibc otherwise adjusts
// (its own adjustment reaches 32 MiB and 64 MiB). `bytes` in [0, 2^31 − 1]; 0 returns freed memory at
// once. Throws calib::invalid_argument outside that range. Python's calib module calls it with
// default_working_memory when imported. Without glibc, it does nothing (can_keep_working_memory() says
// whether it can).
void keep_working_memory(std::int64_t bytes);

// What the Python module keeps: 64 MiB, the most glibc's own adjustment reaches, over three times
// what a call at n = 10⁵, m = 10 leaves (19 MB measured; docs/performance.md).
inline constexpr std::int64_t default_working_memory = std::int64_t{64} << 20;

// Returns the freed memory that malloc kept to the system now (glibc's malloc_trim(0)).
void release_working_memory();

// Whether this build can keep working memory (built against glibc).
bool can_keep_working_memory();

}  // namespace calib

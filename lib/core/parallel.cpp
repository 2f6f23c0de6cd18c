// Thread counts (parallel.hpp).
#include <calib/parallel.hpp>

#include "core/check.hpp"

#include <omp.h>

#include <algorithm>

namespace calib {

int max_num_threads() { return std::min(std::max(64, 4 * omp_get_num_procs()), omp_get_thread_limit()); }

int resolve_num_threads(int num_threads) {
    const int limit = max_num_threads();
    if (num_threads < 0 || num_threads > limit)
        detail::fail("ParallelOptions", "num_threads = ", num_threads, ", must be in [0, ", limit,
                     "] (0: OpenMP's default; the most is max(64, 4 per processor), capped by OMP_THREAD_LIMIT)");
    return num_threads > 0 ? num_threads : std::min(omp_get_max_threads(), limit);
}

}  // namespace calib

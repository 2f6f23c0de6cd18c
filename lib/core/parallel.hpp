// A parallel loop over independent tasks (replicates, rows) for work outside the pairwise engine:
// OpenMP across tasks unless already inside a parallel region, and the first exception thrown by a
// task is rethrown on the calling thread (an exception must not escape an OpenMP region).
#pragma once

#include "core/progress.hpp"

#include <calib/parallel.hpp>

#include <omp.h>

#include <cstddef>
#include <exception>
#include <mutex>

namespace calib::detail {

// `stage` names the tasks for the progress report (nullptr: none is reported).
template <class F>
void parallel_for(std::size_t count, const ParallelOptions& parallel, F&& task, const char* stage = nullptr) {
    const int threads = resolve_num_threads(parallel.num_threads);
    const StageProgress progress(parallel, stage, count);
    std::exception_ptr error;
    std::mutex mutex;
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t t = 0; t < count; ++t) {
        if (progress.stopped()) continue;
        try {
            task(t);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(mutex);
            if (!error) error = std::current_exception();
        }
        progress.advance(1);
    }
    progress.finish();
    if (error) std::rethrow_exception(error);
}

}  // namespace calib::detail

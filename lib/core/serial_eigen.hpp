// Keeps Eigen's own multithreading out of a scope, so that results do not depend on the thread
// count.
#pragma once

#include <omp.h>

namespace calib::detail {

// Eigen parallelises a large product over omp_get_max_threads() threads and chooses its blocking,
// hence its rounding, from that number. Inside this scope the calling thread's OpenMP default is 1,
// so Eigen's products, factorisations and solvers run serially and deterministically; our own
// parallel loops name their thread count explicitly (resolve it before opening the scope).
class SerialEigenScope {
public:
    SerialEigenScope() : saved_(omp_get_max_threads()) { omp_set_num_threads(1); }
    ~SerialEigenScope() { omp_set_num_threads(saved_); }
    SerialEigenScope(const SerialEigenScope&) = delete;
    SerialEigenScope& operator=(const SerialEigenScope&) = delete;

private:
    int saved_;
};

}  // namespace calib::detail

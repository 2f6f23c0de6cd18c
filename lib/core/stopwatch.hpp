// Wall time since construction: the compute_seconds that every run of the registry records, so that
// the command line and Python time the same span of work.
#pragma once

#include <chrono>

namespace calib::detail {

class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    std::chrono::steady_clock::time_point start_;
};

}  // namespace calib::detail

// The tail every analysis subcommand prints after its own fields: family, input, threads,
// wall_time_seconds and calib_version, then the object as one line on stdout.
#pragma once

#include "shared_options.hpp"

#include <calib/json.hpp>

#include <chrono>

namespace calib::cli {

// Wall time of the library call, without reading the file or choosing the lengthscale.
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

// Adds family, input, threads (the number used for a request of `threads`, 0: the default),
// wall_time_seconds and calib_version, and prints `out` as one line (easy to append to a JSON
// Lines log).
void print_with_run_fields(JsonObject& out, const InputOptions& input, int threads, double seconds);

}  // namespace calib::cli

// The common output fields of the analysis subcommands (run_output.hpp).
#include "run_output.hpp"

#include <calib/version.hpp>

#include <iostream>

namespace calib::cli {

void print_with_run_fields(JsonObject& out, const InputOptions& input, int threads, double seconds) {
    out.set("family", to_string(input.family)).set("input", input.path);
    out.set("threads", resolved_threads(threads));
    out.set("wall_time_seconds", seconds);
    out.set("calib_version", version);
    std::cout << out.dump() << '\n';
}

}  // namespace calib::cli

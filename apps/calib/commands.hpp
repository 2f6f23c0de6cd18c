// The subcommands of `calib` and their help texts. Each run_* returns the exit code and throws
// usage_error, calib::invalid_argument or other exceptions, which main() turns into one line.
#pragma once

#include <string>
#include <vector>

namespace calib::cli {

int run_estimate(const std::vector<std::string>& arguments);
int run_test(const std::vector<std::string>& arguments);
int run_rank(const std::vector<std::string>& arguments);

extern const char* const main_help;
extern const char* const estimate_help;
extern const char* const test_help;
extern const char* const rank_help;

}  // namespace calib::cli

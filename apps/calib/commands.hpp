// The subcommands of `calib` and their help texts. Each run_* returns the exit code and throws
// usage_error, calib::invalid_argument or other exceptions, which main() turns into one line.
#pragma once

#include <string>
#include <vector>

namespace calib {
class Operation;
}

namespace calib::cli {

// How far a command goes: `options` parses and checks every option, then stops before any file is
// read (what the option fuzzer drives, fuzz/options.cpp); `run` does the whole command.
enum class Stage { options, run };

// The arguments after the program name: the subcommand and its options.
int run_command(const std::vector<std::string>& arguments, Stage stage = Stage::run);

// An operation of the library (calib/operation.hpp: estimate, test, metrics, rank, reproduce), its options and its inputs.
int run_operation(const Operation& operation, const std::vector<std::string>& arguments, Stage stage = Stage::run);
int run_report(const std::vector<std::string>& arguments, Stage stage = Stage::run);
int run_recalibrate(const std::vector<std::string>& arguments, Stage stage = Stage::run);
// `calib reproduce PRESET ...`: the operation reproduce with the preset first.
int run_reproduce(const std::vector<std::string>& arguments, Stage stage = Stage::run);

extern const char* const main_usage;  // the usage lines, printed alone when calib gets no argument
// The commands (every operation of the library among them), exit codes and examples.
std::string main_help();
// Generated from the registry: the families, the methods and every option with its default.
std::string operation_help(const Operation& operation);
std::string recalibrate_help();

}  // namespace calib::cli

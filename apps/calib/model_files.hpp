// Several models evaluated on the same labelled data (`calib rank`, `calib report`): the files after
// --input (the check that they hold the same labels is the registry's check_same_labels).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace calib::cli {

// Splits off the model files: every argument after --input up to the next option (--input may be
// given more than once); the rest goes to the option parser. Throws usage_error for an empty name, and
// CommandSetup::check_models's error for too few files for `command` (rank, report).
std::vector<std::string> take_model_files(const std::vector<std::string>& arguments, std::vector<std::string>& rest,
                                          const std::string& command);

}  // namespace calib::cli

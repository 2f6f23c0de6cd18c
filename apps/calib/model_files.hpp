// Several models evaluated on the same labelled data (`calib rank`, `calib report`): the files after
// --input (the check that they hold the same labels is the registry's check_same_labels).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace calib {
struct OperationInfo;
}

namespace calib::cli {

// Splits off the model files: every argument after --input up to the next option (--input may be
// given more than once); the rest goes to the option parser. Throws usage_error for an empty name, and
// check_model_count's error for a number of files the operation does not take.
std::vector<std::string> take_model_files(const std::vector<std::string>& arguments, std::vector<std::string>& rest,
                                          const OperationInfo& operation);

}  // namespace calib::cli

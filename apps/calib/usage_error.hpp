// The error of a bad command line: printed as one line, exit code 2 (as for bad input files).
#pragma once

#include <stdexcept>

namespace calib::cli {

class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace calib::cli

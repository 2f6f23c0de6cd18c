// The error of a bad command line: printed as one line, exit code 2 (as for bad input files). An
// invalid argument of the command line, so its message is made one clean line as calib's are
// (arguments are echoed in messages and may hold any bytes).
#pragma once

#include <calib/errors.hpp>

namespace calib::cli {

class usage_error : public calib::invalid_argument {
public:
    explicit usage_error(const std::string& message) : calib::invalid_argument(message) {}
};

}  // namespace calib::cli

// Error types of calib. Bad input raises calib::invalid_argument; a numerical failure
// (singular covariance, non-PSD Gram) raises calib::numerical_error. Messages name the
// function, the argument, the offending index and value, and the rule, e.g.
//   "calib::skce_block: block_size = 1, must be in [2, n = 10]".
// A message is always one line of valid UTF-8: control bytes and invalid UTF-8 (from a file's cell or
// a path) are written as \xNN, and a message longer than max_message_chars characters is cut with
// "...".
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace calib {

inline constexpr std::size_t max_message_chars = 2000;

class invalid_argument : public std::invalid_argument {
public:
    // row and column locate the offending entry of a data container (0-based observation and
    // column index), or are -1 when the error is not about one entry; readers of files use them to
    // point at the line and column of the file.
    explicit invalid_argument(const std::string& message, long row = -1, long column = -1);
    long row() const { return row_; }
    long column() const { return column_; }

private:
    long row_, column_;
};

class numerical_error : public std::runtime_error {
public:
    explicit numerical_error(const std::string& message);
};

// A call stopped at its caller's request (Progress::stop_requested, calib/parallel.hpp).
class cancelled : public std::runtime_error {
public:
    explicit cancelled(const std::string& message);
};

}  // namespace calib

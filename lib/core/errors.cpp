// The error types (errors.hpp): every message made one clean line where it is created.
#include <calib/errors.hpp>

#include "core/printable.hpp"

namespace calib {

invalid_argument::invalid_argument(const std::string& message, long row, long column)
    : std::invalid_argument(detail::printable(message, max_message_chars)), row_(row), column_(column) {}

numerical_error::numerical_error(const std::string& message)
    : std::runtime_error(detail::printable(message, max_message_chars)) {}

cancelled::cancelled(const std::string& message) : std::runtime_error(detail::printable(message, max_message_chars)) {}

}  // namespace calib

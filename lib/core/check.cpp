// Formatting of values in messages (check.hpp).
#include "core/check.hpp"

#include <charconv>

namespace calib {

namespace detail {
// The shortest text that reads back to x (1.1, not 1.1000000000000001), as in the JSON output.
std::string format_value(double x) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}
}  // namespace detail

}  // namespace calib

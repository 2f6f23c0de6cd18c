// Internal: text from a user's file or command line made safe for a one-line message or a JSON
// string: control bytes and bytes that are not valid UTF-8 are written as \xNN, and text longer
// than max_chars characters is cut with "..." (never inside a UTF-8 sequence).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace calib::detail {

std::string printable(std::string_view text, std::size_t max_chars);

// The text with only the bytes that are not valid UTF-8 written as \xNN (control characters kept):
// for JSON strings, which escape control characters themselves.
std::string valid_utf8(std::string_view text);

}  // namespace calib::detail

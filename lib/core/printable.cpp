// Escaping and shortening of user text for messages (printable.hpp).
#include "core/printable.hpp"

#include <cstdio>

namespace calib::detail {

namespace {

// The length of the valid UTF-8 sequence starting at s[i] (a printable ASCII byte, or any ASCII byte
// when `controls`: 1), or 0.
std::size_t utf8_length(std::string_view s, std::size_t i, bool controls = false) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    if ((c >= 0x20 && c < 0x7F) || (controls && c < 0x80)) return 1;
    std::size_t length = 0;
    unsigned min = 0;
    if (c >= 0xC2 && c <= 0xDF) length = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) length = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) length = 4, min = 0x10000;
    else return 0;
    if (i + length > s.size()) return 0;
    unsigned code = c & (0x3F >> (length - 1));
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    // Overlong forms, surrogates and code points beyond U+10FFFF are not valid UTF-8.
    if (code < min || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return 0;
    return length;
}

std::string escaped(std::string_view text, std::size_t max_chars, bool controls) {
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++chars) {
        if (chars == max_chars) return out + "...";
        const std::size_t length = utf8_length(text, i, controls);
        if (length == 0) {
            char code[8];
            std::snprintf(code, sizeof code, "\\x%02X", static_cast<unsigned char>(text[i]));
            out += code;
            ++i;
        } else {
            out.append(text, i, length);
            i += length;
        }
    }
    return out;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_chars) { return escaped(text, max_chars, false); }

std::string valid_utf8(std::string_view text) { return escaped(text, std::string_view::npos, true); }

}  // namespace calib::detail

// What every fuzz harness checks of an error it catches: calib's errors become one line on stderr
// (and a JSON string), so a message must be non-empty, free of control bytes and valid UTF-8.
// Written here rather than with lib/printable.hpp, the code under test.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace calib::fuzz {

// The length of the UTF-8 sequence starting at p (0 if it is not a valid one).
inline std::size_t utf8_sequence(const unsigned char* p, std::size_t left) {
    std::size_t length = 0;
    unsigned min = 0;
    if (p[0] < 0x80) return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) length = 2, min = 0x80;
    else if (p[0] >= 0xe0 && p[0] <= 0xef) length = 3, min = 0x800;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4) length = 4, min = 0x10000;
    else return 0;
    if (left < length) return 0;
    unsigned code = p[0] & (0x7f >> length);
    for (std::size_t k = 1; k < length; ++k) {
        if ((p[k] & 0xc0) != 0x80) return 0;
        code = (code << 6) | (p[k] & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
    return length;
}

// Aborts (a finding for libFuzzer) when `message` breaks the one-line, valid-UTF-8 rule.
inline void check_message(const char* message) {
    const auto* p = reinterpret_cast<const unsigned char*>(message);
    const std::size_t size = std::strlen(message);
    if (size == 0) {
        std::fprintf(stderr, "empty error message\n");
        std::abort();
    }
    for (std::size_t i = 0; i < size;) {
        const std::size_t length = utf8_sequence(p + i, size - i);
        if (length == 0 || p[i] < 0x20 || p[i] == 0x7f) {
            std::fprintf(stderr, "error message with a control or invalid byte 0x%02x at %zu: %s\n", p[i], i, message);
            std::abort();
        }
        i += length;
    }
}

}  // namespace calib::fuzz

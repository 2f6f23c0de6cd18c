// Option values: reading integers, numbers, names and flags from text or typed values, and the
// messages about options (options.hpp, registry/option_table.hpp).
#include "registry/option_table.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <type_traits>

namespace calib {

option_error::option_error(const std::string& option, const std::string& value, const std::string& rule)
    : invalid_argument("option `" + option + "` = " + value + ", must be " + rule), option_(option), value_(value),
      rule_(rule) {}

std::string option_name(const std::string& name, NameStyle style) {
    if (style == NameStyle::python) return name;
    std::string dashed = name;
    for (char& c : dashed)
        if (c == '_') c = '-';
    return "--" + dashed;
}

std::string render_message(const std::string& message, NameStyle style, const std::vector<std::string>& names) {
    if (style == NameStyle::python) return message;
    std::string out;
    for (std::size_t i = 0; i < message.size(); ++i) {
        const std::size_t close = message[i] == '`' ? message.find('`', i + 1) : std::string::npos;
        const std::string inner = close == std::string::npos ? "" : message.substr(i + 1, close - i - 1);
        const bool name = !inner.empty() &&
                          inner.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos &&
                          (names.empty() || std::find(names.begin(), names.end(), inner) != names.end());
        if (!name) {
            out += message[i];
            continue;
        }
        out += option_name(inner, style);
        i = close;
    }
    return out;
}

std::string describe_condition(const Condition& condition) {
    if (condition.option.empty()) return "applies always";
    const std::string other = "`" + condition.option + "`";
    if (condition.values.empty()) return "applies only with " + other;
    if (condition.values.size() == 1 && condition.values[0] == "false") return "applies only without " + other;
    std::string values;
    for (const std::string& v : condition.values) values += (values.empty() ? "" : "|") + v;
    return "applies only with " + other + " " + values;
}

namespace detail {

std::string one_of(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

std::string integer_rule(std::uint64_t min, std::uint64_t max) {
    if (max == std::numeric_limits<std::uint64_t>::max() || max == std::uint64_t(std::numeric_limits<long>::max()))
        return "an integer >= " + std::to_string(min);
    return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

std::string text_value(const Value& value) { return to_text(value); }

std::uint64_t unsigned_value(const std::string& option, const Value& value, std::uint64_t min, std::uint64_t max) {
    const std::string rule = integer_rule(min, max);
    const auto fail = [&]() -> std::uint64_t { throw option_error(option, "'" + to_text(value) + "'", rule); };
    std::uint64_t x = 0;
    if (const auto* text = std::get_if<std::string>(&value)) {
        // Digits only: strtoull would accept a sign, spaces and wrap "-1" around.
        if (text->empty() || text->find_first_not_of("0123456789") != std::string::npos) return fail();
        errno = 0;
        char* end = nullptr;
        x = std::strtoull(text->c_str(), &end, 10);
        if (errno == ERANGE || end != text->c_str() + text->size()) return fail();
    } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
        if (*i < 0) return fail();
        x = static_cast<std::uint64_t>(*i);
    } else if (const auto* u = std::get_if<std::uint64_t>(&value)) {
        x = *u;
    } else if (const auto* d = std::get_if<double>(&value)) {
        // An integral number (1e3 from a program) is taken exactly; anything else is not an integer.
        if (!(*d >= 0 && *d < 0x1p64 && std::floor(*d) == *d)) return fail();
        x = static_cast<std::uint64_t>(*d);
    } else {
        return fail();
    }
    if (x < min || x > max) return fail();
    return x;
}

double real_value(const std::string& option, const Value& value, const std::function<bool(double)>& ok,
                  const std::string& rule) {
    double x = 0;
    bool number = true;
    if (const auto* text = std::get_if<std::string>(&value)) {
        // Decimal syntax only (0.25, -1e-3), as the integer options: strtod would also take hex
        // (0x1p-3), leading spaces and a '+'. As in the readers, an overflow is refused (not finite) and
        // an underflow reads as 0 or a subnormal.
        const char* first = text->data();
        const char* last = first + text->size();
        const auto [end, error] = std::from_chars(first, last, x, std::chars_format::general);
        number = !text->empty() && end == last && (error == std::errc() || error == std::errc::result_out_of_range);
        if (number && error == std::errc::result_out_of_range) x = std::strtod(text->c_str(), nullptr);
    } else if (const auto* d = std::get_if<double>(&value)) {
        x = *d;
    } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
        x = static_cast<double>(*i);
    } else if (const auto* u = std::get_if<std::uint64_t>(&value)) {
        x = static_cast<double>(*u);
    } else {
        number = false;
    }
    if (!number || !std::isfinite(x)) throw option_error(option, "'" + to_text(value) + "'", "a finite number");
    if (ok && !ok(x)) throw option_error(option, "'" + to_text(value) + "'", rule);
    return x;
}

bool flag_value(const std::string& option, const Value& value) {
    if (const auto* b = std::get_if<bool>(&value)) return *b;
    if (const auto* text = std::get_if<std::string>(&value)) {
        if (*text == "true") return true;
        if (*text == "false") return false;
    }
    throw option_error(option, "'" + to_text(value) + "'", "true or false");
}

}  // namespace detail

}  // namespace calib

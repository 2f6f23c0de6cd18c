// Internal: an enumeration's names in one table, and the two lookups every public to_string/parse
// pair of an enumeration needs.
#pragma once

#include <calib/errors.hpp>

#include <string>
#include <utility>
#include <vector>

namespace calib::detail {

template <class E>
using NameTable = std::vector<std::pair<E, std::string>>;

// The value's name, or "?" for a value the table lacks.
template <class E>
std::string name_of(const NameTable<E>& table, E value) {
    for (const auto& [v, name] : table)
        if (v == value) return name;
    return "?";
}

// The value named `name`; otherwise throws calib::invalid_argument "calib::<function>: <what> = '<name>'
// is unknown; the <kind> are a, b, c".
template <class E>
E value_named(const NameTable<E>& table, const std::string& name, const std::string& function,
              const std::string& what, const std::string& kind) {
    std::string known;
    for (const auto& [v, text] : table) {
        if (text == name) return v;
        known += (known.empty() ? "" : ", ") + text;
    }
    throw invalid_argument("calib::" + function + ": " + what + " = '" + name + "' is unknown; the " + kind + " are " +
                           known);
}

}  // namespace calib::detail

// Records of named values (record.hpp) and their JSON form.
#include <calib/record.hpp>
#include <calib/tool/json.hpp>

#include "core/check.hpp"

#include <type_traits>

namespace calib {

const Value& find(const Record& record, const std::string& name) {
    for (const Field& f : record)
        if (f.name == name) return f.value;
    detail::fail("find", "no field named '", name, "' in the record");
}

double to_double(const Value& value) {
    return std::visit(
        [](const auto& v) -> double {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>)
                detail::fail("to_double", "the value '", v, "' is text, not a number");
            else if constexpr (std::is_same_v<T, Record>)
                detail::fail("to_double", "the value is a record, not a number");
            else if constexpr (std::is_arithmetic_v<T>)
                return static_cast<double>(v);
            else
                detail::fail("to_double", "the value is a list, not a number");
        },
        value);
}


std::string to_text(const Value& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<T, double>)
                return detail::format_value(v);
            else if constexpr (std::is_same_v<T, std::string>)
                return v;
            else if constexpr (std::is_arithmetic_v<T>)
                return std::to_string(v);
            else  // a record or a list
                return json_text(Value(v));
        },
        value);
}

std::string to_json(const Record& record) { return JsonObject().merge(record).dump(); }

std::vector<std::string> non_finite_fields(const Record& record) { return JsonObject().merge(record).non_finite(); }

}  // namespace calib

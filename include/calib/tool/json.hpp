// A small ordered JSON object writer, used by the CLI and by the results' to_json().
//
// Keys keep their insertion order (setting an existing key replaces its value in place). Doubles
// are written in the shortest form that reads back bitwise (0.05, 1e-07); NaN and ±inf, which JSON
// cannot express, are written as null. Strings are escaped (quotes, backslash, control characters);
// valid UTF-8 passes through unchanged and any other byte is written as the text \xNN, so that the
// output is always valid UTF-8. Values: numbers, booleans, strings, null, nested objects, and arrays
// of doubles, of unsigned integers, of strings or of objects. non_finite() lists the numbers written
// null, so that a writer can say so (the CLI warns of each).
#pragma once

#include <calib/record.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace calib {

class JsonObject {
public:
    JsonObject& set(const std::string& key, double value);
    JsonObject& set(const std::string& key, bool value);
    JsonObject& set(const std::string& key, const char* value);
    JsonObject& set(const std::string& key, const std::string& value);
    JsonObject& set(const std::string& key, const std::vector<double>& values);
    JsonObject& set(const std::string& key, const std::vector<std::uint64_t>& values);
    JsonObject& set(const std::string& key, const std::vector<std::string>& values);
    JsonObject& set(const std::string& key, const JsonObject& object);
    JsonObject& set(const std::string& key, const std::vector<JsonObject>& objects);
    // Integers are written exactly (not through double).
    template <class Integer, std::enable_if_t<std::is_integral_v<Integer> &&
                                                  !std::is_same_v<Integer, bool>, int> = 0>
    JsonObject& set(const std::string& key, Integer value) {
        if constexpr (std::is_signed_v<Integer>)
            return set_raw(key, std::to_string(static_cast<long long>(value)));
        else
            return set_raw(key, std::to_string(static_cast<unsigned long long>(value)));
    }
    JsonObject& set_null(const std::string& key);
    // A typed value (record.hpp; a record becomes a nested object), and every field of a record.
    JsonObject& set(const std::string& key, const Value& value);
    JsonObject& merge(const Record& record);

    bool contains(const std::string& key) const;
    // The numbers that were not finite and are written null, each as "path = value" (e.g.
    // "models[0].nll = inf", "counts[3] = nan"), in the order of the output: what a writer warns of.
    std::vector<std::string> non_finite() const;
    std::size_t size() const { return members_.size(); }

    // indent < 0: one line without spaces; indent ≥ 0: one member per line, nested objects indented
    // by that many spaces per level (arrays stay on one line).
    std::string dump(int indent = -1) const;

private:
    struct Member {
        std::string key;
        std::string text;               // the serialised value, unless it is an object
        std::vector<JsonObject> object; // one element when the value is an object
        bool array = false;             // the value is the array `object` of objects
        std::vector<std::string> non_finite;  // "suffix = value" of numbers written null ("" or "[i]")
    };
    JsonObject& set_raw(const std::string& key, std::string text);
    Member& slot(const std::string& key);
    void write(std::string& out, int indent, int depth) const;

    std::vector<Member> members_;
};

// JSON text of a double (shortest round trip; null when not finite), of a string (quoted and escaped)
// and of any typed value (a record as an object, a list as an array).
std::string json_number(double value);
std::string json_string(const std::string& value);
std::string json_text(const Value& value);

}  // namespace calib

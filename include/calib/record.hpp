// Named, typed values in a fixed order: the details of a result and the options a call used, as the
// command-line tool prints them (one JSON object) and the Python module returns them (a dict).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace calib {

// Integers keep their type (seeds are 64-bit unsigned and never pass through a double); enumerations
// are written by their names; a Record nests (the kernel of a run: its prediction and target parts);
// lists hold numbers, counts, texts or records (a reliability diagram's values and bins, a ranking's names).
struct Field;
using Record = std::vector<Field>;
using Value = std::variant<bool, std::int64_t, std::uint64_t, double, std::string, Record, std::vector<double>,
                           std::vector<std::uint64_t>, std::vector<std::string>, std::vector<Record>>;

struct Field {
    std::string name;  // snake_case
    Value value;
};

// The value of the field `name`; throws calib::invalid_argument when there is none.
const Value& find(const Record& record, const std::string& name);

// A value as a double (integers and bools converted); throws calib::invalid_argument for text, a record or a list.
double to_double(const Value& value);

// A value as text, as the command line writes it: true/false, integers in decimal, numbers in the
// shortest form that reads back exactly, text as it is; a record or a list as its JSON object or array.
std::string to_text(const Value& value);

// One JSON object on one line: numbers in the shortest form that reads back exactly, NaN and ±inf
// as null, integers exactly.
std::string to_json(const Record& record);

// The fields whose number is not finite, each as "name = inf" (a nested record's as "outer.name =
// nan"): what every front-end warns of (the command line writes such a number as null, Python keeps it).
std::vector<std::string> non_finite_fields(const Record& record);

}  // namespace calib

// Internal: a small strict JSON reader for calib's own files (recalibration maps): objects, arrays,
// strings, numbers, true/false/null; anything else, trailing text or a duplicate key throws
// calib::invalid_argument "<name>: <what> at offset <k>". Numbers are read with strtod, which reads the
// writer's shortest round-trip form back bitwise.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace calib::detail {

struct JsonValue {
    enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<JsonValue> array;
    std::map<std::string, JsonValue> object;
};

JsonValue parse_json(const std::string& text, const std::string& name);

}  // namespace calib::detail

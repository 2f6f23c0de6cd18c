// The JSON writer of json.hpp.
#include <calib/tool/json.hpp>

#include "core/printable.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>

namespace calib {

std::string json_number(double value) {
    if (!std::isfinite(value)) return "null";
    char buffer[32];
    // The shortest form that reads back to the same double (0.05, not 0.050000000000000003).
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

std::string json_string(const std::string& value) {
    std::string out = "\"";
    // Bytes that are not valid UTF-8 (e.g. from a path) become \xNN text, so the output is valid JSON.
    for (const char c : detail::valid_utf8(value)) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned char>(c));
                    out += buffer;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

namespace {

std::string non_finite_text(double value) { return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf"; }

// A JSON array of the values, each written by `text`.
template <class T, class Text>
std::string json_array(const std::vector<T>& values, Text text) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + text(values[i]);
    return out + "]";
}

}  // namespace

JsonObject::Member& JsonObject::slot(const std::string& key) {
    for (Member& member : members_)
        if (member.key == key) {
            member.non_finite.clear();
            return member;
        }
    members_.push_back(Member{key, {}, {}, false, {}});
    return members_.back();
}

JsonObject& JsonObject::set_raw(const std::string& key, std::string text) {
    Member& member = slot(key);
    member.text = std::move(text);
    member.object.clear();
    member.array = false;
    return *this;
}

JsonObject& JsonObject::set(const std::string& key, double value) {
    set_raw(key, json_number(value));
    if (!std::isfinite(value)) slot(key).non_finite = {" = " + non_finite_text(value)};
    return *this;
}
JsonObject& JsonObject::set(const std::string& key, bool value) {
    return set_raw(key, value ? "true" : "false");
}
JsonObject& JsonObject::set(const std::string& key, const char* value) {
    return set_raw(key, json_string(value));
}
JsonObject& JsonObject::set(const std::string& key, const std::string& value) {
    return set_raw(key, json_string(value));
}
JsonObject& JsonObject::set_null(const std::string& key) { return set_raw(key, "null"); }

JsonObject& JsonObject::set(const std::string& key, const std::vector<double>& values) {
    std::vector<std::string> non_finite;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i])) non_finite.push_back("[" + std::to_string(i) + "] = " + non_finite_text(values[i]));
    set_raw(key, json_array(values, json_number));
    slot(key).non_finite = std::move(non_finite);
    return *this;
}

JsonObject& JsonObject::set(const std::string& key, const std::vector<std::uint64_t>& values) {
    return set_raw(key, json_array(values, [](std::uint64_t x) { return std::to_string(x); }));
}

JsonObject& JsonObject::set(const std::string& key, const std::vector<std::string>& values) {
    return set_raw(key, json_array(values, json_string));
}

JsonObject& JsonObject::set(const std::string& key, const JsonObject& object) {
    // Copy first: object may be *this or one of its members, which slot() may move.
    JsonObject copy = object;
    Member& member = slot(key);
    member.text.clear();
    member.object.assign(1, std::move(copy));
    member.array = false;
    return *this;
}

JsonObject& JsonObject::set(const std::string& key, const std::vector<JsonObject>& objects) {
    std::vector<JsonObject> copy = objects;
    Member& member = slot(key);
    member.text.clear();
    member.object = std::move(copy);
    member.array = true;
    return *this;
}

bool JsonObject::contains(const std::string& key) const {
    for (const Member& member : members_)
        if (member.key == key) return true;
    return false;
}

std::vector<std::string> JsonObject::non_finite() const {
    std::vector<std::string> out;
    for (const Member& member : members_) {
        for (const std::string& entry : member.non_finite) out.push_back(member.key + entry);
        for (std::size_t k = 0; k < member.object.size(); ++k)
            for (const std::string& inner : member.object[k].non_finite())
                out.push_back(member.key + (member.array ? "[" + std::to_string(k) + "]" : "") + "." + inner);
    }
    return out;
}

void JsonObject::write(std::string& out, int indent, int depth) const {
    if (members_.empty()) {
        out += "{}";
        return;
    }
    const bool pretty = indent >= 0;
    const std::string inner = pretty ? "\n" + std::string(std::size_t(indent * (depth + 1)), ' ') : "";
    out += "{";
    for (std::size_t i = 0; i < members_.size(); ++i) {
        const Member& member = members_[i];
        if (i) out += ",";
        out += inner + json_string(member.key) + (pretty ? ": " : ":");
        if (member.array) {  // objects of an array each on their own line when pretty
            const std::string item = pretty ? "\n" + std::string(std::size_t(indent * (depth + 2)), ' ') : "";
            out += "[";
            for (std::size_t k = 0; k < member.object.size(); ++k) {
                out += (k ? "," : "") + item;
                member.object[k].write(out, indent, depth + 2);
            }
            out += member.object.empty() || !pretty ? "]" : inner + "]";
        } else if (member.object.empty()) {
            out += member.text;
        } else {
            member.object.front().write(out, indent, depth + 1);
        }
    }
    out += pretty ? "\n" + std::string(std::size_t(indent * depth), ' ') + "}" : "}";
}

std::string JsonObject::dump(int indent) const {
    std::string out;
    write(out, indent, 0);
    return out;
}

JsonObject& JsonObject::set(const std::string& key, const Value& value) {
    return std::visit(
        [&](const auto& v) -> JsonObject& {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, Record>) {
                return set(key, JsonObject().merge(v));
            } else if constexpr (std::is_same_v<T, std::vector<Record>>) {
                std::vector<JsonObject> objects;
                for (const Record& r : v) objects.push_back(JsonObject().merge(r));
                return set(key, objects);
            } else {
                return set(key, v);
            }
        },
        value);
}

std::string json_text(const Value& value) {
    // The member's text without the object around it: {"v":TEXT}.
    const std::string object = JsonObject().set("v", value).dump();
    return object.substr(5, object.size() - 6);
}

JsonObject& JsonObject::merge(const Record& record) {
    for (const Field& f : record) set(f.name, f.value);
    return *this;
}

}  // namespace calib

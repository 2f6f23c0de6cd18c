#include "io/json_reader.hpp"

#include "core/check.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace calib::detail {

namespace {

class Parser {
public:
    Parser(const std::string& text, const std::string& name) : text_(text), name_(name) {}

    JsonValue document() {
        JsonValue value = parse_value(0);
        skip_space();
        if (pos_ != text_.size()) error("text after the JSON value");
        return value;
    }

private:
    [[noreturn]] void error(const std::string& what) const {
        throw invalid_argument(concat(name_, ": ", what, " at offset ", pos_));
    }
    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
            ++pos_;
    }
    bool take(char c) {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
        return false;
    }
    void expect(char c) {
        if (!take(c)) error(concat("expected '", c, "'"));
    }
    bool keyword(const char* word) {
        const std::string w(word);
        if (text_.compare(pos_, w.size(), w) != 0) return false;
        pos_ += w.size();
        return true;
    }

    JsonValue parse_value(int depth) {
        if (depth > 16) error("nesting deeper than 16");
        skip_space();
        if (pos_ >= text_.size()) error("unexpected end");
        JsonValue value;
        const char c = text_[pos_];
        if (c == '{') {
            value.kind = JsonValue::Kind::object;
            ++pos_;
            if (take('}')) return value;
            do {
                skip_space();
                const std::string key = parse_string();
                expect(':');
                if (!value.object.emplace(key, parse_value(depth + 1)).second) error("duplicate key \"" + key + "\"");
            } while (take(','));
            expect('}');
        } else if (c == '[') {
            value.kind = JsonValue::Kind::array;
            ++pos_;
            if (take(']')) return value;
            do value.array.push_back(parse_value(depth + 1));
            while (take(','));
            expect(']');
        } else if (c == '"') {
            value.kind = JsonValue::Kind::string;
            value.string = parse_string();
        } else if (keyword("true")) {
            value.kind = JsonValue::Kind::boolean;
            value.boolean = true;
        } else if (keyword("false")) {
            value.kind = JsonValue::Kind::boolean;
        } else if (keyword("null")) {
        } else {
            value.kind = JsonValue::Kind::number;
            value.number = parse_number();
        }
        return value;
    }

    // Strings of calib's files are plain: escapes other than \" \\ \/ \n \t are refused.
    std::string parse_string() {
        if (pos_ >= text_.size() || text_[pos_] != '"') error("expected a string");
        std::string out;
        for (++pos_; pos_ < text_.size() && text_[pos_] != '"'; ++pos_) {
            char c = text_[pos_];
            if (static_cast<unsigned char>(c) < 0x20) error("a control character in a string");
            if (c == '\\') {
                const char e = ++pos_ < text_.size() ? text_[pos_] : '\0';
                if (e == 'n') c = '\n';
                else if (e == 't') c = '\t';
                else if (e == '"' || e == '\\' || e == '/') c = e;
                else error("an unsupported escape in a string");
            }
            out += c;
        }
        if (pos_ >= text_.size()) error("an unterminated string");
        ++pos_;
        return out;
    }

    // JSON's number grammar, checked before strtod (which would also take "inf", hex, ".5").
    double parse_number() {
        const std::size_t start = pos_;
        auto digits = [&] {
            const std::size_t from = pos_;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
            return pos_ > from;
        };
        if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
        if (!digits()) error("expected a value");
        if (pos_ < text_.size() && text_[pos_] == '.' && (++pos_, !digits())) error("a malformed number");
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
            if (!digits()) error("a malformed number");
        }
        const std::string number = text_.substr(start, pos_ - start);
        errno = 0;
        const double value = std::strtod(number.c_str(), nullptr);
        if (errno == ERANGE && std::isinf(value)) error("a number out of range");
        return value;
    }

    const std::string& text_;
    const std::string& name_;
    std::size_t pos_ = 0;
};

}  // namespace

JsonValue parse_json(const std::string& text, const std::string& name) { return Parser(text, name).document(); }

}  // namespace calib::detail

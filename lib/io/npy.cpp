// Reading NumPy .npy files (npy.hpp): the preamble (magic, version, header length), a small parser of
// the header's Python dict literal, the dtype, and the conversion of the data to row-major doubles.
#include <calib/npy.hpp>

#include "core/printable.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <system_error>

namespace calib {

namespace {

using detail::printable;

constexpr std::string_view npy_magic("\x93NUMPY", 6);

// Integers up to this magnitude are exactly representable as doubles (53-bit significand).
constexpr std::uint64_t max_exact_integer = std::uint64_t{1} << 53;

constexpr const char* supported_dtypes =
    "supported dtypes: float16, float32, float64 (f2 f4 f8), int8 to int64 (i1 i2 i4 i8), uint8 to uint64 "
    "(u1 u2 u4 u8) and bool (b1), in either byte order";

[[noreturn]] void fail(const std::string& name, const std::string& what, long row = -1, long column = -1) {
    throw invalid_argument(name + ": " + what, row, column);
}

bool starts_with(std::string_view bytes, std::string_view prefix) {
    return bytes.size() >= prefix.size() && bytes.compare(0, prefix.size(), prefix) == 0;
}

std::string quoted(std::string_view text, std::size_t max_chars = 40) {
    return "\"" + printable(text, max_chars) + "\"";
}

// A shape written as Python writes the tuple: "()", "(5,)", "(3, 2)"; very long tuples are cut.
std::string shape_text(const std::vector<std::size_t>& dims) {
    std::string out = "(";
    for (std::size_t k = 0; k < dims.size(); ++k) {
        if (k == 8) return out + ", ...)";
        if (k > 0) out += ", ";
        out += std::to_string(dims[k]);
    }
    return out + (dims.size() == 1 ? ",)" : ")");
}

// ---- The header: a Python dict literal of exactly three keys ----

struct Header {
    std::string descr;
    bool fortran_order = false;
    std::vector<std::size_t> shape;
};

// A parser of the grammar numpy.save writes, with the freedom a hand-written or third-party header
// may take (either quotes, any whitespace, trailing commas, keys in any order):
//   dict  = '{' [entry (',' entry)* [',']] '}'      entry = string ':' value
//   value = string | 'True' | 'False' | '(' [int (',' int)* [',']] ')'
// A 1-tuple needs its comma, as in Python ("(3)" is the integer 3). Integers may carry the 'L' suffix
// of headers written under Python 2.
class HeaderParser {
public:
    HeaderParser(std::string_view header, const std::string& name) : text_(header), name_(name) {}

    Header parse() {
        Header header;
        bool seen[3] = {false, false, false};
        static const char* const keys[3] = {"descr", "fortran_order", "shape"};
        expect('{', "expected '{' (the .npy header is a Python dict)");
        skip_space();
        while (!eat('}')) {
            skip_space();
            if (at_end() || (text_[pos_] != '\'' && text_[pos_] != '"')) fail_here("expected a quoted key or '}'");
            const std::size_t key_start = pos_;
            const std::string key = parse_string();
            int index = 0;
            while (index < 3 && key != keys[index]) ++index;
            if (index == 3) {
                pos_ = key_start;
                fail_here("unexpected key '" + printable(key, 40) +
                          "' (a .npy header has exactly the keys 'descr', 'fortran_order' and 'shape')");
            }
            if (seen[index]) {
                pos_ = key_start;
                fail_here("duplicate key '" + key + "'");
            }
            seen[index] = true;
            expect(':', "expected ':' after the key '" + key + "'");
            skip_space();
            if (index == 0) {
                if (!at_end() && text_[pos_] == '[') {
                    fail(name_, "dtype " + quoted(text_.substr(pos_), 60) +
                                    " is a structured dtype (a list of fields), which is not supported; save a "
                                    "plain numeric array; " + supported_dtypes);
                }
                if (at_end() || (text_[pos_] != '\'' && text_[pos_] != '"'))
                    fail_here("'descr' must be a quoted dtype string such as '<f8'");
                header.descr = parse_string();
            } else if (index == 1) {
                if (eat_word("True")) header.fortran_order = true;
                else if (eat_word("False")) header.fortran_order = false;
                else fail_here("'fortran_order' must be True or False");
            } else {
                if (at_end() || text_[pos_] != '(') fail_here("'shape' must be a tuple of dimensions such as (100, 3)");
                header.shape = parse_tuple();
            }
            skip_space();
            if (eat(',')) continue;
            skip_space();
            if (at_end() || text_[pos_] != '}') fail_here("expected ',' or '}' after the value of '" + key + "'");
        }
        skip_space();
        if (!at_end()) fail_here("unexpected text after the end of the dict");
        std::string missing;
        for (int k = 0; k < 3; ++k)
            if (!seen[k]) missing += std::string(missing.empty() ? "'" : ", '") + keys[k] + "'";
        if (!missing.empty())
            fail(name_, "the .npy header lacks the key(s) " + missing + " (it must have 'descr', 'fortran_order' "
                        "and 'shape'), header: " + quoted(text_, 80));
        return header;
    }

private:
    std::string_view text_;
    const std::string& name_;
    std::size_t pos_ = 0;

    bool at_end() const { return pos_ >= text_.size(); }

    [[noreturn]] void fail_here(const std::string& what) const {
        const std::string found = at_end() ? "found the end of the header" : "found " + quoted(text_.substr(pos_), 24);
        fail(name_, "bad .npy header at offset " + std::to_string(pos_) + ": " + what + ", " + found);
    }

    void skip_space() {
        while (!at_end() && std::strchr(" \t\r\n\f", text_[pos_]) != nullptr && text_[pos_] != '\0') ++pos_;
    }

    bool eat(char c) {
        skip_space();
        if (at_end() || text_[pos_] != c) return false;
        ++pos_;
        return true;
    }

    void expect(char c, const std::string& what) {
        if (!eat(c)) fail_here(what);
    }

    static bool identifier_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    // A keyword not followed by more of an identifier ("True" but not "Truex").
    bool eat_word(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) return false;
        if (pos_ + word.size() < text_.size() && identifier_char(text_[pos_ + word.size()])) return false;
        pos_ += word.size();
        return true;
    }

    // A string in single or double quotes, without escape sequences (dtype strings and keys need none).
    std::string parse_string() {
        const char quote = text_[pos_];
        const std::size_t start = ++pos_;
        while (!at_end() && text_[pos_] != quote) {
            if (text_[pos_] == '\\') fail_here("escape sequences in strings are not supported");
            if (text_[pos_] == '\n') break;
            ++pos_;
        }
        if (at_end() || text_[pos_] != quote) {
            pos_ = start - 1;
            fail_here("unterminated string");
        }
        return std::string(text_.substr(start, pos_++ - start));
    }

    std::size_t parse_dimension() {
        skip_space();
        if (!at_end() && text_[pos_] == '-') fail_here("a dimension must be a non-negative integer");
        if (at_end() || text_[pos_] < '0' || text_[pos_] > '9') fail_here("expected an integer dimension or ')'");
        std::size_t value = 0;
        const std::size_t start = pos_;
        while (!at_end() && text_[pos_] >= '0' && text_[pos_] <= '9') {
            const auto digit = static_cast<std::size_t>(text_[pos_] - '0');
            if (value > (std::numeric_limits<std::size_t>::max() - digit) / 10) {
                pos_ = start;
                fail_here("dimension too large");
            }
            value = value * 10 + digit;
            ++pos_;
        }
        if (!at_end() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;
        if (!at_end() && (identifier_char(text_[pos_]) || text_[pos_] == '.'))
            fail_here("a dimension must be a non-negative integer");
        return value;
    }

    std::vector<std::size_t> parse_tuple() {
        const std::size_t start = pos_;
        ++pos_;  // '('
        std::vector<std::size_t> dims;
        bool comma = false;  // a comma seen after the last dimension
        while (!eat(')')) {
            if (!dims.empty() && !comma) fail_here("expected ',' or ')' in the shape tuple");
            dims.push_back(parse_dimension());
            comma = eat(',');
        }
        if (dims.size() == 1 && !comma) {
            pos_ = start;
            fail_here("'shape' must be a tuple: a 1-tuple is written with a comma, (n,)");
        }
        return dims;
    }
};

// ---- The dtype ----

enum class Kind { floating, signed_integer, unsigned_integer, boolean };

struct DType {
    Kind kind = Kind::floating;
    std::size_t size = 0;  // bytes per item
    bool big_endian = false;
};

DType parse_dtype(const std::string& descr, const std::string& name) {
    const std::string shown = "'" + printable(descr, 40) + "'";
    const bool has_order = !descr.empty() && std::strchr("<>|=", descr[0]) != nullptr;
    const std::string_view rest = std::string_view(descr).substr(has_order ? 1 : 0);
    const char kind = rest.empty() ? '\0' : rest[0];
    const std::string_view digits = rest.empty() ? rest : rest.substr(1);
    std::size_t size = 0;
    bool numeric_size = !digits.empty() && digits.size() <= 3;
    for (const char c : digits) {
        if (c < '0' || c > '9') numeric_size = false;
        else size = size * 10 + static_cast<std::size_t>(c - '0');
    }
    const auto unsupported = [&](const std::string& what) {
        fail(name, "dtype " + shown + (what.empty() ? "" : " (" + what + ")") + " is not supported; " +
                       supported_dtypes);
    };
    switch (kind) {
        case 'O': unsupported("Python objects"); break;
        case 'S': case 'a': unsupported("byte strings"); break;
        case 'U': unsupported("unicode strings"); break;
        case 'c': unsupported("complex numbers"); break;
        case 'M': unsupported("datetimes"); break;
        case 'm': unsupported("timedeltas"); break;
        case 'V': unsupported("raw bytes or a structured dtype"); break;
        default: break;
    }
    DType dtype;
    dtype.size = size;
    bool valid = numeric_size;
    switch (kind) {
        case 'f':
            dtype.kind = Kind::floating;
            if (numeric_size && size > 8) unsupported("long double");
            valid = valid && (size == 2 || size == 4 || size == 8);
            break;
        case 'i':
            dtype.kind = Kind::signed_integer;
            valid = valid && (size == 1 || size == 2 || size == 4 || size == 8);
            break;
        case 'u':
            dtype.kind = Kind::unsigned_integer;
            valid = valid && (size == 1 || size == 2 || size == 4 || size == 8);
            break;
        case 'b':
            dtype.kind = Kind::boolean;
            valid = valid && size == 1;
            break;
        default: valid = false; break;
    }
    if (!valid) unsupported("");
    if (!has_order)
        fail(name, "dtype " + shown + " has no byte order character; expected '<', '>', '|' or '=' then the kind "
                                    "and item size, such as '<f8'");
    // '|' says the byte order does not apply, which is true of 1-byte items only: guessing the order of
    // wider items would read wrong values without a word.
    if (descr[0] == '|' && size > 1)
        fail(name, "dtype " + shown + " gives no byte order ('|') for " + std::to_string(size) +
                       "-byte items; expected '<' (little-endian) or '>' (big-endian)");
    // '=' is the writer's native order, which every platform that writes .npy files in practice has
    // little-endian; the reader's own order does not matter as bytes are assembled explicitly.
    dtype.big_endian = descr[0] == '>';
    return dtype;
}

// ---- The data ----

// The item at p as an unsigned integer of Size bytes, from either byte order, independent of the host's
// byte order and alignment.
template <std::size_t Size, bool BigEndian>
std::uint64_t load(const char* p) {
    unsigned char b[Size];
    std::memcpy(b, p, Size);
    std::uint64_t bits = 0;
    for (std::size_t k = 0; k < Size; ++k) bits = (bits << 8) | b[BigEndian ? k : Size - 1 - k];
    return bits;
}

// IEEE binary16 to double; every half value is a double exactly.
double half_to_double(std::uint64_t bits) {
    const bool negative = (bits & 0x8000u) != 0;
    const auto exponent = static_cast<int>((bits >> 10) & 0x1Fu);
    const std::uint64_t mantissa = bits & 0x3FFu;
    if (exponent == 0x1F && mantissa != 0) {
        // The sign and payload (its top bit is the quiet bit in both formats) carried over.
        const std::uint64_t nan =
            (negative ? std::uint64_t{1} << 63 : 0) | (std::uint64_t{0x7FF} << 52) | (mantissa << 42);
        double value;
        std::memcpy(&value, &nan, sizeof value);
        return value;
    }
    double magnitude;
    if (exponent == 0x1F) magnitude = std::numeric_limits<double>::infinity();
    else if (exponent == 0) magnitude = std::ldexp(static_cast<double>(mantissa), -24);
    else magnitude = std::ldexp(static_cast<double>(mantissa | 0x400u), exponent - 25);
    return negative ? -magnitude : magnitude;
}

struct Layout {
    const char* data;
    std::size_t rows, columns;
    bool fortran_order;
};

// Every item converted by convert(bits, row-major index) into out, in row-major order.
template <std::size_t Size, bool BigEndian, class Convert>
void convert_items(const Layout& layout, std::vector<double>& out, Convert convert) {
    const std::size_t count = layout.rows * layout.columns;
    out.resize(count);
    if (!layout.fortran_order || layout.columns == 1) {
        for (std::size_t i = 0; i < count; ++i) out[i] = convert(load<Size, BigEndian>(layout.data + i * Size), i);
        return;
    }
    // Fortran order: the file holds column after column; read it in file order.
    std::size_t i = 0;
    for (std::size_t c = 0; c < layout.columns; ++c) {
        for (std::size_t r = 0; r < layout.rows; ++r, ++i) {
            const std::size_t index = r * layout.columns + c;
            out[index] = convert(load<Size, BigEndian>(layout.data + i * Size), index);
        }
    }
}

template <std::size_t Size, class Convert>
void convert_sized(const Layout& layout, bool big_endian, std::vector<double>& out, Convert convert) {
    if (big_endian) convert_items<Size, true>(layout, out, convert);
    else convert_items<Size, false>(layout, out, convert);
}

void convert_data(const Layout& layout, const DType& dtype, std::size_t dimensions, const std::string& name,
                  std::vector<double>& out) {
    const auto too_large = [&](std::size_t index, const std::string& value) {
        const std::size_t r = index / layout.columns, c = index % layout.columns;
        std::string where = "element [" + std::to_string(r);
        if (dimensions == 2) where += ", " + std::to_string(c);
        fail(name, where + "] = " + value + " cannot be held exactly in a double (integers beyond 2^53 = " +
                       std::to_string(max_exact_integer) + " in magnitude are not read)",
             static_cast<long>(r), static_cast<long>(c));
    };
    const bool big = dtype.big_endian;
    switch (dtype.kind) {
        case Kind::floating: {
            if (dtype.size == 2) {
                convert_sized<2>(layout, big, out,
                                 [](std::uint64_t bits, std::size_t) { return half_to_double(bits); });
            } else if (dtype.size == 4) {
                convert_sized<4>(layout, big, out, [](std::uint64_t bits, std::size_t) {
                    const auto narrow = static_cast<std::uint32_t>(bits);
                    float value;
                    std::memcpy(&value, &narrow, sizeof value);
                    return static_cast<double>(value);
                });
            } else {
                convert_sized<8>(layout, big, out, [](std::uint64_t bits, std::size_t) {
                    double value;
                    std::memcpy(&value, &bits, sizeof value);
                    return value;
                });
            }
            return;
        }
        case Kind::signed_integer: {
            const std::size_t size = dtype.size;
            const auto convert = [&](std::uint64_t bits, std::size_t index) {
                const std::uint64_t sign = std::uint64_t{1} << (8 * size - 1);
                const bool negative = (bits & sign) != 0;
                // The magnitude of the two's complement value, computed in unsigned arithmetic so that
                // the most negative value needs no special case.
                const std::uint64_t magnitude = negative ? ((~bits) & (sign | (sign - 1))) + 1 : bits;
                if (magnitude > max_exact_integer) too_large(index, (negative ? "-" : "") + std::to_string(magnitude));
                const auto value = static_cast<double>(magnitude);
                return negative ? -value : value;
            };
            if (size == 1) convert_sized<1>(layout, big, out, convert);
            else if (size == 2) convert_sized<2>(layout, big, out, convert);
            else if (size == 4) convert_sized<4>(layout, big, out, convert);
            else convert_sized<8>(layout, big, out, convert);
            return;
        }
        case Kind::unsigned_integer: {
            const auto convert = [&](std::uint64_t bits, std::size_t index) {
                if (bits > max_exact_integer) too_large(index, std::to_string(bits));
                return static_cast<double>(bits);
            };
            if (dtype.size == 1) convert_sized<1>(layout, big, out, convert);
            else if (dtype.size == 2) convert_sized<2>(layout, big, out, convert);
            else if (dtype.size == 4) convert_sized<4>(layout, big, out, convert);
            else convert_sized<8>(layout, big, out, convert);
            return;
        }
        case Kind::boolean:
            // NumPy writes 0 and 1; any other byte is true, as numpy reads it.
            convert_sized<1>(layout, big, out, [](std::uint64_t bits, std::size_t) { return bits != 0 ? 1.0 : 0.0; });
            return;
    }
}

}  // namespace

std::size_t NpyArray::rows() const { return shape.empty() ? 0 : shape[0]; }

std::size_t NpyArray::columns() const { return shape.size() >= 2 ? shape[1] : 1; }

bool is_npy(std::string_view bytes) { return starts_with(bytes, npy_magic); }

NpyArray parse_npy(std::string_view bytes, const std::string& name) {
    // ---- The preamble ----
    if (bytes.empty()) fail(name, "the file is empty; expected a NumPy .npy file");
    if (starts_with(bytes, "PK\x03\x04"))
        fail(name, "is a .npz archive (a zip of arrays); .npz archives are not read: save the array with "
                   "numpy.save as a .npy file");
    if (starts_with(bytes, "\x1F\x8B"))
        fail(name, "is a gzip-compressed file; compressed files are not read: decompress it first");
    if (!starts_with(npy_magic, bytes.substr(0, npy_magic.size())))
        fail(name, "is not a NumPy .npy file: it starts with " + quoted(bytes, 16) +
                       " instead of the magic string \"\\x93NUMPY\"");
    if (bytes.size() < npy_magic.size())
        fail(name, "is truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the .npy magic string");
    if (bytes.size() < 8) fail(name, "is truncated before the .npy format version");
    const auto major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    if (major < 1 || major > 3 || minor != 0)
        fail(name, "has .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                       ", which is not read (versions 1.0, 2.0 and 3.0 are)");
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    const std::size_t header_start = 8 + length_bytes;
    if (bytes.size() < header_start) fail(name, "is truncated in the .npy header length");
    std::size_t header_length = 0;
    for (std::size_t k = length_bytes; k-- > 0;)
        header_length = (header_length << 8) | static_cast<unsigned char>(bytes[8 + k]);
    if (header_length > bytes.size() - header_start)
        fail(name, "the .npy header length is " + std::to_string(header_length) + " bytes but only " +
                       std::to_string(bytes.size() - header_start) + " bytes follow the " +
                       std::to_string(header_start) + "-byte preamble (truncated or damaged file)");
    const std::string_view header = bytes.substr(header_start, header_length);
    if (header.empty() || header.back() != '\n')
        fail(name, "the .npy header does not end with a newline (\\n): the header length is wrong or the file is "
                   "damaged; header: " + quoted(header, 80));
    if (major < 3) {
        for (std::size_t k = 0; k < header.size(); ++k) {
            if (static_cast<unsigned char>(header[k]) >= 0x80)
                fail(name, "the .npy header has a non-ASCII byte at offset " + std::to_string(k) + " (" +
                               printable(header.substr(k, 1), 1) + "); version " + std::to_string(major) +
                               ".0 headers are ASCII");
        }
    }

    // ---- The header ----
    const Header parsed = HeaderParser(header, name).parse();
    const DType dtype = parse_dtype(parsed.descr, name);
    const std::vector<std::size_t>& shape = parsed.shape;
    if (shape.empty())
        fail(name, "has shape () (a 0-d array, a single scalar); 1-d or 2-d arrays are expected");
    if (shape.size() > 2)
        fail(name, "has shape " + shape_text(shape) + " (" + std::to_string(shape.size()) +
                       " dimensions); 1-d or 2-d arrays are expected");
    for (const std::size_t d : shape)
        if (d == 0) fail(name, "has shape " + shape_text(shape) + ": the array is empty");
    const std::size_t max = std::numeric_limits<std::size_t>::max();
    const std::size_t columns = shape.size() == 2 ? shape[1] : 1;
    if (shape[0] > max / columns || shape[0] * columns > max / dtype.size)
        fail(name, "has shape " + shape_text(shape) + " of " + std::to_string(dtype.size) +
                       "-byte items, more bytes than memory can address (damaged header?)");
    const std::size_t expected = shape[0] * columns * dtype.size;
    const std::size_t data_start = header_start + header_length;
    const std::size_t actual = bytes.size() - data_start;
    const std::string needs = "shape " + shape_text(shape) + " of '" + printable(parsed.descr, 40) + "' needs " +
                              std::to_string(expected) + " bytes of data";
    if (actual < expected)
        fail(name, "is truncated: " + needs + " but the file has " + std::to_string(actual) + " after the header");
    if (actual > expected)
        fail(name, "has " + std::to_string(actual - expected) + " bytes after the array's data (" + needs +
                       ", the file has " + std::to_string(actual) + "); a .npy file holds one array");

    // ---- The data ----
    NpyArray array;
    array.shape = shape;
    array.dtype = parsed.descr;
    array.is_integer = dtype.kind != Kind::floating;
    const Layout layout{bytes.data() + data_start, shape[0], columns, parsed.fortran_order};
    convert_data(layout, dtype, shape.size(), name, array.values);
    return array;
}

NpyArray read_npy(const std::string& path) {
    const std::string name = printable(path, 200);
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) fail(name, "is a directory, expected a .npy file");
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!file) fail(name, std::string("cannot open file: ") + std::strerror(errno));
    std::string bytes;
    char chunk[1 << 16];
    for (;;) {
        const std::size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
        if (got == 0) break;
        bytes.append(chunk, got);
        // A first chunk that is not a .npy file is enough for the message, and a device without end
        // (/dev/zero) is not read forever.
        if (bytes.size() == got && bytes.size() >= npy_magic.size() && !is_npy(bytes)) break;
    }
    if (std::ferror(file.get())) fail(name, std::string("cannot read file: ") + std::strerror(errno));
    return parse_npy(bytes, name);
}

}  // namespace calib

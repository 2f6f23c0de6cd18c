// Tests of the NumPy .npy reader (npy.hpp). Every file is assembled here byte by byte following the
// format specification (numpy.lib.format: magic "\x93NUMPY", version, little-endian header length,
// a Python dict literal padded with spaces to a multiple of 64 bytes and ended by '\n', then the
// raw data), so the expected values do not go through the reader.
#include <calib/npy.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

using calib::NpyArray;
using calib::parse_npy;

namespace {

// A .npy file of format `version` (1, 2 or 3) with the given header dict and data bytes.
std::string npy_file(const std::string& dict, const std::string& data, int version = 1) {
    const std::size_t length_bytes = version == 1 ? 2 : 4;
    std::string header = dict;
    const std::size_t preamble = 8 + length_bytes;
    while ((preamble + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out("\x93NUMPY", 6);
    out += static_cast<char>(version);
    out += '\0';
    for (std::size_t k = 0; k < length_bytes; ++k) out += static_cast<char>((header.size() >> (8 * k)) & 0xFF);
    return out + header + data;
}

std::string dict(const std::string& descr, const std::string& shape, bool fortran = false) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
           ", }";
}

// The bytes of a value in little- (or big-) endian order.
template <class T>
std::string bytes_of(T value, bool big_endian = false) {
    std::string b(sizeof(T), '\0');
    std::memcpy(b.data(), &value, sizeof(T));  // the test machine is little-endian (checked below)
    if (big_endian) b = std::string(b.rbegin(), b.rend());
    return b;
}

template <class T>
std::string bytes_of(const std::vector<T>& values, bool big_endian = false) {
    std::string b;
    for (const T v : values) b += bytes_of(v, big_endian);
    return b;
}

std::string error_of(const std::string& bytes) {
    try {
        parse_npy(bytes, "x.npy");
    } catch (const calib::invalid_argument& e) {
        const std::string message = e.what();
        CHECK(message.rfind("x.npy: ", 0) == 0);
        CHECK(message.find('\n') == std::string::npos);
        return message;
    }
    FAIL("no calib::invalid_argument");
    return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("npy") {

TEST_CASE("the test machine is little-endian, as bytes_of assumes") {
    const std::uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    REQUIRE(first == 1);
}

TEST_CASE("float64 and float32, 2-d in C order, and 1-d") {
    const std::vector<double> v = {0.1, -2.5, 1e-300, 3.0, 1e300, -0.0};
    const NpyArray a = parse_npy(npy_file(dict("<f8", "(3, 2)"), bytes_of(v)), "a.npy");
    CHECK(a.shape == std::vector<std::size_t>{3, 2});
    CHECK(a.rows() == 3);
    CHECK(a.columns() == 2);
    CHECK(a.dtype == "<f8");
    CHECK_FALSE(a.is_integer);
    CHECK(a.values == v);
    CHECK(std::signbit(a.values[5]));

    // Float32 values are widened exactly: the double of the float, not the decimal the float came from.
    const std::vector<float> f = {0.1f, 0.7f, 0.2f, 1.0f};
    const NpyArray b = parse_npy(npy_file(dict("<f4", "(4,)"), bytes_of(f)), "b.npy");
    CHECK(b.shape == std::vector<std::size_t>{4});
    CHECK(b.columns() == 1);
    for (std::size_t i = 0; i < f.size(); ++i) CHECK(b.values[i] == static_cast<double>(f[i]));
    CHECK(b.values[0] != 0.1);
}

TEST_CASE("float16 values, including subnormals, infinities and NaN") {
    // IEEE binary16 bit patterns and their values.
    const std::vector<std::uint16_t> bits = {0x3C00, 0xC000, 0x7BFF, 0x0001, 0x0400, 0x3555, 0x7C00, 0xFC00, 0x7E00};
    const NpyArray a = parse_npy(npy_file(dict("<f2", "(9,)"), bytes_of(bits)), "h.npy");
    CHECK(a.values[0] == 1.0);
    CHECK(a.values[1] == -2.0);
    CHECK(a.values[2] == 65504.0);
    CHECK(a.values[3] == std::ldexp(1.0, -24));  // smallest subnormal
    CHECK(a.values[4] == std::ldexp(1.0, -14));  // smallest normal
    CHECK(a.values[5] == 1365.0 / 4096.0);       // 0x3555 = (1 + 0x155/1024) · 2^-2
    CHECK(a.values[6] == std::numeric_limits<double>::infinity());
    CHECK(a.values[7] == -std::numeric_limits<double>::infinity());
    CHECK(std::isnan(a.values[8]));
}

TEST_CASE("big-endian and native byte orders") {
    const std::vector<double> v = {1.5, -3.25, 7e-310};
    CHECK(parse_npy(npy_file(dict(">f8", "(3,)"), bytes_of(v, true)), "b.npy").values == v);
    CHECK(parse_npy(npy_file(dict("=f8", "(3,)"), bytes_of(v)), "n.npy").values == v);
    const std::vector<std::int32_t> i = {1, -2, 2147483647, -2147483647 - 1};
    const NpyArray a = parse_npy(npy_file(dict(">i4", "(4,)"), bytes_of(i, true)), "i.npy");
    CHECK(a.values == std::vector<double>{1, -2, 2147483647.0, -2147483648.0});
    CHECK(a.is_integer);
    const std::vector<float> f = {0.25f, -8.0f};
    CHECK(parse_npy(npy_file(dict(">f4", "(2,)"), bytes_of(f, true)), "f.npy").values == std::vector<double>{0.25, -8});
}

TEST_CASE("every integer dtype, with its extreme values") {
    CHECK(parse_npy(npy_file(dict("|i1", "(3,)"), bytes_of(std::vector<std::int8_t>{-128, 127, 0})), "x").values ==
          std::vector<double>{-128, 127, 0});
    CHECK(parse_npy(npy_file(dict("|u1", "(2,)"), bytes_of(std::vector<std::uint8_t>{255, 3})), "x").values ==
          std::vector<double>{255, 3});
    CHECK(parse_npy(npy_file(dict("<i2", "(2,)"), bytes_of(std::vector<std::int16_t>{-32768, 32767})), "x").values ==
          std::vector<double>{-32768, 32767});
    CHECK(parse_npy(npy_file(dict("<u2", "(1,)"), bytes_of(std::vector<std::uint16_t>{65535})), "x").values ==
          std::vector<double>{65535});
    CHECK(parse_npy(npy_file(dict("<u4", "(1,)"), bytes_of(std::vector<std::uint32_t>{4294967295u})), "x").values ==
          std::vector<double>{4294967295.0});
    const std::int64_t limit = std::int64_t{1} << 53;
    CHECK(parse_npy(npy_file(dict("<i8", "(3,)"), bytes_of(std::vector<std::int64_t>{limit, -limit, 9})), "x")
              .values == std::vector<double>{9007199254740992.0, -9007199254740992.0, 9});
    CHECK(parse_npy(npy_file(dict("<u8", "(1,)"), bytes_of(std::vector<std::uint64_t>{std::uint64_t{1} << 53})), "x")
              .values == std::vector<double>{9007199254740992.0});
    const NpyArray b = parse_npy(npy_file(dict("|b1", "(3,)"), std::string("\x01\x00\x01", 3)), "x");
    CHECK(b.values == std::vector<double>{1, 0, 1});
    CHECK(b.is_integer);
}

TEST_CASE("integers that a double cannot hold exactly are refused, naming the element") {
    const std::int64_t beyond = (std::int64_t{1} << 53) + 1;
    const std::string e = error_of(npy_file(dict("<i8", "(2, 2)"), bytes_of(std::vector<std::int64_t>{1, 2, 3, -beyond})));
    CHECK(contains(e, "element [1, 1] = -9007199254740993"));
    CHECK(contains(e, "2^53"));
    const std::string u = error_of(
        npy_file(dict("<u8", "(1,)"), bytes_of(std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max()})));
    CHECK(contains(u, "element [0] = 18446744073709551615"));
    const std::string m = error_of(
        npy_file(dict("<i8", "(1,)"), bytes_of(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()})));
    CHECK(contains(m, "-9223372036854775808"));
}

TEST_CASE("Fortran order is converted to row-major") {
    // The 2x3 matrix [[1, 2, 3], [4, 5, 6]] stored column after column.
    const std::vector<double> columns = {1, 4, 2, 5, 3, 6};
    const NpyArray a = parse_npy(npy_file(dict("<f8", "(2, 3)", true), bytes_of(columns)), "f.npy");
    CHECK(a.values == std::vector<double>{1, 2, 3, 4, 5, 6});
    const std::vector<std::int16_t> c16 = {1, 4, 2, 5, 3, 6};
    CHECK(parse_npy(npy_file(dict(">i2", "(2, 3)", true), bytes_of(c16, true)), "f.npy").values ==
          std::vector<double>{1, 2, 3, 4, 5, 6});
    // 1-d arrays are the same in both orders.
    CHECK(parse_npy(npy_file(dict("<f8", "(3,)", true), bytes_of(std::vector<double>{7, 8, 9})), "f.npy").values ==
          std::vector<double>{7, 8, 9});
}

TEST_CASE("format versions 2.0 and 3.0, and headers written differently") {
    const std::string data = bytes_of(std::vector<double>{1, 2});
    CHECK(parse_npy(npy_file(dict("<f8", "(2,)"), data, 2), "v2").values == std::vector<double>{1, 2});
    CHECK(parse_npy(npy_file(dict("<f8", "(2,)"), data, 3), "v3").values == std::vector<double>{1, 2});
    // Keys in another order, double quotes, no trailing comma, Python 2 'L' suffixes.
    CHECK(parse_npy(npy_file("{\"shape\": (1L, 2L), \"fortran_order\": False, \"descr\": \"<f8\"}", data), "o")
              .values == std::vector<double>{1, 2});
}

TEST_CASE("files that are not plain .npy arrays are refused with a message saying what they are") {
    CHECK(contains(error_of(""), "empty"));
    CHECK(contains(error_of("PK\x03\x04 rest of a zip"), ".npz"));
    CHECK(contains(error_of("\x1F\x8B\x08\x00"), "gzip"));
    CHECK(contains(error_of("0.1,0.9\n"), "not a NumPy .npy file"));
    CHECK(contains(error_of(std::string("\x93NUM", 4)), "truncated"));
    std::string v4 = npy_file(dict("<f8", "(1,)"), bytes_of(1.0));
    v4[6] = 4;
    CHECK(contains(error_of(v4), "version 4.0"));
    CHECK(contains(error_of(npy_file(dict("|O", "(1,)"), "12345678")), "Python objects"));
    CHECK(contains(error_of(npy_file(dict("<c16", "(1,)"), std::string(16, '\0'))), "complex"));
    CHECK(contains(error_of(npy_file(dict("<U5", "(1,)"), std::string(20, '\0'))), "unicode"));
    CHECK(contains(error_of(npy_file(dict("<f16", "(1,)"), std::string(16, '\0'))), "long double"));
    CHECK(contains(error_of(npy_file("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,)}", "12345678")),
                   "structured"));
    CHECK(contains(error_of(npy_file(dict("|f8", "(1,)"), bytes_of(1.0))), "no byte order"));
    CHECK(contains(error_of(npy_file(dict("f8", "(1,)"), bytes_of(1.0))), "no byte order character"));
}

TEST_CASE("malformed headers and shapes") {
    const std::string one = bytes_of(1.0);
    CHECK(contains(error_of(npy_file("{'descr': '<f8', 'shape': (1,)}", one)), "'fortran_order'"));
    CHECK(contains(error_of(npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}", one)),
                   "unexpected key 'x'"));
    CHECK(contains(error_of(npy_file("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1,)}", one)),
                   "duplicate key"));
    CHECK(contains(error_of(npy_file(dict("<f8", "(1)"), one)), "1-tuple"));
    CHECK(contains(error_of(npy_file(dict("<f8", "(-1,)"), one)), "non-negative"));
    CHECK(contains(error_of(npy_file(dict("<f8", "(99999999999999999999999,)"), one)), "too large"));
    CHECK(contains(error_of(npy_file(dict("<f8", "()"), one)), "0-d"));
    CHECK(contains(error_of(npy_file(dict("<f8", "(1, 1, 1)"), one)), "3 dimensions"));
    CHECK(contains(error_of(npy_file(dict("<f8", "(0, 3)"), "")), "empty"));
    CHECK(contains(error_of(npy_file(dict("<f8", "(4611686018427387904, 4)"), one)), "more bytes than memory"));
    CHECK(contains(error_of(npy_file("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (1,)}", one)),
                   "True or False"));
    // The header length points past the end of the file.
    std::string long_header = npy_file(dict("<f8", "(1,)"), one);
    long_header[8] = '\xFF';
    long_header[9] = '\x7F';
    CHECK(contains(error_of(long_header), "header length"));
    // A header length that does not end at the '\n'.
    std::string short_header = npy_file(dict("<f8", "(1,)"), one);
    short_header[8] = static_cast<char>(short_header[8] - 2);
    CHECK(contains(error_of(short_header), "newline"));
}

TEST_CASE("truncated data and bytes after the data") {
    const std::string full = npy_file(dict("<f4", "(3, 2)"), bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6}));
    const std::string t = error_of(full.substr(0, full.size() - 1));
    CHECK(contains(t, "truncated"));
    CHECK(contains(t, "needs 24 bytes"));
    CHECK(contains(t, "has 23"));
    CHECK(contains(error_of(full + "x"), "1 bytes after the array's data"));
}

TEST_CASE("every prefix of a valid file and random damage give a clean error or a valid array") {
    const std::string full =
        npy_file(dict("<i8", "(4, 2)"), bytes_of(std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8}), 2);
    for (std::size_t k = 0; k < full.size(); ++k) {
        CAPTURE(k);
        CHECK_THROWS_AS(parse_npy(full.substr(0, k), "x.npy"), calib::invalid_argument);
    }
    std::mt19937 rng(20261124);
    std::size_t parsed = 0, refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::string damaged = full;
        const int changes = 1 + static_cast<int>(rng() % 3);
        for (int c = 0; c < changes; ++c) damaged[rng() % damaged.size()] = static_cast<char>(rng() % 256);
        try {
            const NpyArray a = parse_npy(damaged, "x.npy");
            CHECK(a.values.size() == a.rows() * a.columns());
            ++parsed;
        } catch (const calib::invalid_argument& e) {
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
            ++refused;
        }
    }
    CHECK(parsed > 0);  // damage to the data bytes leaves a readable array
    CHECK(refused > 0);
}

TEST_CASE("read_npy reads a file and names it in errors") {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("calib_test_npy_" + std::to_string(::getpid()) + ".npy")).string();
    std::ofstream(path, std::ios::binary) << npy_file(dict("<f8", "(2,)"), bytes_of(std::vector<double>{0.5, 0.25}));
    CHECK(calib::read_npy(path).values == std::vector<double>{0.5, 0.25});
    std::remove(path.c_str());
    try {
        calib::read_npy(path);
        FAIL("a missing file was read");
    } catch (const calib::invalid_argument& e) {
        CHECK(std::string(e.what()).rfind(path + ": cannot open file", 0) == 0);
    }
    CHECK_THROWS_AS(calib::read_npy(std::filesystem::temp_directory_path().string()), calib::invalid_argument);
    CHECK(calib::is_npy(std::string("\x93NUMPY\x01\x00", 8)));
    CHECK_FALSE(calib::is_npy("\x93NUMP"));
}

}  // TEST_SUITE

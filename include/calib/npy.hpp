// Reading NumPy .npy files (format versions 1.0, 2.0 and 3.0) of 1-d and 2-d arrays of float16/32/64,
// signed and unsigned integers of 1 to 8 bytes and bool, in either byte order, C or Fortran order.
// Values are converted to double (exactly: integers beyond 2^53 in magnitude are refused) and stored in
// row-major order. Anything the reader cannot read throws calib::invalid_argument with a one-line
// message "<file>: <what is wrong>", e.g. "preds.npy: element [3, 1]: ...".
#pragma once

#include <calib/errors.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace calib {

// A NumPy array of 1 or 2 dimensions read from a .npy file, its values converted to double and
// stored in row-major (C) order whatever the file's order.
struct NpyArray {
    std::vector<std::size_t> shape;  // 1 entry (n,) or 2 entries (n, c)
    std::vector<double> values;      // rows()*columns() values, row-major
    std::string dtype;               // the file's descr as written, e.g. "<f4", "<i8", "|u1", "|b1"
    bool is_integer = false;         // integer or boolean dtype (values are exact integers)
    std::size_t rows() const;        // shape[0]
    std::size_t columns() const;     // shape[1], or 1 for a 1-d array
};

// Reads a .npy file (format versions 1.0, 2.0 and 3.0). Throws calib::invalid_argument with a one-line
// message "<path>: <what is wrong>" for anything it cannot read.
NpyArray read_npy(const std::string& path);

// The same from bytes already in memory (e.g. read from standard input); `name` starts the messages.
NpyArray parse_npy(std::string_view bytes, const std::string& name);

// Whether `bytes` begin with the .npy magic string "\x93NUMPY".
bool is_npy(std::string_view bytes);

}  // namespace calib

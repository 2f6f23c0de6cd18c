// A column-major copy of a matrix view that may be stored by rows (a C-order NumPy array or a .npy file
// read in place, calib/data.hpp). Eigen's assignment walks the copy's columns, each a strided pass over
// the whole view: for a row-major n×m view it reads every cache line m times. Reading the view row by row
// reads it once and writes the m columns as m sequential streams (the block SKCE with B = 2 at n = 10⁵,
// m = 10, from Python: 9.3–10.4 ms → 4.7 ms in the library, its two copies being most of it). The values
// are the view's, bit for bit.
#pragma once

#include <calib/data.hpp>

namespace calib::detail {

inline Matrix column_major_copy(const MatrixView& x) {
    if (x.innerStride() == 1) return x;  // already by columns: Eigen's copy reads it in order
    Matrix out(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        for (Eigen::Index k = 0; k < x.cols(); ++k) out(i, k) = x(i, k);
    return out;
}

}  // namespace calib::detail

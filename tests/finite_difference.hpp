// Central finite differences for the gradient checks: ∂f/∂x_k ≈ (f(x + h e_k) − f(x − h e_k)) / (2h)
// with h = step · max(1, |x_k|). The truncation error is O(h²) and the rounding error O(ε|f|/h); the
// default step 1e-6 is near ε^(1/3) ≈ 6e-6, where the two balance for doubles, so a smooth f of order 1
// agrees with its analytic gradient to about 1e-9 (the tests allow 1e-6 relative to the gradient's size).
#pragma once

#include <calib/eigen.hpp>

#include <algorithm>
#include <cmath>

namespace calib::test {

constexpr double default_fd_step = 1e-6;

// f maps a Vector to a double.
template <class F>
Vector central_differences(const F& f, const Vector& x, double step = default_fd_step) {
    Vector out(x.size());
    Vector y = x;
    for (Eigen::Index k = 0; k < x.size(); ++k) {
        const double h = step * std::max(1.0, std::abs(x[k]));
        y[k] = x[k] + h;
        const double up = f(y);
        y[k] = x[k] - h;
        const double down = f(y);
        y[k] = x[k];
        out[k] = (up - down) / (2 * h);
    }
    return out;
}

// The same for f of a matrix, entry by entry (column-major order in the result's shape).
template <class F>
Matrix central_differences_matrix(const F& f, const Matrix& x, double step = default_fd_step) {
    const auto as_matrix = [&](const Vector& v) { return Matrix(Eigen::Map<const Matrix>(v.data(), x.rows(), x.cols())); };
    const Vector flat = Eigen::Map<const Vector>(x.data(), x.size());
    const Vector d = central_differences([&](const Vector& v) { return f(as_matrix(v)); }, flat, step);
    return as_matrix(d);
}

// max |a − b| / max(1e-12, max |b|): the error relative to the reference's size.
inline double relative_error(const Matrix& a, const Matrix& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(1e-12, b.cwiseAbs().maxCoeff());
}

}  // namespace calib::test

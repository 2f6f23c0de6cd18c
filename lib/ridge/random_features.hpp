// Random Fourier features of a Gaussian kernel (with an optional linear part), for kernel ridge
// regression in the primal (primal.hpp).
#pragma once

#include <calib/data.hpp>

#include <cstddef>
#include <cstdint>

namespace calib::detail {

// c[i] = cos x[i], s[i] = sin x[i], vectorised (Cody–Waite reduction by π/2, Taylor polynomials);
// within 2e-16 of the library functions for |x| ≤ 10, 2e-15 up to 1e5; beyond, the library's.
void sincos_block(const double* x, std::size_t n, double* c, double* s);

// Random Fourier features [Rahimi & Recht 2007] of the kernel pᵀq + exp(−‖p − q‖²/(2ℓ²)) on R^m (either
// part optional): φ(p) = [p, cos(Wp)/√D, sin(Wp)/√D], the D columns of W drawn once from N(0, ℓ⁻² I)
// with (seed, stream 0), so that E φ(p)ᵀφ(q) is the kernel.
class RffMap {
public:
    RffMap(Eigen::Index m, double lengthscale, bool linear, bool gaussian, std::size_t features, std::uint64_t seed);
    Eigen::Index dimension() const;
    // Rows [0, i1 − i0) of f ← φ(p_i) for i in [i0, i1); f has at least dimension() columns.
    void fill(const Matrix& p, std::size_t i0, std::size_t i1, Matrix& f) const;

private:
    Eigen::Index m_, d_;
    bool linear_, gaussian_;
    double scale_;
    Matrix frequencies_;  // m×D, column j is w_j
};

}  // namespace calib::detail

// Random Fourier features (random_features.hpp).
#include "ridge/random_features.hpp"

#include <calib/tool/random.hpp>

#include <boost/random/normal_distribution.hpp>

#include <cmath>

namespace calib::detail {

void sincos_block(const double* x, std::size_t n, double* c, double* s) {
    constexpr long double pio2 = 1.5707963267948966192313216916397514L;
    // π/2 = c1 + c2 + c3, c1 and c2 with at most 30 significant bits, so k·c1 and k·c2 are exact.
    static const double c1 = std::ldexp(std::floor(std::ldexp(static_cast<double>(pio2), 29)), -29);
    static const double c2 = [] {
        int e = 0;
        const double r = static_cast<double>(pio2 - c1);
        std::frexp(r, &e);
        return std::ldexp(std::floor(std::ldexp(r, 30 - e)), e - 30);
    }();
    static const double c3 = static_cast<double>(pio2 - c1 - c2);
    const double two_over_pi = static_cast<double>(1 / pio2);
#pragma omp simd
    for (std::size_t i = 0; i < n; ++i) {
        const double k = std::nearbyint(x[i] * two_over_pi);
        const double r = ((x[i] - k * c1) - k * c2) - k * c3, r2 = r * r;
        // Taylor series to r¹⁹ and r²⁰ (remainders below 1e-19 on |r| ≤ π/4), in Horner form.
        double sp = 1.0 / 121645100408832000.0;         // 1/19!
        sp = sp * -r2 + 1.0 / 355687428096000.0;        // 1/17!
        sp = sp * -r2 + 1.0 / 1307674368000.0;          // 1/15!
        sp = sp * -r2 + 1.0 / 6227020800.0;             // 1/13!
        sp = sp * -r2 + 1.0 / 39916800.0;               // 1/11!
        sp = sp * -r2 + 1.0 / 362880.0;                 // 1/9!
        sp = sp * -r2 + 1.0 / 5040.0;                   // 1/7!
        sp = sp * -r2 + 1.0 / 120.0;                    // 1/5!
        sp = sp * -r2 + 1.0 / 6.0;                      // 1/3!
        double cp = 1.0 / 2432902008176640000.0;        // 1/20!
        cp = cp * -r2 + 1.0 / 6402373705728000.0;       // 1/18!
        cp = cp * -r2 + 1.0 / 20922789888000.0;         // 1/16!
        cp = cp * -r2 + 1.0 / 87178291200.0;            // 1/14!
        cp = cp * -r2 + 1.0 / 479001600.0;              // 1/12!
        cp = cp * -r2 + 1.0 / 3628800.0;                // 1/10!
        cp = cp * -r2 + 1.0 / 40320.0;                  // 1/8!
        cp = cp * -r2 + 1.0 / 720.0;                    // 1/6!
        cp = cp * -r2 + 1.0 / 24.0;                     // 1/4!
        const double sr = r - r * r2 * sp, cr = 1 - 0.5 * r2 + r2 * r2 * cp;
        const long q = static_cast<long>(k) & 3;
        c[i] = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
        s[i] = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
    }
    // Beyond the reduction's range (frequencies far above the data's scale): the library functions.
    for (std::size_t i = 0; i < n; ++i)
        if (!(std::abs(x[i]) <= 1e5)) c[i] = std::cos(x[i]), s[i] = std::sin(x[i]);
}

RffMap::RffMap(Eigen::Index m, double lengthscale, bool linear, bool gaussian, std::size_t features,
               std::uint64_t seed)
    : m_(m), d_(static_cast<Eigen::Index>(features)), linear_(linear), gaussian_(gaussian),
      scale_(1 / std::sqrt(static_cast<double>(features))) {
    if (!gaussian_) return;
    // w_j ~ N(0, γ⁻² I_m), j = 1 … D, drawn column by column from (seed, stream 0).
    Rng rng = make_stream(seed, 0);
    boost::random::normal_distribution<double> z;
    frequencies_.resize(m, d_);
    for (Eigen::Index j = 0; j < d_; ++j)
        for (Eigen::Index k = 0; k < m; ++k) frequencies_(k, j) = z(rng) / lengthscale;
}

Eigen::Index RffMap::dimension() const { return (linear_ ? m_ : 0) + (gaussian_ ? 2 * d_ : 0); }

void RffMap::fill(const Matrix& p, std::size_t i0, std::size_t i1, Matrix& f) const {
    const auto r0 = static_cast<Eigen::Index>(i0), len = static_cast<Eigen::Index>(i1 - i0);
    Eigen::Index col = 0;
    if (linear_) {
        f.block(0, 0, len, m_) = p.middleRows(r0, len);
        col = m_;
    }
    if (gaussian_) {
        const Matrix z = p.middleRows(r0, len) * frequencies_;
        Matrix c(len, d_), s(len, d_);
        sincos_block(z.data(), static_cast<std::size_t>(z.size()), c.data(), s.data());
        f.block(0, col, len, d_) = scale_ * c;
        f.block(0, col + d_, len, d_) = scale_ * s;
    }
}

}  // namespace calib::detail

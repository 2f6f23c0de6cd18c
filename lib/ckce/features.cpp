// Feature-space (primal) CKCE: random Fourier features, pivoted incomplete Cholesky, and the CKCE of
// any factor K ≈ G Gᵀ (ckce.hpp).
#include "ckce/features.hpp"

#include "ckce/detail.hpp"

#include <calib/tool/random.hpp>

#include <boost/random/normal_distribution.hpp>

#include <cmath>

namespace calib {

using detail::fail;

namespace detail {

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

RffMap::RffMap(Eigen::Index m, const SimplexKernel& kernel, std::size_t features, std::uint64_t seed)
    : m_(m), d_(static_cast<Eigen::Index>(features)), linear_(kernel.linear), gaussian_(kernel.gaussian),
      scale_(1 / std::sqrt(static_cast<double>(features))) {
    if (!gaussian_) return;
    // w_j ~ N(0, γ⁻² I_m), j = 1 … D, drawn column by column from (seed, stream 0).
    Rng rng = make_stream(seed, 0);
    boost::random::normal_distribution<double> z;
    frequencies_.resize(m, d_);
    for (Eigen::Index j = 0; j < d_; ++j)
        for (Eigen::Index k = 0; k < m; ++k) frequencies_(k, j) = z(rng) / kernel.lengthscale;
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

}  // namespace detail

Matrix simplex_random_features(const Matrix& p, const SimplexKernel& kernel, std::size_t features,
                               std::uint64_t seed) {
    const char* fn = "simplex_random_features";
    detail::check_simplex_kernel(fn, kernel);
    if (features == 0) fail(fn, "features = 0, must be >= 1");
    const detail::SerialEigenScope serial;
    const detail::RffMap map(p.cols(), kernel, features, seed);
    const auto n = static_cast<std::size_t>(p.rows());
    Matrix out(p.rows(), map.dimension());
    // The chunks of the CKCE's primal sums, so that both see the same feature values.
    Matrix chunk(static_cast<Eigen::Index>(detail::primal_chunk_rows), map.dimension());
    for (std::size_t i0 = 0; i0 < n; i0 += detail::primal_chunk_rows) {
        const std::size_t i1 = std::min(n, i0 + detail::primal_chunk_rows);
        map.fill(p, i0, i1, chunk);
        out.middleRows(static_cast<Eigen::Index>(i0), static_cast<Eigen::Index>(i1 - i0)) =
            chunk.topRows(static_cast<Eigen::Index>(i1 - i0));
    }
    return out;
}

LowRankFactor simplex_pivoted_cholesky(const Matrix& p, const SimplexKernel& kernel, double tolerance,
                                       std::size_t max_rank, const Attribute* attribute,
                                       const ParallelOptions& parallel) {
    const char* fn = "simplex_pivoted_cholesky";
    detail::check_simplex_kernel(fn, kernel);
    detail::check_low_rank_options(fn, tolerance, max_rank);
    if (attribute) detail::check_attribute(fn, *attribute, static_cast<std::size_t>(p.rows()));
    const int threads = resolve_num_threads(parallel.num_threads);
    const detail::SerialEigenScope serial;
    return detail::pivoted_cholesky(detail::SimplexRows(p, Matrix(), kernel, attribute), tolerance, max_rank,
                                    threads);
}

double ckce_low_rank(const Matrix& factor, const CategoricalData& data, const TargetKernel& target, double lambda,
                     const ParallelOptions& parallel) {
    const char* fn = "ckce_low_rank";
    const auto n = static_cast<Eigen::Index>(data.size());
    if (factor.rows() != n)
        fail(fn, "factor has ", factor.rows(), " rows but the data has n = ", n, " observations; they must match");
    if (factor.cols() == 0) fail(fn, "factor has no columns");
    for (Eigen::Index c = 0; c < factor.cols(); ++c)
        for (Eigen::Index i = 0; i < n; ++i)
            if (!std::isfinite(factor(i, c)))
                detail::fail_at(i, c, fn, "factor(", i, ", ", c, ") = ", detail::format_value(factor(i, c)),
                                ", must be finite");
    detail::check_ckce_target(fn, target, data.num_classes());
    detail::check_lambda(fn, "lambda", lambda);
    const int threads = resolve_num_threads(parallel.num_threads);
    const detail::SerialEigenScope serial;
    const Matrix a = detail::residuals(data);
    const auto sums = detail::primal_sums(data.size(), factor.cols(), a,
                                          [&](std::size_t i0, std::size_t i1, Matrix& f) {
                                              const auto len = static_cast<Eigen::Index>(i1 - i0);
                                              f.topRows(len) = factor.middleRows(static_cast<Eigen::Index>(i0), len);
                                          },
                                          threads);
    return detail::primal_ckce(sums, lambda * static_cast<double>(n), target);
}

}  // namespace calib

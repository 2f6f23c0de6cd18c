// exp(x) for x ≤ 0 over an array, as a loop GCC vectorises: the kernels' hot loops evaluate one
// exp per pair, and Eigen's exp (a Padé form with a division and a four-step ldexp) was a third of
// their time.
//
// x = k·ln 2 + r with k = round(x/ln 2) and |r| ≤ ln(2)/2 (Cody–Waite: ln 2 split in two parts, the
// products formed with FMA), exp(r) by its Taylor polynomial of degree 13 (remainder
// < 0.3466¹⁴/14! < 5·10⁻¹⁸ relative), and 2^k built in the exponent field. Error ≤ 1 ulp on
// [−708.39, 0] (tests/test_exp_nonpositive.cpp: 40 000 points against a 50-digit exp); x < −708.39,
// where exp(x) is below the smallest normal double, gives 0; NaN gives NaN. Positive x is outside
// the contract.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace calib::detail {

inline constexpr double exp_underflow = -708.39;  // exp(−708.39) ≈ 2.3·10⁻³⁰⁸ > 2^−1022

// exp(x0) for x0 ≤ 0, for loops that fuse it with their other work: always inlined, since a loop
// vectorises only with its body inlined (a call per element made the class-wise MMD 2.7× slower).
[[gnu::always_inline]] inline double exp_nonpositive(double x0) {
    constexpr double log2e = 1.4426950408889634074;
    constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    constexpr double shifter = 6755399441055744.0;  // 1.5·2⁵²: t = y + shifter rounds y to an integer
    const double x = std::isgreater(exp_underflow, x0) ? exp_underflow : x0;  // NaN passes through
    const double t = std::fma(x, log2e, shifter);
    const double k = t - shifter;
    const double r = std::fma(-k, ln2_lo, std::fma(-k, ln2_hi, x));
    // exp(r) = 1 + (r + r²·Q(r)), Q(r) = Σ_{d=2}^{13} r^{d−2}/d! by Estrin's scheme: a few
    // levels of FMA instead of Horner's chain of twelve, so that the few vectors of a register
    // block do not wait on one long dependency chain; the 1 is added last, so the rounding
    // error of the rest is relative to ulp(1)·|r|.
    const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    const double q1 = std::fma(r, 1.0 / 6, 0.5), q2 = std::fma(r, 1.0 / 120, 1.0 / 24),
                 q3 = std::fma(r, 1.0 / 5040, 1.0 / 720), q4 = std::fma(r, 1.0 / 362880, 1.0 / 40320),
                 q5 = std::fma(r, 1.0 / 39916800, 1.0 / 3628800),
                 q6 = std::fma(r, 1.0 / 6227020800, 1.0 / 479001600);
    const double u0 = std::fma(q2, r2, q1), u1 = std::fma(q4, r2, q3), u2 = std::fma(q6, r2, q5);
    const double q = std::fma(u2, r8, std::fma(u1, r4, u0));
    const double p = 1.0 + std::fma(r2, q, r);
    // The low bits of t hold k ∈ [−1022, 0] in two's complement; shifted into the exponent
    // field with the bias they give 2^k.
    std::uint64_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits = (bits + 1023) << 52;
    double scale;
    std::memcpy(&scale, &bits, sizeof scale);
    // 0 below the underflow bound by masking the bits of the value, which is always computed: with
    // `x0 < exp_underflow ? 0.0 : p * scale` GCC moved the product's computation into a branch, which
    // it may not turn into a select (a floating-point product may trap), so every loop using this exp
    // stayed scalar under AVX2 (which has no masked operations; AVX-512 builds vectorised with masks).
    // std::isless is the comparison that raises nothing on NaN, which passes through.
    const double value = p * scale;
    std::uint64_t value_bits;
    std::memcpy(&value_bits, &value, sizeof value_bits);
    value_bits &= std::isless(x0, exp_underflow) ? std::uint64_t{0} : ~std::uint64_t{0};
    double result;
    std::memcpy(&result, &value_bits, sizeof result);
    return result;
}

// a[l] = exp(a[l]) for l in [0, len).
inline void exp_nonpositive(double* a, std::size_t len) {
#pragma omp simd
    for (std::size_t l = 0; l < len; ++l) a[l] = exp_nonpositive(a[l]);
}

}  // namespace calib::detail

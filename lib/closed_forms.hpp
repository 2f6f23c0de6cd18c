// TEMPORARY (uncommitted): replaced by the closed-forms branch.
#pragma once
#include <cmath>
namespace calib::detail {
inline double exp_laplace_single(double mean, double beta, double y, double gamma) {
    const double u = gamma * std::abs(mean - y), a = beta * gamma;
    const double x = u * (a - 1) / a;
    const double phi = x == 0 ? 1 : std::expm1(x) / x;
    return std::exp(-u) / (a + 1) * (1 + u * phi);
}
inline double exp_laplace_pair(double m1, double b1, double m2, double b2, double g) {
    const double z = std::abs(m1 - m2), c = b1 * b1 * g * g - 1, cp = b2 * b2 * g * g - 1;
    return g * b1 * b1 * b1 / (c * (b1 * b1 - b2 * b2)) * std::exp(-z / b1) +
           g * b2 * b2 * b2 / (cp * (b2 * b2 - b1 * b1)) * std::exp(-z / b2) + std::exp(-g * z) / (c * cp);
}
}  // namespace calib::detail

// The data-generating processes of the CKCE paper's synthetic experiments [ms-ckce §5, App. A, C]:
// Dirichlet and categorical draws, temperature scaling, the truncated normal, the logistic function.
// Boost.Random samplers on calib's per-task streams (never std::*_distribution).
#pragma once

#include <calib/data.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include <boost/math/distributions/normal.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace repro {

using calib::Matrix;
using calib::Rng;

inline double uniform(Rng& rng) { return boost::random::uniform_01<double>()(rng); }

// n rows ~ Dirichlet(α·1_m); gamma draws are clamped at 1e-300 so that every log is finite
// (Dir(0.1) draws can underflow; docs/ckce.md).
inline Matrix dirichlet(std::size_t n, int m, double alpha, Rng& rng) {
    return calib::synthetic::dirichlet(n, m, alpha, rng, 1e-300);
}

// One label per row drawn from the row's probabilities (inverse CDF).
inline std::vector<int> draw_labels(const Matrix& p, Rng& rng) { return calib::synthetic::draw_labels(p, rng); }

// Temperature scaling in clr space [ms-ckce App. C.1]: softmax(clr(p)/t)_j = p_j^{1/t} / Σ_k p_k^{1/t},
// computed as exp(log p_j / t − LSE) (t = 2 softens, t = ½ sharpens; the top class is unchanged).
inline Matrix temperature(const Matrix& p, double t) {
    Matrix out(p.rows(), p.cols());
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const Eigen::ArrayXd z = p.row(i).array().log().transpose() / t;
        const double top = z.maxCoeff();
        const Eigen::ArrayXd e = (z - top).exp();
        out.row(i) = (e / e.sum()).transpose().matrix();
    }
    return out;
}

inline double logistic(double x) { return 1 / (1 + std::exp(-x)); }

// X ~ N(location, scale²) truncated to [lower, upper], by the inverse CDF.
inline double truncated_normal(double location, double scale, double lower, double upper, Rng& rng) {
    const boost::math::normal_distribution<double> z;
    const double a = boost::math::cdf(z, (lower - location) / scale), b = boost::math::cdf(z, (upper - location) / scale);
    const double u = a + uniform(rng) * (b - a);
    const double x = location + scale * boost::math::quantile(z, std::min(std::max(u, 1e-300), 1 - 1e-16));
    return std::min(upper, std::max(lower, x));
}

// Density of that truncated normal at x (for the set-up panel of Fig. 4(a)).
inline double truncated_normal_pdf(double x, double location, double scale, double lower, double upper) {
    if (x < lower || x > upper) return 0;
    const boost::math::normal_distribution<double> z;
    const double mass = boost::math::cdf(z, (upper - location) / scale) - boost::math::cdf(z, (lower - location) / scale);
    return boost::math::pdf(z, (x - location) / scale) / (scale * mass);
}

}  // namespace repro

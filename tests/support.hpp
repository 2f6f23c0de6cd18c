// Seeded random data sets shared by the tests (Boost.Random only, so streams are portable).
#pragma once

#include <calib/data.hpp>
#include <calib/kernels.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include <Eigen/Cholesky>

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <cmath>
#include <utility>
#include <vector>

namespace calib::test {

// Median heuristic options in one expression (aggregate initialisation would leave `parallel` out).
inline MedianOptions median_options(MedianVariant variant, std::size_t subsample = 0, std::uint64_t seed = default_seed) {
    MedianOptions o;
    o.variant = variant;
    o.subsample = subsample;
    o.seed = seed;
    return o;
}

using Rng = boost::random::mt19937_64;

// n normal predictions N(μ, σ²), μ ~ N(0,1), σ ~ U(0.1, 1.1); targets drawn from them (calibrated)
// or shifted by `shift`.
inline NormalData normal_data(std::size_t n, Rng& rng, double shift = 0) {
    boost::random::normal_distribution<double> z;
    boost::random::uniform_01<double> u;
    Vector mu(n), sigma(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        mu(r) = z(rng);
        sigma(r) = 0.1 + u(rng);
        y(r) = mu(r) + sigma(r) * z(rng) + shift;
    }
    return NormalData(mu, sigma, y);
}

// n Laplace predictions L(μ, β), μ ~ N(0,1), β ~ U(0.2, 1.2); targets drawn from them.
inline LaplaceData laplace_data(std::size_t n, Rng& rng) {
    boost::random::normal_distribution<double> z;
    boost::random::uniform_01<double> u;
    Vector mu(n), beta(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        mu(r) = z(rng);
        beta(r) = 0.2 + u(rng);
        const double e = u(rng) - 0.5;  // inverse CDF of the Laplace distribution
        y(r) = mu(r) - beta(r) * (e < 0 ? -1.0 : 1.0) * std::log(1 - 2 * std::abs(e));
    }
    return LaplaceData(mu, beta, y);
}

// n predictions, each a mixture of K normals: weights ~ Dirichlet(1, …, 1) (or all 1/K when
// `equal_weights`), μ ~ N(0, 1), σ ~ U(0.1, 1.1); targets drawn from the mixtures (calibrated),
// plus `shift`.
inline MixtureNormalData mixture_data(std::size_t n, int K, Rng& rng, bool equal_weights = false, double shift = 0) {
    boost::random::normal_distribution<double> z;
    boost::random::uniform_01<double> u;
    boost::random::gamma_distribution<double> gamma(1.0);
    Matrix w(n, K), mu(n, K), sigma(n, K);
    Vector y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        for (int k = 0; k < K; ++k) {
            w(r, k) = equal_weights ? 1.0 : gamma(rng);
            mu(r, k) = z(rng);
            sigma(r, k) = 0.1 + u(rng);
        }
        w.row(r) /= w.row(r).sum();
        if (equal_weights) w.row(r).setConstant(1.0 / K);
        const int k = synthetic::draw_label(w.row(r), rng);
        y(r) = mu(r, k) + sigma(r, k) * z(rng) + shift;
    }
    return MixtureNormalData(w, mu, sigma, y);
}

// n d-variate normal predictions with random full covariances A Aᵀ + 0.1 I; targets drawn from them.
inline MvNormalData mvnormal_full_data(std::size_t n, int d, Rng& rng) {
    boost::random::normal_distribution<double> z;
    Matrix mean(n, d), y(n, d);
    std::vector<Matrix> cov;
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        Matrix a(d, d);
        for (int k = 0; k < d * d; ++k) a(k) = 0.5 * z(rng);
        cov.push_back(a * a.transpose() + 0.1 * Matrix::Identity(d, d));
        Vector e(d);
        for (int k = 0; k < d; ++k) e(k) = z(rng), mean(r, k) = z(rng);
        y.row(r) = mean.row(r) + (cov.back().llt().matrixL() * e).transpose();
    }
    return MvNormalData::full(mean, cov, y);
}

// The Monte-Carlo mean and standard error of the marginalised pair term of two forecasts,
// h_01 = k(t_0, t_1) + k(A, B) − k(t_0, B) − k(A, t_1), over `draws` independent pairs (A, B) = draw():
// the reference of the closed-form target kernels.
struct MonteCarloMean {
    double mean = 0, standard_error = 0;
};
template <class Kernel, class Draw>
MonteCarloMean monte_carlo_pair_term(const Kernel& k, double t0, double t1, const Draw& draw, int draws) {
    double sum = 0, sum2 = 0;
    for (int s = 0; s < draws; ++s) {
        const auto [a, b] = draw();
        const double h = k(t0, t1) + k(a, b) - k(t0, b) - k(a, t1);
        sum += h;
        sum2 += h * h;
    }
    const double mean = sum / draws;
    return {mean, std::sqrt((sum2 / draws - mean * mean) / draws)};
}

}  // namespace calib::test

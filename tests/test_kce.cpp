// The KCE of Marx et al. (kernel_calibration_error, metrics.hpp) against the unbiased U-statistic
// written out here as a naive double loop over the pairs i < j, with the target kernel's expectations
// under the predictions in closed form derived independently:
//   classes (δ kernel):  E k(Ŷ_i, y_j) = q_i(y_j),  E k(Ŷ_i, Ŷ_j) = Σ_k q_ik q_jk;
//   normal (RBF, ℓ_Y):   E k(y, Ŷ_j) = ℓ_Y/√(ℓ_Y² + σ_j²) · exp(−(y − μ_j)²/(2(ℓ_Y² + σ_j²))),
//                        E k(Ŷ_i, Ŷ_j) = ℓ_Y/√(ℓ_Y² + σ_i² + σ_j²) · exp(−(μ_i − μ_j)²/(2(ℓ_Y² + σ_i² + σ_j²)))
// (Gaussian convolutions); h_ij = k_X(x_i, x_j)·[k(y_i, y_j) − E k(y_i, Ŷ_j) − E k(Ŷ_i, y_j) + E k(Ŷ_i, Ŷ_j)]
// (Marx et al. 2023, eq. of the unbiased estimator; digest §3), KCE = Σ_{i<j} h_ij / (n(n−1)/2), with
// k_X = exp(−‖x − x'‖²/(2ℓ²)) and ℓ the median of the pairwise feature distances.
#include <calib/metrics.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <boost/random/normal_distribution.hpp>

#include <algorithm>
#include <cmath>

using namespace calib;

namespace {

double median_pairwise(const Matrix& x) {
    std::vector<double> d;
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        for (Eigen::Index j = i + 1; j < x.rows(); ++j) d.push_back((x.row(i) - x.row(j)).norm());
    std::sort(d.begin(), d.end());
    const std::size_t p = d.size();
    return p % 2 ? d[p / 2] : 0.5 * (d[p / 2 - 1] + d[p / 2]);
}

template <class H>
double naive_u_statistic(const Matrix& x, double l, H&& target_term) {
    const Eigen::Index n = x.rows();
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = i + 1; j < n; ++j)
            sum += std::exp(-(x.row(i) - x.row(j)).squaredNorm() / (2 * l * l)) * target_term(i, j);
    return sum / (double(n) * double(n - 1) / 2);
}

Matrix random_features(Eigen::Index n, Eigen::Index d, test::Rng& rng) {
    boost::random::normal_distribution<double> z;
    Matrix x(n, d);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index k = 0; k < d; ++k) x(i, k) = z(rng);
    return x;
}

}  // namespace

TEST_CASE("kce: class predictions equal the naive U-statistic with the δ kernel, for any thread count") {
    test::Rng rng(1301);
    const Eigen::Index n = 90, m = 4;
    const Matrix x = random_features(n, 3, rng);
    // Predictions that depend on x (miscalibrated in x), labels drawn from other probabilities.
    Matrix q(n, m);
    std::vector<int> y(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index k = 0; k < m; ++k) q(i, k) = std::exp(0.8 * x(i, k % 3) * double(k - 1));
        q.row(i) /= q.row(i).sum();
        y[static_cast<std::size_t>(i)] = x(i, 0) > 0 ? 0 : static_cast<int>(i % m);
    }
    const CategoricalData data(q, y);
    const double l = median_pairwise(x);
    const double naive = naive_u_statistic(x, l, [&](Eigen::Index i, Eigen::Index j) {
        const int yi = y[static_cast<std::size_t>(i)], yj = y[static_cast<std::size_t>(j)];
        return double(yi == yj) - q(i, yj) - q(j, yi) + q.row(i).dot(q.row(j));
    });
    ParallelOptions one, two;
    one.num_threads = 1;
    two.num_threads = 2;
    const KceResult a = kernel_calibration_error(data, x, one), b = kernel_calibration_error(data, x, two);
    CHECK(a.lengthscale == l);
    CHECK(a.estimate == doctest::Approx(naive).epsilon(1e-12));
    CHECK(naive > 0.01);  // the labels do depend on x beyond the predictions: a clear signal
    CHECK(a.estimate == b.estimate);
    // Past the engine's tiles: bitwise the same for 1 and 2 threads.
    const Matrix bx = random_features(700, 2, rng);
    const CategoricalData big(Matrix::Constant(700, 3, 1.0 / 3), std::vector<int>(700, 1));
    CHECK(kernel_calibration_error(big, bx, one).estimate == kernel_calibration_error(big, bx, two).estimate);
}

TEST_CASE("kce: normal forecasts equal the naive U-statistic with the RBF target in closed form") {
    test::Rng rng(1302);
    const Eigen::Index n = 80;
    const Matrix x = random_features(n, 2, rng);
    boost::random::normal_distribution<double> z;
    Vector mu(n), sigma(n), y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        mu[i] = x(i, 0);
        sigma[i] = 0.5 + 0.3 * std::abs(x(i, 1));
        y[i] = mu[i] + 2.0 * sigma[i] * z(rng);  // too narrow forecasts
    }
    const NormalData data(mu, sigma, y);
    for (const double ly : {1.0, 0.4}) {
        const auto expect_y = [&](double v, Eigen::Index j) {
            const double s2 = ly * ly + sigma[j] * sigma[j];
            return ly / std::sqrt(s2) * std::exp(-(v - mu[j]) * (v - mu[j]) / (2 * s2));
        };
        const double naive = naive_u_statistic(x, median_pairwise(x), [&](Eigen::Index i, Eigen::Index j) {
            const double s2 = ly * ly + sigma[i] * sigma[i] + sigma[j] * sigma[j];
            const double both = ly / std::sqrt(s2) * std::exp(-(mu[i] - mu[j]) * (mu[i] - mu[j]) / (2 * s2));
            return std::exp(-(y[i] - y[j]) * (y[i] - y[j]) / (2 * ly * ly)) - expect_y(y[i], j) - expect_y(y[j], i) + both;
        });
        const KceResult r = kernel_calibration_error(data, x, ly);
        CHECK(r.lengthscale == median_pairwise(x));
        CHECK(r.estimate == doctest::Approx(naive).epsilon(1e-11));
        CHECK(naive > 0);
    }
}

TEST_CASE("kce: errors name the argument") {
    test::Rng rng(1303);
    const CategoricalData data(Matrix::Constant(5, 2, 0.5), std::vector<int>{0, 1, 0, 1, 1});
    CHECK_THROWS_WITH_AS(kernel_calibration_error(data, Matrix::Zero(4, 1)), doctest::Contains("features has 4 rows"),
                         invalid_argument);
    Matrix bad = random_features(5, 2, rng);
    bad(2, 1) = std::nan("");
    CHECK_THROWS_WITH_AS(kernel_calibration_error(data, bad), doctest::Contains("features"), invalid_argument);
    CHECK_THROWS_WITH_AS(kernel_calibration_error(data, Matrix::Zero(5, 1)), doctest::Contains("median"), invalid_argument);
    const CategoricalData one(Matrix::Constant(1, 2, 0.5), std::vector<int>{0});
    CHECK_THROWS_WITH_AS(kernel_calibration_error(one, Matrix::Zero(1, 1)), doctest::Contains("n = 1"), invalid_argument);
    const NormalData normal = test::normal_data(6, rng);
    CHECK_THROWS_WITH_AS(kernel_calibration_error(normal, random_features(6, 1, rng), 0.0),
                         doctest::Contains("target_lengthscale = 0"), invalid_argument);
}

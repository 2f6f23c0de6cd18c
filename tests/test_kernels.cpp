// Metrics on predictions, the median heuristic, uniform bounds and kernel names.
#include <calib/kernels.hpp>

#include "support.hpp"

#include <Eigen/Eigenvalues>

#include <doctest/doctest.h>

#include <cmath>
#include <omp.h>

using namespace calib;
using doctest::Approx;

TEST_SUITE("kernels") {

TEST_CASE("metrics on probability vectors") {
    Matrix p(2, 3);
    p << 0.2, 0.3, 0.5, 0.6, 0.1, 0.3;
    const CategoricalData d(p, {0, 1});
    CHECK(prediction_distance(d, Metric::l1, 0, 1) == Approx(0.8));
    CHECK(prediction_distance(d, Metric::tv, 0, 1) == Approx(0.4));
    CHECK(prediction_distance(d, Metric::euclidean, 0, 1) == Approx(std::sqrt(0.16 + 0.04 + 0.04)));
    CHECK(prediction_distance(d, Metric::tv, 1, 1) == 0);
    CHECK_THROWS_AS(prediction_distance(d, Metric::w2, 0, 1), calib::invalid_argument);
    CHECK_THROWS_AS(prediction_distance(d, Metric::tv, 0, 2), calib::invalid_argument);
}

TEST_CASE("W2 between distributions (E16)") {
    // julia-reference §3.1 E16 / widmann-2021 App. D: normal (μ−μ')² + (σ−σ')²; Laplace
    // (μ−μ')² + 2(β−β')²; 10-d isotropic normals: 10 times the 1-d value (squared).
    Vector mu(2), s(2), y(2);
    mu << 0.5, -1;
    s << 1, 3;
    y << 0, 0;
    CHECK(prediction_distance(NormalData(mu, s, y), Metric::w2, 0, 1) == Approx(std::sqrt(2.25 + 4)));
    CHECK(prediction_distance(LaplaceData(mu, s, y), Metric::w2, 0, 1) == Approx(std::sqrt(2.25 + 8)));
    Matrix m10(2, 10), s10(2, 10);
    m10.row(0).setConstant(0.5), m10.row(1).setConstant(-1);
    s10.row(0).setConstant(1), s10.row(1).setConstant(3);
    const MvNormalData diag = MvNormalData::diagonal(m10, s10, Matrix::Zero(2, 10));
    CHECK(prediction_distance(diag, Metric::w2, 0, 1) == Approx(std::sqrt(10 * 6.25)));
    const MvNormalData full = MvNormalData::full(m10, {Matrix::Identity(10, 10), 9 * Matrix::Identity(10, 10)},
                                                 Matrix::Zero(2, 10));
    CHECK(prediction_distance(full, Metric::w2, 0, 1) == Approx(std::sqrt(10 * 6.25)).epsilon(1e-12));
    CHECK_THROWS_AS(prediction_distance(NormalData(mu, s, y), Metric::tv, 0, 1), calib::invalid_argument);
}

TEST_CASE("Bures W2 with non-commuting covariances") {
    // For Σ = diag(4, 1) and Σ' = R diag(4, 1) Rᵀ, R a 90° rotation: Σ' = diag(1, 4), which commutes;
    // use a 45° rotation instead and compare with the formula evaluated independently:
    // W2² = tr Σ + tr Σ' − 2 tr (Σ'^½ Σ Σ'^½)^½ via a 2×2 closed form
    // tr √M = √(tr M + 2√det M) for a symmetric PSD 2×2 matrix M.
    Matrix a(2, 2), r(2, 2);
    a << 4, 0, 0, 1;
    const double c = std::sqrt(0.5);
    r << c, -c, c, c;
    const Matrix b = r * a * r.transpose();
    const MvNormalData d = MvNormalData::full(Matrix::Zero(2, 2), {a, b}, Matrix::Zero(2, 2));
    const Eigen::SelfAdjointEigenSolver<Matrix> es(b);
    const Matrix root = es.eigenvectors() * es.eigenvalues().cwiseSqrt().asDiagonal() * es.eigenvectors().transpose();
    const Matrix m = root * a * root;
    const double tr_sqrt = std::sqrt(m.trace() + 2 * std::sqrt(m.determinant()));
    CHECK(prediction_distance(d, Metric::w2, 0, 1) == Approx(std::sqrt(a.trace() + b.trace() - 2 * tr_sqrt)).epsilon(1e-12));
    // symmetric in its arguments
    CHECK(prediction_distance(d, Metric::w2, 1, 0) == Approx(prediction_distance(d, Metric::w2, 0, 1)).epsilon(1e-12));
}

TEST_CASE("median heuristic: both conventions, by hand") {
    // Predictions [0,1], [.5,.5], [1,0], [.25,.75]: TV distances of the 6 pairs are
    // .5, 1, .25, .5, .25, .75. pairs: median of 6 values = (.5 + .5)/2. full: the 16 entries
    // of the 4×4 matrix are 4 zeros and each pair twice; the middle two are .25 and .5.
    Matrix p(4, 2);
    p << 0, 1, 0.5, 0.5, 1, 0, 0.25, 0.75;
    const CategoricalData d(p, {0, 0, 0, 0});
    CHECK(median_distance(d, Metric::tv) == Approx(0.5));
    CHECK(median_distance(d, Metric::tv, test::median_options(MedianVariant::full)) == Approx(0.375));
    // n = 3, odd counts: pairs .5, 1, .5 → .5; full 9 entries 0,0,0,.5,.5,.5,.5,1,1 → .5.
    const CategoricalData d3(p.topRows(3), {0, 0, 0});
    CHECK(median_distance(d3, Metric::tv) == Approx(0.5));
    CHECK(median_distance(d3, Metric::tv, test::median_options(MedianVariant::full)) == Approx(0.5));
    CHECK(median_distance(d3, Metric::l1) == Approx(1.0));
}

TEST_CASE("median heuristic: errors and edge cases") {
    Matrix p(3, 2);
    p << 0.5, 0.5, 0.5, 0.5, 0, 1;
    const CategoricalData d(p, {0, 0, 0});
    // Pairs: 0, .5, .5 → median .5; but full: 0 ×5 of 9 → 0, an error.
    CHECK(median_distance(d, Metric::tv) == Approx(0.5));
    CHECK_THROWS_WITH_AS(median_distance(d, Metric::tv, test::median_options(MedianVariant::full)),
                         "calib::median_distance: the median distance between predictions is 0 (most predictions "
                         "coincide), so it cannot serve as a lengthscale; give the lengthscale explicitly",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(median_distance(subset(d, {0}), Metric::tv),
                         "calib::median_distance: n = 1, needs at least 2 observations for pairwise distances",
                         calib::invalid_argument);
    CHECK_THROWS_AS(median_distance(d, Metric::w2), calib::invalid_argument);
}

TEST_CASE("median heuristic: subsampling is seeded and close; threads do not matter") {
    test::Rng rng(4);
    const CategoricalData d = synthetic::dirichlet_data(3000, 10, 0.1, rng);
    const double exact = median_distance(d, Metric::tv, test::median_options(MedianVariant::pairs, 0));
    const double sub = median_distance(d, Metric::tv, test::median_options(MedianVariant::pairs, 1000, 7));
    CHECK(sub == median_distance(d, Metric::tv, test::median_options(MedianVariant::pairs, 1000, 7)));
    CHECK(sub != median_distance(d, Metric::tv, test::median_options(MedianVariant::pairs, 1000, 8)));
    CHECK(sub == Approx(exact).epsilon(0.02));
    // The 2019 analytic mean TV distance under Dir(0.1·1_10) is ≈ 0.8274 (widmann §8.7); the
    // median sits close to it for these spiky predictions.
    CHECK(exact == Approx(0.85).epsilon(0.1));
    omp_set_num_threads(1);
    const double one = median_distance(d, Metric::tv, test::median_options(MedianVariant::pairs, 0));
    omp_set_num_threads(2);
    CHECK(one == exact);
    CHECK_THROWS_AS(median_distance(d, Metric::tv, test::median_options(MedianVariant::pairs, 1)), calib::invalid_argument);
}

TEST_CASE("uniform bounds of h") {
    // sup|h| = 2 for white and for the sqexp/exp target kernels (0 ≤ k_Y ≤ 1); for a Gram matrix
    // max_{y,z} K_yy + K_zz − 2K_yz.
    CHECK(skce_core_bound(default_kernel<CategoricalData>()) == 2);
    CHECK(skce_core_bound(default_kernel<NormalData>()) == 2);
    Kernel k = default_kernel<CategoricalData>();
    k.target.type = TargetKernelType::gram;
    k.target.gram = 3 * Matrix::Identity(4, 4);
    CHECK(skce_core_bound(k) == 6);
    // The bound is attained: one-hot predictions, y = class 0, y' = class 1, p = e_1, p' = e_0.
    Matrix p(2, 2);
    p << 0, 1, 1, 0;
    const CategoricalData d(p, {0, 1});
    CHECK(std::abs(skce_core(d, default_kernel<CategoricalData>(), 0, 0)) == Approx(2));
    // and never exceeded on random data
    test::Rng rng(6);
    const CategoricalData r = synthetic::dirichlet_data(200, 5, 0.3, rng);
    for (std::size_t i = 0; i < 200; i += 7)
        for (std::size_t j = 0; j < 200; j += 3) CHECK(std::abs(skce_core(r, default_kernel<CategoricalData>(), i, j)) <= 2);
}

TEST_CASE("names round-trip") {
    for (Metric m : {Metric::tv, Metric::l1, Metric::euclidean, Metric::w2}) CHECK(parse_metric(to_string(m)) == m);
    for (TargetKernelType t : {TargetKernelType::white, TargetKernelType::gram, TargetKernelType::sqexp, TargetKernelType::exp})
        CHECK(parse_target_kernel_type(to_string(t)) == t);
    CHECK(parse_prediction_kernel_shape("sqexp") == PredictionKernelShape::sqexp);
    CHECK_THROWS_WITH_AS(parse_metric("cosine"),
                         "calib::parse_metric: unknown metric 'cosine', must be one of tv, l1, euclidean, w2",
                         calib::invalid_argument);
    CHECK_THROWS_AS(parse_prediction_kernel_shape("gauss"), calib::invalid_argument);
}

}  // TEST_SUITE

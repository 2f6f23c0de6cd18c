// SKCE and UCME estimators: exact reference cases, identities, the engine against a naive double
// loop, thread-count invariance, unbiasedness, and argument validation.
#include <calib/estimators.hpp>

#include "core/check.hpp"
#include "naive_h.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace calib;
using doctest::Approx;

namespace {

// The kernel of the CalibrationErrors.jl exact tests: SqExponentialKernel() ⊗ WhiteKernel() on
// probability vectors, i.e. exp(−‖p − p'‖²/2) δ(y, y').
Kernel sqexp_white() {
    return {{PredictionKernelShape::sqexp, Metric::euclidean, 1.0}, {TargetKernelType::white, 1.0, {}}};
}

CategoricalData two_point(std::vector<int> labels) {
    Matrix p(2, 2);
    p << 1, 0, 0, 1;
    return CategoricalData(p, std::move(labels));
}

// Σ_{i<j} h and Σ_i h_ii by a plain double loop over the independent definition of h (naive_h.hpp:
// no library code, no engine).
template <class Data>
std::pair<double, double> naive_sums(const Data& data, const Kernel& kernel) {
    long double off = 0, diag = 0;
    for (std::size_t i = 0; i < data.size(); ++i) {
        diag += test::naive_h(data, kernel, i, i);
        for (std::size_t j = i + 1; j < data.size(); ++j) off += test::naive_h(data, kernel, i, j);
    }
    return {static_cast<double>(off), static_cast<double>(diag)};
}

}  // namespace

TEST_SUITE("skce") {

TEST_CASE("E1-E3: two one-hot predictions, every label pattern") {
    // julia-reference §3.1 E1 (unbiased), E2 (biased), E3 (block size 2; also the pattern repeated
    // 10 times): h12 = exp(−‖p1 − p2‖²/2)·(e_y1 − p1)ᵀ(e_y2 − p2) with ‖p1 − p2‖² = 2, h_ii = ‖e_yi − p_i‖².
    const double e1 = std::exp(-1.0);
    const std::vector<std::vector<int>> labels = {{0, 1}, {0, 0}, {1, 0}, {1, 1}};
    const double unbiased[] = {0, 0, -2 * e1, 0};
    const double biased[] = {0, 0.5, 1 - e1, 0.5};
    for (std::size_t c = 0; c < labels.size(); ++c) {
        CAPTURE(c);
        const CategoricalData data = two_point(labels[c]);
        CHECK(skce_unbiased(data, sqexp_white()) == Approx(unbiased[c]).epsilon(1e-15));
        CHECK(skce_biased(data, sqexp_white()) == Approx(biased[c]).epsilon(1e-15));
        CHECK(skce_block(data, sqexp_white(), 2).estimate == Approx(unbiased[c]).epsilon(1e-15));
        Matrix p(20, 2);
        std::vector<int> y;
        for (int r = 0; r < 10; ++r) {
            p.row(2 * r) << 1, 0;
            p.row(2 * r + 1) << 0, 1;
            y.insert(y.end(), labels[c].begin(), labels[c].end());
        }
        CHECK(skce_block(CategoricalData(p, y), sqexp_white(), 2).estimate == Approx(unbiased[c]).epsilon(1e-15));
    }
    CHECK(-2 * e1 == Approx(-0.7357588823428847).epsilon(1e-15));
    CHECK(1 - e1 == Approx(0.6321205588285577).epsilon(1e-15));
}

TEST_CASE("E4: binary predictions equal their 2-class form") {
    // julia-reference §3.1 E4: binary p with kernel exp(−2(p−p')²/2) ⊗ δ (ScaleTransform(√2)) gives
    // E1/E2's values; in calib binary data is the 2-class model [1 − p, p], whose Euclidean
    // distance is √2|p − p'|, so the plain sqexp-Euclidean kernel applies.
    const std::vector<std::vector<int>> targets = {{1, 0}, {1, 1}, {0, 1}, {0, 0}};
    const double e1 = std::exp(-1.0);
    const double unbiased[] = {0, 0, -2 * e1, 0};
    const double biased[] = {0, 0.5, 1 - e1, 0.5};
    Vector p(2);
    p << 1, 0;
    for (std::size_t c = 0; c < targets.size(); ++c) {
        const CategoricalData data = CategoricalData::from_binary(p, targets[c]);
        CHECK(skce_unbiased(data, sqexp_white()) == Approx(unbiased[c]).epsilon(1e-15));
        CHECK(skce_biased(data, sqexp_white()) == Approx(biased[c]).epsilon(1e-15));
    }
}

TEST_CASE("E5-E6: UCME at three test locations") {
    // julia-reference §3.1 E5/E6: locations [1,0], [.5,.5], [0,1] with labels 1, 1, 2 (1-based).
    Matrix tp(3, 2);
    tp << 1, 0, 0.5, 0.5, 0, 1;
    const CategoricalData locations(tp, {0, 0, 1});
    const double a = (std::exp(-2.0) + std::exp(-0.5) + 1) / 12, b = std::pow(1 - std::exp(-1.0), 2) / 6;
    CHECK(a == Approx(0.1451554952457705).epsilon(1e-15));
    CHECK(b == Approx(0.06659606681562134).epsilon(1e-15));
    const std::vector<std::vector<int>> labels = {{0, 1}, {0, 0}, {1, 0}, {1, 1}};
    const double expected[] = {0, a, b, a};
    for (std::size_t c = 0; c < labels.size(); ++c) {
        CHECK(ucme(two_point(labels[c]), locations, sqexp_white()) == Approx(expected[c]).epsilon(1e-14));
        // E6: the binary form, predictions p = [1, 0] ↔ [[0,1],[1,0]] and locations p = 1, .5, 0.
        Vector p(2), q(3);
        p << 1, 0;
        q << 1, 0.5, 0;
        std::vector<int> bin = {1 - labels[c][0], 1 - labels[c][1]};
        const CategoricalData binary = CategoricalData::from_binary(p, bin);
        const CategoricalData binary_locations = CategoricalData::from_binary(q, {1, 1, 0});
        CHECK(ucme(binary, binary_locations, sqexp_white()) == Approx(expected[c]).epsilon(1e-14));
    }
}

TEST_CASE("the engine equals the definitional double loop") {
    test::Rng rng(7);
    // n crosses the chunk (256) and strip (64) boundaries; odd sizes leave partial chunks.
    const CategoricalData data = synthetic::dirichlet_data(611, 4, 0.5, rng);
    for (Metric metric : {Metric::tv, Metric::l1, Metric::euclidean})
        for (PredictionKernelShape shape : {PredictionKernelShape::exp, PredictionKernelShape::sqexp}) {
            const Kernel kernel{{shape, metric, 0.7}, {TargetKernelType::white, 1.0, {}}};
            const auto [off, diag] = naive_sums(data, kernel);
            const double n = static_cast<double>(data.size());
            CHECK(skce_unbiased(data, kernel) == Approx(off / (n * (n - 1) / 2)).epsilon(1e-12));
            CHECK(skce_biased(data, kernel) == Approx((2 * off + diag) / (n * n)).epsilon(1e-12));
        }
    Matrix classes(4, 4);  // a class Gram matrix (symmetric, diagonally dominant: PSD)
    classes << 1, 0.3, 0.1, 0, 0.3, 1, 0.2, 0.1, 0.1, 0.2, 0.8, 0.2, 0, 0.1, 0.2, 0.9;
    const Kernel with_gram{{PredictionKernelShape::exp, Metric::tv, 0.7}, {TargetKernelType::gram, 1.0, classes}};
    const auto [gram_off, gram_diag] = naive_sums(data, with_gram);
    const double size = static_cast<double>(data.size());
    CHECK(skce_unbiased(data, with_gram) == Approx(gram_off / (size * (size - 1) / 2)).epsilon(1e-12));
    CHECK(skce_biased(data, with_gram) == Approx((2 * gram_off + gram_diag) / (size * size)).epsilon(1e-12));
    const NormalData normal = test::normal_data(300, rng);
    const auto [off, diag] = naive_sums(normal, default_kernel<NormalData>());
    CHECK(skce_unbiased(normal, default_kernel<NormalData>()) == Approx(off / (300.0 * 299 / 2)).epsilon(1e-12));
    CHECK(skce_biased(normal, default_kernel<NormalData>()) == Approx((2 * off + diag) / 9e4).epsilon(1e-12));
}

TEST_CASE("h with a class Gram matrix equals the matrix-valued form") {
    // widmann-2021 App. E: h = k_P(p,p')·(e_y − p)ᵀ K (e_y' − p'), checked here by the explicit
    // four-term definition with expectations as finite sums over classes.
    test::Rng rng(11);
    const CategoricalData data = synthetic::dirichlet_data(30, 3, 1.0, rng);
    Matrix gram(3, 3);
    gram << 1, 0.3, 0.1, 0.3, 1, 0.2, 0.1, 0.2, 0.8;
    const Kernel kernel{{PredictionKernelShape::exp, Metric::tv, 0.5}, {TargetKernelType::gram, 1.0, gram}};
    const Matrix& p = data.probabilities();
    for (std::size_t i : {0, 3, 17})
        for (std::size_t j : {0, 5, 29}) {
            const auto a = static_cast<Eigen::Index>(i), b = static_cast<Eigen::Index>(j);
            const int y = data.labels()[i], yp = data.labels()[j];
            const double kp = std::exp(-0.5 * (p.row(a) - p.row(b)).cwiseAbs().sum() / 0.5);
            const double hy = gram(y, yp) - p.row(a) * gram.col(yp) - gram.row(y) * p.row(b).transpose() +
                              (p.row(a) * gram * p.row(b).transpose())(0, 0);
            CHECK(skce_core(data, kernel, i, j) == Approx(kp * hy).epsilon(1e-13));
        }
    CHECK(skce_core_bound(kernel) == Approx(1 + 0.8 - 2 * 0.1));
}

TEST_CASE("block estimator identities") {
    // julia-reference §3.1 E17: B = n equals the unbiased estimator; the block estimate is the
    // mean of the per-block unbiased estimates; the last n mod B observations are dropped.
    test::Rng rng(3);
    const CategoricalData data = synthetic::dirichlet_data(203, 5, 0.3, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    CHECK(skce_block(data, kernel, data.size()).estimate == Approx(skce_unbiased(data, kernel)).epsilon(1e-13));
    for (std::size_t b : {2, 7, 64, 65, 100}) {
        CAPTURE(b);
        const BlockSkce block = skce_block(data, kernel, b);
        REQUIRE(block.block_estimates.size() == data.size() / b);
        double mean = 0;
        for (std::size_t k = 0; k < block.block_estimates.size(); ++k) {
            std::vector<std::size_t> idx(b);
            for (std::size_t t = 0; t < b; ++t) idx[t] = k * b + t;
            const double eta = skce_unbiased(subset(data, idx), kernel);
            CHECK(block.block_estimates[k] == Approx(eta).epsilon(1e-12));
            mean += eta;
        }
        CHECK(block.estimate == Approx(mean / static_cast<double>(block.block_estimates.size())).epsilon(1e-12));
    }
    // Block mean squares: (B choose 2)^{-1} Σ_{i<j} h_ij² for B = 2 is h_12².
    const BlockSkce linear = skce_block(data, kernel, 2);
    const double h01 = skce_core(data, kernel, 0, 1);
    CHECK(linear.block_mean_squares[0] == Approx(h01 * h01).epsilon(1e-14));
    CHECK(sqrt_block_size(1024) == 32);
    CHECK(sqrt_block_size(4) == 2);
    CHECK(sqrt_block_size(3) == 2);
    CHECK(sqrt_block_size(1023) == 31);
}

TEST_CASE("results are bitwise identical for 1 and 2 threads") {
    test::Rng rng(5);
    const CategoricalData data = synthetic::dirichlet_data(1500, 10, 0.2, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    CHECK(skce_unbiased(data, kernel, {1}) == skce_unbiased(data, kernel, {2}));
    CHECK(skce_biased(data, kernel, {1}) == skce_biased(data, kernel, {2}));
    for (std::size_t b : {2, 38, 500}) {
        const BlockSkce a = skce_block(data, kernel, b, {1}), c = skce_block(data, kernel, b, {2});
        CHECK(a.estimate == c.estimate);
        CHECK(a.block_estimates == c.block_estimates);
        CHECK(a.block_mean_squares == c.block_mean_squares);
    }
    const CategoricalData locations = synthetic::dirichlet_data(7, 10, 1.0, rng);
    CHECK(ucme(data, locations, kernel, {1}) == ucme(data, locations, kernel, {2}));
    const NormalData normal = test::normal_data(900, rng);
    CHECK(skce_unbiased(normal, default_kernel<NormalData>(), {1}) == skce_unbiased(normal, default_kernel<NormalData>(), {2}));
}

TEST_CASE("mvnormal with d = 1 equals normal; diagonal equals full with a diagonal covariance") {
    // julia-reference §3.1 E16/E17.
    test::Rng rng(9);
    const NormalData normal = test::normal_data(80, rng);
    const Matrix mean = normal.mean(), sd = normal.stddev(), y = normal.targets();
    const MvNormalData diag = MvNormalData::diagonal(mean, sd, y);
    std::vector<Matrix> cov;
    for (Eigen::Index i = 0; i < sd.rows(); ++i) cov.push_back(Matrix::Constant(1, 1, sd(i, 0) * sd(i, 0)));
    const MvNormalData full = MvNormalData::full(mean, cov, y);
    const Kernel kernel = default_kernel<NormalData>();
    const double u = skce_unbiased(normal, kernel);
    CHECK(skce_unbiased(diag, kernel) == Approx(u).epsilon(1e-13));
    CHECK(skce_unbiased(full, kernel) == Approx(u).epsilon(1e-12));
    CHECK(skce_biased(diag, kernel) == Approx(skce_biased(normal, kernel)).epsilon(1e-13));
    CHECK(skce_block(full, kernel, 9).estimate == Approx(skce_block(normal, kernel, 9).estimate).epsilon(1e-12));
    const NormalData loc = subset(normal, {1, 5, 9});
    CHECK(ucme(diag, subset(diag, {1, 5, 9}), kernel) == Approx(ucme(normal, loc, kernel)).epsilon(1e-13));
    CHECK(ucme(full, subset(full, {1, 5, 9}), kernel) == Approx(ucme(normal, loc, kernel)).epsilon(1e-12));

    // d = 3: a diagonal covariance given as full matrices gives the same h (Bures W2 reduces to
    // the embedding distance, and the Cholesky form to the product of 1-d forms).
    Matrix m3(40, 3), s3(40, 3), y3(40, 3);
    boost::random::normal_distribution<double> z;
    std::vector<Matrix> c3;
    for (int i = 0; i < 40; ++i) {
        for (int k = 0; k < 3; ++k) m3(i, k) = z(rng), s3(i, k) = 0.3 + 0.1 * std::abs(z(rng)), y3(i, k) = z(rng);
        c3.push_back(s3.row(i).array().square().matrix().asDiagonal());
    }
    const MvNormalData d3 = MvNormalData::diagonal(m3, s3, y3), f3 = MvNormalData::full(m3, c3, y3);
    for (auto [i, j] : {std::pair<int, int>{0, 1}, {3, 3}, {7, 30}}) {
        CHECK(skce_core(f3, kernel, i, j) == Approx(skce_core(d3, kernel, i, j)).epsilon(1e-12));
        CHECK(prediction_distance(f3, Metric::w2, i, j) == Approx(prediction_distance(d3, Metric::w2, i, j)).epsilon(1e-10));
    }
}

TEST_CASE("unbiasedness under calibration, and the biased estimator is >= 0") {
    // julia-reference §3.2: targets drawn from the predictions make every model calibrated, so the
    // unbiased estimators have mean 0; checked within 4 Monte Carlo standard errors.
    test::Rng rng(2024);
    const Kernel cat_kernel{{PredictionKernelShape::exp, Metric::euclidean, 10.0}, {TargetKernelType::white, 1.0, {}}};
    for (int m : {2, 10}) {
        std::vector<double> u, b2;
        for (int r = 0; r < 1000; ++r) {
            const CategoricalData data = synthetic::dirichlet_data(20, m, 1.0, rng);
            u.push_back(skce_unbiased(data, cat_kernel));
            b2.push_back(skce_block(data, cat_kernel, 2).estimate);
            CHECK(skce_biased(data, cat_kernel) > 0);
        }
        for (const auto* x : {&u, &b2}) {
            const Eigen::Map<const Eigen::ArrayXd> a(x->data(), static_cast<Eigen::Index>(x->size()));
            const double se = std::sqrt((a - a.mean()).square().sum() / (a.size() - 1) / a.size());
            CHECK(std::abs(a.mean()) < 4 * se);
            CHECK(a.minCoeff() < 0);  // an unbiased estimator of 0 must take both signs
        }
    }
    std::vector<double> u;
    for (int r = 0; r < 1000; ++r) {
        const NormalData data = test::normal_data(20, rng);
        u.push_back(skce_unbiased(data, default_kernel<NormalData>()));
        CHECK(skce_biased(data, default_kernel<NormalData>()) > 0);
    }
    const Eigen::Map<const Eigen::ArrayXd> a(u.data(), static_cast<Eigen::Index>(u.size()));
    CHECK(std::abs(a.mean()) < 4 * std::sqrt((a - a.mean()).square().sum() / (a.size() - 1) / a.size()));
}

TEST_CASE("a miscalibrated model has a clearly positive SKCE") {
    test::Rng rng(8);
    const CategoricalData data = synthetic::dirichlet_data(400, 10, 0.1, rng, true);
    CHECK(skce_unbiased(data, default_kernel<CategoricalData>()) > 0.01);
    const NormalData normal = test::normal_data(400, rng, 1.5);
    CHECK(skce_unbiased(normal, default_kernel<NormalData>()) > 0.01);
}

TEST_CASE("edge sizes: n = 1, n = 2, n below the block size") {
    Matrix p(1, 2);
    p << 0.3, 0.7;
    const CategoricalData one(p, {1});
    // n = 1: the biased estimator is h_11 = ‖e_1 − p‖² = 2·0.3².
    CHECK(skce_biased(one, default_kernel<CategoricalData>()) == Approx(0.18).epsilon(1e-15));
    CHECK_THROWS_WITH_AS(skce_unbiased(one, default_kernel<CategoricalData>()),
                         "calib::skce_unbiased: n = 1, needs at least 2 observations", calib::invalid_argument);
    const CategoricalData two = two_point({0, 1});
    CHECK_THROWS_WITH_AS(skce_block(two, default_kernel<CategoricalData>(), 3),
                         "calib::skce_block: block_size = 3, must be in [2, n = 2]", calib::invalid_argument);
    CHECK_THROWS_AS(skce_block(two, default_kernel<CategoricalData>(), 1), calib::invalid_argument);
    CHECK(skce_block(two, default_kernel<CategoricalData>(), 2).block_estimates.size() == 1);
}

TEST_CASE("kernel validation") {
    test::Rng rng(1);
    const CategoricalData data = synthetic::dirichlet_data(10, 3, 1.0, rng);
    Kernel k = default_kernel<CategoricalData>();
    k.prediction.metric = Metric::w2;
    CHECK_THROWS_WITH_AS(skce_biased(data, k),
                         "calib::skce_biased: metric w2 does not apply to categorical predictions; use tv, l1 or euclidean",
                         calib::invalid_argument);
    k = default_kernel<CategoricalData>();
    k.prediction.lengthscale = 0;
    CHECK_THROWS_AS(skce_biased(data, k), calib::invalid_argument);
    k.prediction.lengthscale = std::nan("");
    CHECK_THROWS_AS(skce_biased(data, k), calib::invalid_argument);
    k = default_kernel<CategoricalData>();
    k.target.type = TargetKernelType::sqexp;
    CHECK_THROWS_AS(skce_biased(data, k), calib::invalid_argument);
    k.target.type = TargetKernelType::gram;
    k.target.gram = Matrix::Identity(2, 2);
    CHECK_THROWS_AS(skce_biased(data, k), calib::invalid_argument);  // wrong size
    k.target.gram = Matrix::Identity(3, 3);
    k.target.gram(0, 1) = 0.5;
    CHECK_THROWS_AS(skce_biased(data, k), calib::invalid_argument);  // not symmetric
    k.target.gram = -Matrix::Identity(3, 3);
    CHECK_THROWS_AS(skce_biased(data, k), calib::invalid_argument);  // not PSD
    const NormalData normal = test::normal_data(10, rng);
    k = default_kernel<NormalData>();
    k.target.type = TargetKernelType::exp;
    CHECK_THROWS_AS(skce_biased(normal, k), calib::invalid_argument);
    k = default_kernel<NormalData>();
    k.prediction.metric = Metric::tv;
    CHECK_THROWS_AS(skce_biased(normal, k), calib::invalid_argument);
    k = default_kernel<NormalData>();
    k.target.lengthscale = -1;
    CHECK_THROWS_AS(skce_biased(normal, k), calib::invalid_argument);
    CHECK_THROWS_AS(skce_core(data, default_kernel<CategoricalData>(), 0, 10), calib::invalid_argument);
    // UCME locations must match the data's classes.
    CHECK_THROWS_AS(ucme(data, synthetic::dirichlet_data(3, 4, 1.0, rng), default_kernel<CategoricalData>()),
                    calib::invalid_argument);
}

TEST_CASE("a non-finite result is reported, never returned") {
    CHECK(calib::detail::check_result("f", 1.5) == 1.5);
    CHECK_THROWS_WITH_AS(calib::detail::check_result("skce_biased", std::nan("")),
                         "calib::skce_biased: the result is nan: a kernel evaluation failed numerically (extreme inputs?)",
                         calib::numerical_error);
    CHECK_THROWS_AS(calib::detail::check_result("f", HUGE_VAL), calib::numerical_error);
}

}  // TEST_SUITE

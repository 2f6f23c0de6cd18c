// The analytic gradient of the conditional MMD²'s block estimate (calib/mmd.hpp, mmd_block_gradient):
// its value against the engine's mmd_block (an independent code path), its gradient in q against
// central differences of the raw estimate, in the logits against central differences of the public
// estimator through CategoricalData::from_logits, and its errors.
#include <calib/mmd.hpp>

#include "estimators/mmd_gradient.hpp"
#include "finite_difference.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>

using namespace calib;

namespace {

// Logits N(0, 2²) (overconfident, far from ties in the top class with probability ~1) and labels drawn
// uniformly, so that the residuals are large.
struct Logits {
    Matrix z;
    std::vector<int> labels;
};

Logits random_logits(std::size_t n, int m, std::uint64_t seed) {
    test::Rng rng(seed);
    boost::random::normal_distribution<double> normal(0, 2);
    boost::random::uniform_int_distribution<int> label(0, m - 1);
    Logits out{Matrix(static_cast<Eigen::Index>(n), m), {}};
    for (Eigen::Index i = 0; i < out.z.rows(); ++i) {
        for (Eigen::Index c = 0; c < m; ++c) out.z(i, c) = normal(rng);
        out.labels.push_back(label(rng));
    }
    return out;
}

Matrix gram3() {  // a symmetric positive definite 3×3 Gram matrix
    Matrix g(3, 3);
    g << 1.0, 0.3, 0.1, 0.3, 1.0, 0.2, 0.1, 0.2, 1.0;
    return g;
}

Matrix gram2() {
    Matrix g(2, 2);
    g << 1.0, 0.4, 0.4, 0.8;
    return g;
}

std::vector<MmdSpec> specs() {
    MmdSpec canonical;
    canonical.conditioning.lengthscale = 0.4;
    MmdSpec canonical_gram = canonical;
    canonical_gram.target_gram = gram3();
    MmdSpec top = canonical;
    top.notion = MmdNotion::top_label;
    top.conditioning.lengthscale = 0.2;
    MmdSpec top_gram = top;
    top_gram.target_gram = gram2();
    MmdSpec class_wise = top;
    class_wise.notion = MmdNotion::class_wise;
    class_wise.class_lengthscales = {0.15, 0.3, 0.25};
    MmdSpec class_wise_gram = top_gram;
    class_wise_gram.notion = MmdNotion::class_wise;
    MmdSpec marginal;
    marginal.notion = MmdNotion::marginal;
    MmdSpec marginal_gram = marginal;
    marginal_gram.target_gram = gram3();
    return {canonical, canonical_gram, top, top_gram, class_wise, class_wise_gram, marginal, marginal_gram};
}

// The notions whose Z is given with the data (groups, features) for n observations: group (three
// groups), individual with k_Z = exp(−‖x − x'‖₁/ℓ) (not differentiable in x, which does not move) and
// with sqexp Euclidean and a Gram K_T.
std::vector<MmdSpec> data_specs(std::size_t n, std::uint64_t seed) {
    test::Rng rng(seed);
    boost::random::normal_distribution<double> normal;
    MmdSpec group;
    group.notion = MmdNotion::group;
    for (std::size_t i = 0; i < n; ++i) group.groups.push_back(static_cast<int>(i * 7 % 3));
    MmdSpec individual;
    individual.notion = MmdNotion::individual;
    individual.conditioning = {PredictionKernelShape::exp, Metric::l1, 1.5};
    individual.features.resize(static_cast<Eigen::Index>(n), 2);
    for (Eigen::Index i = 0; i < individual.features.rows(); ++i)
        individual.features(i, 0) = normal(rng), individual.features(i, 1) = normal(rng);
    MmdSpec individual_gram = individual;
    individual_gram.conditioning = {PredictionKernelShape::sqexp, Metric::euclidean, 0.8};
    individual_gram.target_gram = gram3();
    return {group, individual, individual_gram};
}

std::vector<MmdSpec> all_specs(std::size_t n, std::uint64_t seed) {
    std::vector<MmdSpec> out = specs();
    for (const MmdSpec& s : data_specs(n, seed)) out.push_back(s);
    return out;
}

}  // namespace

TEST_CASE("mmd_block_gradient: the value is mmd_block's, for every notion and block size") {
    const Logits l = random_logits(23, 3, 11);
    const CategoricalData data = CategoricalData::from_logits(l.z, l.labels);
    for (const MmdSpec& spec : all_specs(23, 21))
        for (std::size_t b : {2u, 4u, 7u, 23u}) {
            CAPTURE(to_string(spec.notion));
            CAPTURE(b);
            const double engine = mmd_block(data, spec, b).estimate;
            CHECK(mmd_block_gradient(data, spec, b).estimate == doctest::Approx(engine).epsilon(1e-12));
        }
}

TEST_CASE("mmd_block_gradient: the gradient in q equals central differences (k_Z and residual terms)") {
    const Logits l = random_logits(20, 3, 12);
    const CategoricalData data = CategoricalData::from_logits(l.z, l.labels);
    const Matrix q = data.probabilities();
    for (const MmdSpec& spec : all_specs(20, 22))
        for (std::size_t b : {4u, 6u, 20u}) {
            CAPTURE(to_string(spec.notion));
            CAPTURE(b);
            const auto f = [&](const Matrix& x) { return detail::mmd_block_value_gradient(x, l.labels, spec, b).value; };
            const Matrix analytic = mmd_block_gradient(data, spec, b).probabilities;
            const Matrix numeric = test::central_differences_matrix(f, q);
            CHECK(test::relative_error(analytic, numeric) < 1e-6);
            CHECK(analytic.cwiseAbs().maxCoeff() > 1e-3);  // not trivially zero
            if (b == 6) CHECK(analytic.bottomRows(2).cwiseAbs().maxCoeff() == 0.0);  // the 20 mod 6 dropped rows
        }
}

TEST_CASE("mmd_block_gradient: through the softmax, the gradient in the logits equals central differences of mmd_block") {
    const Logits l = random_logits(18, 3, 13);
    for (const MmdSpec& spec : all_specs(18, 23)) {
        CAPTURE(to_string(spec.notion));
        const std::size_t b = 6;
        const auto f = [&](const Matrix& z) {
            return mmd_block(CategoricalData::from_logits(z, l.labels), spec, b).estimate;  // the engine's estimator
        };
        const CategoricalData data = CategoricalData::from_logits(l.z, l.labels);
        const Matrix analytic = detail::softmax_backward(data.probabilities(), mmd_block_gradient(data, spec, b).probabilities);
        CHECK(test::relative_error(analytic, test::central_differences_matrix(f, l.z)) < 1e-6);
    }
}

TEST_CASE("mmd_block_gradient: errors") {
    const Logits l = random_logits(10, 3, 14);
    const CategoricalData data = CategoricalData::from_logits(l.z, l.labels);
    MmdSpec spec;
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 1), doctest::Contains("block_size = 1"), invalid_argument);
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 11), doctest::Contains("block_size = 11"), invalid_argument);
    spec.notion = MmdNotion::class_wise;
    spec.conditioning.shape = PredictionKernelShape::exp;
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("class-wise gradients need k_Z sqexp"),
                         invalid_argument);
    CHECK_THROWS_WITH_AS(mmd_unbiased_gradient(data, spec), doctest::Contains("sqexp"), invalid_argument);
    spec.notion = MmdNotion::canonical;
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("sqexp"), invalid_argument);
    spec.conditioning.shape = PredictionKernelShape::sqexp;
    spec.conditioning.metric = Metric::tv;
    CHECK_THROWS_WITH_AS(mmd_block_gradient(data, spec, 5), doctest::Contains("euclidean"), invalid_argument);
}

TEST_CASE("mmd_unbiased_gradient: equals the one-block gradient (B = n) and central differences in the logits") {
    const Logits l = random_logits(37, 3, 15);
    const CategoricalData data = CategoricalData::from_logits(l.z, l.labels);
    for (const MmdSpec& spec : all_specs(37, 24)) {
        CAPTURE(to_string(spec.notion));
        const MmdGradient full = mmd_unbiased_gradient(data, spec);
        const MmdGradient block = mmd_block_gradient(data, spec, 37);  // one block: the same U-statistic
        CHECK(full.estimate == doctest::Approx(mmd_unbiased(data, spec).estimate).epsilon(1e-15));
        CHECK(full.estimate == doctest::Approx(block.estimate).epsilon(1e-12));
        CHECK(test::relative_error(full.probabilities, block.probabilities) < 1e-12);
        const auto f = [&](const Matrix& z) { return mmd_unbiased(CategoricalData::from_logits(z, l.labels), spec).estimate; };
        CHECK(test::relative_error(detail::softmax_backward(data.probabilities(), full.probabilities),
                                   test::central_differences_matrix(f, l.z)) < 1e-6);
    }
}

TEST_CASE("mmd_unbiased_gradient: bitwise the same for 1 and 2 threads") {
    const Logits l = random_logits(700, 4, 16);
    const CategoricalData data = CategoricalData::from_logits(l.z, l.labels);
    MmdSpec canonical;
    canonical.conditioning.lengthscale = 0.5;
    MmdSpec top = canonical;
    top.notion = MmdNotion::top_label;
    MmdSpec class_wise = top;
    class_wise.notion = MmdNotion::class_wise;
    std::vector<MmdSpec> all = {canonical, top, class_wise};
    for (MmdSpec s : data_specs(700, 25)) {
        s.target_gram = Matrix();  // m = 4 here
        all.push_back(s);
    }
    for (const MmdSpec& spec : all) {
        CAPTURE(to_string(spec.notion));
        const Matrix one = mmd_unbiased_gradient(data, spec, ParallelOptions{1}).probabilities;
        const Matrix two = mmd_unbiased_gradient(data, spec, ParallelOptions{2}).probabilities;
        CHECK(one == two);
        CHECK(one.cwiseAbs().maxCoeff() > 0);
    }
}

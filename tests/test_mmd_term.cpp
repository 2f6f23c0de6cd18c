// The conditional MMD's pair term and the engine's fused pass over the parts of a term: the one-feature
// blocks' fused path (EmbeddedPredictionKernel::line) against the general path, and part_pair_sums
// against one pass per part, both bitwise.
#include "engine/pairwise.hpp"
#include "engine/quadratic_sums.hpp"
#include "kernels/mmd_term.hpp"
#include "support.hpp"

#include <boost/random/uniform_01.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace calib;
using detail::MmdComponent;
using detail::MmdTerm;

namespace {

// One part of a term with parts, as a pair term of its own (the pass per part that the fused one replaces).
struct PartTerm {
    const MmdTerm& term;
    std::size_t part;
    std::size_t size() const { return term.size(); }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const { term.part_row(part, i, j0, j1, out); }
};

// Class-wise-like blocks: k_Z on one feature z_c (or on (z_c, 0) when `padded`: two features, so the
// general path, at the same distances), times the residual product a_i · w a_j.
MmdTerm blocks(const Matrix& z, const Matrix& residual, PredictionKernelShape shape, bool l1, bool padded) {
    std::vector<MmdComponent> components;
    for (Eigen::Index c = 0; c < z.cols(); ++c) {
        Matrix feature = Matrix::Zero(z.rows(), padded ? 2 : 1);
        feature.col(0) = z.col(c);
        MmdComponent block;
        block.kz = detail::EmbeddedPredictionKernel(feature, Matrix(), l1, 1.0,
                                                    PredictionKernel{shape, Metric::euclidean, 0.2 + 0.1 * double(c)});
        block.left = residual.col(c);
        block.right = 1.5 * residual.col(c);
        components.push_back(std::move(block));
    }
    return MmdTerm(static_cast<std::size_t>(z.rows()), std::move(components));
}

// Features in [0, 1] with ties and differences from 1e-150 to 1; residuals in [−1, 1].
void draw(std::size_t n, int m, test::Rng& rng, Matrix& z, Matrix& residual) {
    boost::random::uniform_01<double> u;
    z.resize(static_cast<Eigen::Index>(n), m);
    residual.resize(static_cast<Eigen::Index>(n), m);
    for (Eigen::Index i = 0; i < z.rows(); ++i)
        for (Eigen::Index c = 0; c < m; ++c) {
            const double v = u(rng);
            z(i, c) = i % 7 == 3 ? z(i - 1, c) : i % 7 == 5 ? z(i - 1, c) + std::pow(10.0, -150 * u(rng)) : v;
            residual(i, c) = 2 * u(rng) - 1;
        }
}

}  // namespace

TEST_CASE("mmd term: the one-feature blocks' fused path gives the general path's values, bitwise") {
    test::Rng rng(71);
    Matrix z, residual;
    draw(300, 3, rng, z, residual);
    const std::size_t n = 300;
    for (const PredictionKernelShape shape : {PredictionKernelShape::exp, PredictionKernelShape::sqexp})
        for (const bool l1 : {false, true}) {
            CAPTURE(static_cast<int>(shape));
            CAPTURE(l1);
            const MmdTerm line = blocks(z, residual, shape, l1, false), general = blocks(z, residual, shape, l1, true);
            alignas(64) double a[detail::chunk_width], b[detail::chunk_width];
            std::size_t differing = 0;
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j0 = 0; j0 < n; j0 += detail::chunk_width) {
                    const std::size_t j1 = std::min(n, j0 + detail::chunk_width);
                    line.row(i, j0, j1, a);
                    general.row(i, j0, j1, b);
                    for (std::size_t l = 0; l < j1 - j0; ++l) differing += a[l] != b[l];
                    for (std::size_t p = 0; p < 3; ++p) {
                        line.part_row(p, i, j0, j1, a);
                        general.part_row(p, i, j0, j1, b);
                        for (std::size_t l = 0; l < j1 - j0; ++l) differing += a[l] != b[l];
                    }
                }
            CHECK(differing == 0);
        }
}

TEST_CASE("engine: part_pair_sums gives each part's own pass, bitwise, for any n and thread count") {
    test::Rng rng(72);
    for (const std::size_t n : {2, 3, 63, 64, 65, 129, 300}) {
        CAPTURE(n);
        Matrix z, residual;
        draw(n, 4, rng, z, residual);
        const MmdTerm term = blocks(z, residual, PredictionKernelShape::sqexp, false, false);
        for (const int threads : {1, 2}) {
            const std::vector<double> fused = detail::part_pair_sums(term, ParallelOptions{threads});
            REQUIRE(fused.size() == 4);
            for (std::size_t p = 0; p < 4; ++p) {
                const detail::PairSums own = detail::block_pair_sums(PartTerm{term, p}, n, ParallelOptions{1})[0];
                CHECK(fused[p] == own.sum.value());
            }
            // The estimates of the parts sum to the whole term's, up to rounding.
            const std::vector<double> parts = detail::part_unbiased(term, ParallelOptions{threads});
            double total = 0, scale = 0;
            for (double v : parts) total += v, scale += std::abs(v);
            CHECK(std::abs(total - detail::quadratic_sums(term, ParallelOptions{1}).unbiased()) <= 1e-13 * scale);
        }
    }
}

// The pair term of the conditional MMD (calib/mmd.hpp): h(i, j) = Σ_c k_Z,c(z_ci, z_cj) · h_T,c(i, j)
// over its conditioning blocks c (one; m for class-wise), with h_T = a_iᵀ b_j for residuals a_i and
// b_j = a_j K_T (classes, finite-rank target kernels), or a closed form (Gaussian RBF, PIT). Built by make_mmd_term (mmd_ops.cpp), run by the engine (term.hpp).
#pragma once

#include "engine/term.hpp"
#include "core/exp_nonpositive.hpp"
#include "kernels/mmd_sampled.hpp"
#include "kernels/prediction_kernels.hpp"
#include "kernels/target_terms.hpp"

#include <calib/data.hpp>
#include <calib/mmd.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace calib::detail {

// The PIT against Unif[0, 1] with k = exp(−γ(t − t')²): h_Y = k(t_i, t_j) − g_i − g_j + c, with
// g_i = E_U k(t_i, U) and c = E k(U, U') computed by the builder.
struct PitUniformTarget {
    Vector t, g;
    double gamma = 0, c = 0;
    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t l = 0; l < j1 - j0; ++l) {
            const double d = t(static_cast<Eigen::Index>(j0 + l)) - t(r);
            out[l] = -gamma * d * d;
        }
        exp_nonpositive(out, j1 - j0);
        for (std::size_t l = 0; l < j1 - j0; ++l) out[l] = out[l] - g(r) - g(static_cast<Eigen::Index>(j0 + l)) + c;
    }
};

// Gaussian forecasts with the Laplacian k = exp(−|y − y'|/ℓ): h_Y = k(y_i, y_j) − E k(Ŷ_i, y_j)
// − E k(y_i, Ŷ_j) + E k(Ŷ_i, Ŷ_j), each expectation of a Gaussian difference in closed form
// (expected_laplacian_gaussian): Ŷ_i − y_j ~ N(μ_i − y_j, σ_i²), Ŷ_i − Ŷ_j ~ N(μ_i − μ_j, σ_i² + σ_j²).
struct LaplacianGaussianTarget {
    Vector mu, sigma, y;
    double lengthscale = 1;
    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t l = 0; l < j1 - j0; ++l) {
            const auto c = static_cast<Eigen::Index>(j0 + l);
            out[l] = std::exp(-std::abs(y(r) - y(c)) / lengthscale) -
                     expected_laplacian_gaussian(mu(r) - y(c), sigma(r), lengthscale) -
                     expected_laplacian_gaussian(mu(c) - y(r), sigma(c), lengthscale) +
                     expected_laplacian_gaussian(mu(r) - mu(c), std::hypot(sigma(r), sigma(c)), lengthscale);
        }
    }
};

// Gaussian forecasts with the min kernel on [lo, lo + T] (calib/mmd.hpp): with a_i = clip(y_i − lo, 0, T)
// and m_i = μ_i − lo, h_Y = min(a_i, a_j) − F_i(a_j) − F_j(a_i) + G_ij, F_i(a) = ∫_0^a S_i and
// G_ij = ∫_0^T S_i S_j (expected_min_gaussian, expected_min_gaussian_pair).
struct MinGaussianTarget {
    Vector m, sigma, a;
    double range = 1;
    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t l = 0; l < j1 - j0; ++l) {
            const auto c = static_cast<Eigen::Index>(j0 + l);
            out[l] = std::min(a(r), a(c)) - expected_min_gaussian(m(r), sigma(r), a(c)) -
                     expected_min_gaussian(m(c), sigma(c), a(r)) +
                     expected_min_gaussian_pair(m(r), sigma(r), m(c), sigma(c), range);
        }
    }
};

// One block: k_Z is an embedded kernel (kz), a delta on group ids (groups), or 1 (neither); the target
// part is a_iᵀ b_j of residual rows (left, right), or a closed-form pair term (gaussian, pit).
struct MmdComponent {
    std::optional<EmbeddedPredictionKernel> kz;
    std::vector<int> groups;
    Matrix left, right;  // n×k: a_i and b_j by rows
    std::optional<GaussianDiagonalTarget> gaussian;
    std::optional<PitUniformTarget> pit;
    std::optional<SampledTarget> sampled;  // Monte-Carlo marginalisation (Gaussian forecasts)
    std::optional<LaplacianGaussianTarget> laplacian;
    std::optional<MinGaussianTarget> min;
};

class MmdTerm {
public:
    MmdTerm(std::size_t n, std::vector<MmdComponent> components) : n_(n), components_(std::move(components)) {}
    std::size_t size() const { return n_; }

    // h(i, j) = Σ_c k_c(i, j) · t_c(i, j) over the blocks c.
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        std::fill(out, out + (j1 - j0), 0.0);
        for (const MmdComponent& c : components_)
            block_row(c, i, j0, j1, [&](std::size_t l, double v) { out[l] += v; });
    }

    // The blocks as the parts of h (engine/pairwise.hpp, part_pair_sums): h_p = k_p · t_p.
    std::size_t parts() const { return components_.size(); }
    void part_row(std::size_t p, std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        block_row(components_[p], i, j0, j1, [&](std::size_t l, double v) { out[l] = v; });
    }

    const std::vector<MmdComponent>& components() const { return components_; }

private:
    // A block whose k_Z has one feature and whose target is one residual product (top-label's and
    // class-wise's blocks): k_Z and t_ij = a_i b_j in one vector pass (EmbeddedPredictionKernel::line),
    // bitwise what factors() gives, k · t with t = a_i b_j.
    static bool binary_line(const MmdComponent& c) {
        return c.kz && c.kz->is_line() && c.left.cols() == 1 && !c.gaussian && !c.pit && !c.sampled && !c.laplacian &&
               !c.min;
    }

    // emit(j − j0, k_Z(z_i, z_j) · h_T(i, j)) of block c for j in [j0, j1).
    template <class Emit>
    static void block_row(const MmdComponent& c, std::size_t i, std::size_t j0, std::size_t j1, Emit&& emit) {
        if (binary_line(c)) {
            const double a = c.left(static_cast<Eigen::Index>(i), 0);
            const double* b = c.right.data() + j0;
            c.kz->line(i, j0, j1 - j0, [&](std::size_t l, double kl) { emit(l, (a * b[l]) * kl); });
            return;
        }
        alignas(64) double k[chunk_width], t[chunk_width];
        factors(c, i, j0, j1, k, t);
        for (std::size_t l = 0; l < j1 - j0; ++l) emit(l, k[l] * t[l]);
    }

    // k[j − j0] = k_Z(z_i, z_j) and t[j − j0] = h_T(i, j) of block c.
    static void factors(const MmdComponent& c, std::size_t i, std::size_t j0, std::size_t j1, double* k, double* t) {
        const std::size_t len = j1 - j0;
        const auto r = static_cast<Eigen::Index>(i);
        if (c.gaussian) {
            c.gaussian->pair(i, j0, j1, t);
        } else if (c.pit) {
            c.pit->pair(i, j0, j1, t);
        } else if (c.sampled) {
            c.sampled->pair(i, j0, j1, t);
        } else if (c.laplacian) {
            c.laplacian->pair(i, j0, j1, t);
        } else if (c.min) {
            c.min->pair(i, j0, j1, t);
        } else {
            // a_iᵀ b_j with the target's classes outermost, so the columns j vectorise (the first one
            // written, not added to zeros: the same value, one pass less; a block without a closed form
            // has at least one residual column).
            const double a0 = c.left(r, 0);
            const double* b0 = c.right.col(0).data() + j0;
            for (std::size_t l = 0; l < len; ++l) t[l] = a0 * b0[l];
            for (Eigen::Index s = 1; s < c.left.cols(); ++s) {
                const double a = c.left(r, s);
                const double* b = c.right.col(s).data() + j0;
                for (std::size_t l = 0; l < len; ++l) t[l] += a * b[l];
            }
        }
        if (c.kz) {
            c.kz->values(i, j0, j1, k);
        } else if (!c.groups.empty()) {
            for (std::size_t l = 0; l < len; ++l) k[l] = c.groups[i] == c.groups[j0 + l] ? 1.0 : 0.0;
        } else {
            std::fill(k, k + len, 1.0);
        }
    }

    std::size_t n_;
    std::vector<MmdComponent> components_;
};

}  // namespace calib::detail

// The Gaussian conditional MMD's target part h_T with Ŷ integrated out by Monte Carlo (calib/mmd.hpp,
// MmdMarginalisation): from per-forecast samples x_is (ŷ_is = μ_i + σ_i ε_is, or for pit uniforms u_is
// against the PITs t_i),
//   h_T(i, j) = k(t_i, t_j) − (1/S) Σ_s k(t_i, x_js) − (1/S) Σ_s k(x_is, t_j) + E_S(i, j)
// with E_S = (1/S) Σ_s k(x_is, x_js) (paired) or (1/S²) Σ_s Σ_u k(x_is, x_ju) (all pairs). Each part is
// an unbiased estimate of its closed form (the samples of i and j are independent for i ≠ j), so the
// MMD² estimate is unbiased for the analytic one. A pair term of the engine (mmd_term.hpp).
#pragma once

#include <calib/eigen.hpp>
#include <calib/mmd.hpp>

#include <cmath>
#include <cstddef>

namespace calib::detail {

class SampledTarget {
public:
    enum class Kernel { rbf, sign, moment };  // pit: rbf on [0, 1]
    SampledTarget(Kernel kernel, double lengthscale, double threshold, bool all_pairs, Vector targets, Matrix samples)
        : kernel_(kernel), gamma_(0.5 / (lengthscale * lengthscale)), threshold_(threshold), all_pairs_(all_pairs),
          t_(std::move(targets)), x_(std::move(samples)) {}

    double k(double a, double b) const {
        switch (kernel_) {
        case Kernel::rbf: return std::exp(-gamma_ * (a - b) * (a - b));
        case Kernel::sign: return sign(a - threshold_) * sign(b - threshold_);
        case Kernel::moment: return a * b + a * a * b * b;
        }
        return 0;
    }

    // h_T(i, j) for j in [j0, j1); x_ holds the samples of forecast i in column i (S×n).
    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        const Eigen::Index samples = x_.rows();
        const double inv_s = 1.0 / static_cast<double>(samples);
        for (std::size_t l = 0; l < j1 - j0; ++l) {
            const auto c = static_cast<Eigen::Index>(j0 + l);
            double cross = 0, both = 0;
            for (Eigen::Index s = 0; s < samples; ++s) {
                cross += k(t_[r], x_(s, c)) + k(x_(s, r), t_[c]);
                if (!all_pairs_) {
                    both += k(x_(s, r), x_(s, c));
                } else {
                    double row = 0;
                    for (Eigen::Index u = 0; u < samples; ++u) row += k(x_(s, r), x_(u, c));
                    both += row * inv_s;
                }
            }
            out[l] = k(t_[r], t_[c]) - cross * inv_s + both * inv_s;
        }
    }

private:
    static double sign(double v) { return double((v > 0) - (v < 0)); }
    Kernel kernel_;
    double gamma_, threshold_;
    bool all_pairs_;
    Vector t_;
    Matrix x_;
};

// The standard draws behind the samples, S×n: ε_is ~ N(0, 1) (ŷ_is = μ_i + σ_i ε_is), or for pit the
// uniforms u_is; column i from the stream (seed, i).
Matrix standard_draws(Eigen::Index n, const GaussianMmdSpec& spec);

// The sampled target of a spec whose marginalisation is mc_paired or mc_all_pairs (S samples per
// forecast from the stream (seed, i)).
SampledTarget make_sampled_target(const Vector& mu, const Vector& sigma, const Vector& y, const GaussianMmdSpec& spec);

// Throws (naming fn) unless the Monte-Carlo options are valid: S ≥ 1 (and ≤ 10⁶).
void check_marginalisation(const char* fn, const GaussianMmdSpec& spec);

}  // namespace calib::detail

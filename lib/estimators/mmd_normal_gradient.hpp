// Internal: the conditional MMD²'s block estimate for Gaussian forecasts N(μ_i, σ_i²) and its analytic
// gradient with respect to (μ_i, log σ_i) (docs/mmd.md, "Gradients for Gaussian forecasts"), on raw
// vectors (not checked: finite differences and the recalibration objective call it in their loops).
#pragma once

#include <calib/mmd.hpp>

#include <cstddef>

namespace calib::detail {

// The mean of the unbiased estimates on the ⌊n/B⌋ consecutive blocks of B forecasts (the last n mod B
// dropped, as mmd_block) and its gradient: ∂/∂μ_i and ∂/∂log σ_i (zero on dropped rows). The features
// of the individual notion do not move; the distribution notion's Z = (μ, σ) does, so its k_Z's
// derivative enters (sqexp only). One serial pass of O(n·B) in a fixed order: independent of threads.
struct NormalMmdValueGradient {
    double value = 0;
    Vector mean, log_stddev;
};
NormalMmdValueGradient normal_mmd_block_value_gradient(const Vector& mu, const Vector& sigma, const Vector& y,
                                                       const GaussianMmdSpec& spec, std::size_t block_size);

// The unbiased estimate's gradient over all pairs, n×2 (∂/∂μ_i, ∂/∂log σ_i): the row sums of the
// non-symmetric pair terms ∂H_ij/∂θ_i by the engine's Gram product with a column of ones, one pass
// per column: O(n²) (× S or S² sampled), bitwise the same for any thread count.
Matrix unbiased_normal_gradient(const Vector& mu, const Vector& sigma, const Vector& y, const GaussianMmdSpec& spec,
                                const ParallelOptions& parallel);

// Throws (naming fn) for a spec without a gradient: the distribution notion with exp(−W2/ℓ), the
// sign kernel under Monte-Carlo marginalisation.
void check_differentiable(const char* fn, const GaussianMmdSpec& spec);

}  // namespace calib::detail

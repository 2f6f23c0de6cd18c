// Internal: the block estimate of the conditional MMD² for class predictions and its analytic gradient
// with respect to the probabilities (docs/mmd.md, "Gradients"), on a raw n×m matrix q (not checked:
// finite differences perturb q off the simplex), and the chain rule through a softmax.
#pragma once

#include <calib/mmd.hpp>

#include <cstddef>
#include <vector>

namespace calib::detail {

// The notions with a gradient: canonical (k_Z = exp(−‖q − q'‖²/(2ℓ²))) and top-label
// (k_Z = exp(−(q(Y*) − q'(Y*'))²/(2ℓ²))), K_T = δ or a Gram matrix (m×m, or 2×2 for top-label).
struct MmdGradientSpec {
    MmdNotion notion = MmdNotion::canonical;
    double lengthscale = 1;
    Matrix target_gram;  // empty: δ
};

// The mean of the unbiased estimates on the ⌊n/B⌋ consecutive blocks of B rows (the last n mod B rows
// dropped, as mmd_block), and its gradient ∂/∂q (n×m; zero on dropped rows). One serial pass of
// O(n·B·m) time in a fixed order: the result does not depend on threads.
struct MmdValueGradient {
    double value = 0;
    Matrix gradient;
};
MmdValueGradient mmd_block_value_gradient(const Matrix& q, const std::vector<int>& labels, const MmdGradientSpec& spec,
                                          std::size_t block_size);

// ∂/∂η from ∂/∂q for q = softmax(η) row-wise: q ⊙ (g − ⟨q, g⟩).
Matrix softmax_backward(const Matrix& q, const Matrix& gq);

}  // namespace calib::detail

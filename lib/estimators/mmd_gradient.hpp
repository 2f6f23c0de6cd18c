// Internal: the block estimate of the conditional MMD² for class predictions and its analytic gradient
// with respect to the probabilities (docs/mmd.md, "Gradients"), on a raw n×m matrix q (not checked:
// finite differences perturb q off the simplex), and the chain rule through a softmax.
#pragma once

#include <calib/mmd.hpp>

#include <cstddef>
#include <vector>

namespace calib::detail {

// Whether the notion's estimate has a gradient here with this conditioning kernel, and if not why.
// Z moves with q for canonical (k_Z = exp(−‖q − q'‖²/(2ℓ²)), Euclidean), top-label and class-wise
// (k_Z = exp(−(p − p')²/(2ℓ²))): exp(−d/ℓ) and the tv/l1 metrics are not differentiable where two
// predictions coincide. Z does not move for group, individual and marginal: any k_Z.
const char* mmd_gradient_unsupported(const MmdSpec& spec);

// The mean of the unbiased estimates on the ⌊n/B⌋ consecutive blocks of B rows (the last n mod B rows
// dropped, as mmd_block), and its gradient ∂/∂q (n×m; zero on dropped rows). One serial pass of
// O(n·B·m) time in a fixed order: the result does not depend on threads. The spec's notion, k_Z
// lengthscale(s), K_T, features and groups apply (validated by the caller).
struct MmdValueGradient {
    double value = 0;
    Matrix gradient;
};
MmdValueGradient mmd_block_value_gradient(const Matrix& q, const std::vector<int>& labels, const MmdSpec& spec,
                                          std::size_t block_size);

// ∂/∂η from ∂/∂q for q = softmax(η) row-wise: q ⊙ (g − ⟨q, g⟩).
Matrix softmax_backward(const Matrix& q, const Matrix& gq);

}  // namespace calib::detail

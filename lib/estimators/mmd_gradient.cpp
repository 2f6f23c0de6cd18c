// The conditional MMD²'s block estimate and its gradient (mmd_gradient.hpp). For one block of B rows
// with c = 1/(B(B−1)) and h_ij = k_ij s_ij, k_ij = exp(−‖z_i − z_j‖²/(2ℓ²)), s_ij = r_iᵀ K r_j:
//   ∂M/∂z-part:  2c Σ_{j≠i} k_ij s_ij · (−(z_i − z_j)/ℓ²) · ∂z_i/∂q_i
//   residual:    2c Σ_{j≠i} k_ij · (−K r_j)                   (∂r_i/∂q_i = −I)
// (h is symmetric, so each pair enters the sums of both its rows; docs/mmd.md derives this).
#include "estimators/mmd_gradient.hpp"

#include "core/check.hpp"
#include "kernels/mmd_ops.hpp"

#include <cmath>

namespace calib::detail {

namespace {

// The canonical notion: z = q, r = e_y − q.
void canonical_block(const Matrix& q, const std::vector<int>& labels, const MmdGradientSpec& spec, Eigen::Index b0,
                     Eigen::Index size, double& sum, Matrix& gradient) {
    const Eigen::Index m = q.cols();
    Matrix r = -q.middleRows(b0, size);
    for (Eigen::Index i = 0; i < size; ++i) r(i, labels[static_cast<std::size_t>(b0 + i)]) += 1;
    const Matrix kr = spec.target_gram.size() ? Matrix(r * spec.target_gram) : r;
    const double inv_l2 = 1 / (spec.lengthscale * spec.lengthscale);
    for (Eigen::Index i = 0; i < size; ++i)
        for (Eigen::Index j = i + 1; j < size; ++j) {
            double d2 = 0, s = 0;
            for (Eigen::Index c = 0; c < m; ++c) {
                const double d = q(b0 + i, c) - q(b0 + j, c);
                d2 += d * d;
                s += r(i, c) * kr(j, c);
            }
            const double k = std::exp(-0.5 * d2 * inv_l2);
            sum += k * s;
            const double ks = k * s * inv_l2;
            for (Eigen::Index c = 0; c < m; ++c) {
                const double d = q(b0 + i, c) - q(b0 + j, c);
                gradient(b0 + i, c) -= k * kr(j, c) + ks * d;
                gradient(b0 + j, c) -= k * kr(i, c) - ks * d;
            }
        }
}

// The top-label notion: z = p = q(Y*), r = o − p with o = 1{y = Y*}; only q(Y*) moves the estimate
// (Y* = argmax q is locally constant away from ties).
void top_label_block(const Matrix& q, const std::vector<int>& labels, const MmdGradientSpec& spec, Eigen::Index b0,
                     Eigen::Index size, double& sum, Matrix& gradient) {
    const Matrix& g = spec.target_gram;
    const double weight = g.size() ? g(0, 0) + g(1, 1) - 2 * g(0, 1) : 2.0;  // r_iᵀ K r_j = weight ρ_i ρ_j
    std::vector<Eigen::Index> top(static_cast<std::size_t>(size));
    Vector p(size), rho(size);
    for (Eigen::Index i = 0; i < size; ++i) {
        q.row(b0 + i).maxCoeff(&top[static_cast<std::size_t>(i)]);
        p[i] = q(b0 + i, top[static_cast<std::size_t>(i)]);
        rho[i] = (labels[static_cast<std::size_t>(b0 + i)] == top[static_cast<std::size_t>(i)] ? 1.0 : 0.0) - p[i];
    }
    const double inv_l2 = 1 / (spec.lengthscale * spec.lengthscale);
    Vector gp = Vector::Zero(size);
    for (Eigen::Index i = 0; i < size; ++i)
        for (Eigen::Index j = i + 1; j < size; ++j) {
            const double d = p[i] - p[j];
            const double k = std::exp(-0.5 * d * d * inv_l2);
            const double s = weight * rho[i] * rho[j];
            sum += k * s;
            gp[i] -= k * weight * rho[j] + k * s * d * inv_l2;
            gp[j] -= k * weight * rho[i] - k * s * d * inv_l2;
        }
    for (Eigen::Index i = 0; i < size; ++i) gradient(b0 + i, top[static_cast<std::size_t>(i)]) += gp[i];
}

}  // namespace

MmdValueGradient mmd_block_value_gradient(const Matrix& q, const std::vector<int>& labels, const MmdGradientSpec& spec,
                                          std::size_t block_size) {
    const char* fn = "mmd_block_gradient";
    const auto n = static_cast<std::size_t>(q.rows());
    if (spec.notion != MmdNotion::canonical && spec.notion != MmdNotion::top_label)
        fail(fn, "notion = ", to_string(spec.notion), ", the gradient is implemented for canonical and top-label");
    if (block_size < 2 || block_size > n) fail(fn, "block_size = ", block_size, ", must be in [2, n = ", n, "]");
    MmdValueGradient out;
    out.gradient = Matrix::Zero(q.rows(), q.cols());
    const std::size_t blocks = n / block_size;
    const auto size = static_cast<Eigen::Index>(block_size);
    const double pair_scale = 2.0 / (static_cast<double>(block_size) * static_cast<double>(block_size - 1));
    double total = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
        double sum = 0;  // Σ_{i<j} h_ij of the block
        const auto b0 = static_cast<Eigen::Index>(b * block_size);
        if (spec.notion == MmdNotion::canonical) canonical_block(q, labels, spec, b0, size, sum, out.gradient);
        else top_label_block(q, labels, spec, b0, size, sum, out.gradient);
        total += sum * pair_scale;
    }
    // Each block's estimate is 2c Σ_{i<j} h_ij, the gradient sums carry 1, so both take 2c/blocks.
    out.value = total / static_cast<double>(blocks);
    out.gradient *= pair_scale / static_cast<double>(blocks);
    return out;
}

Matrix softmax_backward(const Matrix& q, const Matrix& gq) {
    Matrix out = gq;
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
        double inner = 0;
        for (Eigen::Index c = 0; c < q.cols(); ++c) inner += q(i, c) * gq(i, c);
        for (Eigen::Index c = 0; c < q.cols(); ++c) out(i, c) = q(i, c) * (gq(i, c) - inner);
    }
    return out;
}

}  // namespace calib::detail

namespace calib {

namespace {

// Throws (naming fn) unless the spec fits the data and has a gradient here.
void check_gradient_spec(const CategoricalData& data, const MmdSpec& spec, const char* fn) {
    validate_mmd(data, spec, fn);
    if (spec.notion != MmdNotion::canonical && spec.notion != MmdNotion::top_label)
        detail::fail(fn, "notion = ", to_string(spec.notion), ", the gradient is implemented for canonical and top-label");
    if (spec.conditioning.shape != PredictionKernelShape::sqexp ||
        (spec.notion == MmdNotion::canonical && spec.conditioning.metric != Metric::euclidean))
        detail::fail(fn, "the conditioning kernel must be sqexp (with metric euclidean for canonical): exp(−d/ℓ) and "
                         "the tv and l1 metrics are not differentiable where two predictions coincide");
}

}  // namespace

MmdGradient mmd_unbiased_gradient(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel) {
    const char* fn = "mmd_unbiased_gradient";
    check_gradient_spec(data, spec, fn);
    if (data.size() < 2) detail::fail(fn, "n = ", data.size(), ", needs at least 2 observations");
    return {detail::check_result(fn, detail::MmdOps::quadratic_sums(data, spec, parallel).unbiased()),
            detail::MmdOps::unbiased_gradient(data, spec, parallel)};
}

MmdGradient mmd_block_gradient(const CategoricalData& data, const MmdSpec& spec, std::size_t block_size) {
    const char* fn = "mmd_block_gradient";
    check_gradient_spec(data, spec, fn);
    const Matrix q = data.probabilities();  // own column-major copy
    const detail::MmdValueGradient r = detail::mmd_block_value_gradient(
        q, data.labels(), {spec.notion, spec.conditioning.lengthscale, spec.target_gram}, block_size);
    return {detail::check_result(fn, r.value), r.gradient};
}

}  // namespace calib

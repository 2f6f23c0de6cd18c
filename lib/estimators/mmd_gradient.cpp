// The conditional MMD²'s block estimate and its gradient (mmd_gradient.hpp). For one block of B rows
// with c = 1/(B(B−1)) and h_ij = k_ij s_ij, k_ij = exp(−‖z_i − z_j‖²/(2ℓ²)), s_ij = r_iᵀ K r_j:
//   ∂M/∂z-part:  2c Σ_{j≠i} k_ij s_ij · (−(z_i − z_j)/ℓ²) · ∂z_i/∂q_i
//   residual:    2c Σ_{j≠i} k_ij · (−K r_j)                   (∂r_i/∂q_i = −I)
// (only the residual part when Z does not move with q: group, individual, marginal)
// (h is symmetric, so each pair enters the sums of both its rows; docs/mmd.md derives this).
#include "data/column_major.hpp"
#include "estimators/mmd_gradient.hpp"

#include "core/check.hpp"
#include "kernels/mmd_ops.hpp"

#include <cmath>

namespace calib::detail {

namespace {

// The canonical notion: z = q, r = e_y − q.
void canonical_block(const Matrix& q, const std::vector<int>& labels, const MmdSpec& spec, Eigen::Index b0,
                     Eigen::Index size, double& sum, Matrix& gradient) {
    const Eigen::Index m = q.cols();
    Matrix r = -q.middleRows(b0, size);
    for (Eigen::Index i = 0; i < size; ++i) r(i, labels[static_cast<std::size_t>(b0 + i)]) += 1;
    const Matrix kr = spec.target_gram.size() ? Matrix(r * spec.target_gram) : r;
    const double inv_l2 = 1 / (spec.conditioning.lengthscale * spec.conditioning.lengthscale);
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

// k_Z(z_a, z_b) of a notion whose Z does not depend on q: δ of the groups, a kernel of the features'
// distance, or 1 (marginal).
double fixed_conditioning(const MmdSpec& spec, Eigen::Index a, Eigen::Index b) {
    if (spec.notion == MmdNotion::marginal) return 1;
    if (spec.notion == MmdNotion::group)
        return spec.groups[static_cast<std::size_t>(a)] == spec.groups[static_cast<std::size_t>(b)] ? 1 : 0;
    const auto diff = (spec.features.row(a) - spec.features.row(b)).array();
    const double d = spec.conditioning.metric == Metric::l1 ? diff.abs().sum() : std::sqrt(diff.square().sum());
    const double l = spec.conditioning.lengthscale;
    return spec.conditioning.shape == PredictionKernelShape::exp ? std::exp(-d / l) : std::exp(-0.5 * d * d / (l * l));
}

// Group, individual, marginal: Z fixed, so only the residual r = e_y − q moves: ∂h_ij/∂q_i = −k_ij K r_j.
void fixed_conditioning_block(const Matrix& q, const std::vector<int>& labels, const MmdSpec& spec, Eigen::Index b0,
                              Eigen::Index size, double& sum, Matrix& gradient) {
    Matrix r = -q.middleRows(b0, size);
    for (Eigen::Index i = 0; i < size; ++i) r(i, labels[static_cast<std::size_t>(b0 + i)]) += 1;
    const Matrix kr = spec.target_gram.size() ? Matrix(r * spec.target_gram) : r;
    for (Eigen::Index i = 0; i < size; ++i)
        for (Eigen::Index j = i + 1; j < size; ++j) {
            const double k = fixed_conditioning(spec, b0 + i, b0 + j);
            sum += k * r.row(i).dot(kr.row(j));
            gradient.row(b0 + i) -= k * kr.row(j);
            gradient.row(b0 + j) -= k * kr.row(i);
        }
}

// One binary problem (top-label, or a class of class-wise) on a block: forecast p_i = Z_i, residual
// ρ_i = o_i − p_i, r_iᵀ K r_j = w ρ_i ρ_j, k_Z = exp(−(p_i − p_j)²/(2ℓ²)); adds ∂/∂p_i to gp.
void binary_block(const Vector& p, const Vector& rho, double w, double lengthscale, double& sum, Vector& gp) {
    const double inv_l2 = 1 / (lengthscale * lengthscale);
    for (Eigen::Index i = 0; i < p.size(); ++i)
        for (Eigen::Index j = i + 1; j < p.size(); ++j) {
            const double d = p[i] - p[j];
            const double k = std::exp(-0.5 * d * d * inv_l2);
            const double s = w * rho[i] * rho[j];
            sum += k * s;
            gp[i] -= k * w * rho[j] + k * s * d * inv_l2;
            gp[j] -= k * w * rho[i] - k * s * d * inv_l2;
        }
}

// Top-label (p = q(Y*), o = 1{y = Y*}: only q(Y*) moves the estimate, Y* = argmax q being locally
// constant away from ties) and class-wise (for each class c, p = q(c), o = 1{y = c}, its own ℓ_c).
void binary_notion_block(const Matrix& q, const std::vector<int>& labels, const MmdSpec& spec, Eigen::Index b0,
                         Eigen::Index size, double& sum, Matrix& gradient) {
    const Matrix& g = spec.target_gram;
    const double w = g.size() ? g(0, 0) + g(1, 1) - 2 * g(0, 1) : 2.0;
    const bool top = spec.notion == MmdNotion::top_label;
    const Eigen::Index problems = top ? 1 : q.cols();
    for (Eigen::Index c = 0; c < problems; ++c) {
        std::vector<Eigen::Index> column(static_cast<std::size_t>(size), c);
        Vector p(size), rho(size), gp = Vector::Zero(size);
        for (Eigen::Index i = 0; i < size; ++i) {
            Eigen::Index& k = column[static_cast<std::size_t>(i)];
            if (top) q.row(b0 + i).maxCoeff(&k);
            p[i] = q(b0 + i, k);
            rho[i] = (labels[static_cast<std::size_t>(b0 + i)] == k ? 1.0 : 0.0) - p[i];
        }
        const double l = spec.class_lengthscales.empty() ? spec.conditioning.lengthscale
                                                         : spec.class_lengthscales[static_cast<std::size_t>(c)];
        binary_block(p, rho, w, l, sum, gp);
        for (Eigen::Index i = 0; i < size; ++i) gradient(b0 + i, column[static_cast<std::size_t>(i)]) += gp[i];
    }
}

}  // namespace

const char* mmd_gradient_unsupported(const MmdSpec& spec) {
    switch (spec.notion) {
        case MmdNotion::canonical:
            if (spec.conditioning.shape != PredictionKernelShape::sqexp || spec.conditioning.metric != Metric::euclidean)
                return "the canonical notion's gradient needs k_Z sqexp with metric euclidean: exp(-d/l) and the tv "
                       "and l1 metrics are not differentiable where two predictions coincide";
            return nullptr;
        case MmdNotion::top_label:
        case MmdNotion::class_wise:
            if (spec.conditioning.shape != PredictionKernelShape::sqexp)
                return "the top-label and class-wise gradients need k_Z sqexp: exp(-|p - p'|/l) is not differentiable "
                       "where two predictions coincide";
            return nullptr;
        case MmdNotion::group:
        case MmdNotion::individual:
        case MmdNotion::marginal:
            return nullptr;
        case MmdNotion::distribution:
        case MmdNotion::quantile:
        case MmdNotion::threshold:
        case MmdNotion::decision:
        case MmdNotion::local:
            return "the notion applies to Gaussian forecasts";
    }
    return "unknown notion";
}

MmdValueGradient mmd_block_value_gradient(const Matrix& q, const std::vector<int>& labels, const MmdSpec& spec,
                                          std::size_t block_size) {
    const char* fn = "mmd_block_gradient";
    const auto n = static_cast<std::size_t>(q.rows());
    if (const char* why = mmd_gradient_unsupported(spec)) fail(fn, why);
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
        switch (spec.notion) {
            case MmdNotion::canonical: canonical_block(q, labels, spec, b0, size, sum, out.gradient); break;
            case MmdNotion::top_label:
            case MmdNotion::class_wise: binary_notion_block(q, labels, spec, b0, size, sum, out.gradient); break;
            default: fixed_conditioning_block(q, labels, spec, b0, size, sum, out.gradient);
        }
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
    if (const char* why = detail::mmd_gradient_unsupported(spec)) detail::fail(fn, why);
}

}  // namespace

MmdGradient mmd_unbiased_gradient(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel) {
    const char* fn = "mmd_unbiased_gradient";
    check_gradient_spec(data, spec, fn);
    detail::check_min_size(fn, data.size(), 2);
    return {detail::check_result(fn, detail::MmdOps::quadratic_sums(data, spec, parallel).unbiased()),
            detail::MmdOps::unbiased_gradient(data, spec, parallel)};
}

MmdGradient mmd_block_gradient(const CategoricalData& data, const MmdSpec& spec, std::size_t block_size) {
    const char* fn = "mmd_block_gradient";
    check_gradient_spec(data, spec, fn);
    const Matrix q = detail::column_major_copy(data.probabilities());  // own column-major copy
    const detail::MmdValueGradient r = detail::mmd_block_value_gradient(q, data.labels(), spec, block_size);
    return {detail::check_result(fn, r.value), r.gradient};
}

}  // namespace calib

// The Gaussian conditional MMD²'s block estimate and its gradient in (μ_i, log σ_i)
// (mmd_normal_gradient.hpp). With H_ij = k_Z(i, j) h_T(i, j), each pair i < j of a block adds
//   ∂H/∂θ = k_Z ∂h_T/∂θ + h_T ∂k_Z/∂θ      for θ ∈ {μ_i, log σ_i, μ_j, log σ_j},
// the second part only for the distribution notion (Z = (μ, σ)). The target parts differentiate the
// closed forms of mmd_gaussian.cpp (docs/mmd.md derives them):
//   rbf     h_T = k(y_i, y_j) − A(y_i; j) − A(y_j; i) + C(i, j), with f(v, d) = √(L/v) exp(−d²/(2v)),
//           L = ℓ_T², A(y; j) = f(L + σ_j², y − μ_j), C = f(L + σ_i² + σ_j², μ_i − μ_j)
//   sign    h_T = r_i r_j, r = sgn(y − c) − (2Φ(u) − 1), u = (μ − c)/σ: ∂r/∂μ = −2φ(u)/σ, ∂r/∂log σ = 2φ(u)u
//   moment  h_T = r_iᵀ r_j, r = (y − μ, y² − μ² − σ²): ∂r/∂μ = (−1, −2μ), ∂r/∂log σ = (0, −2σ²)
//   pit     h_T = k(t_i, t_j) − g(t_i) − g(t_j) + c, t = Φ(w), w = (y − μ)/σ: ∂t/∂μ = −φ(w)/σ,
//           ∂t/∂log σ = −φ(w)w, g'(t) = exp(−t²/(2ℓ²)) − exp(−(1 − t)²/(2ℓ²))
#include "estimators/mmd_normal_gradient.hpp"

#include "core/check.hpp"
#include "core/normal_distribution.hpp"
#include "engine/pairwise.hpp"
#include "kernels/mmd_ops.hpp"
#include "kernels/mmd_sampled.hpp"

#include <cmath>
#include <type_traits>

namespace calib::detail {

namespace {

constexpr double inv_sqrt_2pi = 0.39894228040143267794;

double normal_pdf(double x) { return inv_sqrt_2pi * std::exp(-0.5 * x * x); }

// A pair's value and its partial derivatives in (μ_i, log σ_i, μ_j, log σ_j).
struct PairDerivatives {
    double value = 0, mean_i = 0, log_sd_i = 0, mean_j = 0, log_sd_j = 0;
};

// f(v, d) = √(L/v) exp(−d²/(2v)) (an expectation of the RBF under Gaussians) and ∂f/∂d, ∂f/∂v.
struct Smoothed {
    double f, dd, dv;
};
Smoothed smoothed(double big_l, double v, double d) {
    const double f = std::sqrt(big_l / v) * std::exp(-d * d / (2 * v));
    return {f, -f * d / v, f * (d * d / v - 1) / (2 * v)};
}

// The target part h_T of every pair, from per-forecast quantities computed once.
class TargetPairs {
public:
    TargetPairs(const Vector& mu, const Vector& sigma, const Vector& y, const GaussianMmdSpec& spec)
        : mu_(mu), sigma_(sigma), y_(y), target_(spec.target), lt_(spec.target_lengthscale) {
        const Eigen::Index n = mu.size();
        switch (target_) {
        case GaussianTarget::rbf:
        case GaussianTarget::laplacian:  // refused by check_differentiable
        case GaussianTarget::tanh:
        case GaussianTarget::min: break;
        case GaussianTarget::sign:
            r_.resize(n, 1), dr_mean_.resize(n, 1), dr_log_sd_.resize(n, 1);
            for (Eigen::Index i = 0; i < n; ++i) {
                const double u = (mu[i] - spec.threshold) / sigma[i], e = y[i] - spec.threshold;
                r_(i, 0) = double((e > 0) - (e < 0)) - (2 * normal_cdf(u) - 1);
                dr_mean_(i, 0) = -2 * normal_pdf(u) / sigma[i];
                dr_log_sd_(i, 0) = 2 * normal_pdf(u) * u;
            }
            break;
        case GaussianTarget::moment:
            r_.resize(n, 2), dr_mean_.resize(n, 2), dr_log_sd_.resize(n, 2);
            for (Eigen::Index i = 0; i < n; ++i) {
                r_.row(i) << y[i] - mu[i], y[i] * y[i] - mu[i] * mu[i] - sigma[i] * sigma[i];
                dr_mean_.row(i) << -1, -2 * mu[i];
                dr_log_sd_.row(i) << 0, -2 * sigma[i] * sigma[i];
            }
            break;
        case GaussianTarget::pit:
            t_.resize(n), g_.resize(n), dg_.resize(n), dt_mean_.resize(n), dt_log_sd_.resize(n);
            for (Eigen::Index i = 0; i < n; ++i) {
                const double w = (y[i] - mu[i]) / sigma[i], t = normal_cdf(w), l2 = 2 * lt_ * lt_;
                t_[i] = t;
                g_[i] = expected_rbf_uniform(t, lt_);
                dg_[i] = std::exp(-t * t / l2) - std::exp(-(1 - t) * (1 - t) / l2);
                dt_mean_[i] = -normal_pdf(w) / sigma[i];
                dt_log_sd_[i] = -normal_pdf(w) * w;
            }
            pit_constant_ = expected_rbf_uniform_pair(lt_);
            break;
        }
    }

    PairDerivatives pair(Eigen::Index i, Eigen::Index j) const {
        PairDerivatives p;
        switch (target_) {
        case GaussianTarget::rbf: {
            const double big_l = lt_ * lt_, vi = sigma_[i] * sigma_[i], vj = sigma_[j] * sigma_[j];
            const double dy = y_[i] - y_[j];
            const Smoothed a_ij = smoothed(big_l, big_l + vj, y_[i] - mu_[j]);  // E k(y_i, Ŷ_j)
            const Smoothed a_ji = smoothed(big_l, big_l + vi, y_[j] - mu_[i]);  // E k(Ŷ_i, y_j)
            const Smoothed c = smoothed(big_l, big_l + vi + vj, mu_[i] - mu_[j]);  // E k(Ŷ_i, Ŷ_j)
            p.value = std::exp(-dy * dy / (2 * big_l)) - a_ij.f - a_ji.f + c.f;
            p.mean_i = a_ji.dd + c.dd;
            p.mean_j = a_ij.dd - c.dd;
            p.log_sd_i = 2 * vi * (c.dv - a_ji.dv);
            p.log_sd_j = 2 * vj * (c.dv - a_ij.dv);
            break;
        }
        case GaussianTarget::sign:
        case GaussianTarget::moment:
            p.value = r_.row(i).dot(r_.row(j));
            p.mean_i = dr_mean_.row(i).dot(r_.row(j));
            p.log_sd_i = dr_log_sd_.row(i).dot(r_.row(j));
            p.mean_j = dr_mean_.row(j).dot(r_.row(i));
            p.log_sd_j = dr_log_sd_.row(j).dot(r_.row(i));
            break;
        case GaussianTarget::pit: {
            const double d = t_[i] - t_[j], k = std::exp(-d * d / (2 * lt_ * lt_));
            p.value = k - g_[i] - g_[j] + pit_constant_;
            const double dk = -k * d / (lt_ * lt_);  // ∂k/∂t_i = −∂k/∂t_j
            p.mean_i = (dk - dg_[i]) * dt_mean_[i];
            p.log_sd_i = (dk - dg_[i]) * dt_log_sd_[i];
            p.mean_j = (-dk - dg_[j]) * dt_mean_[j];
            p.log_sd_j = (-dk - dg_[j]) * dt_log_sd_[j];
            break;
        }
        case GaussianTarget::laplacian:  // refused by check_differentiable
        case GaussianTarget::tanh:
        case GaussianTarget::min: break;
        }
        return p;
    }

private:
    const Vector &mu_, &sigma_, &y_;
    GaussianTarget target_;
    double lt_;
    Matrix r_, dr_mean_, dr_log_sd_;                   // sign, moment: residual rows and their derivatives
    Vector t_, g_, dg_, dt_mean_, dt_log_sd_;          // pit
    double pit_constant_ = 0;
};

// The target part under Monte-Carlo marginalisation (mmd_sampled.hpp) and its reparameterisation
// gradient: the draws are fixed, ŷ_is = μ_i + σ_i ε_is moves with ∂ŷ/∂μ = 1, ∂ŷ/∂log σ = σε; for pit
// the uniforms are fixed and t_i = Φ((y_i − μ_i)/σ_i) moves. k₁ is ∂k(a, b)/∂a: −2γ(a − b)k (rbf),
// b + 2ab² (moment). The sign kernel's derivative is 0 almost everywhere: refused.
class SampledTargetPairs {
public:
    SampledTargetPairs(const Vector& mu, const Vector& sigma, const Vector& y, const GaussianMmdSpec& spec)
        : sigma_(sigma), pit_(spec.target == GaussianTarget::pit), rbf_(spec.target != GaussianTarget::moment),
          all_pairs_(spec.marginalisation == MmdMarginalisation::mc_all_pairs),
          gamma_(0.5 / (spec.target_lengthscale * spec.target_lengthscale)), eps_(standard_draws(mu.size(), spec)) {
        x_ = eps_;
        if (pit_) {
            t_.resize(mu.size()), dt_mean_.resize(mu.size()), dt_log_sd_.resize(mu.size());
            for (Eigen::Index i = 0; i < mu.size(); ++i) {
                const double w = (y[i] - mu[i]) / sigma[i];
                t_[i] = normal_cdf(w);
                dt_mean_[i] = -normal_pdf(w) / sigma[i];
                dt_log_sd_[i] = -normal_pdf(w) * w;
            }
        } else {
            t_ = y;
            for (Eigen::Index i = 0; i < mu.size(); ++i) x_.col(i) = (mu[i] + sigma[i] * eps_.col(i).array()).matrix();
        }
    }

    PairDerivatives pair(Eigen::Index i, Eigen::Index j) const {
        const Eigen::Index samples = x_.rows();
        const double inv_s = 1.0 / static_cast<double>(samples);
        double cross = 0, both = 0;
        double di = 0, dj = 0;          // ∂h/∂t (pit) or Σ ∂h/∂ŷ_s (the μ part)
        double di_eps = 0, dj_eps = 0;  // Σ ε ∂h/∂ŷ_s (the log σ part, times σ below)
        for (Eigen::Index s = 0; s < samples; ++s) {
            const double xi = x_(s, i), xj = x_(s, j);
            cross += k(t_[i], xj) + k(xi, t_[j]);
            if (pit_) {
                di -= k1(t_[i], xj) * inv_s;
                dj -= k1(t_[j], xi) * inv_s;
            } else {
                const double a = -k1(xi, t_[j]) * inv_s, b = -k1(xj, t_[i]) * inv_s;  // the cross terms
                di += a, di_eps += a * eps_(s, i);
                dj += b, dj_eps += b * eps_(s, j);
            }
            const Eigen::Index first = all_pairs_ ? 0 : s, last = all_pairs_ ? samples : s + 1;
            const double weight = all_pairs_ ? inv_s * inv_s : inv_s;
            for (Eigen::Index u = first; u < last; ++u) {
                const double xju = x_(u, j);
                both += k(xi, xju) * (all_pairs_ ? inv_s : 1.0);
                if (pit_) continue;  // uniforms do not move
                const double a = k1(xi, xju) * weight, b = k1(xju, xi) * weight;
                di += a, di_eps += a * eps_(s, i);
                dj += b, dj_eps += b * eps_(u, j);
            }
        }
        PairDerivatives p;
        p.value = k(t_[i], t_[j]) - cross * inv_s + both * inv_s;
        if (pit_) {
            di += k1(t_[i], t_[j]), dj += k1(t_[j], t_[i]);
            p.mean_i = di * dt_mean_[i], p.log_sd_i = di * dt_log_sd_[i];
            p.mean_j = dj * dt_mean_[j], p.log_sd_j = dj * dt_log_sd_[j];
        } else {
            p.mean_i = di, p.log_sd_i = di_eps * sigma_[i];
            p.mean_j = dj, p.log_sd_j = dj_eps * sigma_[j];
        }
        return p;
    }

private:
    double k(double a, double b) const { return rbf_ ? std::exp(-gamma_ * (a - b) * (a - b)) : a * b + a * a * b * b; }
    double k1(double a, double b) const {
        return rbf_ ? -2 * gamma_ * (a - b) * std::exp(-gamma_ * (a - b) * (a - b)) : b + 2 * a * b * b;
    }
    const Vector& sigma_;
    bool pit_, rbf_, all_pairs_;
    double gamma_;
    Matrix eps_, x_;  // S×n: the draws and the samples (pit: the uniforms, twice)
    Vector t_, dt_mean_, dt_log_sd_;
};

// k_Z of a pair and, for the distribution notion, its partial derivatives.
class ConditioningPairs {
public:
    ConditioningPairs(const Vector& mu, const Vector& sigma, const GaussianMmdSpec& spec)
        : mu_(mu), sigma_(sigma), spec_(spec), inv_l2_(1 / (spec.conditioning.lengthscale * spec.conditioning.lengthscale)) {}

    PairDerivatives pair(Eigen::Index i, Eigen::Index j) const {
        PairDerivatives k;
        const PredictionKernel& kz = spec_.conditioning;
        switch (spec_.notion) {
        case MmdNotion::distribution: {  // sqexp of W2² = (μ_i − μ_j)² + (σ_i − σ_j)²
            const double dm = mu_[i] - mu_[j], ds = sigma_[i] - sigma_[j];
            k.value = std::exp(-0.5 * (dm * dm + ds * ds) * inv_l2_);
            k.mean_i = -k.value * dm * inv_l2_;
            k.mean_j = -k.mean_i;
            k.log_sd_i = -k.value * ds * sigma_[i] * inv_l2_;
            k.log_sd_j = k.value * ds * sigma_[j] * inv_l2_;
            break;
        }
        case MmdNotion::individual:
        case MmdNotion::local: {  // fixed features
            const auto diff = spec_.features.row(i) - spec_.features.row(j);
            if (kz.metric == Metric::l1) {
                const double d = diff.cwiseAbs().sum();
                k.value = kz.shape == PredictionKernelShape::sqexp ? std::exp(-0.5 * d * d * inv_l2_)
                                                                   : std::exp(-d / kz.lengthscale);
            } else {
                const double d2 = diff.squaredNorm();
                k.value = kz.shape == PredictionKernelShape::sqexp ? std::exp(-0.5 * d2 * inv_l2_)
                                                                   : std::exp(-std::sqrt(d2) / kz.lengthscale);
            }
            break;
        }
        default: k.value = 1; break;  // marginal, quantile (check_differentiable refuses the others)
        }
        return k;
    }

private:
    const Vector &mu_, &sigma_;
    const GaussianMmdSpec& spec_;
    double inv_l2_;
};

// The pair term of one column of the unbiased gradient: F(i, j) = ∂H_ij/∂μ_i or ∂H_ij/∂log σ_i for
// j ≠ i, 0 on the diagonal (not a pair of the U-statistic). Not symmetric; the engine's Gram product
// with a column of ones gives its row sums Σ_{j≠i} F(i, j).
template <class Target>
class GradientTerm {
public:
    GradientTerm(const Target& target, const ConditioningPairs& conditioning, std::size_t n, bool log_sd)
        : target_(target), conditioning_(conditioning), n_(n), log_sd_(log_sd) {}
    std::size_t size() const { return n_; }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t j = j0; j < j1; ++j) {
            if (j == i) {
                out[j - j0] = 0;
                continue;
            }
            const auto c = static_cast<Eigen::Index>(j);
            const PairDerivatives h = target_.pair(r, c), k = conditioning_.pair(r, c);
            out[j - j0] = log_sd_ ? k.value * h.log_sd_i + h.value * k.log_sd_i : k.value * h.mean_i + h.value * k.mean_i;
        }
    }

private:
    const Target& target_;
    const ConditioningPairs& conditioning_;
    std::size_t n_;
    bool log_sd_;
};

template <class Target>
NormalMmdValueGradient block_value_gradient(const Target& target, const Vector& mu, const Vector& sigma,
                                            const GaussianMmdSpec& spec, std::size_t block_size) {
    const auto n = static_cast<std::size_t>(mu.size());
    const ConditioningPairs conditioning(mu, sigma, spec);
    NormalMmdValueGradient out;
    out.mean = Vector::Zero(mu.size());
    out.log_stddev = Vector::Zero(mu.size());
    const std::size_t blocks = n / block_size;
    const double pair_scale = 2.0 / (static_cast<double>(block_size) * static_cast<double>(block_size - 1));
    double total = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
        double sum = 0;  // Σ_{i<j} H_ij of the block
        const auto b0 = static_cast<Eigen::Index>(b * block_size), b1 = b0 + static_cast<Eigen::Index>(block_size);
        for (Eigen::Index i = b0; i < b1; ++i)
            for (Eigen::Index j = i + 1; j < b1; ++j) {
                const PairDerivatives h = target.pair(i, j), k = conditioning.pair(i, j);
                sum += k.value * h.value;
                out.mean[i] += k.value * h.mean_i + h.value * k.mean_i;
                out.mean[j] += k.value * h.mean_j + h.value * k.mean_j;
                out.log_stddev[i] += k.value * h.log_sd_i + h.value * k.log_sd_i;
                out.log_stddev[j] += k.value * h.log_sd_j + h.value * k.log_sd_j;
            }
        total += sum * pair_scale;
    }
    // Each block's estimate is 2c Σ_{i<j} H_ij; the gradient sums carry 1, so both take 2c/blocks.
    out.value = total / static_cast<double>(blocks);
    out.mean *= pair_scale / static_cast<double>(blocks);
    out.log_stddev *= pair_scale / static_cast<double>(blocks);
    return out;
}

}  // namespace

void check_differentiable(const char* fn, const GaussianMmdSpec& spec) {
    const GaussianTarget t = spec.target;
    if (t != GaussianTarget::rbf && t != GaussianTarget::sign && t != GaussianTarget::moment && t != GaussianTarget::pit)
        fail(fn, "the gradient is implemented for the target kernels rbf (sqexp), sign, moment and pit");
    const MmdNotion notion = spec.notion;
    if (notion != MmdNotion::distribution && notion != MmdNotion::individual && notion != MmdNotion::local &&
        notion != MmdNotion::marginal && notion != MmdNotion::quantile)
        fail(fn, "the gradient is implemented for the notions distribution, individual, local, marginal and quantile, "
                 "not ", to_string(notion), " (whose conditioning indicator is piecewise constant in the forecast)");
    if (spec.notion == MmdNotion::distribution && spec.conditioning.shape != PredictionKernelShape::sqexp)
        fail(fn, "the distribution notion's gradient needs the sqexp conditioning kernel: exp(−W2/ℓ) is not "
                 "differentiable where two forecasts coincide");
    if (spec.marginalisation != MmdMarginalisation::analytic && spec.target == GaussianTarget::sign)
        fail(fn, "the sign kernel's sampled gradient is 0 almost everywhere; take marginalisation = analytic");
}

NormalMmdValueGradient normal_mmd_block_value_gradient(const Vector& mu, const Vector& sigma, const Vector& y,
                                                       const GaussianMmdSpec& spec, std::size_t block_size) {
    const char* fn = "mmd_block_gradient";
    const auto n = static_cast<std::size_t>(mu.size());
    if (block_size < 2 || block_size > n) fail(fn, "block_size = ", block_size, ", must be in [2, n = ", n, "]");
    check_differentiable(fn, spec);
    if (spec.marginalisation != MmdMarginalisation::analytic)
        return block_value_gradient(SampledTargetPairs(mu, sigma, y, spec), mu, sigma, spec, block_size);
    return block_value_gradient(TargetPairs(mu, sigma, y, spec), mu, sigma, spec, block_size);
}

Matrix unbiased_normal_gradient(const Vector& mu, const Vector& sigma, const Vector& y, const GaussianMmdSpec& spec,
                                const ParallelOptions& parallel) {
    const auto n = static_cast<std::size_t>(mu.size());
    const ConditioningPairs conditioning(mu, sigma, spec);
    const Eigen::MatrixXd ones = Eigen::MatrixXd::Ones(mu.size(), 1);
    Matrix out(mu.size(), 2);
    const auto columns = [&](const auto& target) {
        for (int column = 0; column < 2; ++column) {
            using Target = std::decay_t<decltype(target)>;
            out.col(column) = gram_product(GradientTerm<Target>(target, conditioning, n, column == 1), ones, nullptr, parallel);
        }
    };
    if (spec.marginalisation != MmdMarginalisation::analytic) columns(SampledTargetPairs(mu, sigma, y, spec));
    else columns(TargetPairs(mu, sigma, y, spec));
    // ∂M/∂θ_i = (2/(n(n−1))) Σ_{j≠i} ∂H_ij/∂θ_i, H symmetric.
    return out * (2.0 / (static_cast<double>(n) * static_cast<double>(n - 1)));
}

}  // namespace calib::detail

namespace calib {

MmdNormalGradient mmd_block_gradient(const NormalData& data, const GaussianMmdSpec& spec, std::size_t block_size) {
    const char* fn = "mmd_block_gradient";
    validate_mmd(data, spec, fn);
    const Vector mu = data.mean(), sigma = data.stddev(), y = data.targets();  // own copies
    detail::NormalMmdValueGradient r = detail::normal_mmd_block_value_gradient(mu, sigma, y, spec, block_size);
    return {detail::check_result(fn, r.value), std::move(r.mean), std::move(r.log_stddev)};
}

MmdNormalGradient mmd_unbiased_gradient(const NormalData& data, const GaussianMmdSpec& spec, const ParallelOptions& parallel) {
    const char* fn = "mmd_unbiased_gradient";
    validate_mmd(data, spec, fn);
    detail::check_min_size(fn, data.size(), 2);
    detail::check_differentiable(fn, spec);
    const Vector mu = data.mean(), sigma = data.stddev(), y = data.targets();  // own copies
    const Matrix g = detail::unbiased_normal_gradient(mu, sigma, y, spec, parallel);
    return {detail::check_result(fn, detail::MmdOps::quadratic_sums(data, spec, parallel).unbiased()), g.col(0), g.col(1)};
}

}  // namespace calib

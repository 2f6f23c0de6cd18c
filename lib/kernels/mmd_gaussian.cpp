// The conditional MMD for Gaussian forecasts (calib/mmd.hpp, GaussianMmdSpec): its pair term with
// the target kernels' closed forms, its checks and its engine passes (mmd_ops.hpp).
#include "kernels/mmd_ops.hpp"

#include "core/check.hpp"
#include "core/normal_distribution.hpp"
#include "kernels/mmd_finite_rank.hpp"
#include "kernels/mmd_term.hpp"

#include <cmath>
#include <optional>
#include <string>

namespace calib {

using detail::fail;

namespace {

using detail::normal_cdf;

bool pit_notion(MmdNotion n) { return n == MmdNotion::quantile || n == MmdNotion::threshold || n == MmdNotion::local; }
bool feature_notion(MmdNotion n) { return n == MmdNotion::individual || n == MmdNotion::local; }
bool kernel_notion(MmdNotion n) { return n == MmdNotion::distribution || feature_notion(n); }

// The target part of h (the same for every conditioning block).
detail::MmdComponent target_component(const Vector& mu, const Vector& sigma, const Vector& y, const GaussianMmdSpec& s) {
    detail::MmdComponent c;
    const double lt = s.target_lengthscale;
    switch (s.target) {
        case GaussianTarget::rbf:
            c.gaussian = detail::GaussianDiagonalTarget(Matrix(mu), Matrix(sigma), Matrix(y), 0.5 / (lt * lt));
            break;
        case GaussianTarget::sign:
        case GaussianTarget::tanh: {
            // Rank 1: r_i = g(y_i) − E_{Q_i} g(Ŷ), g = sign(· − c) or tanh((· − c)/τ).
            const bool sign = s.target == GaussianTarget::sign;
            Matrix r(mu.size(), 1);
            for (Eigen::Index i = 0; i < mu.size(); ++i) {
                const double u = y(i) - s.threshold;
                r(i, 0) = sign ? double((u > 0) - (u < 0)) - (2 * normal_cdf((mu(i) - s.threshold) / sigma(i)) - 1)
                               : std::tanh(u / s.tau) - gaussian_tanh_mean((mu(i) - s.threshold) / s.tau, sigma(i) / s.tau);
            }
            c.left = c.right = r;
            break;
        }
        case GaussianTarget::moment: {
            Matrix r(mu.size(), 2);
            r.col(0) = y - mu;
            r.col(1) = y.array().square() - mu.array().square() - sigma.array().square();
            c.left = c.right = r;
            break;
        }
        case GaussianTarget::pit: {
            detail::PitUniformTarget pit;
            pit.t.resize(mu.size());
            pit.g.resize(mu.size());
            for (Eigen::Index i = 0; i < mu.size(); ++i) {
                pit.t(i) = normal_cdf((y(i) - mu(i)) / sigma(i));
                pit.g(i) = expected_rbf_uniform(pit.t(i), lt);
            }
            pit.gamma = 0.5 / (lt * lt);
            pit.c = expected_rbf_uniform_pair(lt);
            c.pit = std::move(pit);
            break;
        }
        case GaussianTarget::laplacian:
            c.laplacian = detail::LaplacianGaussianTarget{mu, sigma, y, lt};
            break;
        case GaussianTarget::min: {
            const double range = s.min_upper - s.min_lower;
            c.min = detail::MinGaussianTarget{(mu.array() - s.min_lower).matrix(), sigma,
                                              (y.array() - s.min_lower).max(0.0).min(range).matrix(), range};
            break;
        }
    }
    if (s.marginalisation != MmdMarginalisation::analytic) {  // the target part by Monte Carlo instead
        c.gaussian.reset(), c.pit.reset(), c.laplacian.reset(), c.min.reset(), c.left = c.right = Matrix();
        c.sampled = detail::make_sampled_target(mu, sigma, y, s);
    }
    return c;
}

// The blocks of h: one, or one per (y0, α) pair of the threshold notion.
detail::MmdTerm make_mmd_term(const NormalData& d, const GaussianMmdSpec& s) {
    const std::size_t n = d.size();
    const Vector mu = d.mean(), sigma = d.stddev(), y = d.targets();  // own copies
    detail::MmdComponent c = target_component(mu, sigma, y, s);
    const double l = s.conditioning.lengthscale;
    const PredictionKernel kz{s.conditioning.shape, Metric::euclidean, l};
    std::vector<detail::MmdComponent> blocks;
    if (s.notion == MmdNotion::distribution) {
        Matrix z(mu.size(), 2);
        z << mu, sigma;  // ‖(μ, σ) − (μ', σ')‖ = W2 [W21 App. D]
        c.kz = detail::EmbeddedPredictionKernel(z, Matrix(), false, 1.0, kz);
    } else if (feature_notion(s.notion)) {
        c.kz = detail::EmbeddedPredictionKernel(s.features, Matrix(), s.conditioning.metric == Metric::l1, 1.0, kz);
    } else if (s.notion == MmdNotion::decision) {
        // δ*(Q_i) = +1 iff Q_i(Y > c) = Φ((μ_i − c)/σ_i) > 1/2, i.e. μ_i > c; else −1.
        c.groups.resize(n);
        for (std::size_t i = 0; i < n; ++i) c.groups[i] = mu(static_cast<Eigen::Index>(i)) > s.threshold ? 1 : -1;
    } else if (s.notion == MmdNotion::threshold) {
        for (std::size_t p = 0; p < s.thresholds.size(); ++p) {
            detail::MmdComponent block = c;
            block.groups.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                const auto r = static_cast<Eigen::Index>(i);
                block.groups[i] = normal_cdf((s.thresholds[p].y0 - mu(r)) / sigma(r)) <= s.thresholds[p].alpha ? 1 : 0;
            }
            blocks.push_back(std::move(block));
        }
        return detail::MmdTerm(n, std::move(blocks));
    }
    blocks.push_back(std::move(c));
    return detail::MmdTerm(n, std::move(blocks));
}

}  // namespace

std::size_t mmd_components(const NormalData&, const GaussianMmdSpec& spec) {
    return spec.notion == MmdNotion::threshold ? spec.thresholds.size() : 1;
}

void validate_mmd(const NormalData& data, const GaussianMmdSpec& spec, const char* fn) {
    const std::size_t n = data.size();
    const MmdNotion notion = spec.notion;
    const std::string name = to_string(notion);
    if (notion == MmdNotion::canonical || notion == MmdNotion::top_label || notion == MmdNotion::class_wise ||
        notion == MmdNotion::group)
        fail(fn, "the ", name, " notion applies to class predictions; Gaussian forecasts take distribution, "
             "individual, marginal, quantile, threshold, decision or local");
    if (pit_notion(notion) && spec.target != GaussianTarget::pit)
        fail(fn, "the ", name, " notion compares the PIT with Unif[0, 1]: its target kernel is pit, not ",
             to_string(spec.target));
    if (notion == MmdNotion::decision && spec.target != GaussianTarget::sign && spec.target != GaussianTarget::tanh)
        fail(fn, "the decision notion takes the decision kernels sign or tanh at its threshold c, not ",
             to_string(spec.target));
    if (kernel_notion(notion))
        detail::check_mmd_lengthscale(fn, "the conditioning kernel's lengthscale", spec.conditioning.lengthscale);
    const Metric metric = spec.conditioning.metric;
    if (notion == MmdNotion::distribution && metric != Metric::w2)
        fail(fn, "metric ", to_string(metric), " does not apply to Gaussian forecasts; the distribution notion takes w2");
    if (feature_notion(notion) && metric != Metric::l1 && metric != Metric::euclidean)
        fail(fn, "metric ", to_string(metric), " does not apply to features; the ", name, " notion takes l1 or euclidean");
    if (spec.target == GaussianTarget::rbf || spec.target == GaussianTarget::pit || spec.target == GaussianTarget::laplacian)
        detail::check_mmd_lengthscale(fn, "the target kernel's lengthscale", spec.target_lengthscale);
    if (!std::isfinite(spec.threshold)) fail(fn, "threshold = ", detail::format_value(spec.threshold), ", must be finite");
    detail::check_marginalisation(fn, spec);
    if (!(std::isfinite(spec.min_lower) && std::isfinite(spec.min_upper) && spec.min_lower < spec.min_upper))
        fail(fn, "the min kernel's interval [", detail::format_value(spec.min_lower), ", ",
             detail::format_value(spec.min_upper), "] must be finite with lower < upper");
    if (!(std::isfinite(spec.tau) && spec.tau > 0))
        fail(fn, "tau = ", detail::format_value(spec.tau), ", must be finite and > 0");
    if (feature_notion(notion)) {
        detail::check_mmd_features(fn, spec.features, n);
    } else if (spec.features.size()) {
        fail(fn, "features apply only to the individual and local notions, not ", name);
    }
    if (notion == MmdNotion::threshold) {
        if (spec.thresholds.empty()) fail(fn, "the threshold notion needs at least one (y0, alpha) pair in thresholds");
        for (std::size_t p = 0; p < spec.thresholds.size(); ++p) {
            const MmdThreshold& t = spec.thresholds[p];
            if (!std::isfinite(t.y0))
                fail(fn, "thresholds[", p, "].y0 = ", detail::format_value(t.y0), ", must be finite");
            if (!(t.alpha >= 0 && t.alpha <= 1))
                fail(fn, "thresholds[", p, "].alpha = ", detail::format_value(t.alpha), ", must be in [0, 1]");
        }
    } else if (!spec.thresholds.empty()) {
        fail(fn, "thresholds apply only to the threshold notion, not ", name);
    }
}

std::vector<double> mmd_median_lengthscales(const NormalData& data, const GaussianMmdSpec& spec,
                                            const MedianOptions& options) {
    const char* fn = "mmd_median_lengthscales";
    if (!kernel_notion(spec.notion)) fail(fn, "the ", to_string(spec.notion), " notion has no conditioning lengthscale");
    detail::check_min_size(fn, data.size(), 2, "pairwise distances");
    if (options.subsample == 1) fail(fn, "subsample = 1, must be 0 (use all points) or >= 2");
    GaussianMmdSpec unit = spec;
    unit.conditioning.lengthscale = 1;
    validate_mmd(data, unit, fn);
    if (spec.notion == MmdNotion::distribution) {
        Matrix z(static_cast<Eigen::Index>(data.size()), 2);
        z << Vector(data.mean()), Vector(data.stddev());
        return {detail::median_of_rows(fn, z, false, 1.0, options)};
    }
    return {detail::median_of_rows(fn, spec.features, spec.conditioning.metric == Metric::l1, 1.0, options)};
}

// ∫₀¹ exp(−(t − u)²/(2ℓ²)) du = ℓ√(π/2) [erf((1 − t)/(ℓ√2)) + erf(t/(ℓ√2))]   (digest §6.4).
double expected_rbf_uniform(double t, double lengthscale) {
    detail::check_mmd_lengthscale("expected_rbf_uniform", "lengthscale", lengthscale);
    const double s = lengthscale * std::sqrt(2.0);
    return lengthscale * std::sqrt(M_PI / 2) * (std::erf((1 - t) / s) + std::erf(t / s));
}

// ∫₀¹∫₀¹ exp(−(u − v)²/(2ℓ²)) du dv = ℓ√(2π) erf(1/(ℓ√2)) − 2ℓ²(1 − exp(−1/(2ℓ²)))   (digest §6.4).
double expected_rbf_uniform_pair(double lengthscale) {
    detail::check_mmd_lengthscale("expected_rbf_uniform_pair", "lengthscale", lengthscale);
    const double l = lengthscale;
    return l * std::sqrt(2 * M_PI) * std::erf(1 / (l * std::sqrt(2.0))) + 2 * l * l * std::expm1(-1 / (2 * l * l));
}

namespace detail {

QuadraticSums MmdOps::quadratic_sums(const NormalData& data, const GaussianMmdSpec& spec,
                                     const ParallelOptions& parallel) {
    const MmdTerm term = make_mmd_term(data, spec);
    if (const std::optional<QuadraticSums> sums = finite_rank_sums(term)) return *sums;
    return detail::quadratic_sums(term, parallel);
}

std::vector<double> MmdOps::part_unbiased(const NormalData& data, const GaussianMmdSpec& spec,
                                          const ParallelOptions& parallel) {
    return detail::part_unbiased(make_mmd_term(data, spec), parallel);
}

QuadraticSums MmdOps::pairwise_sums(const NormalData& data, const GaussianMmdSpec& spec,
                                    const ParallelOptions& parallel) {
    return detail::quadratic_sums(make_mmd_term(data, spec), parallel);
}

CountForms MmdOps::count_forms(const NormalData& data, const GaussianMmdSpec& spec, std::size_t replicates,
                               const CountSource& counts, bool cache, const ParallelOptions& parallel) {
    return detail::count_forms(make_mmd_term(data, spec), replicates, counts, cache, parallel);
}

std::vector<PairSums> MmdOps::block_pair_sums(const NormalData& data, const GaussianMmdSpec& spec,
                                              std::size_t block_size, const ParallelOptions& parallel) {
    return detail::block_pair_sums(make_mmd_term(data, spec), block_size, parallel);
}

}  // namespace detail

}  // namespace calib

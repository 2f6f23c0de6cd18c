// The conditional MMD for Gaussian forecasts (calib/mmd.hpp, GaussianMmdSpec): its pair term with
// the target kernels' closed forms, its checks and its engine passes (mmd_ops.hpp).
#include "kernels/mmd_ops.hpp"

#include "core/check.hpp"
#include "kernels/mmd_term.hpp"

#include <cmath>

namespace calib {

using detail::fail;

namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

detail::MmdTerm make_mmd_term(const NormalData& d, const GaussianMmdSpec& s) {
    const std::size_t n = d.size();
    const Vector mu = d.mean(), sigma = d.stddev(), y = d.targets();  // own copies
    detail::MmdComponent c;
    const double l = s.conditioning.lengthscale;
    const PredictionKernel kz{s.conditioning.shape, Metric::euclidean, l};
    if (s.notion == MmdNotion::distribution) {
        Matrix z(mu.size(), 2);
        z << mu, sigma;  // ‖(μ, σ) − (μ', σ')‖ = W2 [W21 App. D]
        c.kz = detail::EmbeddedPredictionKernel(z, Matrix(), false, 1.0, kz);
    } else if (s.notion == MmdNotion::individual) {
        c.kz = detail::EmbeddedPredictionKernel(s.features, Matrix(), s.conditioning.metric == Metric::l1, 1.0, kz);
    }
    const double lt = s.target_lengthscale;
    switch (s.target) {
        case GaussianTarget::rbf:
            c.gaussian = detail::GaussianDiagonalTarget(Matrix(mu), Matrix(sigma), Matrix(y), 0.5 / (lt * lt));
            break;
        case GaussianTarget::sign: {
            Matrix r(mu.size(), 1);
            for (Eigen::Index i = 0; i < mu.size(); ++i) {
                const double u = y(i) - s.threshold;
                r(i, 0) = double((u > 0) - (u < 0)) - (2 * normal_cdf((mu(i) - s.threshold) / sigma(i)) - 1);
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
    }
    if (s.marginalisation != MmdMarginalisation::analytic) {  // the target part by Monte Carlo instead
        c.gaussian.reset(), c.pit.reset(), c.left = c.right = Matrix();
        c.sampled = detail::make_sampled_target(mu, sigma, y, s);
    }
    std::vector<detail::MmdComponent> blocks;
    blocks.push_back(std::move(c));
    return detail::MmdTerm(n, std::move(blocks));
}

}  // namespace

void validate_mmd(const NormalData& data, const GaussianMmdSpec& spec, const char* fn) {
    const std::size_t n = data.size();
    const MmdNotion notion = spec.notion;
    if (notion != MmdNotion::distribution && notion != MmdNotion::individual && notion != MmdNotion::marginal)
        fail(fn, "the ", to_string(notion), " notion applies to class predictions; Gaussian forecasts take "
             "distribution, individual or marginal");
    if (notion != MmdNotion::marginal)
        detail::check_mmd_lengthscale(fn, "the conditioning kernel's lengthscale", spec.conditioning.lengthscale);
    const Metric metric = spec.conditioning.metric;
    if (notion == MmdNotion::distribution && metric != Metric::w2)
        fail(fn, "metric ", to_string(metric), " does not apply to Gaussian forecasts; the distribution notion takes w2");
    if (notion == MmdNotion::individual && metric != Metric::l1 && metric != Metric::euclidean)
        fail(fn, "metric ", to_string(metric), " does not apply to features; the individual notion takes l1 or euclidean");
    if (spec.target == GaussianTarget::rbf || spec.target == GaussianTarget::pit)
        detail::check_mmd_lengthscale(fn, "the target kernel's lengthscale", spec.target_lengthscale);
    if (!std::isfinite(spec.threshold)) fail(fn, "threshold = ", detail::format_value(spec.threshold), ", must be finite");
    detail::check_marginalisation(fn, spec);
    if (notion == MmdNotion::individual) {
        detail::check_mmd_features(fn, spec.features, n);
    } else if (spec.features.size()) {
        fail(fn, "features apply only to the individual notion, not ", to_string(notion));
    }
}

std::vector<double> mmd_median_lengthscales(const NormalData& data, const GaussianMmdSpec& spec,
                                            const MedianOptions& options) {
    const char* fn = "mmd_median_lengthscales";
    if (spec.notion == MmdNotion::marginal) fail(fn, "the marginal notion has no conditioning lengthscale");
    if (data.size() < 2) fail(fn, "n = ", data.size(), ", needs at least 2 observations for pairwise distances");
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

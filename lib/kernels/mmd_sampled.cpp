// The samples of the Monte-Carlo marginalisation (mmd_sampled.hpp): per forecast i, S draws from the
// seeded stream (seed, i), so that the samples of a forecast do not depend on n, on the other
// forecasts or on the thread count.
#include "kernels/mmd_sampled.hpp"

#include "core/check.hpp"
#include "core/normal_distribution.hpp"

#include <calib/tool/random.hpp>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

namespace calib::detail {

void check_marginalisation(const char* fn, const GaussianMmdSpec& spec) {
    if (spec.marginalisation == MmdMarginalisation::analytic) return;
    if (spec.samples < 1 || spec.samples > max_mc_samples)
        fail(fn, "samples = ", spec.samples, ", must be in [1, ", max_mc_samples, "] for Monte-Carlo marginalisation");
    const GaussianTarget t = spec.target;
    if (t != GaussianTarget::rbf && t != GaussianTarget::sign && t != GaussianTarget::moment && t != GaussianTarget::pit)
        fail(fn, "Monte-Carlo marginalisation is implemented for the target kernels sqexp, sign, moment and pit");
}

Matrix standard_draws(Eigen::Index n, const GaussianMmdSpec& spec) {
    const auto samples = static_cast<Eigen::Index>(spec.samples);
    Matrix draws(samples, n);
    for (Eigen::Index i = 0; i < n; ++i) {
        Rng rng = make_stream(spec.seed, static_cast<std::uint64_t>(i));
        if (spec.target == GaussianTarget::pit) {
            boost::random::uniform_01<double> uniform;
            for (Eigen::Index s = 0; s < samples; ++s) draws(s, i) = uniform(rng);
        } else {
            boost::random::normal_distribution<double> normal;
            for (Eigen::Index s = 0; s < samples; ++s) draws(s, i) = normal(rng);
        }
    }
    return draws;
}

SampledTarget make_sampled_target(const Vector& mu, const Vector& sigma, const Vector& y, const GaussianMmdSpec& spec) {
    const bool pit = spec.target == GaussianTarget::pit;
    Vector targets = y;
    Matrix x = standard_draws(mu.size(), spec);
    for (Eigen::Index i = 0; i < mu.size(); ++i) {
        if (pit) targets[i] = normal_cdf((y[i] - mu[i]) / sigma[i]);
        else x.col(i) = (mu[i] + sigma[i] * x.col(i).array()).matrix();
    }
    SampledTarget::Kernel kernel = SampledTarget::Kernel::rbf;
    if (spec.target == GaussianTarget::sign) kernel = SampledTarget::Kernel::sign;
    if (spec.target == GaussianTarget::moment) kernel = SampledTarget::Kernel::moment;
    return SampledTarget(kernel, spec.target_lengthscale, spec.threshold,
                         spec.marginalisation == MmdMarginalisation::mc_all_pairs, std::move(targets), std::move(x));
}

}  // namespace calib::detail

// The conditional MMD's choices as names (calib/mmd.hpp): its notions, the target kernels of normal
// forecasts and the marginalisation of their forecasts; a header of its own, so that the options and
// maps that name them (recalibration.hpp) do not take the whole of mmd.hpp with them.
#pragma once

#include <cstddef>
#include <string>

namespace calib {

// group and the three class notions apply to class predictions, distribution to Gaussian forecasts,
// individual and marginal to both; quantile, threshold, decision and local (Table 1's regression
// notions, mmd.hpp) to Gaussian forecasts.
enum class MmdNotion { canonical, top_label, class_wise, group, individual, marginal, distribution,
                       quantile, threshold, decision, local };

// The target kernels k_Y of normal forecasts (mmd.hpp, GaussianMmdSpec): rbf (--kernel-y sqexp), sign,
// moment, pit, laplacian, tanh, min.
enum class GaussianTarget { rbf, sign, moment, pit, laplacian, tanh, min };

// How Ŷ ~ N(μ_i, σ_i²) is integrated out of h (docs/mmd.md, "Monte-Carlo marginalisation"): the closed
// forms (analytic), or S seeded reparameterised samples ŷ_is = μ_i + σ_i ε_is per forecast (pit: S
// uniforms u_is in place of U) with E k(Ŷ_i, Ŷ_j) estimated by (1/S) Σ_s k(ŷ_is, ŷ_js) (mc-paired, the
// paper code's, O(n² S)) or by all S² combinations (mc-all-pairs, the plug-in of the expectation, O(n² S²)).
// The cross terms E k(y_i, Ŷ_j) are (1/S) Σ_s k(y_i, ŷ_js) in both. ε_i (or u_i) is drawn from the
// stream (seed, i) of calib/tool/random.hpp: the same for any thread count.
enum class MmdMarginalisation { analytic, mc_paired, mc_all_pairs };
// The most samples S per forecast a Monte-Carlo mode takes (the draws are n × S doubles).
inline constexpr std::size_t max_mc_samples = 1000000;

// "canonical", "top-label", "class-wise", "group", "individual", "marginal", "distribution", "quantile",
// "threshold", "decision", "local", and the parser (throws
// calib::invalid_argument for another name).
std::string to_string(MmdNotion notion);
MmdNotion parse_mmd_notion(const std::string& name);
// The target kernels by the names of --kernel-y ("sqexp" for rbf, "sign", "moment", "pit"), and the
// parser (throws calib::invalid_argument, naming `what`, for another name).
std::string to_string(GaussianTarget target);
GaussianTarget parse_gaussian_target(const std::string& name, const std::string& what = "kernel_y");
// "analytic", "mc-paired", "mc-all-pairs", and the parser (throws, naming `what`, for another name).
std::string to_string(MmdMarginalisation marginalisation);
MmdMarginalisation parse_mmd_marginalisation(const std::string& name, const std::string& what = "marginalisation");

}  // namespace calib

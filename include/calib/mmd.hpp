// The conditional MMD of Marx, Zalouk & Ermon (NeurIPS 2023) for class predictions, and its tests
// (docs/mmd.md). A notion of calibration is "the label Y and a label Ŷ drawn from the forecast are
// equal in distribution given a conditioning variable Z" (their Table 2); its squared MMD with a
// product kernel k((t, z), (t', z')) = k_T(t, t') · k_Z(z, z') is estimated without bias by
//   MMD² = 1/(n(n−1)) Σ_{i≠j} h_ij,   h_ij = k_Z(z_i, z_j) · r_iᵀ K_T r_j,
// with Ŷ marginalised analytically: r_i = e_{t_i} − (forecast pmf of t_i), K_T the Gram matrix of k_T
// on the target's values [marx-2023 eq. 3, §4.1; the symmetric four-term h, i ≠ j only]. The notions:
//   notion       target T                  forecast of T          Z                 k_Z
//   canonical    Y                         q_i                    q_i               exp/sqexp of a metric on q
//   top-label    1{Y = Y*}, Y* = argmax q  q_i(Y*)                q_i(Y*)           exp/sqexp of |q − q'|
//   class-wise   1{Y = c}, for each class c q_i(c)                 q_i(c)            exp/sqexp of |q − q'|
//                (the sum over c; per-class values reported)
//   group        Y                         q_i                    group id g_i      δ(g, g')
//   individual   Y                         q_i                    features x_i      exp/sqexp of a metric on x
//   marginal     Y                         q_i                    none              1
// K_T is δ (the default, K = I) or any symmetric PSD Gram matrix: m×m on the labels, 2×2 on the
// binary targets of top-label and class-wise (index 0 = "no", 1 = "yes"). With Z = q and these
// kernels the canonical MMD² is exactly the SKCE's unbiased estimator. Every h is degenerate under
// H0: "(Y, Z) and (Ŷ, Z) are equal in distribution", so the SKCE's quadratic and block tests apply
// (an extension of the paper, which proposes no test; invalid on the data a model was fitted on).
#pragma once

#include <calib/data.hpp>
#include <calib/kernels.hpp>
#include <calib/mmd_kinds.hpp>
#include <calib/parallel.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace calib {


struct MmdSpec {
    MmdNotion notion = MmdNotion::canonical;
    // k_Z = exp(−d/ℓ) or exp(−d²/(2ℓ²)): its metric applies to canonical (tv, l1, euclidean on q) and
    // individual (l1, euclidean on x); top-label and class-wise take |q − q'|; group and marginal none.
    PredictionKernel conditioning{PredictionKernelShape::sqexp, Metric::euclidean, 1.0};
    // class-wise: the lengthscale of each class's k_Z (empty: conditioning.lengthscale for every class).
    std::vector<double> class_lengthscales;
    // K_T: empty for δ; else m×m (canonical, group, individual, marginal) or 2×2 (top-label, class-wise).
    Matrix target_gram;
    Matrix features;          // individual: n×d, row i the features x_i of observation i
    std::vector<int> groups;  // group: n group ids (any integers)
};

// The number of conditioning blocks: m for class-wise, else 1.
std::size_t mmd_components(const CategoricalData& data, const MmdSpec& spec);

// Throws calib::invalid_argument (naming `function`) unless the spec fits the data: features of n
// finite rows for individual, n groups for group, positive finite lengthscales (m of them when
// class_lengthscales is given), a metric the notion takes, a symmetric PSD Gram matrix of the
// notion's size.
void validate_mmd(const CategoricalData& data, const MmdSpec& spec, const char* function);

// The unbiased estimate (can be negative) and, for class-wise, the estimate of each class (the
// estimate is their compensated sum: the U-statistic of the summed h that the tests use, up to rounding).
struct MmdEstimate {
    double estimate = 0;
    std::vector<double> per_class;      // class-wise only
    std::vector<double> per_threshold;  // threshold notion: one per (y0, alpha) pair, in the spec's order
    std::size_t n = 0;
};
MmdEstimate mmd_unbiased(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel = {});
// The mean of the unbiased estimates on consecutive blocks of B observations (as skce_block).
BlockSkce mmd_block(const CategoricalData& data, const MmdSpec& spec, std::size_t block_size,
                    const ParallelOptions& parallel = {});
// h_ij of one pair (i == j allowed).
double mmd_core(const CategoricalData& data, const MmdSpec& spec, std::size_t i, std::size_t j);

// The block estimate (mmd_block's) and its analytic gradient with respect to the probabilities, n×m
// (docs/mmd.md, "Gradients"), for every notion of class predictions. Where Z moves with q (canonical,
// top-label, class-wise) its k_Z-derivative enters as well as the residual's, and k_Z must be
// differentiable: sqexp (with metric euclidean for canonical); group, individual and marginal take
// any k_Z. K_T δ or a Gram matrix. One serial O(n·B·m) pass: the same for any thread count. The
// gradient is ∂/∂q of the estimate as a function of the n·m entries (not projected onto the simplex);
// the chain rule through a softmax gives the gradient in the logits.
struct MmdGradient {
    double estimate = 0;
    Matrix probabilities;  // n×m; zero on the n mod B dropped rows
};
MmdGradient mmd_block_gradient(const CategoricalData& data, const MmdSpec& spec, std::size_t block_size);
// The same for the unbiased estimate over all pairs (mmd_unbiased's), by Gram products of the pairwise
// engine: O(n² m) time, O(n m) memory, bitwise the same for any thread count.
MmdGradient mmd_unbiased_gradient(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel = {});

// The median heuristic for k_Z: the exact median of the conditioning distances d(z_i, z_j) over the
// pairs i < j (or all n² ordered pairs, MedianVariant::full), as median_distance; one value per class
// for class-wise, else one value. Throws for group and marginal (no lengthscale) and for a median of 0.
std::vector<double> mmd_median_lengthscales(const CategoricalData& data, const MmdSpec& spec,
                                            const MedianOptions& options = {});

// The paper's code writes the RBF as exp(−d²/bandwidth): bandwidth = 2ℓ² in calib's exp(−d²/(2ℓ²)).
double rbf_lengthscale_from_bandwidth(double bandwidth);
double rbf_bandwidth_from_lengthscale(double lengthscale);

// The tests on the MMD's h (mmd_bootstrap_test, mmd_gamma_test, mmd_block_test) are in hypothesis.hpp.

// ---- Gaussian forecasts N(μ_i, σ_i²) with real targets (NormalData) [marx-2023 Table 1] ----
// T = Y, forecast N(μ_i, σ_i²), Ŷ integrated out for the target kernel (docs/mmd.md §6):
//   rbf     k_T = exp(−(y − y')²/(2ℓ²))        the expectations of the SKCE's normal family [W21 App. D]
//   sign    k_T = sign(y − c) sign(y' − c)    r_i = sign(y_i − c) − (2Φ((μ_i − c)/σ_i) − 1): decision
//                                             calibration for the threshold c (Marx §6.3); rank 1
//   moment  k_T = y y' + y² y'²              r_i = (y_i − μ_i, y_i² − μ_i² − σ_i²) (Marx §5, Ex. 1); rank 2
//   pit     k_T = exp(−(t − t')²/(2ℓ²)) on the PIT t_i = Φ((y_i − μ_i)/σ_i) against U ~ Unif[0, 1]:
//           h_Y = k(t_i, t_j) − g(t_i) − g(t_j) + E k(U, U'), g(t) = E_U k(t, U) (quantile calibration)
//   laplacian k_T = exp(−|y − y'|/ℓ): E over a Gaussian difference in closed form (erfcx), O(n²)
//   tanh    k_T = tanh((y − c)/τ) tanh((y' − c)/τ) (Marx §6.3's relaxation, scaled): r_i = tanh((y_i − c)/τ)
//           − E_{Q_i} tanh((Ŷ − c)/τ), the expectation by fixed quadrature (gaussian_tanh_mean); rank 1
//   min     k_T = min(A(y), A(y')), A(y) = clip(y − lo, 0, T), T = hi − lo (Marx §5, Ex. 2, shifted: PSD for every
//           real y, k = ∫_0^T 1{A(y) ≥ t} 1{A(y') ≥ t} dt): h_Y = ∫_0^T r_i(t) r_j(t) dt,
//           r_i(t) = 1{A(y_i) ≥ t} − S_i(lo + t), S_i the forecast's survival function (expected_min_*)
// Notions: distribution (Z = (μ, σ), whose Euclidean distance is W2: k_Z = exp(−W2²/(2ℓ²)) with sqexp,
// so rbf gives exactly the SKCE of the normal family), individual (Z = features), marginal (no Z);
// the presets of Table 1 (docs/mmd.md §6):
//   quantile   the PIT against Unif[0, 1], no Z (target pit only: marginal with pit, bitwise)
//   threshold  the PIT against Unif[0, 1] given Z_p = 1{Φ((y0_p − μ_i)/σ_i) ≤ α_p} with δ on Z_p, for
//              each pair p of `thresholds`; the estimate is the sum over the pairs (per_threshold each)
//   decision   Y given Z = δ*(Q_i) = +1 if μ_i > c else −1 (the Bayes act of the loss 1{a ≠ sign(y − c)}:
//              +1 iff Q_i(Y > c) > 1/2), δ on Z; target sign or tanh at the same c (threshold)
//   local      the PIT against Unif[0, 1] given Z = φ(X) = the features, k_Z on them (target pit only)
// Finite-rank targets (sign, tanh, moment) with no Z or a δ on Z (marginal, decision) take an O(n r)
// path: Σ_{i≠j} h_ij = Σ_groups [‖Σ_i r_i‖² − Σ_i ‖r_i‖²] (mmd_unbiased, mmd_gamma_test).
// (The enumerations GaussianTarget, MmdNotion and MmdMarginalisation: calib/mmd_kinds.hpp.)

// One (y0, α) pair of the threshold notion: Z = 1{Q_i(y0) ≤ α}, α in [0, 1].
struct MmdThreshold {
    double y0 = 0;
    double alpha = 0.5;
};
struct GaussianMmdSpec {
    MmdNotion notion = MmdNotion::distribution;
    PredictionKernel conditioning{PredictionKernelShape::sqexp, Metric::w2, 1.0};  // w2 | l1, euclidean (features)
    GaussianTarget target = GaussianTarget::rbf;
    double target_lengthscale = 1.0;  // rbf, pit, laplacian
    double threshold = 0.0;           // sign, tanh and decision: c
    double tau = 1.0;                 // tanh: τ > 0
    double min_lower = 0.0, min_upper = 1.0;  // min: the interval [lo, hi], lo < hi
    Matrix features;                  // individual, local
    std::vector<MmdThreshold> thresholds;  // threshold notion: at least one pair
    MmdMarginalisation marginalisation = MmdMarginalisation::analytic;
    std::size_t samples = 10;         // S in [1, max_mc_samples] of the Monte-Carlo modes (10 as the paper's code)
    std::uint64_t seed = default_seed;
};
// E exp(−|D|/ℓ) for D ~ N(m, s²), s ≥ 0 (closed form, stable for any m, s): the Laplacian kernel's
// expectation under a Gaussian difference.
double expected_laplacian_gaussian(double m, double s, double lengthscale);
// The min kernel's expectations with m = μ − lo, s = σ > 0 of a forecast: ∫_0^a Φ((m − t)/s) dt for
// a in [0, T] (closed form: s[Ψ(m/s) − Ψ((m − a)/s)], Ψ(x) = xΦ(x) + φ(x)), and for two forecasts
// ∫_0^T Φ((m − t)/s) Φ((m' − t)/s') dt (20-point Gauss–Legendre on the pieces of [0, T] cut at
// m + s·{0, ±4, ±8} and the same for m', s': each factor is flat outside its cuts, to Φ(−8) ≈ 6e−16).
double expected_min_gaussian(double m, double s, double a);
double expected_min_gaussian_pair(double m, double s, double m2, double s2, double range);
// E tanh(a + bZ), Z ~ N(0, 1), b ≥ 0: Gauss–Hermite with 64 nodes for b ≤ 0.6, else the trapezoidal
// rule (step 1/4 on [−20, 20], 161 nodes) on ∫ sech²(s) (Φ((a − s)/b) − 1/2) ds (docs/mmd.md §6;
// measured error ≤ 1e-14 against adaptive Gauss–Kronrod quadrature).
double gaussian_tanh_mean(double a, double b);
void validate_mmd(const NormalData& data, const GaussianMmdSpec& spec, const char* function);
// The number of conditioning blocks: the (y0, α) pairs of threshold, else 1.
std::size_t mmd_components(const NormalData& data, const GaussianMmdSpec& spec);
MmdEstimate mmd_unbiased(const NormalData& data, const GaussianMmdSpec& spec, const ParallelOptions& parallel = {});
BlockSkce mmd_block(const NormalData& data, const GaussianMmdSpec& spec, std::size_t block_size,
                    const ParallelOptions& parallel = {});
// The median heuristic of k_Z (one value): the exact median of W2 between the forecasts
// (distribution) or of the feature distances (individual); throws for marginal.
std::vector<double> mmd_median_lengthscales(const NormalData& data, const GaussianMmdSpec& spec,
                                            const MedianOptions& options = {});
// The block estimate (mmd_block's, B consecutive forecasts per block) and its analytic gradient with
// respect to μ_i and log σ_i (docs/mmd.md §9): targets rbf, sign, moment, pit; notions distribution,
// individual, local, marginal, quantile (not threshold and decision, whose Z is piecewise constant in
// the forecast). The features do not move; the distribution notion's Z = (μ, σ) does (its k_Z must be
// sqexp). Zero on the
// n mod B dropped rows. One serial O(n·B) pass: any thread count. Under Monte-Carlo marginalisation
// the reparameterisation gradient with the draws fixed (not for sign, whose sampled derivative is 0).
struct MmdNormalGradient {
    double estimate = 0;
    Vector mean, log_stddev;  // ∂/∂μ_i, ∂/∂log σ_i
};
MmdNormalGradient mmd_block_gradient(const NormalData& data, const GaussianMmdSpec& spec, std::size_t block_size);
// The same for the unbiased estimate over all pairs (mmd_unbiased's), by the pairwise engine: O(n²)
// time (× S or S² under Monte-Carlo marginalisation), O(n) memory, bitwise the same for any thread count.
MmdNormalGradient mmd_unbiased_gradient(const NormalData& data, const GaussianMmdSpec& spec,
                                        const ParallelOptions& parallel = {});
// E_U exp(−(t − U)²/(2ℓ²)) and E exp(−(U − U')²/(2ℓ²)) for U, U' ~ Unif[0, 1] independent (docs/mmd.md §6).
double expected_rbf_uniform(double t, double lengthscale);
double expected_rbf_uniform_pair(double lengthscale);


}  // namespace calib

// Conditional kernel calibration error (CKCE) for comparing the calibration of classifiers
// [ms-ckce: Moskvichev & Sejdinovic, "All models are miscalibrated, but some less so: comparing
// calibration with conditional mean operators"]. docs/ckce.md has
// the mathematics, the decisions on the paper's gaps, and a user guide.
//
// With predictions q_i ∈ Δ^{m−1}, labels y_i, residuals a_i = q_i − e_{y_i} (A = Q − E, n×m), a
// kernel k on the simplex with Gram K and a target (label) kernel with m×m Gram L (white: L = I),
//   CKCE = ‖Ĉ_{Y|Q} − Ĉ_{Z|Q}‖²_HS = Tr(R⁻¹ A L Aᵀ R⁻¹ K),   R = K + λ n I      [ms-ckce §3.1]
// (the dual trace form; λ n, not λ, is added to the Gram diagonal, and λ = n^{−1/4} by default).
// It is 0 for a calibrated model in the population, is biased (≥ 0) as an estimator, and its
// population value does not depend on the marginal law of the predictions — the reason to use it
// for ranking models. It is not a test statistic (the paper gives no null distribution).
//
// Four ways to compute it (CkceMethod):
//   exact    Cholesky of R, O(n³/3) time, O(n²) memory (one n×n matrix)
//   eigen    eigendecomposition of K, O(n³) (about 17× the Cholesky); then any λ for O(n m):
//            ckce_lambda_path evaluates a whole λ grid for the price of one factorisation
//   rff      random Fourier features (D frequencies, seeded) in the primal with the Woodbury /
//            push-through identity [ms-ckce App. B]: O(n F² + F³), F = m + 2D, memory O(n m + F²)
//   lowrank  pivoted incomplete Cholesky K ≈ G Gᵀ (rank r, trace tolerance) in the same primal
//            form [ms-ckce §3.1, Fine & Scheinberg 2002]: O(n r (m + r)), memory O(n r)
// rff and lowrank converge to exact as D or r grows. Every result is bitwise identical for any
// thread count; matrix products run in fixed-order strips (Eigen's own threading is disabled
// inside these calls).
#pragma once

#include <calib/data.hpp>
#include <calib/estimators.hpp>
#include <calib/kernels.hpp>
#include <calib/seed.hpp>

#include <calib/eigen.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace calib {

// ---- kernels -------------------------------------------------------------------------------------

// The simplex kernel of [ms-ckce §3.2]:  k(p, q) = pᵀq + exp(−‖p − q‖² / (2γ²)),  γ > 0.
// The linear part makes q ↦ vᵀq representable; the Gaussian part is universal. Either part can be
// switched off (not both); the lengthscale is ignored when the Gaussian part is off.
struct SimplexKernel {
    double lengthscale = 1.0;  // γ
    bool linear = true;
    bool gaussian = true;
};

// k(p, q) for two probability vectors of the same length. O(m). Throws on a bad kernel or lengths.
double simplex_kernel(const Eigen::Ref<const Eigen::RowVectorXd>& p,
                      const Eigen::Ref<const Eigen::RowVectorXd>& q, const SimplexKernel& kernel);
// The n×n Gram matrix k(p_i, p_j) of the rows of p, and the n×n' cross Gram k(p_i, q_j).
// O(n n' m) time, O(n n') memory; rows in parallel. Throw on a bad kernel or column counts.
Matrix simplex_gram(const Matrix& p, const SimplexKernel& kernel, const ParallelOptions& parallel = {});
Matrix simplex_cross_gram(const Matrix& p, const Matrix& q, const SimplexKernel& kernel,
                          const ParallelOptions& parallel = {});
// The discrete kernel 1{p_i = p_j} (exact equality of rows), as used in the toy example of
// [ms-ckce App. A]; feed it to ckce_gram. O(n² m); throws nothing.
Matrix discrete_gram(const Matrix& p);

// Median heuristic for γ [ms-ckce §5: "chosen via the median heuristic", variant unspecified]:
// γ = median{‖q_i − q_j‖₂ : i < j} (MedianVariant::pairs; docs/ckce.md). An even count takes the mean
// of the two middle values. The median is exact at every n, by the selection of median_distance
// (kernels.hpp): O(n² m) time per pass, O(n m) memory. With subsample = K > 0 and n > K it is taken on K
// observations drawn without replacement (seed, stream 0). Fallbacks (docs/ckce.md): a median of 0
// (more than half the pairs coincide) → the median over the non-zero distances; no non-zero
// distance (all predictions equal, or n < 2) → γ = 1, which is harmless because the Gaussian part is
// then the constant 1 for every γ. Throws for variant full, subsample = 1 or a non-finite probability.
enum class MedianFallback { none, nonzero_median, unit };
struct MedianLengthscale {
    double value = 1.0;
    MedianFallback fallback = MedianFallback::none;
};
MedianLengthscale simplex_median_lengthscale(const Matrix& probabilities, const MedianOptions& options = {});

// Group (conditional) calibration, an extension the paper describes only in words [ms-ckce §3.3]:
// P(Y | Q_X, A) = Q_X is measured by the product kernel k((q,a),(q',a')) = k(q,q') · k_A(a,a'),
// i.e. K ← K ∘ K_AA, with A = Q − E unchanged. k_A must contain the constants so that vᵀq stays
// representable:
//   kronecker  k_A = 1{a = a'}                          (finite groups, a any real codes)
//   gaussian   k_A = 1 + exp(−(a − a')² / (2 h²))        (a continuous attribute, h > 0)
enum class AttributeKernelType { kronecker, gaussian };
struct Attribute {
    Vector values;  // one per observation
    AttributeKernelType type = AttributeKernelType::kronecker;
    double lengthscale = 1.0;  // h, gaussian only
};

// The regularisation schedule λ_n = coefficient · n^(−power); the ridge added to K is λ_n · n.
// lambda(n) throws unless coefficient > 0, power is finite, n ≥ 1 and λ_n is finite and > 0.
// The paper uses λ_n = n^{−1/4} (coefficient 1, power 1/4), so that the ridge is n^{3/4}; it
// balances the two terms of the CMO rate, O(λ^{1/2} + λ^{−3/2} n^{−1/2}) [ms-ckce §2.3].
struct Regularization {
    double coefficient = 1.0;
    double power = 0.25;
    static Regularization fixed(double lambda) { return {lambda, 0.0}; }
    double lambda(std::size_t n) const;
};

// ---- the estimator -------------------------------------------------------------------------------

enum class CkceMethod { exact, eigen, rff, lowrank };

struct CkceOptions {
    SimplexKernel kernel;              // lengthscale given; see simplex_median_lengthscale
    TargetKernel target;               // white (Kronecker, L = I) by default, or gram (any m×m PSD L)
    Regularization regularization;     // λ = n^{−1/4} by default
    CkceMethod method = CkceMethod::exact;
    std::size_t features = 100;        // rff: D ≥ 1 frequencies (the paper's D = 100)
    std::uint64_t seed = default_seed; // rff: the frequencies w_j ~ N(0, γ⁻² I) from (seed, stream 0)
    double tolerance = 1e-6;           // lowrank: stop when tr(K − GGᵀ) ≤ tolerance · tr(K), in [0, 1)
    std::size_t max_rank = 1000;       // lowrank: r ≤ max_rank
    std::optional<Attribute> attribute;  // group calibration (rff: kronecker attributes only)
    ParallelOptions parallel;
};

struct CkceResult {
    double estimate = 0;
    double lambda = 0;          // λ_n
    double ridge = 0;           // λ_n · n
    CkceMethod method = CkceMethod::exact;
    std::size_t rank = 0;       // exact, eigen: n; rff: m + 2D features (per group); lowrank: r
    double residual_trace = 0;  // lowrank: tr(K − GGᵀ)/tr(K) reached; otherwise 0
};

// The CKCE estimate Tr(R⁻¹ A L Aᵀ R⁻¹ K), R = K + λ_n n I, by the chosen method.
// exact: R = LLᵀ (Cholesky), B = R⁻¹A, CKCE = Σ_ij (K B)_ij (B L)_ij (K B recomputed from the
// kernel by the pairwise engine). eigen: K = U diag(s) Uᵀ, CKCE = Σ_k s_k/(s_k + λn)² c_k with
// c_k = u_kᵀ A L Aᵀ u_k. rff, lowrank: with features F (K ≈ F Fᵀ), the push-through identity
// R⁻¹F = F (FᵀF + λn I)⁻¹ gives CKCE = Tr(P L Pᵀ), P = (FᵀF + λn I)⁻¹ FᵀA [ms-ckce App. B].
// Complexity as listed at the top of this file. Throws calib::invalid_argument for a bad kernel,
// label Gram, schedule, method option or attribute; calib::numerical_error if a factorisation
// fails (not expected: R ⪰ λn I).
CkceResult ckce(const CategoricalData& data, const CkceOptions& options = {});

// CKCE for every λ of `lambdas` (each > 0) from one eigendecomposition of K (method ignored).
// O(n³ + n m · #λ). Throws as ckce.
std::vector<double> ckce_lambda_path(const CategoricalData& data, const CkceOptions& options,
                                     const std::vector<double>& lambdas);

// CKCE with any n×n prediction Gram matrix K (symmetric; e.g. discrete_gram), exact by Cholesky.
// O(n³/3). Throws on sizes, non-finite or asymmetric entries, λ ≤ 0, a bad label Gram;
// calib::numerical_error if K + λn I is not positive definite.
double ckce_gram(const Matrix& gram, const CategoricalData& data, const TargetKernel& target, double lambda);

// The literal trace formula for any label space [ms-ckce §3.1]:
//   CKCE = Tr(R⁻¹ [M*M + L_YY − M*Ψ − Ψ*M] R⁻¹ K),  R = K + λ n I,
// with the n×n matrices K_ij = k(q_i, q_j), (M*M)_ij = E_{Z∼q_i, Z'∼q_j} ℓ(Z, Z'),
// (M*Ψ)_ij = E_{Z∼q_i} ℓ(Z, y_j) and (L_YY)_ij = ℓ(y_i, y_j). O(n³). Throws on sizes, non-finite
// entries or λ ≤ 0; calib::numerical_error if R is not positive definite.
double ckce_from_grams(const Matrix& k, const Matrix& mm, const Matrix& m_psi, const Matrix& l_yy,
                       double lambda);

// CKCE with K replaced by G Gᵀ for any n×r factor G (explicit features, a low-rank
// factorisation), in the primal: Tr(P L Pᵀ), P = (GᵀG + λ n I_r)⁻¹ GᵀA. Equal to ckce_gram(GGᵀ)
// (push-through identity). O(n r² + r³). Throws on sizes, non-finite entries, λ ≤ 0.
double ckce_low_rank(const Matrix& factor, const CategoricalData& data, const TargetKernel& target,
                     double lambda, const ParallelOptions& parallel = {});

// The random Fourier feature map of the simplex kernel [ms-ckce App. B; Rahimi & Recht 2007]:
//   φ(p) = [p (linear part), cos(Wp)/√D, sin(Wp)/√D (Gaussian part)],  rows of W ~ N(0, γ⁻² I_m),
// so that E φ(p)ᵀφ(q) = k(p, q). W is drawn from (seed, stream 0). Returns n×(m + 2D) (or without
// the linear or Gaussian columns). O(n m D). Throws on a bad kernel or D = 0.
Matrix simplex_random_features(const Matrix& p, const SimplexKernel& kernel, std::size_t features,
                               std::uint64_t seed);

// Pivoted incomplete Cholesky of the simplex Gram (times K_AA when an attribute is given):
// greedy pivots on the largest remaining diagonal (ties: lowest index), stopping when the residual
// trace tr(K − GGᵀ) ≤ tolerance · tr(K) or r = max_rank. O(n r (m + r)) time, O(n r) memory;
// K is never formed (LowRankFactor: kernels.hpp). Throws on a bad kernel, tolerance outside [0, 1),
// max_rank = 0.
LowRankFactor simplex_pivoted_cholesky(const Matrix& p, const SimplexKernel& kernel, double tolerance,
                                       std::size_t max_rank, const Attribute* attribute = nullptr,
                                       const ParallelOptions& parallel = {});

// ---- the paper's baselines -----------------------------------------------------------------------

// JKCE [ms-ckce eq. 7] = the SKCE of Widmann et al. with κ = ℓ ⊗ k, the same simplex kernel k and
// label kernel ℓ as the CKCE (the paper's "fair comparison"):
//   h_ij = k(q_i, q_j) · (e_{y_i} − q_i)ᵀ L (e_{y_j} − q_j),
//   unbiased = (n choose 2)⁻¹ Σ_{i<j} h_ij (the paper's estimator; can be < 0), biased = n⁻² Σ_ij h_ij.
// O(n² m) on the pairwise engine. Throw on a bad kernel or label Gram; unbiased needs n ≥ 2.
double jkce_unbiased(const CategoricalData& data, const SimplexKernel& kernel, const TargetKernel& target = {},
                     const ParallelOptions& parallel = {});
double jkce_biased(const CategoricalData& data, const SimplexKernel& kernel, const TargetKernel& target = {},
                   const ParallelOptions& parallel = {});

// The ECE configuration of the paper's experiments [ms-ckce §5]: uniform binning with 3 bins per
// coordinate, L1 distance between the bin's mean prediction and label frequencies (calib::ece).
EceOptions ckce_paper_ece_options();

// Names ("exact", "eigen", "rff", "lowrank"; "none", "nonzero-median", "unit") and parsers (which throw calib::invalid_argument).
std::string to_string(CkceMethod method);
CkceMethod parse_ckce_method(const std::string& name);
std::string to_string(MedianFallback fallback);

}  // namespace calib

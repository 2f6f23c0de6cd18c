// Kernels on predictions and targets, the SKCE core h, lengthscale selection and uniform bounds.
//
// calib uses tensor-product kernels k((p,y),(p',y')) = k_P(p,p') · k_Y(y,y') [widmann-2021 §3.1]:
//   k_P(p,p') = exp(−d(p,p')/ℓ)          (shape exp,   KernelFunctions' ExponentialKernel)
//   k_P(p,p') = exp(−d(p,p')²/(2ℓ²))     (shape sqexp, KernelFunctions' SqExponentialKernel)
// with d a metric on predictions, and a target kernel k_Y whose expectations under each prediction
// family have closed forms. The SKCE core is [widmann-2021 §3, eq. h]
//   h((p,y),(p',y')) = k_P(p,p') · [k_Y(y,y') − E_{Z∼p} k_Y(Z,y') − E_{Z'∼p'} k_Y(y,Z')
//                                    + E_{Z∼p,Z'∼p'} k_Y(Z,Z')].
//
// Supported combinations (anything else raises calib::invalid_argument):
//   family        metrics                 target kernels
//   categorical   tv (= ½ L1), l1, euclidean   white (δ), gram (any m×m PSD class Gram matrix)
//   normal        w2                      sqexp
//   laplace       w2                      exp
//   mvnormal      w2 (Bures for full Σ)   sqexp
//   mixture-normal w2 (= MW2, see below)  sqexp
//
// Mixtures: exp(−MW2^ν/ℓ) is NOT guaranteed positive definite — the Hilbertian claim of
// widmann-2021 Thm D.1 fails (a counterexample for ν = 2, i.e. shape sqexp; ν = 1, shape exp, is
// unproven). calib accepts the kernel; gram_min_eigenvalue checks it on the data (docs/math.md,
// "Mixtures").
#pragma once

#include <calib/data.hpp>
#include <calib/parallel.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace calib {

// Metrics on predictions.
//   tv        ½ Σ_k |p_k − p'_k|                              (categorical)
//   l1        Σ_k |p_k − p'_k|                                (categorical)
//   euclidean ‖p − p'‖₂                                      (categorical)
//   w2        2-Wasserstein distance between the predicted distributions:
//             normal   √((μ−μ')² + (σ−σ')²)
//             laplace  √((μ−μ')² + 2(β−β')²)                  [Gelbrich 1990]
//             mvnormal √(‖μ−μ'‖² + tr(Σ + Σ' − 2(Σ'^½ Σ Σ'^½)^½))  (Bures; diagonal: Σ_k (σ_k−σ'_k)²)
//             mixture-normal: MW2, the mixture Wasserstein distance [widmann-2021 eq. D.2;
//                      Delon & Desolneux 2020], an exact K×K' transport problem per pair, O(K³):
//                      MW2² = min_{w ∈ Π(π,π')} Σ_{k,l} w_kl ((μ_k−μ'_l)² + (σ_k−σ'_l)²)
enum class Metric { tv, l1, euclidean, w2 };

// k_P = exp(−d/ℓ) (exp) or exp(−d²/(2ℓ²)) (sqexp).
enum class PredictionKernelShape { exp, sqexp };

struct PredictionKernel {
    PredictionKernelShape shape = PredictionKernelShape::exp;
    Metric metric = Metric::tv;
    double lengthscale = 1.0;  // ℓ > 0
};

// Target kernels.
//   white  δ(y, y')                           (categorical)
//   gram   K[y][y'] for a user m×m Gram matrix (categorical; symmetric PSD)
//   sqexp  exp(−‖y − y'‖²/(2ℓ²))              (normal, mvnormal)
//   exp    exp(−|y − y'|/ℓ)                   (laplace)
enum class TargetKernelType { white, gram, sqexp, exp };

struct TargetKernel {
    TargetKernelType type = TargetKernelType::white;
    double lengthscale = 1.0;  // ℓ > 0, for sqexp and exp
    Matrix gram;               // for gram
};

// The tensor-product kernel k_P ⊗ k_Y.
struct Kernel {
    PredictionKernel prediction;
    TargetKernel target;
};

// The default kernel of a family: exp-TV ⊗ white for categorical data, exp-W2 ⊗ sqexp for normal,
// mvnormal and mixture-normal (exp-MW2 ⊗ sqexp), exp-W2 ⊗ exp for laplace; unit lengthscales (the
// ICLR 2021 experiments' kernel).
template <class Data>
Kernel default_kernel();
template <class Data>
Kernel default_kernel(const Data&) {
    return default_kernel<Data>();
}

// Distance d(p_i, p_j) between the predictions i and j of a data set. Throws when the metric does
// not apply to the family or an index is out of range.
template <class Data>
double prediction_distance(const Data& data, Metric metric, std::size_t i, std::size_t j);

// The SKCE core h(W_i, W_j) for observations i and j of a data set (i == j allowed).
template <class Data>
double skce_core(const Data& data, const Kernel& kernel, std::size_t i, std::size_t j);

// Throws calib::invalid_argument unless the kernel applies to the family of Data and its
// parameters are valid (positive finite lengthscales, a symmetric PSD m×m Gram matrix).
template <class Data>
void validate_kernel(const Data& data, const Kernel& kernel, const char* function);

// Median heuristic for the prediction lengthscale [widmann-2019 §experiments]:
//   pairs  median of {d(p_i,p_j) : i < j}                       (default)
//   full   median over all n² ordered pairs, the n zero diagonal entries included (the convention
//          of the 2019 experiments, needed to reproduce published numbers)
// An even count takes the mean of the two middle values. The median is exact for every n, without
// storing the distances: a radix selection by successive passes of the pairwise engine (usually 2–3
// passes of O(n²·m) time each; one pass when n(n−1)/2 ≤ 2²²), O(n·m) memory, the same value for any thread
// count. With subsample = K > 0 and n > K, it is instead taken on K observations drawn without
// replacement with `seed`. A median of 0 or an infinite median throws.
enum class MedianVariant { pairs, full };
struct MedianOptions {
    MedianVariant variant = MedianVariant::pairs;
    std::size_t subsample = 0;  // 0: all n observations (exact)
    std::uint64_t seed = 1234;  // of the subsample (calib's default seed)
    ParallelOptions parallel;
};
template <class Data>
double median_distance(const Data& data, Metric metric, const MedianOptions& options = {});

// Numerical PSD check of a prediction kernel: the smallest eigenvalue of the Gram matrix
// G_ij = k_P(p_i, p_j) on the data, or on a subset of max_points observations drawn without
// replacement with the given seed when n > max_points (max_points = 0: all n). A positive definite
// kernel gives λ_min ≥ 0 up to rounding (|λ| ≲ 1e-13·m); a clearly negative value proves that the
// kernel is not positive definite on these predictions, and then h need not be PSD and the biased
// SKCE may be negative. Meant for kernels without a PD guarantee: MW2 on mixtures, Bures W2 on
// non-commuting covariances, sqexp with tv or l1. O(m²) kernel evaluations and O(m³) time,
// m = min(n, max_points). Throws when the metric does not apply to the family or ℓ ≤ 0.
struct GramCheckOptions {
    std::size_t max_points = 1000;
    std::uint64_t seed = 1;
    ParallelOptions parallel;  // for the Gram matrix
};
template <class Data>
double gram_min_eigenvalue(const Data& data, const PredictionKernel& kernel, const GramCheckOptions& options = {});

// The result of a block estimator over a kernel's h (skce_block, estimators.hpp; mmd_block, mmd.hpp):
// the estimate, the block size B, and per block of B consecutive observations its estimate and the
// mean of h² over its pairs.
struct BlockSkce {
    double estimate = 0;
    std::size_t block_size = 0;
    std::vector<double> block_estimates;       // η_1 … η_{⌊n/B⌋}
    std::vector<double> block_mean_squares;    // (B choose 2)^{-1} Σ_{i<j in block} h_ij², per block
};

// A low-rank factor G of a Gram matrix, K ≈ G Gᵀ (the pivoted incomplete Cholesky of ckce.hpp's
// simplex_pivoted_cholesky and of the CKCE's lowrank method).
struct LowRankFactor {
    Matrix factor;              // n×r
    double residual_trace = 0;  // tr(K − GGᵀ)
    double trace = 0;           // tr(K)
};

// sup |h| over all inputs, for the distribution-free tests. Prediction kernels are bounded by 1.
// white: 2; gram: max_{y,z} (K_yy + K_zz − 2 K_yz), attained at one-hot predictions; sqexp and exp
// target kernels: 2 (since 0 ≤ k_Y ≤ 1).
double skce_core_bound(const Kernel& kernel);

// Closed-form expectations of target kernels (γ-parametrised; sqexp with lengthscale ℓ has
// γ = 1/(2ℓ²), exp has γ = 1/ℓ) [widmann-2021 App. D.1, D.2]:
//   E_{Z∼N(μ,σ²)} exp(−γ(Z−y)²)            = (1+2γσ²)^{-½} exp(−γ(μ−y)²/(1+2γσ²))
//   E_{Z∼N(μ,σ²),Z'∼N(μ',σ'²)} exp(−γ(Z−Z')²) = the above with σ² → σ²+σ'², y → μ'
//   E_{Z∼N(μ,Σ)} exp(−γ‖Z−y‖²)             = |I+2γΣ|^{-½} exp(−γ(μ−y)ᵀ(I+2γΣ)^{-1}(μ−y))
//   E_{Z∼L(μ,β)} exp(−γ|Z−y|), and the pair form: all five cases of widmann App. D.2, evaluated
//   stably near the removable singularities βγ = 1 and β = β'.
double expected_sqexp_normal(double mean, double stddev, double y, double gamma);
double expected_sqexp_normal_pair(double mean1, double stddev1, double mean2, double stddev2,
                                  double gamma);
double expected_sqexp_mvnormal(const Vector& mean, const Matrix& covariance, const Vector& y,
                               double gamma);
double expected_sqexp_mvnormal_pair(const Vector& mean1, const Matrix& covariance1,
                                    const Vector& mean2, const Matrix& covariance2, double gamma);
double expected_exp_laplace(double mean, double scale, double y, double gamma);
double expected_exp_laplace_pair(double mean1, double scale1, double mean2, double scale2,
                                 double gamma);

// Names used by the CLI and in JSON output ("tv", "sqexp", ...), and their parsers (which throw
// calib::invalid_argument on an unknown name).
std::string to_string(Metric metric);
std::string to_string(PredictionKernelShape shape);
std::string to_string(TargetKernelType type);
std::string to_string(MedianVariant variant);
Metric parse_metric(const std::string& name);
PredictionKernelShape parse_prediction_kernel_shape(const std::string& name);
TargetKernelType parse_target_kernel_type(const std::string& name);

}  // namespace calib

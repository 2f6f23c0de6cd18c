// Calibration tests of H0: "the model is calibrated" against its negation; every test is
// right-tailed and returns one TestResult.
//
// Which test to use:
//   block_test (B = 2 or √n)  O(nB), asymptotically exact as n → ∞, the fastest; less power at small n.
//   bootstrap_test            O(n²·R/…), the reference's quadratic test; the most powerful; slowest.
//   gamma_test                O(n²) one pass, no resampling; a moment-matched heuristic null.
//   spectral_test             O(n³) eigenvalues of the centred Gram matrix; n up to a limit.
//   dfree_*_test              distribution-free bounds: valid for every n, very conservative.
//   consistency_test          the 2019 consistency resampling of any estimator (anti-conservative
//                             for ECE, kept for reproduction).
//   cme_test                  O(nJ) Hotelling test at J test locations; needs n ≫ J.
// Defaults reproduce CalibrationTests.jl; deviations (its bugs) are listed
// in docs/tests.md.
#pragma once

#include <calib/data.hpp>
#include <calib/estimators.hpp>
#include <calib/kernels.hpp>
#include <calib/record.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace calib {

// How a resampling p-value counts: #{T* ≥ T}/R (the reference's rule; can be 0) or
// (1 + #{T* ≥ T})/(1 + R) (never 0; exact level under exchangeability).
enum class PValueRule { count, plus_one };
enum class VarianceDivisor { s_minus_1, s };
enum class CmeReference { chi2, f };

// The numbers of each test beyond the common ones (TestResult): typed, one struct per method; record()
// lists them by name for output.
struct BlockTestDetails {
    std::size_t block_size = 0, num_blocks = 0;
    double std_error = 0;
    bool null_variance = false;
    double variance_divisor = 0;  // s − 1 or s (0 with null_variance)
    double confidence_level = 0.95;
    double ci_lower = 0;          // the one-sided interval [ci_lower, ∞) of the SKCE at confidence_level
    bool degenerate = false;      // zero standard error
    Record record() const;
};
struct BootstrapDetails {
    std::size_t replicates = 0;
    std::uint64_t seed = 0;
    PValueRule pvalue_rule = PValueRule::count;
    bool cached_gram_matrix = false;  // the n×n triangle of h was held in memory
    double memory_budget = 0;         // bytes
    double working_memory = 0;        // bytes used beyond the data
    Record record() const;
};
struct GammaDetails {
    double shape = 0, scale = 0;  // of the Gamma null (0 when degenerate)
    double mean = 0, variance = 0;
    bool degenerate = false;      // h vanishes off the diagonal: p = 1
    Record record() const;
};
struct SpectralDetails {
    std::size_t replicates = 0;
    std::uint64_t seed = 0;
    PValueRule pvalue_rule = PValueRule::count;
    bool centred = true;
    double largest_eigenvalue = 0;
    Record record() const;
};
struct DistributionFreeDetails {
    std::size_t block_size = 0;    // dfree-block only (0 otherwise)
    double bound = 0;              // K = sup |h|
    double hoeffding_count = 0;    // the number of independent terms (Hoeffding bounds; 0 for McDiarmid)
    Record record() const;
};
struct ConsistencyDetails {
    std::size_t replicates = 0;
    std::uint64_t seed = 0;
    PValueRule pvalue_rule = PValueRule::count;
    Record record() const;
};
struct CmeDetails {
    std::size_t num_locations = 0;
    CmeReference reference = CmeReference::f;
    double df1 = 0, df2 = 0;        // χ²: df1 = J; F: (J, n − J)
    double f_statistic = 0;         // F only: (n − J)/(J(n − 1))·Q
    double ridge = 0;
    bool outside_validity_range = false;
    bool locations_drawn = false;   // the locations were drawn from the data (with locations_seed)
    std::uint64_t locations_seed = 0;
    Record record() const;
};
// The tests of binary predictions (below): a two-sided z-test's signed z, its expected value and standard
// error under calibration; degenerate when that standard error is 0 (every prediction is 0, 1/2 or 1 for
// Spiegelhalter's z, 0 or 1 for calibration-in-the-large).
struct BinaryZDetails {
    double z = 0;
    double expected = 0;   // Spiegelhalter's: the Brier score's expectation; calibration-in-the-large's: mean p
    double std_error = 0;  // of the estimate under calibration
    bool degenerate = false;
    Record record() const;
};
enum class HosmerLemeshowGrouping { quantiles, quantile_breaks, fixed };
enum class HosmerLemeshowDf { validation, development };
struct HosmerLemeshowDetails {
    HosmerLemeshowGrouping grouping = HosmerLemeshowGrouping::quantiles;
    std::size_t groups = 0;          // non-empty groups G
    double df = 0;                   // G (validation) or G − 2 (development)
    HosmerLemeshowDf df_rule = HosmerLemeshowDf::validation;
    double smallest_expected = 0;    // min over the groups of the expected events and non-events
    Record record() const;
};
// Cox's logistic recalibration logit P(Y = 1) = a + b·logit p fitted by maximum likelihood, with Wald
// (estimate ± z·se) and likelihood-ratio (profile, `_lr_`) intervals at `level`; and the intercept with b
// fixed at 1 (calibration-in-the-large's). The LR intervals are finite whenever the fit is (the profile
// deviance then grows without bound); an end not reached within 2⁴⁰ Wald half-widths is reported
// infinite. The joint statistic is citl_statistic + slope_statistic: the tests of
// a = 0 with b = 1, and of b = 1 with a free, each against χ²₁.
struct CoxDetails {
    double intercept = 0, intercept_se = 0, intercept_lower = 0, intercept_upper = 0;
    double intercept_lr_lower = 0, intercept_lr_upper = 0;
    double slope = 0, slope_se = 0, slope_lower = 0, slope_upper = 0;
    double slope_lr_lower = 0, slope_lr_upper = 0;
    double citl_intercept = 0, citl_se = 0, citl_lower = 0, citl_upper = 0;
    double citl_lr_lower = 0, citl_lr_upper = 0;
    double citl_statistic = 0, citl_p_value = 1, slope_statistic = 0, slope_p_value = 1;
    double level = 0.95;
    std::size_t iterations = 0;  // Newton steps of the two-parameter fit
    double clip = 0;             // CoxOptions::clip; with clip > 0 the record has clip and clipped
    std::size_t clipped = 0;     // predictions moved into [clip, 1 − clip]
    Record record() const;
};
// The cumulative-difference tests: the standard deviation σ = √(Σ p(1 − p))/n of the cumulative
// difference's end under calibration (the statistic is the estimate over σ); the prediction at which
// |S_k| is largest (where the model errs most, cumulatively); degenerate when σ = 0 (every p is 0 or 1).
struct CumulativeDetails {
    double std_error = 0;
    double largest_at = 0;
    bool degenerate = false;
    Record record() const;
};
// A test of binary predictions run on each class against the rest (class_wise_test): each class's
// p-value, statistic and estimate, and the class of the smallest p-value (the first on ties).
struct ClassWiseDetails {
    std::vector<double> p_values, statistics, estimates;
    std::size_t smallest = 0;
    Record record() const;
};
// T-Cal (below): each bin count m with its debiased plug-in estimate DPE_m and Monte-Carlo p-value p_m; the
// bin count of the smallest p_m (the smallest m on ties); the null's draws.
enum class TCalNull { conditional, consistency };
struct TCalDetails {
    std::vector<std::uint64_t> bin_counts;
    std::vector<double> statistics, p_values;
    std::uint64_t selected_bins = 0;
    std::size_t replicates = 0;
    std::uint64_t seed = 0;
    TCalNull null = TCalNull::conditional;
    Record record() const;
};
using TestDetails = std::variant<BlockTestDetails, BootstrapDetails, GammaDetails, SpectralDetails,
                                 DistributionFreeDetails, ConsistencyDetails, CmeDetails, BinaryZDetails,
                                 HosmerLemeshowDetails, CoxDetails, CumulativeDetails, ClassWiseDetails, TCalDetails>;

struct TestResult {
    std::string method;              // "block", "bootstrap", "gamma", "spectral", "dfree-biased", …
    std::string null_approximation;  // "normal", "bootstrap", "gamma", "spectral", "mcdiarmid", …
    std::string estimator;           // the estimator the test is built on: "skce-block", "ece", …
    double estimate = 0;             // its value
    double statistic = 0;            // the test statistic compared with the null distribution
    double p_value = 1;
    std::size_t n = 0;               // observations used by the test
    TestDetails details;             // the method's own numbers
    Record estimator_details;        // what the estimator chose on the data (the MMD: its notion and kernel); else empty

    // The details of the method; throws calib::invalid_argument for another method's type.
    template <class Details>
    const Details& details_as() const;
    // method, null, estimator, estimate, statistic, p_value, n, then the details' and estimator_details' fields.
    Record record() const;
    std::string to_json() const;     // record() as one JSON object
};

// The most replicates a resampling test (or compare_models) accepts: the Monte-Carlo error of a
// p-value at R = 10⁸ is below 5·10⁻⁵, and R-sized buffers stay bounded. Larger R is refused, as is
// a request whose replicate buffers would not fit the machine's memory.
inline constexpr std::size_t max_replicates = 100'000'000;

// ---- block z-test [widmann-2021 Remark B.1, B.3] -------------------------------------------------
// z = SKCE_B / se with se from the sample variance of the ⌊n/B⌋ block estimates (divisor s − 1, or
// s to reproduce the 2019 linear test A_l), p = 1 − Φ(z). With `null_variance`, Remark B.1(ii):
// z = √(s·B(B−1)/2)·SKCE_B / σ̂ with σ̂² the mean of h² over the within-block pairs. Needs s ≥ 2
// blocks. A zero standard error is reported (detail "degenerate" = 1) and gives p = 0 when the
// estimate is > 0, else 1. Details: block_size, num_blocks, std_error, z, ci_lower (the one-sided
// confidence interval [max(0, est − z_level·se), ∞) at `confidence_level`).
struct BlockTestOptions {
    BlockSize block_size = 2;  // B, or BlockSize::sqrt()
    VarianceDivisor divisor = VarianceDivisor::s_minus_1;
    bool null_variance = false;
    double confidence_level = 0.95;
    ParallelOptions parallel;
};
// Throws calib::invalid_argument unless 2 ≤ B ≤ n/2 (two blocks at least) and the level is in (0, 1).
void validate(const BlockTestOptions& options, std::size_t n);
template <class Data>
TestResult block_test(const Data& data, const Kernel& kernel, const BlockTestOptions& options = {});

// ---- quadratic test, B = n [widmann-2021 Remark B.2] -------------------------------------------
// Bootstrap (Arcones & Giné 1992, in the counts form of CalibrationTests.jl): statistic
// t = n/(n−1)·SKCE_uq − SKCE_b; replicate T' = n⁻² Σ_a C_a Σ_b (n/(n−1)(C_b − δ_ab) − 2) H_ab for
// multinomial counts C of a resample with replacement. The replicates are evaluated 256 at a time
// from products of the upper triangle of H with their counts (docs/tests.md).
// Memory: `memory_budget` bounds the whole working memory beyond the data — the counts and products
// of one pass, 16·n·257 bytes, plus 32 bytes per replicate; the n×n triangle (8n² bytes) is cached
// only when it fits too, else its tiles are recomputed on every pass (slower, the same result). A
// budget below the working memory, or above the machine's memory, is refused before any work; none
// given: half of the memory available at the call. Counts are drawn (seeded) per replicate, so the
// p-value depends neither on the thread count nor on the budget.
struct BootstrapOptions {
    std::size_t replicates = 1000;
    std::uint64_t seed = default_seed;
    PValueRule rule = PValueRule::count;
    std::optional<std::size_t> memory_budget;  // bytes; empty: half of the available memory
    ParallelOptions parallel;
};
// Throws calib::invalid_argument unless n ≥ 2, 1 ≤ R ≤ max_replicates and the working memory fits
// the budget (the machine's memory): what bootstrap_test checks before any work.
void validate(const BootstrapOptions& options, std::size_t n);
template <class Data>
TestResult bootstrap_test(const Data& data, const Kernel& kernel, const BootstrapOptions& options = {});

// Gamma approximation of T = n·SKCE_b (Gretton et al. 2009's MMD heuristic, applied to the SKCE):
// mean = mean of h_ii, variance = 2·n/(n−1)·mean_{i≠j} h_ij², shape = mean²/variance,
// scale = variance/mean, p = P(Gamma(shape, scale) ≥ T). One pass, O(n·m) memory.
template <class Data>
TestResult gamma_test(const Data& data, const Kernel& kernel, const ParallelOptions& parallel = {});

// Gram-spectrum approximation [widmann §7.2]: eigenvalues λ of the centred H/n, p from R draws of
// Σ λ_i (Z_i − 1), Z_i ∼ χ²₁, compared with n·SKCE_uq. Needs n ≤ max_n (O(n²) memory, O(n³) time).
struct SpectralOptions {
    std::size_t replicates = 1000;
    std::uint64_t seed = default_seed;
    PValueRule rule = PValueRule::count;
    bool centred = true;
    std::size_t max_n = 4000;
    ParallelOptions parallel;
};
// Throws calib::invalid_argument unless 2 ≤ n ≤ max_n, 1 ≤ R ≤ max_replicates and the n² matrices fit.
void validate(const SpectralOptions& options, std::size_t n);
template <class Data>
TestResult spectral_test(const Data& data, const Kernel& kernel, const SpectralOptions& options = {});

// ---- distribution-free tests [widmann-2019, D_b, D_uq, D_ul] -------------------------------------
// With K = sup|h| (skce_core_bound, or `bound` when > 0):
//   biased (McDiarmid):      p = exp(−½ max(0, √(n·SKCE_b/K) − 1)²)
//   unbiased / block B (Hoeffding): p = exp(−N·est²/(2K²)) for est > 0 and 1 otherwise,
//                            N = ⌊n/B⌋·⌊B/2⌋ (⌊n/2⌋ for the unbiased estimator, B = n).
// Valid at every n (p is an upper bound); very conservative.
struct DistributionFreeOptions {
    double bound = 0;  // 0: the kernel's bound
    ParallelOptions parallel;
};
template <class Data>
TestResult dfree_biased_test(const Data& data, const Kernel& kernel, const DistributionFreeOptions& options = {});
template <class Data>
TestResult dfree_unbiased_test(const Data& data, const Kernel& kernel, const DistributionFreeOptions& options = {});
template <class Data>
TestResult dfree_block_test(const Data& data, const Kernel& kernel, std::size_t block_size,
                            const DistributionFreeOptions& options = {});

// ---- consistency resampling [widmann-2019 test C; Bröcker & Smith 2007] ------------------------
// R times: resample the predictions with replacement, draw each label from its prediction, and
// recompute the estimator; p = #{E* ≥ E}/R (or the plus-one rule). Replicates run in parallel
// with one random stream each; the estimator is called serially inside them.
struct ConsistencyOptions {
    std::size_t replicates = 1000;
    std::uint64_t seed = default_seed;
    PValueRule rule = PValueRule::count;
    ParallelOptions parallel;
};
using CategoricalEstimator = std::function<double(const CategoricalData&)>;
// Throws calib::invalid_argument unless 1 ≤ R ≤ max_replicates.
void validate(const ConsistencyOptions& options, std::size_t n);
TestResult consistency_test(const CategoricalData& data, const CategoricalEstimator& estimator,
                            const std::string& estimator_name, const ConsistencyOptions& options = {});

// ---- CME test [widmann-2021 App. C; Chwialkowski et al. 2015] -----------------------------------
// Deviations Z_i ∈ R^J at J test locations (ucme_deviations), Hotelling Q = n·z̄ᵀ S⁻¹ z̄ with S the
// (n−1)-covariance (+ ridge·I), p from the exact-F form (n−J)/(J(n−1))·Q ∼ F(J, n−J) (the default:
// never more liberal than χ², exact for Gaussian deviations) or from χ²_J (the paper's and the
// reference's). The estimate is UCME² = ‖z̄‖²/J.
// Validity range (calib's study, repro-validity, docs/tests.md): both nulls are liberal unless J is
// small against n — for α = 5 % the F null rejected calibrated models at 6–7 % with J² ≈ 0.1·n,
// 8 % with J² ≈ 0.2·n, 16–17 % with J² ≈ 2.6·n and 43–46 % with J² ≈ 11·n (10-class and normal
// predictions); on predictions of two classes (one number each) already 6–7 % with J² ≈ 0.004–0.01·n. A
// test outside the range is refused (invalid_argument) unless `allow_outside_validity` (to reproduce
// the paper's runs), and then says so in the detail "outside_validity_range". n ≤ J, or a singular S
// without ridge, raises calib::numerical_error.
struct CmeOptions {
    CmeReference reference = CmeReference::f;
    double ridge = 0;
    ParallelOptions parallel;
    bool allow_outside_validity = false;
};
// The largest number of test locations J within the validity range for n observations used by the
// test: J² ≤ 0.07·n for F, J² ≤ 0.05·n for χ²; for predictions of two classes (binary, or categorical
// with m = 2) J² ≤ 0.002·n with either (0 when not even J = 1 is).
std::size_t cme_max_locations(std::size_t n, CmeReference reference, bool two_classes = false);
// Throws calib::invalid_argument unless the ridge is finite and ≥ 0 and J locations on the n
// observations tested lie within the validity range (or allow_outside_validity); n ≤ J raises
// calib::numerical_error (a singular covariance). cme_test passes two_classes for predictions of two
// classes; a check before the data are read (two_classes false) applies the wider range.
void validate(const CmeOptions& options, std::size_t n, std::size_t num_locations, bool two_classes = false);
template <class Data>
TestResult cme_test(const Data& data, const Data& locations, const Kernel& kernel, const CmeOptions& options = {});
// J test locations drawn (seeded, without replacement) from the data and removed from the sample
// used for the test, so that they are independent of it; the test then uses n − J observations.
template <class Data>
TestResult cme_test(const Data& data, std::size_t num_locations, std::uint64_t seed, const Kernel& kernel,
                    const CmeOptions& options = {});

// ---- tests of binary predictions [docs/math.md §8] ---------------------------------------------
// Predictions p_i = P(Y_i = 1) (the binary family, or class predictions with two classes: p_i is the
// probability of class 1) and outcomes y_i ∈ {0, 1}; each null is conditional on the predictions
// (Y_i ~ Bernoulli(p_i) independently), so the tests suit held-out (validation) data.
//
// Spiegelhalter's z [Spiegelhalter 1986]: the Brier score against its expectation under calibration,
// z = Σ (y − p)(1 − 2p) / √(Σ (1 − 2p)² p(1 − p)). Two-sided: the statistic is |z|, p = 2(1 − Φ(|z|));
// the estimate is the Brier score B = (1/n) Σ ‖p − e_y‖² of the two-class vectors (that of
// brier_decomposition: twice the clinical mean (y − p)²); details z, expected (of B), std_error (of B).
TestResult spiegelhalter_test(const CategoricalData& data);
// The numerator is also the unweighted sum of squares minus its expectation, Σ (y − p)² − Σ p(1 − p)
// [Copas 1989]. For development data — p from a logistic model fitted to these observations with the
// covariates X (n × k; an intercept is added) — its variance is the weighted residual sum of squares of
// the regression of 1 − 2p on [1, X] with weights p(1 − p) [Hosmer, Hosmer, le Cessie & Lemeshow 1997]:
// the le Cessie–van Houwelingen–Copas–Hosmer unweighted sum-of-squares test (R's rms package,
// residuals.lrm(type = "gof")). Without covariates the two tests are one. Throws calib::invalid_argument
// unless X has n rows of finite numbers and leaves 1 − 2p a residual (not all of it explained).
TestResult spiegelhalter_test(const CategoricalData& data, const Matrix& covariates);
// Calibration-in-the-large: the mean outcome against the mean prediction, z = Σ (y − p) / √(Σ p(1 − p))
// (the score test of the intercept of logit P(Y = 1) = a + logit p at a = 0). Two-sided as above; the
// estimate is mean y − mean p; details z, expected (mean p), std_error (of the estimate).
TestResult calibration_in_the_large_test(const CategoricalData& data);
// Hosmer–Lemeshow [Hosmer & Lemeshow 1980]: the predictions in g groups, by their ranks ("deciles of
// risk": observation i goes to group ⌈g·r_i/n⌉ with r_i = #{j : p_j ≤ p_i}, so tied predictions share
// a group), between the type-7 sample quantiles b_k of the predictions at k/g (quantile_breaks, as R's
// ResourceSelection::hoslem.test: b_(k−1) < p ≤ b_k, the first also p = b_0), or by the fixed cut
// points k/g (group k holds (k−1)/g < p ≤ k/g, the first also p = 0);
// empty groups are dropped (G groups remain). C = Σ_k (O_k − E_k)² / (E_k (1 − E_k/n_k)) with O_k, E_k
// the observed and expected events, compared with χ² on G degrees of freedom (validation data: the
// model was not fitted to them) or G − 2 (the model was fitted to them, Hosmer & Lemeshow's setting).
// The estimate is the grouped squared calibration error Σ_k (n_k/n)(O_k/n_k − E_k/n_k)². A group whose
// predictions are all 0 or all 1 contributes 0 when O_k = E_k, else C = ∞ (p = 0: an event of
// probability 0 happened).
struct HosmerLemeshowOptions {
    std::size_t groups = 10;
    HosmerLemeshowGrouping grouping = HosmerLemeshowGrouping::quantiles;
    HosmerLemeshowDf df = HosmerLemeshowDf::validation;
};
// Throws calib::invalid_argument unless 2 ≤ groups ≤ 100000 (the bound of every histogram's bins),
// groups ≤ n with the quantiles grouping, and groups ≥ 3 with the development rule.
void validate(const HosmerLemeshowOptions& options, std::size_t n);
// Throws calib::invalid_argument also when fewer than 3 groups hold predictions with the development rule.
TestResult hosmer_lemeshow_test(const CategoricalData& data, const HosmerLemeshowOptions& options = {});

// Cox's calibration test [Cox 1958]: logit P(Y = 1) = a + b·logit p fitted by maximum likelihood
// (Newton's method from (0, 1)); the likelihood-ratio statistic 2(ℓ(â, b̂) − ℓ(0, 1)) of the joint
// null (a, b) = (0, 1) against χ²₂. The estimate is the calibration slope b̂ (< 1: over-confident
// predictions, > 1: under-confident); details the intercept and slope with Wald and likelihood-ratio
// intervals at `level`, the calibration-in-the-large intercept (b fixed at 1) with its intervals, and
// the joint statistic's two parts with their p-values. Needs predictions strictly inside (0, 1) and
// both outcomes (invalid_argument); a fit that does not converge (separated outcomes) raises
// calib::numerical_error.
struct CoxOptions {
    double level = 0.95;
    // > 0: each prediction is taken as min(max(p, clip), 1 − clip) before its logit, so that predictions
    // of exactly 0 or 1 (a model's saturated outputs) can be tested, as scikit-learn's log_loss clips
    // (details clip, clipped: how many moved); 0: a prediction of 0 or 1 is refused.
    double clip = 0;
};
// Throws calib::invalid_argument unless the level is in (0, 1), clip in [0, 0.5) and n ≥ 2.
void validate(const CoxOptions& options, std::size_t n);
TestResult cox_test(const CategoricalData& data, const CoxOptions& options = {});

// The cumulative-difference tests [Arrieta-Ibarra, Gujral, Tannen, Tygert & Xu 2022]: the predictions
// sorted, S_k = Σ (y_i − p_i) over the predictions up to the k-th distinct value (ties enter together),
// S_0 = 0. ks_test: the estimate max_k |S_k|/n, the statistic max_k |S_k| / √(Σ p(1 − p)), against the
// maximum of |B| for standard Brownian motion B on [0, 1]; kuiper_test: the estimate (max_k S_k −
// min_k S_k)/n, against the range of B. Asymptotic p-values (n → ∞ under calibration: the path
// rescaled tends to B); every prediction 0 or 1 (σ = 0) gives p = 1 when the outcomes agree, else
// statistic ∞ and p = 0. Needs binary predictions (as the other binary tests).
TestResult ks_test(const CategoricalData& data);
TestResult kuiper_test(const CategoricalData& data);
// P(max_{t ≤ 1} |B_t| ≥ x) and P(max B − min B ≥ x) over t ∈ [0, 1] [Feller 1951]: 4 Σ_{k≥0} (−1)^k
// Q((2k+1)x) (for small x its theta-function form) and 8 Σ_{k≥1} (−1)^(k−1) k Q(kx), Q the standard
// normal's upper tail; 1 for x ≤ 0 (the range's also below x = 0.1, where it is 1 to double precision).
double brownian_max_abs_tail(double x);
double brownian_range_tail(double x);

// T-Cal [Lee, Huang, Hassani & Dobriban 2023]: with r = p − y and m equal-width bins (those of the ECE:
// [0, 1/m], ((k−1)/m, k/m]), the debiased plug-in estimate of the binned squared ℓ2 calibration error
// DPE_m = (1/n) Σ_bins [(Σ r)² − Σ r²] / n_bin (the authors' form: a bin of one adds 0, and the mean is 0
// under calibration given the predictions). Its null by Monte Carlo, R draws: the labels drawn y* ~
// Bernoulli(p) with the predictions kept (conditional: the null of the other binary tests), or the
// predictions also resampled with replacement first (consistency: the authors' code). A fixed m, or
// adaptive T-Cal: m ∈ {2, 4, …, 2^B}, B = ⌊2 log2(n/√(ln n))⌋ (at most 53), each m's plus-one p-value
// p_m = (1 + #{DPE*_m ≥ DPE_m})/(1 + R) from the same draws, combined by Bonferroni: p = min(1, |M|·min_m
// p_m), so p ≥ |M|/(1 + R) (R = 3000 and n = 10⁴: 23 bin counts, p ≥ 0.0077). The statistic is −log10 of
// min_m p_m; the estimate is DPE_m at the bin count of min_m p_m. Labels and draws run in the order of
// the sorted predictions, R draws in parallel with one random stream each: the p-value does not depend on
// the thread count. O(n log n + R·n·|M|) time (bins of one observation are skipped: at fine bin counts
// most are), O(n + the bins of several observations) memory.
struct TCalOptions {
    std::uint64_t bins = 0;  // m ≥ 1; 0: adaptive
    std::size_t replicates = 3000;
    std::uint64_t seed = default_seed;
    TCalNull null = TCalNull::conditional;
    ParallelOptions parallel;
};
// The largest bin count, 2^53: beyond it a bin count is not exactly a double, and a bin's edges blur.
inline constexpr std::uint64_t max_t_cal_bins = std::uint64_t(1) << 53;
// The bin counts tested on n observations: {bins}, or the adaptive grid 2, 4, …, 2^B.
std::vector<std::uint64_t> t_cal_bin_counts(std::size_t n, std::uint64_t bins);
// Throws calib::invalid_argument unless n ≥ 2, 1 ≤ R ≤ max_replicates and bins ≤ max_t_cal_bins.
void validate(const TCalOptions& options, std::size_t n);
TestResult t_cal_test(const CategoricalData& data, const TCalOptions& options = {});

// Class-wise calibration by a test of binary predictions: `test` on each class k of class predictions
// against the rest (class_event(k)), for the null that every one of these m events is calibrated. The
// p-value is Bonferroni's min(1, m · min_k p_k) (Holm's adjustment gives the same for this global null;
// valid whatever the dependence between the classes' tests); the statistic −log10 of the smallest p_k
// (at most 323.3, for p_k = 0); the estimate, estimator and n those of the class with the smallest p_k;
// null_approximation "bonferroni:" and the classes' null. Throws calib::invalid_argument (naming the
// class) when `test` refuses a class's event.
TestResult class_wise_test(const CategoricalData& data, const std::function<TestResult(const CategoricalData&)>& test);

std::string to_string(PValueRule rule);
std::string to_string(VarianceDivisor divisor);  // "s-1", "s"
std::string to_string(CmeReference reference);   // "chi2", "f"
std::string to_string(HosmerLemeshowGrouping grouping);  // "quantiles", "quantile-breaks", "fixed"
std::string to_string(HosmerLemeshowDf df);              // "validation", "development"
std::string to_string(TCalNull null);                    // "conditional", "consistency"

template <class Details>
const Details& TestResult::details_as() const {
    if (const Details* d = std::get_if<Details>(&details)) return *d;
    throw invalid_argument("calib::TestResult::details_as: the result of a " + method +
                           " test holds other details");
}

// ---- the tests on the conditional MMD's h (mmd.hpp) ---------------------------------------------

struct MmdSpec;          // mmd.hpp, which a caller of these tests includes for them
struct GaussianMmdSpec;
// bootstrap_test, gamma_test and block_test on the MMD's h instead of the SKCE's; their estimator is
// "mmd-unbiased", "mmd-biased" and "mmd-block".
TestResult mmd_bootstrap_test(const CategoricalData& data, const MmdSpec& spec, const BootstrapOptions& options);
TestResult mmd_gamma_test(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel = {});
TestResult mmd_block_test(const CategoricalData& data, const MmdSpec& spec, const BlockTestOptions& options);
TestResult mmd_bootstrap_test(const NormalData& data, const GaussianMmdSpec& spec, const BootstrapOptions& options);
TestResult mmd_gamma_test(const NormalData& data, const GaussianMmdSpec& spec, const ParallelOptions& parallel = {});
TestResult mmd_block_test(const NormalData& data, const GaussianMmdSpec& spec, const BlockTestOptions& options);

}  // namespace calib

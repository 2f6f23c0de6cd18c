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
// Defaults reproduce CalibrationTests.jl; deviations (its bugs, julia-reference §2.12) are listed
// in docs/tests.md.
#pragma once

#include <calib/data.hpp>
#include <calib/estimators.hpp>
#include <calib/kernels.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace calib {

struct TestResult {
    std::string method;              // "block", "bootstrap", "gamma", "spectral", "dfree-biased", …
    std::string null_approximation;  // "normal", "bootstrap", "gamma", "spectral", "mcdiarmid", …
    std::string estimator;           // the estimator the test is built on: "skce-block", "ece", …
    double estimate = 0;             // its value
    double statistic = 0;            // the test statistic compared with the null distribution
    double p_value = 1;
    std::size_t n = 0;               // observations used by the test
    // The method's own numbers, in a fixed order (block count, standard error, Gamma shape and
    // scale, degrees of freedom, replicates, seed, ridge, …); names are snake_case.
    std::vector<std::pair<std::string, double>> details;

    double detail(const std::string& name) const;  // throws if absent
    // One JSON object: method, null, estimator, estimate, statistic, p_value, n, then the details.
    std::string to_json() const;
};

// The most replicates a resampling test (or compare_models) accepts: the Monte-Carlo error of a
// p-value at R = 10⁸ is below 5·10⁻⁵, and R-sized buffers stay bounded. Larger R is refused, as is
// a request whose replicate buffers would not fit the machine's memory.
inline constexpr std::size_t max_replicates = 100'000'000;

// How a resampling p-value counts: #{T* ≥ T}/R (the reference's rule; can be 0) or
// (1 + #{T* ≥ T})/(1 + R) (never 0; exact level under exchangeability).
enum class PValueRule { count, plus_one };

// ---- block z-test [widmann-2021 Remark B.1, B.3] -------------------------------------------------
// z = SKCE_B / se with se from the sample variance of the ⌊n/B⌋ block estimates (divisor s − 1, or
// s to reproduce the 2019 linear test A_l), p = 1 − Φ(z). With `null_variance`, Remark B.1(ii):
// z = √(s·B(B−1)/2)·SKCE_B / σ̂ with σ̂² the mean of h² over the within-block pairs. Needs s ≥ 2
// blocks. A zero standard error is reported (detail "degenerate" = 1) and gives p = 0 when the
// estimate is > 0, else 1. Details: block_size, num_blocks, std_error, z, ci_lower (the one-sided
// confidence interval [max(0, est − z_level·se), ∞) at `confidence_level`).
enum class VarianceDivisor { s_minus_1, s };
struct BlockTestOptions {
    std::size_t block_size = 2;
    VarianceDivisor divisor = VarianceDivisor::s_minus_1;
    bool null_variance = false;
    double confidence_level = 0.95;
    ParallelOptions parallel;
};
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
template <class Data>
TestResult bootstrap_test(const Data& data, const Kernel& kernel, const BootstrapOptions& options = {});

// Gamma approximation of T = n·SKCE_b (Gretton et al. 2009's MMD heuristic, peers §2.1.3):
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
TestResult consistency_test(const CategoricalData& data, const CategoricalEstimator& estimator,
                            const std::string& estimator_name, const ConsistencyOptions& options = {});

// ---- CME test [widmann-2021 App. C; Chwialkowski et al. 2015] -----------------------------------
// Deviations Z_i ∈ R^J at J test locations (ucme_deviations), Hotelling Q = n·z̄ᵀ S⁻¹ z̄ with S the
// (n−1)-covariance (+ ridge·I), p from the exact-F form (n−J)/(J(n−1))·Q ∼ F(J, n−J) (the default:
// never more liberal than χ², exact for Gaussian deviations) or from χ²_J (the paper's and the
// reference's). The estimate is UCME² = ‖z̄‖²/J.
// Validity range (calib's study, repro-validity, docs/tests.md): both nulls are liberal unless J is
// small against n — for α = 5 % the F null rejected calibrated models at 6–7 % with J² ≈ 0.1·n,
// 8 % with J² ≈ 0.2·n, 16–17 % with J² ≈ 2.6·n and 43–46 % with J² ≈ 11·n. A test outside the
// range is refused (invalid_argument) unless `allow_outside_validity` (to reproduce the paper's
// runs), and then says so in the detail "outside_validity_range". n ≤ J, or a singular S without
// ridge, raises calib::numerical_error.
enum class CmeReference { chi2, f };
struct CmeOptions {
    CmeReference reference = CmeReference::f;
    double ridge = 0;
    ParallelOptions parallel;
    bool allow_outside_validity = false;
};
// The largest number of test locations J within the validity range for n observations used by the
// test: J² ≤ 0.07·n for F, J² ≤ 0.05·n for χ² (0 when not even J = 1 is).
std::size_t cme_max_locations(std::size_t n, CmeReference reference);
template <class Data>
TestResult cme_test(const Data& data, const Data& locations, const Kernel& kernel, const CmeOptions& options = {});
// J test locations drawn (seeded, without replacement) from the data and removed from the sample
// used for the test, so that they are independent of it; the test then uses n − J observations.
template <class Data>
TestResult cme_test(const Data& data, std::size_t num_locations, std::uint64_t seed, const Kernel& kernel,
                    const CmeOptions& options = {});

std::string to_string(PValueRule rule);

}  // namespace calib

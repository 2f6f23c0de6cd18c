// Comparing the calibration of several classifiers evaluated on the same labelled data: each model's
// calibration errors, its ranking, and paired bootstrap intervals of the differences between models
// (docs/ckce.md, "Ranking models"; the CLI's `calib rank`).
//
// Replicate r resamples the n observations with replacement once (its counts drawn from stream r + 1
// of the seed) and applies the same resample to every model: the differences are paired. For each
// estimator the replicates are the estimator on the resample, computed without re-running it from
// scratch:
//   jkce           exactly, from the quadratic forms of the resampling counts with the pair matrix H
//                  (one O(n² R) pass; the pairs of distinct positions of the resample):
//                  (cᵀHc − Σ_a c_a h_aa) / (n(n − 1))
//   ckce           in the primal form [ms-ckce App. B] with a factor K ≈ GGᵀ of the model's simplex
//                  Gram: the resample's features are rows of G repeated c_a times, so its primal sums
//                  are Gᵀdiag(c)G and Gᵀdiag(c)A — O(n r²) per replicate instead of O(n³). G is the
//                  method's own factor for rff (the same features) and lowrank (the same pivoted
//                  Cholesky); for exact and eigen it is the shortest prefix of a pivoted Cholesky
//                  (64, 96, 144, … columns) whose CKCE on the full data agrees with the estimate to
//                  `replicate_tolerance` (relative; 0 takes the complete factorisation). Its rank is
//                  reported; tests/test_compare.cpp and docs/performance.md measure the agreement
//                  of the replicates with exact factorisations of the resamples
//   ece            on the resample itself (O(n m) each).
// The estimates themselves are always computed by the chosen method on the full data.
// Results are bitwise identical for any thread count.
#pragma once

#include <calib/ckce.hpp>
#include <calib/data.hpp>
#include <calib/estimators.hpp>
#include <calib/kernels.hpp>
#include <calib/parallel.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace calib {

enum class ComparedEstimator { ckce, jkce, ece };

// "ckce", "jkce", "ece" (the CLI's names); parse throws calib::invalid_argument for others. jkce is the
// unbiased SKCE with the CKCE's simplex kernel [ms-ckce eq. 7], a name of its own: calib estimate's
// skce-unbiased uses the family's kernel and gives another number.
std::string to_string(ComparedEstimator estimator);
ComparedEstimator parse_compared_estimator(const std::string& name);

struct ComparisonOptions {
    std::vector<ComparedEstimator> estimators = {ComparedEstimator::ckce, ComparedEstimator::jkce, ComparedEstimator::ece};
    // One per model: the CKCE options with the model's own lengthscale γ (e.g. simplex_median_lengthscale
    // of its predictions). Their simplex and label kernels are also the JKCE's. Needed when ckce or jkce is
    // compared; their `parallel` fields are ignored.
    std::vector<CkceOptions> ckce;
    EceOptions ece;                     // ece: calib estimate's (ckce_paper_ece_options() is the paper's)
    std::size_t replicates = 200;       // R in [1, max_replicates] paired bootstrap replicates
    double level = 0.95;                // of the percentile intervals, in (0, 1)
    std::uint64_t seed = default_seed;  // replicate r draws from stream r + 1 (stream 0 is rff's)
    double replicate_tolerance = 1e-5;  // ckce exact/eigen: relative error of the replicates' factor
    // jkce: bytes for its replicates' products, as BootstrapOptions::memory_budget (the n×n H
    // cached only within it); empty: half of the available memory.
    std::optional<std::size_t> memory_budget;
    ParallelOptions parallel;
};

// One pair of models (first < second in input order) under one estimator.
struct PairComparison {
    std::size_t first = 0, second = 0;
    double difference = 0;               // estimate(first) − estimate(second)
    double lower = 0, upper = 0;         // percentile interval of the replicate differences (type 7)
    double bootstrap_mean = 0;           // mean of the replicate differences
    double probability_first_lower = 0;  // fraction of replicates with estimate(first) < estimate(second)
    int verdict = 0;  // −1: first better calibrated (upper < 0); +1: second better (lower > 0); 0: neither
};

struct EstimatorComparison {
    ComparedEstimator estimator = ComparedEstimator::ckce;
    std::vector<double> estimates;                // per model, on the full data
    std::vector<std::vector<double>> replicates;  // [model][replicate]
    std::vector<double> std_errors;               // per model: standard deviation of its replicates
    std::vector<double> lower, upper;             // per model: percentile interval of its replicates (type 7)
    std::vector<std::size_t> ranking;             // model indices by increasing estimate (ties: input order)
    std::vector<PairComparison> pairs;            // every pair a < b
    std::vector<std::size_t> replicate_ranks;     // ckce: per model, the columns of the replicates' factor
};

struct ModelComparison {
    std::size_t n = 0;
    std::vector<EstimatorComparison> results;  // in the order of options.estimators
};

// One model gives its estimates with their intervals and no pairs.
// Throws calib::invalid_argument if no model is given, the models differ in n, classes
// or labels, n < 2, an option is out of range, or a model's CKCE options are invalid (as ckce).
ModelComparison compare_models(const std::vector<CategoricalData>& models, const ComparisonOptions& options);

// ---- one model: bootstrap intervals of estimates compare_models does not cover ------------------------
// Percentile bootstrap intervals on the resamples of compare_models (replicate r: the counts drawn from
// stream r + 1 of the seed), so that they and compare_models' per-model intervals of one model with the
// same seed come from the same resamples. Bitwise identical for any thread count.
struct IntervalOptions {
    std::size_t replicates = 200;       // R in [1, max_replicates]
    double level = 0.95;                // of the percentile intervals, in (0, 1)
    std::uint64_t seed = default_seed;
    std::optional<std::size_t> memory_budget;  // skce_unbiased_interval: as BootstrapOptions::memory_budget
    ParallelOptions parallel;
};

struct BootstrapInterval {
    double estimate = 0;           // on the full data
    double lower = 0, upper = 0;   // percentile interval of the replicates (type 7) at options.level
    double std_error = 0;          // standard deviation of the replicates (divisor R − 1)
    std::vector<double> replicates;
};

// The unbiased SKCE of any family under any kernel. Replicate r is the mean of h over the pairs of
// distinct observations of the resample, from the quadratic forms of its counts c with H:
//   Σ_{a≠b} c_a c_b h_ab / Σ_{a≠b} c_a c_b = (cᵀHc − Σ_a c_a² h_aa) / (n² − Σ_a c_a²),
// not the estimator on the resample (compare_models' jkce replicates), whose pairs of copies
// of one observation add h_aa > 0 and shift every replicate up by about mean(h_aa)/n: harmless in a
// paired difference, but for a calibrated model larger than the estimate's own spread. O(n² R).
// Throws calib::invalid_argument for n < 2, an invalid kernel (validate_kernel) or options out of range.
template <class Data>
BootstrapInterval skce_unbiased_interval(const Data& data, const Kernel& kernel, const IntervalOptions& options = {});

// Any statistic of n observations: statistic(indices) is evaluated on the data (indices 0 … n − 1) and
// on each resample (observation a repeated c_a times, in increasing order of a), in parallel: it must
// be safe to call from several threads. O(R × the statistic's cost). Throws calib::invalid_argument for
// n = 0 or options out of range.
BootstrapInterval resample_interval(std::size_t n, const std::function<double(const std::vector<std::size_t>&)>& statistic,
                                    const IntervalOptions& options = {});
// k statistics of the same resamples at once: statistics(indices) returns k values (each resample is
// drawn and the statistics computed once). Also throws calib::invalid_argument when the data's call
// does not return k values.
std::vector<BootstrapInterval> resample_intervals(
    std::size_t n, std::size_t k, const std::function<std::vector<double>(const std::vector<std::size_t>&)>& statistics,
    const IntervalOptions& options = {});

// The optional intervals of a one-sample estimate (the flexible calibration curve, the debiased L2
// error, the smooth ECE): percentile bootstrap intervals of the estimate's own statistics, recomputed on
// each resample.
struct Resampling {
    std::size_t replicates = 0;  // 0: no intervals; otherwise in [1, max_replicates]
    double level = 0.95;         // of the percentile intervals, in (0, 1)
    std::uint64_t seed = default_seed;
};
// Throws calib::invalid_argument (naming `function`) unless replicates and level are in range.
void validate(const Resampling& resampling, const char* function);
// The basic (pivotal) bootstrap interval from a percentile one: the spread of the replicates around
// `world`, the quantity's value on the resampled population (the observations themselves), carried over
// to the estimate — [estimate − (upper − world), estimate − (lower − world)] — so that an estimator's
// bias in the bootstrap world is taken off rather than copied. world = estimate for a plug-in estimate
// (the basic bootstrap); the plug-in value for a debiased one. lower is clamped at `floor`.
BootstrapInterval basic_interval(BootstrapInterval percentile, double world, double floor);
// resample_intervals with `resampling` (which validate accepts); empty when it has 0 replicates.
std::vector<BootstrapInterval> resample_intervals(
    std::size_t n, std::size_t k, const std::function<std::vector<double>(const std::vector<std::size_t>&)>& statistics,
    const Resampling& resampling, const ParallelOptions& parallel);

}  // namespace calib

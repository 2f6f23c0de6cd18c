// The binned L2 calibration error of Kumar, Liang & Ma (2019), "Verified uncertainty calibration",
// NeurIPS, with their debiased estimator of its square (docs/math.md §10). For binary predictions p of
// an event with outcomes y ∈ {0, 1}, binned into bins b of n_b observations with mean prediction p̄_b
// and outcome frequency ȳ_b:
//   plug-in    Σ_b (n_b/n) (p̄_b − ȳ_b)²
//   debiased   Σ_b (n_b/n) [(p̄_b − ȳ_b)² − ȳ_b(1 − ȳ_b)/(n_b − 1)]   (bins with n_b < 2 add 0)
// The debiased square is unbiased for Σ_b (n_b/n)(p̄_b − E ȳ_b)² given the bins, so it can be negative;
// the reported L2 error is √max(square, 0). Class predictions: the top-label event (the confidence
// against whether the top class is right), or marginal — each class one-vs-rest, the error
// √(mean over classes of max(square_k, 0)), as the authors' `verified_calibration` package reports it.
// Bootstrap intervals rebin each resample; they are basic intervals around the plug-in value, the
// binned error of the bootstrap world (basic_interval, compare.hpp).
#pragma once

#include <calib/compare.hpp>
#include <calib/data.hpp>
#include <calib/parallel.hpp>
#include <calib/prediction_bins.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace calib {

// The bins: prediction_bins.hpp (equal-mass as the authors' package).
enum class L2Mode { marginal, top_label };

struct DebiasedL2Options {
    PredictionBinning binning = PredictionBinning::equal_mass;
    std::size_t bins = 15;        // B ≥ 1 for equal_mass and uniform (equal_mass uses min(B, n))
    L2Mode mode = L2Mode::marginal;  // for class predictions of more than two classes
    bool debias = true;           // false: the plug-in estimate
    Resampling resampling;        // intervals of the error and of the square (none by default)
    ParallelOptions parallel;
};

struct DebiasedL2 {
    std::size_t n = 0;
    double error = 0;   // the L2 calibration error √(mean_k max(square_k, 0)) (one k: binary or top-label)
    double square = 0;  // mean_k square_k: the (debiased or plug-in) squared error, not clamped
    std::vector<double> class_squares;  // marginal mode with more than two classes: square_k per class
    std::size_t bins = 0;               // non-empty bins (summed over the classes in marginal mode)
    std::size_t small_bins = 0;         // of them, bins of one observation (they add 0 when debiased)
    // With resampling: of error (lower clamped at 0), then of square; the replicates' percentile
    // interval turned into the basic one (basic_interval: `estimate` is this estimate).
    std::vector<BootstrapInterval> intervals;
};

std::string to_string(L2Mode mode);        // "marginal", "top-label"

// Binary data (the binary family, or class predictions of two classes) use P(Y = 1) whatever the mode.
// Throws calib::invalid_argument for n < 2, bins = 0 with equal_mass or uniform, or resampling out of
// range. Bitwise identical for any thread count.
DebiasedL2 debiased_l2(const CategoricalData& data, const DebiasedL2Options& options = {});

}  // namespace calib

// Reliability diagrams of class predictions: per bin of predicted probability, how often the event
// happened, with an exact (Clopper–Pearson) confidence interval for that frequency. The data behind
// the report's figures, for users who draw their own.
#pragma once

#include <calib/data.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace calib {

// uniform: B bins of equal width, [0, 1/B], (1/B, 2/B], …, ((B−1)/B, 1] (the ECE's uniform:B edges,
// so Σ_b (n_b/n)·|frequency_b − mean_confidence_b| of the top-label diagram is the top-label ECE with
// uniform:B binning and the tv distance). equal_mass: the observations sorted by their predicted
// probability (ties by index) and cut into B consecutive groups of ⌊n/B⌋ or ⌈n/B⌉ (B ≤ n); equal
// probabilities at a cut may fall on both sides of it.
enum class ReliabilityBinning { uniform, equal_mass };

struct ReliabilityOptions {
    ReliabilityBinning binning = ReliabilityBinning::uniform;
    std::size_t bins = 10;  // B ≥ 1 (equal_mass: B ≤ n)
    double level = 0.95;    // of the Clopper–Pearson intervals, in (0, 1)
};

struct ReliabilityBin {
    double lower = 0, upper = 0;  // uniform: the bin's edges; equal_mass: its smallest and largest probability
    std::size_t count = 0;        // observations in the bin (a uniform bin may be empty: then NaN below)
    std::size_t events = 0;       // of them, how many had the event (the predicted class was right; the label was k)
    double mean_confidence = 0;   // the mean predicted probability of the event in the bin
    double frequency = 0;         // events / count
    // The exact two-sided interval of the event's probability at `level`: lower = 0 when events = 0,
    // else the α/2 quantile of Beta(events, count − events + 1); upper = 1 when events = count, else the
    // 1 − α/2 quantile of Beta(events + 1, count − events), α = 1 − level.
    double interval_lower = 0, interval_upper = 0;
};

struct ReliabilityDiagram {
    std::string event;       // "top-label" (the predicted class is right) or "class k" (0-based)
    std::size_t n = 0;       // observations
    double level = 0.95;
    std::vector<ReliabilityBin> bins;  // in order of the predicted probability
};

// Top-label: the confidence max_k p_ik (the first class on ties) against whether the label is that
// class. Throws calib::invalid_argument for bins = 0, equal_mass with bins > n, level ∉ (0, 1).
ReliabilityDiagram reliability_diagram(const CategoricalData& data, const ReliabilityOptions& options = {});

// Class k: the probability p_ik against whether the label is k (k in [0, m)). For binary
// predictions (CategoricalData::from_binary), class 1 is the usual diagram of P(Y = 1).
ReliabilityDiagram class_reliability_diagram(const CategoricalData& data, int k, const ReliabilityOptions& options = {});

// The Clopper–Pearson interval [lower, upper] of a binomial proportion: `events` successes in
// `trials` ≥ 1 trials, two-sided at `level` ∈ (0, 1) (as in ReliabilityBin).
struct ProportionInterval {
    double lower = 0, upper = 1;
};
ProportionInterval clopper_pearson(std::size_t events, std::size_t trials, double level = 0.95);

std::string to_string(ReliabilityBinning binning);  // "uniform", "equal-mass"

}  // namespace calib

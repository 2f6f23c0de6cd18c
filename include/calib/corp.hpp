// The CORP score decomposition of Dimitriadis, Gneiting & Jordan (PNAS 2021, "Stable reliability
// diagrams for probabilistic classifiers"): for binary predictions x_i = P(Y_i = 1) and a proper score
// S, the mean score S̄ = (1/n) Σ S(x_i, y_i) splits as
//   S̄ = MCB − DSC + UNC,  MCB = S̄ − S̄_C,  DSC = S̄_R − S̄_C,  UNC = S̄_R,
// with S̄_C the mean score of the PAV-recalibrated forecasts x̂_i (isotonic.hpp: the isotonic
// regression of y on x, ties pooled first, "Consistent, Optimal, Reproducible, PAV-based") and S̄_R
// that of the constant forecast ȳ. MCB (miscalibration) and DSC (discrimination) are ≥ 0 up to
// rounding: x̂ has the smallest mean score of every nondecreasing function of x for every proper
// score, x itself and ȳ among them.
#pragma once

#include <calib/data.hpp>
#include <calib/isotonic.hpp>
#include <calib/parallel.hpp>
#include <calib/record.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace calib {

// brier: S(x, y) = (x − y)²; log: S(x, y) = −log x for y = 1, −log(1 − x) for y = 0 (the negative
// log-likelihood; +∞ for a forecast of 0 or 1 that the outcome contradicts).
enum class CorpScore { brier, log };
std::string to_string(CorpScore score);  // "brier", "log"
CorpScore parse_corp_score(const std::string& name);  // throws calib::invalid_argument for another name

struct CorpDecomposition {
    double mean_score = 0;          // S̄ of the forecasts (+∞ with the log score when one is contradicted)
    double recalibrated_score = 0;  // S̄_C, always finite: a PAV value of 0 or 1 has only outcomes it agrees with
    double mcb = 0, dsc = 0, unc = 0;
    std::size_t n = 0;
    std::size_t blocks = 0;         // the PAV fit's constant pieces
    // log: the rows whose forecast is 0 or 1 against the outcome (each makes S̄ and MCB +∞), and the first.
    std::size_t contradicted = 0, first_contradicted = 0;
};

// On binary predictions (two classes: x = the probability of class 1). Throws calib::invalid_argument
// for data of another number of classes.
CorpDecomposition corp_decomposition(const CategoricalData& binary, CorpScore score = CorpScore::brier);

// ---- the CORP reliability diagram ---------------------------------------------------------------------
// The graph of the PAV-recalibrated probabilities x̂ against the forecasts x (a step function, one
// constant piece per IsotonicBlock), with two resampling bands at each of up to `band_points` forecast values
// (Dimitriadis, Gneiting & Jordan 2021, "Uncertainty quantification"; the `resampling` method of their R
// package reliabilitydiag). Replicate r draws n forecasts x*_1..x*_n from x with replacement and an
// outcome y*_i ~ Bernoulli(q(x*_i)), refits PAV of y* on x*, and evaluates the refit at each band point t
// as a step function: the value of the last refitted block whose smallest forecast is ≤ t (the first
// block's value below it). Pointwise quantiles of the R refits at (1 ∓ level)/2 (linear interpolation
// between order statistics, R's type 7) give the band at t.
//   consistency band: q(x) = x, the refits of a calibrated model of the same forecasts (Bröcker & Smith
//     2007's consistency resampling), around the diagonal: where the CORP curve leaves it, the data are
//     unlikely under calibration (pointwise, not simultaneously);
//   confidence band: q(x) = x̂(x), the refits of the fitted curve (a parametric bootstrap around it),
//     for how precisely the curve is known. Where x̂ is 0 or 1 every replicate's outcome is the same, so
//     the band there has width 0 (reliabilitydiag interpolates it from the neighbouring points instead).
// The replicates come from streams (seed, 2r) (consistency) and (seed, 2r + 1) (confidence): the result
// does not depend on the thread count, and a larger R keeps the first replicates. O(R·(n + d)) after the
// O(n log n) fit, d the number of distinct forecasts; memory O(n + R·points): 16 bytes per replicate and
// point, refused above 2 GiB.
struct CorpDiagramOptions {
    double level = 0.9;              // of the bands, in (0, 1); the paper's 90 %
    std::size_t replicates = 100;    // R, in [0, 10^6]; 0: the curve and decomposition without bands
    std::uint64_t seed = default_seed;
    // The band points: every distinct forecast when there are at most this many, else this many of
    // them evenly spaced in rank (the smallest and largest among them). In [2, 10^6].
    std::size_t band_points = 1000;
    CorpScore score = CorpScore::brier;  // of the decomposition
    ParallelOptions parallel;            // the replicates run in parallel
};

struct CorpDiagram {
    std::size_t n = 0;
    double level = 0.9;
    std::size_t replicates = 0;
    std::uint64_t seed = default_seed;
    std::vector<IsotonicBlock> curve;  // the CORP curve, in increasing forecasts (isotonic_regression's blocks)
    // At each band point t (increasing): the CORP value x̂(t), how many observations have forecast t, and
    // the bands (empty with replicates = 0).
    std::vector<double> x, recalibrated;
    std::vector<std::size_t> count;
    std::vector<double> consistency_lower, consistency_upper, confidence_lower, confidence_upper;
    CorpDecomposition decomposition;  // of `score`
    CorpScore score = CorpScore::brier;
    // n, level, replicates, seed, curve (lower, upper, value, count: a list per field), points (x,
    // recalibrated, count, consistency_lower, consistency_upper, confidence_lower, confidence_upper),
    // score, mean_score, recalibrated_score, mcb, dsc, unc (mean_score and mcb +inf for a contradicted
    // log score).
    Record record() const;
};

// On binary predictions (two classes: x = the probability of class 1). Throws calib::invalid_argument
// for another number of classes and for options outside their ranges.
CorpDiagram corp_diagram(const CategoricalData& binary, const CorpDiagramOptions& options = {});

}  // namespace calib

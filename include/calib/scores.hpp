// Proper scores and base-rate summaries of probabilistic forecasts: the continuous ranked probability
// score of univariate distributions in closed form, and for binary predictions the calibration ratio and
// the normalised entropy that ads and recommender teams report (docs/math.md §15).
#pragma once

#include <calib/data.hpp>

#include <cstddef>
#include <optional>

namespace calib {

// CRPS(F, y) = ∫ (F(x) − 1{x ≥ y})² dx = E|X − y| − ½ E|X − X'| (X, X' independent draws of F), in the
// units of y; lower is better, 0 only for a point mass at y. Closed forms (Gneiting & Raftery 2007):
//   normal N(μ, σ²):   σ·[z(2Φ(z) − 1) + 2φ(z) − 1/√π], z = (y − μ)/σ  (Gneiting et al. 2005)
//   Laplace L(μ, β):   β·[|z| + exp(−|z|) − 3/4], z = (y − μ)/β        (Jordan, Krüger & Lerch 2019)
//   mixture Σ_k π_k N(μ_k, σ_k²):  Σ_k π_k A(y − μ_k, σ_k²) − ½ Σ_{k,l} π_k π_l A(μ_k − μ_l, σ_k² + σ_l²),
//                      A(m, s²) = E|N(m, s²)| = 2s·φ(m/s) + m·(2Φ(m/s) − 1)  (Grimit et al. 2006)
double crps_normal(double mean, double stddev, double y);
double crps_laplace(double location, double scale, double y);

// The mean CRPS over the observations (compensated sum); O(n), the mixture O(n K²). n ≥ 1.
double mean_crps(const NormalData& data);
double mean_crps(const LaplaceData& data);
double mean_crps(const MixtureNormalData& data);

// Binary predictions: two-class CategoricalData, p_i = P(Y_i = 1) its second column, y_i = label.
// The calibration ratio Σ_i p_i / Σ_i y_i (expected over observed events: 1 when the predictions add up
// to the events, > 1 when they over-predict; TorchRec's and TFMA's "calibration").
struct CalibrationRatio {
    double ratio = 0;
    double sum_predictions = 0;  // Σ p_i
    double events = 0;           // Σ y_i
    std::size_t n = 0;
};
// Throws invalid_argument when no event occurs (Σ y = 0: the ratio is undefined), or n = 0.
CalibrationRatio calibration_ratio(const CategoricalData& binary);

// The normalised entropy (He et al. 2014): the mean log loss −(1/n) Σ [y log p + (1 − y) log(1 − p)]
// divided by the entropy H(r) = −r log r − (1 − r) log(1 − r) of the base rate r (natural logs); below 1
// the predictions beat always predicting r. r is the data's event frequency unless given.
struct NormalizedEntropy {
    double value = 0;
    double log_loss = 0;
    double base_rate = 0;
    double base_entropy = 0;
    bool base_rate_given = false;
    std::size_t n = 0;
};
// Throws invalid_argument when H(r) = 0 (r is 0 or 1: every outcome the same, or a given r outside
// (0, 1)), when a prediction gives probability 0 to its outcome (an infinite log loss; the message names
// the row), or n = 0.
NormalizedEntropy normalized_entropy(const CategoricalData& binary, std::optional<double> base_rate = std::nullopt);

}  // namespace calib

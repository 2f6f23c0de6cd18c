// The evaluation metrics of Marx, Zalouk & Ermon (NeurIPS 2023, §6 and App. B), as reported
// beside their kernel calibration metrics: for class
// predictions the accuracy, the top-label ECE over 20 equal-width bins, the mean entropy and the NLL;
// for univariate predictive distributions (normal, Laplace, mixtures) the NLL, the quantile
// calibration error (QCE) of the PIT, the decision calibration error (DCE, eq. 19) of a threshold
// decision and the local calibration error (LCE) given features. docs/metrics.md has the formulas,
// their sources and the choices the paper leaves open.
#pragma once

#include <calib/data.hpp>
#include <calib/parallel.hpp>
#include <calib/record.hpp>

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace calib {

// ---- class predictions -------------------------------------------------------------------------------
// The fraction of observations whose label is the predicted class argmax_k p_ik (the first on ties,
// as the top-label ECE takes it).
double accuracy(const CategoricalData& data);
// (1/n) Σ_i Σ_k −p_ik·log p_ik (natural log, 0·log 0 = 0): the mean Shannon entropy of the
// predictions, the paper's sharpness measure for classification.
double mean_entropy(const CategoricalData& data);
// Σ_b (n_b/n)·|mean confidence_b − accuracy_b| over `bins` equal-width bins of the top-label
// confidence (the L1 calibration error of the paper's torchmetrics evaluation): ece() with
// mode top-label, distance tv (= |c̄ − acc| for the 2-class reduction), uniform binning.
double top_label_ece(const CategoricalData& data, int bins = 20);

// ---- univariate predictive distributions -------------------------------------------------------------
// The bin of a PIT value u ∈ [0, 1] among B bins: floor ⌊u·B⌋ (equal bins [b/B, (b+1)/B), u = 1 in the
// last), or round: the nearest integer to u·B (ties to even), clamped to B − 1 — the paper's code,
// whose first bin is [0, 1/(2B)) and last [(B − 1/2)/B, 1], so a calibrated forecaster does not score 0.
enum class QceBinning { floor, round };
std::string to_string(QceBinning binning);            // "floor", "round"
QceBinning parse_qce_binning(const std::string& name);  // throws calib::invalid_argument

// ½ Σ_b |f_b − 1/B|, f_b the fraction of the u_i in bin b: the total variation between the PIT's
// histogram and the uniform one. Needs u non-empty, in [0, 1], and 1 ≤ bins ≤ 100000.
double quantile_calibration_error(const std::vector<double>& u, std::size_t bins = 20,
                                  QceBinning binning = QceBinning::floor);
// Kuleshov et al.'s (2018) calibration error with unit weights, Σ_{j=1..B} (p_j − p̂_j)², p_j = j/B,
// p̂_j = #{u_i ≤ p_j}/n (the j = B term is 0); its expectation under uniform u is Σ_j p_j(1 − p_j)/n.
double quantile_calibration_error_squared(const std::vector<double>& u, std::size_t bins = 20);

// The decision calibration error of eq. (19) for the threshold decision of the paper's §6.3:
// actions a = ±1, loss ℓ(a, y) = 1{a ≠ sign(y − c)}, as a population quantity over the whole data set,
// DCE = √(Σ_a (E_P ℓ(a, Y) − E_Q ℓ(a, Ŷ))²), E_P the mean over the targets and E_Q the mean over i of
// the forecast's closed form (F_i(c) for a = +1, 1 − F_i(c) for a = −1). A target exactly at c has
// sign 0, which is neither action: it costs ½ under each (so that ℓ(+1, y) + ℓ(−1, y) = 1 for every y).
// Then DCE = √2·|P̂(Y > c) + ½P̂(Y = c) − mean_i(1 − F_i(c))| ∈ [0, √2]. c must be finite.
// Data: a univariate family (is_univariate_v), here and below.
template <class Data, class = std::enable_if_t<is_univariate_v<Data>>>
double decision_calibration_error(const Data& data, double threshold);
// The median of the targets (the mean of the two middle values for even n): the c of the paper's
// code (the paper leaves c unstated).
template <class Data, class = std::enable_if_t<is_univariate_v<Data>>>
double median_target(const Data& data);

// The local calibration error: for each observation k and level c_j = j/B (j = 1 … B),
//   LCE(x_k; c_j) = Σ_i 1{y_i ≤ Q_i⁻¹(c_j)}·w_ki / Σ_i w_ki − c_j,   w_ki = exp(−‖x_k − x_i‖²/(2ℓ²)),
// over all i (k included), and LCE_total(x_k) = (1/B) Σ_j LCE(x_k; c_j)²; Q⁻¹(1) = +∞ makes the
// j = B term 0. 1{y_i ≤ Q_i⁻¹(c)} is 1{u_i ≤ c}, u the PIT. features: n×d, finite.
struct LceOptions {
    std::size_t levels = 20;  // B ≥ 1
    // ℓ > 0, or 0: the median heuristic, the median of ‖x_i − x_j‖ over the pairs i < j (needs n ≥ 2).
    double lengthscale = 0;
    ParallelOptions parallel;
};
struct LceResult {
    std::vector<double> total;  // LCE_total(x_k), k = 0 … n−1
    double mean = 0;            // their mean
    double lengthscale = 0;     // the ℓ used
    bool median_heuristic = false;
};
// O(n²·(d + B)) time through the pairwise engine (bitwise the same for any thread count), O(n·B) memory.
template <class Data, class = std::enable_if_t<is_univariate_v<Data>>>
LceResult local_calibration_error(const Data& data, const Matrix& features, const LceOptions& options = {});
// The median of the Euclidean distances ‖x_i − x_j‖ over the pairs i < j of the rows of `features`
// (exact, through the engine's pair selection). Needs n ≥ 2; throws when it is 0 or not finite.
double median_feature_distance(const Matrix& features, const ParallelOptions& parallel = {});

// ---- the KCE --------------------------------------------------------------------------------------------
// The kernel calibration error of Marx et al.'s tables ("the MMD objective for an RBF kernel over X ×
// Y", §6.2): the conditional MMD's unbiased U-statistic (calib/mmd.hpp; unscaled, unlike the paper's
// tables, App. B.1; it can be negative) in the individual notion, k_Z = exp(−‖x − x'‖²/(2ℓ²)) on the
// features with ℓ the median of ‖x_i − x_j‖ over the pairs i < j, and the target kernel δ(y, y') for
// class predictions or exp(−(y − y')²/(2ℓ_Y²)) for normal forecasts (integrated over the forecast in
// closed form). features: n×d, finite; n ≥ 2. O(n²(d + m)) time through the pairwise engine, bitwise
// the same for any thread count. Throws invalid_argument for bad features or a median distance of 0.
struct KceResult {
    double estimate = 0;
    double lengthscale = 0;  // ℓ of k_Z, by the median heuristic
};
KceResult kernel_calibration_error(const CategoricalData& data, const Matrix& features, const ParallelOptions& parallel = {});
KceResult kernel_calibration_error(const NormalData& data, const Matrix& features, double target_lengthscale = 1.0,
                                   const ParallelOptions& parallel = {});

// ---- every metric of a data set ------------------------------------------------------------------------
struct MetricsOptions {
    std::size_t bins = 20;  // QCE, ECE and LCE bins (the paper's 20)
    QceBinning qce_binning = QceBinning::floor;
    // The DCE's threshold c; empty: the median of the targets (a given threshold must be finite).
    std::optional<double> threshold;
    const Matrix* features = nullptr;  // n×d: the LCE (univariate families) and the KCE (categorical, normal)
    double lce_lengthscale = 0;        // 0: median heuristic
    double nll_clip = 0;               // class predictions: > 0 clips the NLL's probabilities (mean_nll)
    ParallelOptions parallel;
};
// The metrics that apply to the family of `data`, in this order (what `calib metrics` prints):
//   class predictions:  accuracy, ece_top_label, entropy, nll (and nll_clip when > 0), and with features
//                       kce, kce_lengthscale
//   univariate:         nll, qce, qce_squared, dce, threshold, threshold_rule, and with features
//                       lce_total_mean, lce_lengthscale, lce_lengthscale_rule, and for normal forecasts
//                       kce, kce_lengthscale, kce_lengthscale_y (1: the MMD's default target lengthscale)
// plus bins and qce_binning. A nan or ±inf metric is kept (the NLL of a label of probability 0 is +inf).
// Throws calib::invalid_argument for multivariate normals (none of the paper's metrics is defined
// for them), features with another number of rows, lce_lengthscale for class predictions, nll_clip for
// univariate ones, a non-finite threshold.
Record evaluation_metrics(const AnyData& data, const MetricsOptions& options = {});

// The names and one-line descriptions of the metrics of evaluation_metrics (help texts, docs).
struct MetricInfo {
    std::string name;
    std::string summary;
    bool classes = false;  // for class predictions (else for univariate distributions)
};
const std::vector<MetricInfo>& metric_descriptions();

}  // namespace calib

// Reliability diagrams of class predictions: per bin of predicted probability, how often the event
// happened, with an exact (Clopper–Pearson) confidence interval for that frequency; and for
// univariate predictive distributions, the probability integral transform (PIT), its histogram
// with a band under uniformity and the coverage of central prediction intervals. The data behind
// the report's figures, for users who draw their own.
#pragma once

#include <calib/data.hpp>
#include <calib/record.hpp>

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
    double level = 0.95;    // of the Clopper–Pearson intervals (and of the smoothed curve's band), in (0, 1)
    std::size_t smooth_points = 0;  // > 0: also the smoothed curve (SmoothReliability) at that many points
};

// A reliability curve without bins [Nadaraya 1964; Watson 1964]: the frequency of the event as a
// function of its predicted probability p, a Gaussian kernel smoother of the event indicators on the
// logit scale z = log(p/(1 − p)) (p clipped to [1e-6, 1 − 1e-6]), where a confident model's
// predictions are spread out: m(z) = Σ w_i y_i / Σ w_i, w_i = exp(−((z_i − z)/h)²/2). The bandwidth is
// Silverman's rule of thumb on the z_i, h = 0.9·min(sd, IQR/1.34)·n^(−1/5) (the sd alone when the IQR
// is 0; h = 1 when every z_i is the same: then m is the overall frequency). The curve is evaluated at
// `smooth_points` values of z evenly spaced from the 1st to the 99th percentile of the z_i (beyond
// them it would rest on a handful of predictions), with a pointwise Wilson interval at `level` for the
// effective number of observations (Σ w_i)²/Σ w_i²: the smoother's noise, not its bias (which flattens
// sharp turns over about h). A point farther than about 38 h from every prediction (a gap in bimodal
// predictions at large n) has no weight in double precision and is left out. O(n·points).
struct SmoothReliability {
    std::vector<double> probability, frequency, lower, upper;  // at each point, in increasing p
    double bandwidth = 0;                                       // h, on the logit scale
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
    ReliabilityBinning binning = ReliabilityBinning::uniform;
    std::vector<ReliabilityBin> bins;  // in order of the predicted probability
    SmoothReliability smooth;          // with smooth_points > 0; else empty
    // What the report's JSON and the Python module give: event, n, level, binning, bins (each bin's
    // fields in the order above; an empty bin's mean_confidence, frequency and interval are NaN), and
    // smooth (bandwidth, probability, frequency, lower, upper) when there is a smoothed curve.
    Record record() const;
};

// A diagram's record (ReliabilityDiagram::record) without the fields an empty bin leaves undefined (its
// NaN mean_confidence, frequency and interval): what JSON outputs hold, as JSON has no NaN (calib report,
// calib diagram; Python's reliability_diagram keeps the NaN).
Record defined_bins(Record diagram);

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

// The binned calibration error of a diagram: Σ_b (n_b/n)·|frequency_b − mean_confidence_b| over its
// non-empty bins. Of a top-label diagram with uniform bins it is the top-label ECE (uniform:B, tv); with
// equal_mass bins, the same over bins of equal counts. O(B).
double binned_ece(const ReliabilityDiagram& diagram);

// ---- univariate predictive distributions ----------------------------------------------------------
// The PIT u_i = F_i(y_i), F_i the predicted CDF: Φ((y − μ)/σ) for normals, the Laplace CDF
// (½·exp((y − μ)/β) below μ, 1 − ½·exp(−(y − μ)/β) above), Σ_k π_k Φ((y − μ_k)/σ_k) for mixtures.
// For a calibrated model (in the probabilistic sense) the u_i are uniform on [0, 1].
// Data: a univariate family (is_univariate_v: NormalData, LaplaceData, MixtureNormalData).
template <class Data, class = std::enable_if_t<is_univariate_v<Data>>>
std::vector<double> pit(const Data& data);

// The histogram of the PIT over B equal bins of [0, 1] (the uniform edges above), with the band in
// which each bin's count lies with probability ≥ level under uniformity: the tightest [lower, upper]
// with P(X < lower) ≤ a and P(X > upper) ≤ a for X ~ Binomial(n, 1/B), a = (1 − level)/2
// (pointwise, bin by bin, not simultaneous).
struct PitHistogram {
    std::size_t n = 0;
    double level = 0.95;
    std::vector<std::size_t> counts;       // B bins
    std::size_t band_lower = 0, band_upper = 0;
    Record record() const;  // n, level, counts, band_lower, band_upper
};
PitHistogram pit_histogram(const std::vector<double>& u, std::size_t bins = 10, double level = 0.95);

// The coverage of central prediction intervals: for each nominal level τ in (0, 1), the fraction of
// observations with (1 − τ)/2 ≤ u_i ≤ (1 + τ)/2 (the target inside the predicted distribution's
// central τ-interval), with its Clopper–Pearson interval at `level`. Calibrated: observed ≈ nominal.
struct CoverageCurve {
    std::size_t n = 0;
    double level = 0.95;
    std::vector<double> nominal, observed, lower, upper;
    Record record() const;  // n, level, nominal, observed, lower, upper
};
CoverageCurve interval_coverage(const std::vector<double>& u, const std::vector<double>& nominal, double level = 0.95);

// ---- multivariate normal predictions ---------------------------------------------------------------
// The PIT of the squared Mahalanobis distance: u_i = F_{χ²_d}(‖L_i⁻¹(y_i − μ_i)‖²), Σ_i = L_i L_iᵀ,
// d the dimension. For calibrated predictions the squared distance is χ²_d, so the u_i are uniform
// (pit_histogram applies); for d = 1, u_i = |2·Φ((y_i − μ_i)/σ_i) − 1|. Throws calib::numerical_error
// if a full covariance is not positive definite in floating point.
std::vector<double> mahalanobis_pit(const MvNormalData& data);

// The coverage of central prediction ellipsoids {y : ‖L⁻¹(y − μ)‖² ≤ χ²_d quantile τ}: for each nominal
// τ in (0, 1), the fraction of observations with u_i ≤ τ (u from mahalanobis_pit), with its
// Clopper–Pearson interval at `level` (the fields as interval_coverage's). Calibrated: observed ≈ nominal.
CoverageCurve ellipsoid_coverage(const std::vector<double>& u, const std::vector<double>& nominal, double level = 0.95);

// ---- any predictive distributions ---------------------------------------------------------------------
// The PIT of a data set of univariate predictive distributions (pit above); throws invalid_argument for
// the other families: "the PIT is for univariate predictive distributions (normal, laplace,
// mixture-normal), not <what>".
std::vector<double> pit(const AnyData& data);
// What calib report shows of predictive distributions: the PIT's histogram and the coverage of central
// intervals (univariate families), or of the squared Mahalanobis distance's PIT and of prediction
// ellipsoids (multivariate normals, `dimension` d > 0). Throws invalid_argument for class predictions.
struct PredictiveChecks {
    PitHistogram pit;
    CoverageCurve coverage;
    int dimension = 0;  // multivariate normals: d; else 0
};
PredictiveChecks predictive_checks(const AnyData& data, std::size_t bins, const std::vector<double>& nominal,
                                   double level = 0.95);

// ---- the mean negative log-likelihood of the targets -------------------------------------------------
// (1/n) Σ_i −log p_i(y_i), p_i the predicted density (natural log; lower is better, but it mixes
// calibration with sharpness): normal ½log(2π) + log σ + ½z², Laplace log(2β) + |y − μ|/β, mixtures
// −log Σ_k π_k N(y; μ_k, σ_k²) (through log-sum-exp), multivariate normal ½(d·log(2π) + log det Σ + ‖L⁻¹(y − μ)‖²)
// (log det from the Cholesky factor), class predictions −log p_i(y_i) (+inf when a label has
// probability 0). O(n) (O(n d³) for full covariances); throws calib::numerical_error as mahalanobis_pit.
// With clip > 0 (class predictions): every probability taken into [clip, 1 − clip] and each row divided
// by its new sum before −log p_i(y_i), as scikit-learn's log_loss does with its eps (finite; O(n m)).
// Throws calib::invalid_argument unless clip is in [0, 0.5).
double mean_nll(const CategoricalData& data, double clip = 0);
double mean_nll(const MvNormalData& data);
template <class Data, class = std::enable_if_t<is_univariate_v<Data>>>  // the univariate families
double mean_nll(const Data& data);

}  // namespace calib

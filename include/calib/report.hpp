// The content of calib's calibration report: the record of the operation `report` (calib/operation.hpp)
// beside its fields — one or more models' tests (the verdict's first), calibration errors with
// bootstrap intervals and reliability diagrams (or, for predictive distributions, the PIT and the
// coverage of central intervals), and for several models on the same labels their ranking. Every
// number comes from the registry's methods with their defaults (as `calib test` and `calib estimate`
// compute them) and from the library's intervals; what runs at which size is the report's policy,
// its thresholds named here. A front-end draws the page from it (the command line's and Python's HTML
// page are one renderer's); its fields are the page's numbers as one record (`calib report --format json`).
#pragma once

#include <calib/corp.hpp>
#include <calib/operation.hpp>
#include <calib/reliability.hpp>
#include <calib/smooth_ece.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace calib {

struct ReportTest {
    std::string method, title;  // "bootstrap", "quadratic test with a bootstrap null"
    std::string estimator;
    double estimate = 0, statistic = 0, p_value = 1;
    std::string p_text;         // for people: "0.013", or "< 0.001" for a resampling p-value of 0
    std::string p_note;         // why a p-value is only bounded ("no replicate of 1000 reached ..."), or empty
    std::string settings;       // in words: "1000 bootstrap replicates, seed 1234"
    std::string statistic_meaning;  // what the statistic is, with its sign convention (the test's words)
};

struct ReportEstimate {
    std::string name;           // "ECE (top-label, 10 uniform bins)"
    std::string meaning;        // one line: what it measures
    double value = 0;
    // The bootstrap percentile interval at ReportData::level and the replicates' standard deviation;
    // empty for an estimate without one (the block SKCE above n = 20 000).
    std::optional<double> lower, upper, std_error;
    // What calib estimate warns of the same estimate (the squared CE's search), options in backquotes.
    std::vector<std::string> warnings;
};

// One model's tests and errors; the first test gives its verdict (rejected: not calibrated at alpha).
struct ModelReport {
    std::string name;           // the model's name (the command line: its file, or `name` for one model)
    std::optional<double> accuracy;  // class predictions: the top-label accuracy
    std::optional<double> nll;       // predictive distributions: the mean negative log-likelihood
    std::string kernel;         // the SKCE's kernel in words, with its lengthscale
    std::string why_recommended;
    std::vector<ReportTest> tests;
    std::vector<std::string> test_notes;  // tests the data did not allow, and why
    std::vector<ReportEstimate> estimates;
};

inline bool rejected(const ModelReport& m, double alpha) { return m.tests.front().p_value < alpha; }

struct ReportFigure {
    std::string title;          // "Top-label, 10 uniform bins"
    std::vector<ReliabilityDiagram> diagrams;  // one per model, in the models' order
    ReliabilityBinning binning = ReliabilityBinning::uniform;
    // Both probability axes on the logit scale log(p / (1 - p)), for predictions that crowd near 0 or 1
    // (a confident network): 0.9, 0.99 and 0.999 are then equally far apart.
    bool logit = false;
    // On the [0, 1] scale: per model, the smooth ECE of the figure's event with its smooth reliability
    // curve (smooth_ece.hpp; Błasiok & Nakkiran), as calib estimate --estimator smooth-ece --event E
    // --curve-points smooth_ece_points computes it. Empty on the logit scale, whose axis has no 0 or 1.
    std::vector<SmoothEce> smooth_ece;
};

// The CORP reliability diagram of class predictions (corp.hpp), one per model, of the event of the
// report's diagrams (two classes: P(Y = 1); more: top-label), with consistency and confidence bands
// from the report's replicates, level and seed, and each model's CORP decomposition of the Brier score
// (in its diagram) and of the log score.
struct ReportCorp {
    std::string event;  // "P(Y = 1)", "Top-label"
    bool logit = false;  // drawn on the logit scale: the predictions crowd near 0 or 1 (report_crowded_margin)
    std::vector<CorpDiagram> diagrams;
    std::vector<CorpDecomposition> log_score;
};

struct ReportData {
    std::string title;          // `name`, else the one model's name, else "N models"
    std::string family;
    std::size_t n = 0;
    int classes = 0;            // class predictions: m; else 0
    double alpha = 0.05;
    std::vector<ModelReport> models;
    // The bootstrap intervals (and the ranking's): replicates, level and seed.
    std::size_t replicates = 0;
    double level = 0.95;
    std::uint64_t seed = 0;
    std::vector<ReportFigure> figures;
    std::optional<ReportCorp> corp;  // class predictions
    // One predictive-distribution model: the PIT (mvnormal: of the squared Mahalanobis distance through
    // the χ²_d CDF) and the coverage of central intervals (mvnormal: ellipsoids).
    std::optional<PitHistogram> pit;
    std::optional<CoverageCurve> coverage;
    int dimension = 0;          // mvnormal: d; else 0
    // Several models: `calib rank`'s result with the same seed and replicates (ComparisonRun::record).
    std::optional<Record> ranking;
};

// The report's content in a record of the operation `report`; throws invalid_argument for another's.
const ReportData& report_content(const OperationRecord& record);

// ---- the report's policy: what runs at which n ---------------------------------------------------------
// The verdict's test: the bootstrap test of the unbiased SKCE (the most powerful, O(n²R)) up to this n,
// the block test with B = √n above.
inline constexpr std::size_t report_bootstrap_limit = 10000;
// The unbiased SKCE with its bootstrap interval up to this n; above it the block SKCE, without one.
inline constexpr std::size_t report_quadratic_skce_limit = 20000;
// The squared top-label error by ce-ukkr (about a second at n = 10 000) from the smallest n its
// cross-validation takes (5 folds of at least 2, a test part of at least 1) up to this n.
inline constexpr std::size_t report_squared_ce_minimum = 13, report_squared_ce_limit = 20000;
// Above this n the CKCE is the low-rank method (the exact one is O(n³)).
inline constexpr std::size_t report_exact_ckce_limit = 3000;
// Above this n the report runs no quadratic pass (the Gamma test's is the last): its medians (the SKCE
// kernel's and the CKCE's) are then taken on linear_median_subsample observations, as the linear-time
// methods' are, so that the report stays linear in n.
inline constexpr std::size_t report_gamma_limit = 50000;
// Probabilities of an event crowd near 0 or 1 when more than half of them (over every model) are below
// this margin or above 1 minus it: their diagram is then drawn with equal-count bins on the logit scale.
inline constexpr double report_crowded_margin = 0.05;
// The points of the smoothed reliability curve drawn beside the bins (ReliabilityOptions::smooth_points).
inline constexpr std::size_t report_smooth_points = 60;
// The points of the smooth ECE's curve in a figure: t = 0, 0.01, …, 1.
inline constexpr std::size_t smooth_ece_points = 101;
// The CORP diagram's bands take the report's replicates, at most this many.
inline constexpr std::size_t report_corp_replicates_limit = 10000;
// Class predictions with at most this many classes get one diagram per class.
inline constexpr int report_class_diagrams_limit = 20;

}  // namespace calib

// The content of `calib report` and its two forms: one self-contained HTML page (inline CSS and SVG
// figures, nothing fetched) and the same numbers as one JSON object.
#pragma once

#include "rank_output.hpp"

#include <calib/reliability.hpp>
#include <calib/smooth_ece.hpp>
#include <calib/tool/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace calib::cli {

struct ReportTest {
    std::string method, title;  // "bootstrap", "quadratic test with a bootstrap null"
    std::string estimator;
    double estimate = 0, statistic = 0, p_value = 1;
    std::string p_text;         // for people: "0.013", or "< 0.001" for a resampling p-value of 0
    std::string p_note;         // why a p-value is only bounded ("no replicate of 1000 reached ..."), or empty
    std::string settings;       // in words: "1000 bootstrap replicates, seed 1234"
    std::string statistic_meaning;  // what the statistic is, with its sign convention (test_in_words)
};

struct ReportEstimate {
    std::string name;           // "ECE (top-label, 10 uniform bins)"
    std::string meaning;        // one line: what it measures
    double value = 0;
    // The bootstrap percentile interval at ReportData::level and the replicates' standard deviation;
    // empty for an estimate without one (the block SKCE above n = 20 000).
    std::optional<double> lower, upper, std_error;
    std::vector<std::string> warnings;  // what calib estimate warns of the same estimate (the squared CE's search)
};

// One model's tests and errors; the first test gives its verdict (rejected: not calibrated at alpha).
struct ModelReport {
    std::string name;           // --name (one model), else the input file's name
    std::vector<std::string> files;
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
    // (a confident network): 0.9, 0.99 and 0.999 are then equally far apart (report_svg.hpp).
    bool logit = false;
    // On the [0, 1] scale: per model, the smooth ECE of the figure's event with its smooth reliability
    // curve (smooth_ece.hpp; Błasiok & Nakkiran), as calib estimate --estimator smooth-ece --event E
    // --curve-points smooth_ece_points computes it. Empty on the logit scale, whose axis has no 0 or 1.
    std::vector<SmoothEce> smooth_ece;
};

// The points of the smooth ECE's curve in a figure: t = 0, 0.01, …, 1.
inline constexpr std::size_t smooth_ece_points = 101;
// The curve is drawn where its kernel holds the weight of at least this many predictions: n δ̂(t) σ √(2π)
// (the kernel's sum over the predictions, in units of its peak 1/(σ √(2π))).
inline constexpr double smooth_ece_min_weight = 5;
double smooth_ece_weight(const SmoothEce& curve, std::size_t j);

struct ReportData {
    std::string title;          // --name, else the one model's name, else "N models"
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
    // One predictive-distribution model: the PIT (mvnormal: of the squared Mahalanobis distance through
    // the χ²_d CDF) and the coverage of central intervals (mvnormal: ellipsoids).
    std::optional<PitHistogram> pit;
    std::optional<CoverageCurve> coverage;
    int dimension = 0;          // mvnormal: d; else 0
    // Several models: `calib rank`'s result with the same seed and replicates (ComparisonRun::record).
    std::optional<Record> ranking;
    std::string command_line, created, version;
    double seconds = 0;
};

std::string report_html(const ReportData& report);
JsonObject report_json(const ReportData& report);

}  // namespace calib::cli

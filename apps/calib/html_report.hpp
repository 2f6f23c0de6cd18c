// The content of `calib report` and its two forms: one self-contained HTML page (inline CSS and SVG
// figures, nothing fetched) and the same numbers as one JSON object.
#pragma once

#include <calib/reliability.hpp>
#include <calib/tool/json.hpp>

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
    std::string settings;       // "1000 replicates, seed 1234"
};

struct ReportEstimate {
    std::string name;           // "ECE (top-label, 10 uniform bins)"
    std::string meaning;        // one line: what it measures
    double value = 0;
};

struct ReportFigure {
    std::string title;          // "Top-label, 10 uniform bins"
    ReliabilityDiagram diagram;
    ReliabilityBinning binning = ReliabilityBinning::uniform;
};

struct ReportData {
    std::string name;           // --name, or the input file's name
    std::vector<std::string> files;
    std::string family;
    std::size_t n = 0;
    int classes = 0;            // class predictions: m; else 0
    std::optional<double> accuracy;  // class predictions: the top-label accuracy
    std::string kernel;         // the SKCE's kernel in words, with its lengthscale
    double alpha = 0.05;
    std::size_t recommended = 0;  // index in tests of the test that gives the verdict
    std::string why_recommended;
    std::vector<ReportTest> tests;
    std::vector<ReportEstimate> estimates;
    std::vector<ReportFigure> figures;
    std::optional<PitHistogram> pit;        // univariate predictive distributions
    std::optional<CoverageCurve> coverage;
    std::string command_line, created, version;
    double seconds = 0;
};

std::string report_html(const ReportData& report);
JsonObject report_json(const ReportData& report);

}  // namespace calib::cli

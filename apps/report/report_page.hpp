// The page of calib's calibration report: one self-contained HTML page (inline CSS and SVG figures,
// nothing fetched) drawn from the report's content (calib/report.hpp), the same for the command line
// (`calib report`) and the Python module (`calib.report(..., output=...)`).
#pragma once

#include <calib/report.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace calib::page {

// What the front-end adds to the page's footer: each model's files (the command line's input and labels
// files; Python: none), the command that made it, when, and how long it took.
struct PageInfo {
    std::vector<std::vector<std::string>> files;  // per model, or empty
    std::string command_line;  // "calib report --family ...", or Python's "calib.report(...)"
    std::string created;       // "2026-12-02 05:40 UTC"
    double seconds = 0;
};

std::string report_html(const ReportData& report, const PageInfo& page);

// The time now as the page's footer gives it ("2026-12-02 05:40 UTC").
std::string now_utc();

// The smooth ECE's curve is drawn where its kernel holds the weight of at least this many predictions:
// n δ̂(t) σ √(2π) (the kernel's sum over the predictions, in units of its peak 1/(σ √(2π))).
inline constexpr double smooth_ece_min_weight = 5;
double smooth_ece_weight(const SmoothEce& curve, std::size_t j);

}  // namespace calib::page

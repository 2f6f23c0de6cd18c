// The figures of the calibration report as inline SVG, written here rather than by a plotting program: a
// reliability diagram is a few dozen marks, smaller and sharper that way. Their CSS classes (grid,
// frame, diagonal, interval, point, bar, band, and s0 … s7 for the models' colours) are styled by the
// page (report_page.cpp).
#pragma once

#include "report_page.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace calib::page {

std::string number(double x, const char* format = "%.4g");  // "–" for NaN
std::string escape(const std::string& text);                // for HTML text and attribute values
std::string series(std::size_t k);                          // " sK": the colour class of model k

// One square per figure: each model's bins as points with their intervals (a few pixels apart for
// several models), and their counts beneath.
std::string reliability_svg(const ReportFigure& figure, const std::vector<ModelReport>& models);
// The CORP diagrams: each model's isotonic recalibration curve with its consistency band, and the
// counts of its pieces beneath.
std::string corp_svg(const ReportCorp& corp, const std::vector<ModelReport>& models);
// The observed against the nominal coverage of central intervals, or of ellipsoids.
std::string coverage_svg(const CoverageCurve& coverage, bool ellipsoids);
// The PIT's histogram with its band; dimension > 0: of the Mahalanobis PIT of that dimension.
std::string pit_svg(const PitHistogram& histogram, int dimension);

}  // namespace calib::page

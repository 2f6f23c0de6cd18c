// The HTML and JSON forms of `calib report` (html_report.hpp). The figures are SVG written here:
// a reliability diagram is a few dozen marks, smaller and sharper than a plotting program's output.
#include "html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace calib::cli {

namespace {

std::string number(double x, const char* format = "%.4g") {
    if (std::isnan(x)) return "–";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, x);
    return buffer;
}

std::string escape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

bool rejected(const ReportData& r) { return r.tests[r.recommended].p_value < r.alpha; }

// Plot geometry: the diagram in a square, the histogram of the bins' counts beneath.
constexpr double left = 56, top = 34, side = 250, gap = 14, hist = 64, width = left + side + 20;
constexpr double height = top + side + gap + hist + 44;
double px(double p) { return left + side * p; }
double py(double f) { return top + side * (1 - f); }

std::string axis_ticks() {
    std::string s;
    for (int t = 0; t <= 5; ++t) {
        const double v = t / 5.0;
        const std::string label = number(v, "%.1f");
        s += "<line class=\"grid\" x1=\"" + number(px(v)) + "\" y1=\"" + number(top) + "\" x2=\"" + number(px(v)) +
             "\" y2=\"" + number(top + side) + "\"/>";
        s += "<line class=\"grid\" x1=\"" + number(left) + "\" y1=\"" + number(py(v)) + "\" x2=\"" +
             number(left + side) + "\" y2=\"" + number(py(v)) + "\"/>";
        s += "<text x=\"" + number(px(v)) + "\" y=\"" + number(top + side + gap + hist + 16) +
             "\" text-anchor=\"middle\">" + label + "</text>";
        s += "<text x=\"" + number(left - 6) + "\" y=\"" + number(py(v) + 4) + "\" text-anchor=\"end\">" + label +
             "</text>";
    }
    return s;
}

std::string reliability_svg(const ReportFigure& figure) {
    const ReliabilityDiagram& d = figure.diagram;
    const bool top_label = d.event == "top-label";
    const std::string x_label = top_label ? "confidence (largest predicted probability)" : "predicted probability";
    const std::string y_label = top_label ? "accuracy" : "observed frequency";
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" + number(width) +
                    "\" height=\"" + number(height) + "\" viewBox=\"0 0 " + number(width) + " " + number(height) + "\">";
    s += "<title>" + escape(figure.title) + "</title>";
    s += "<text class=\"title\" x=\"" + number(left + side / 2) + "\" y=\"18\" text-anchor=\"middle\">" +
         escape(figure.title) + "</text>";
    s += axis_ticks();
    s += "<rect class=\"frame\" x=\"" + number(left) + "\" y=\"" + number(top) + "\" width=\"" + number(side) +
         "\" height=\"" + number(side) + "\"/>";
    s += "<line class=\"diagonal\" x1=\"" + number(px(0)) + "\" y1=\"" + number(py(0)) + "\" x2=\"" + number(px(1)) +
         "\" y2=\"" + number(py(1)) + "\"/>";
    // Each non-empty bin: its Clopper–Pearson interval and the point (mean probability, frequency).
    std::size_t most = 1;
    for (const ReliabilityBin& b : d.bins) most = std::max(most, b.count);
    for (const ReliabilityBin& b : d.bins) {
        if (b.count == 0) continue;
        const std::string x = number(px(b.mean_confidence));
        const std::string tip = "bin [" + number(b.lower, "%.3g") + ", " + number(b.upper, "%.3g") + "]: n = " +
                                std::to_string(b.count) + ", mean probability " + number(b.mean_confidence, "%.3f") +
                                ", frequency " + number(b.frequency, "%.3f") + " [" + number(b.interval_lower, "%.3f") +
                                ", " + number(b.interval_upper, "%.3f") + "]";
        s += "<g><title>" + tip + "</title><line class=\"interval\" x1=\"" + x + "\" y1=\"" +
             number(py(b.interval_lower)) + "\" x2=\"" + x + "\" y2=\"" + number(py(b.interval_upper)) + "\"/>";
        s += "<circle class=\"point\" cx=\"" + x + "\" cy=\"" + number(py(b.frequency)) + "\" r=\"3.5\"/></g>";
        // The histogram: the bin's extent, its height proportional to its count.
        const double h = hist * static_cast<double>(b.count) / static_cast<double>(most);
        const double x0 = px(b.lower), x1 = std::max(px(b.upper), x0 + 1.5);
        s += "<rect class=\"bar\" x=\"" + number(x0) + "\" y=\"" + number(top + side + gap + hist - h) +
             "\" width=\"" + number(x1 - x0) + "\" height=\"" + number(h) + "\"><title>" + tip + "</title></rect>";
    }
    s += "<line class=\"frame\" x1=\"" + number(left) + "\" y1=\"" + number(top + side + gap + hist) + "\" x2=\"" +
         number(left + side) + "\" y2=\"" + number(top + side + gap + hist) + "\"/>";
    s += "<text x=\"" + number(left - 6) + "\" y=\"" + number(top + side + gap + 10) + "\" text-anchor=\"end\">" +
         std::to_string(most) + "</text>";
    s += "<text x=\"" + number(left + side / 2) + "\" y=\"" + number(height - 6) + "\" text-anchor=\"middle\">" +
         x_label + "</text>";
    s += "<text x=\"14\" y=\"" + number(top + side / 2) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         number(top + side / 2) + ")\">" + y_label + "</text>";
    s += "<text x=\"14\" y=\"" + number(top + side + gap + hist / 2) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         number(top + side + gap + hist / 2) + ")\">count</text>";
    return s + "</svg>";
}

const char* const style = R"(
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d1d1f;
       max-width: 1060px; margin: 24px auto; padding: 0 20px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; }
.sub { color: #555; margin: 0 0 16px; }
table { border-collapse: collapse; margin: 6px 0; } td, th { padding: 4px 12px 4px 0; text-align: left; vertical-align: top; }
th { font-weight: 600; color: #444; } td.num { font-variant-numeric: tabular-nums; text-align: right; }
.verdict { border-radius: 8px; padding: 14px 18px; margin: 16px 0; font-size: 17px; }
.verdict.reject { background: #fdecea; border: 1px solid #e0a19a; }
.verdict.accept { background: #e9f6ec; border: 1px solid #9fcfaa; }
.verdict b { font-size: 19px; } .why { color: #444; font-size: 14px; margin-top: 6px; }
tr.chosen td { font-weight: 600; }
.figures { display: flex; flex-wrap: wrap; gap: 8px 18px; }
svg { font-size: 11px; fill: #333; } svg .title { font-size: 13px; font-weight: 600; }
svg .grid { stroke: #e6e6e6; } svg .frame { fill: none; stroke: #888; }
svg .diagonal { stroke: #999; stroke-dasharray: 5 4; } svg .interval { stroke: #1f5fa8; stroke-width: 2; }
svg .point { fill: #1f5fa8; } svg .bar { fill: #9db8d9; }
.note { color: #555; font-size: 13px; } code { font-size: 13px; }
footer { margin-top: 30px; color: #666; font-size: 13px; border-top: 1px solid #ddd; padding-top: 10px; }
@media print { body { margin: 0; max-width: none; } .figures { gap: 4px 10px; } }
)";

}  // namespace

std::string report_html(const ReportData& r) {
    const ReportTest& chosen = r.tests[r.recommended];
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>Calibration report: " + escape(r.name) + "</title><style>" + style + "</style></head><body>\n";
    h += "<h1>Calibration report: " + escape(r.name) + "</h1>\n<p class=\"sub\">" + std::to_string(r.n) +
         " observations, family " + escape(r.family) +
         (r.classes ? ", " + std::to_string(r.classes) + " classes" : std::string()) +
         (r.accuracy ? ", accuracy " + number(100 * *r.accuracy, "%.1f") + " %" : std::string()) + "</p>\n";

    const bool reject = rejected(r);
    h += std::string("<div class=\"verdict ") + (reject ? "reject" : "accept") + "\"><b>" +
         (reject ? "Not calibrated" : "Consistent with calibration") + "</b> at &alpha; = " + number(r.alpha) +
         ": p " + (chosen.p_value == 0 ? "" : "= ") + escape(chosen.p_text) + " (" + escape(chosen.title) + ")" + "<div class=\"why\">" +
         (reject ? "The test rejects the hypothesis that the predictions are calibrated."
                 : "The test finds no evidence against calibration; that is not proof of calibration, "
                   "and small data sets have little power.") +
         " " + escape(r.why_recommended) + "</div></div>\n";

    h += "<h2>Calibration tests</h2>\n<table><tr><th>test</th><th>estimator</th><th>estimate</th><th>statistic</th>"
         "<th>p-value</th><th>settings</th></tr>\n";
    for (std::size_t k = 0; k < r.tests.size(); ++k) {
        const ReportTest& t = r.tests[k];
        h += std::string("<tr") + (k == r.recommended ? " class=\"chosen\"" : "") + "><td>" + escape(t.method) +
             (k == r.recommended ? " (verdict)" : "") + "</td><td>" + escape(t.estimator) + "</td><td class=\"num\">" +
             number(t.estimate) + "</td><td class=\"num\">" + number(t.statistic) + "</td><td class=\"num\">" +
             escape(t.p_text) + "</td><td>" + escape(t.settings.empty() ? "–" : t.settings) + "</td></tr>\n";
    }
    h += "</table>";
    for (const ReportTest& t : r.tests)
        if (!t.p_note.empty()) h += "<p class=\"note\">" + escape(t.method) + ": " + escape(t.p_note) + ".</p>";
    h += "<p class=\"note\">Every test is right-tailed: a small p-value speaks against calibration "
         "(docs/tests.md says when each test is valid). Kernel: " + escape(r.kernel) + ".</p>\n";

    h += "<h2>How far from calibrated</h2>\n<table><tr><th>measure</th><th>value</th><th>what it measures</th></tr>\n";
    for (const ReportEstimate& e : r.estimates)
        h += "<tr><td>" + escape(e.name) + "</td><td class=\"num\">" + number(e.value) + "</td><td>" +
             escape(e.meaning) + "</td></tr>\n";
    h += "</table><p class=\"note\">docs/math.md gives each measure's definition and sources.</p>\n";

    if (!r.figures.empty()) {
        h += "<h2>Reliability diagrams</h2>\n<p class=\"note\">Each point is a bin of predictions: its mean "
             "predicted probability against how often the event happened, with the exact (Clopper&ndash;Pearson) " +
             number(100 * r.figures.front().diagram.level, "%g") +
             " % interval; a calibrated model stays on the dashed diagonal. Beneath: the number of predictions in "
             "each bin.</p>\n<div class=\"figures\">\n";
        for (const ReportFigure& f : r.figures) h += reliability_svg(f) + "\n";
        h += "</div>\n";
    }
    h += "<footer>Files: " + escape([&] {
             std::string files;
             for (const std::string& f : r.files) files += (files.empty() ? "" : ", ") + f;
             return files;
         }()) +
         "<br>Command: <code>" + escape(r.command_line) + "</code><br>calib " + escape(r.version) + ", " +
         escape(r.created) + ", " + number(r.seconds, "%.2f") + " s</footer>\n</body></html>\n";
    return h;
}

JsonObject report_json(const ReportData& r) {
    JsonObject out;
    out.set("command", "report").set("name", r.name).set("family", r.family).set("n", r.n);
    if (r.classes) out.set("classes", r.classes);
    if (r.accuracy) out.set("accuracy", *r.accuracy);
    const ReportTest& chosen = r.tests[r.recommended];
    out.set("alpha", r.alpha)
        .set("verdict", rejected(r) ? "not calibrated" : "consistent with calibration")
        .set("verdict_test", chosen.method)
        .set("why", r.why_recommended);
    std::vector<JsonObject> tests;
    for (const ReportTest& t : r.tests)
        tests.push_back(JsonObject()
                            .set("method", t.method)
                            .set("estimator", t.estimator)
                            .set("estimate", t.estimate)
                            .set("statistic", t.statistic)
                            .set("p_value", t.p_value)
                            .set("settings", t.settings));
    out.set("tests", tests).set("kernel", r.kernel);
    std::vector<JsonObject> estimates;
    for (const ReportEstimate& e : r.estimates) estimates.push_back(JsonObject().set("name", e.name).set("value", e.value));
    out.set("estimates", estimates);
    std::vector<JsonObject> figures;
    for (const ReportFigure& f : r.figures) {
        std::vector<JsonObject> bins;
        for (const ReliabilityBin& b : f.diagram.bins) {
            JsonObject bin;
            bin.set("lower", b.lower).set("upper", b.upper).set("count", b.count).set("events", b.events);
            if (b.count > 0)
                bin.set("mean_confidence", b.mean_confidence)
                    .set("frequency", b.frequency)
                    .set("interval_lower", b.interval_lower)
                    .set("interval_upper", b.interval_upper);
            bins.push_back(bin);
        }
        figures.push_back(JsonObject()
                              .set("title", f.title)
                              .set("event", f.diagram.event)
                              .set("binning", to_string(f.binning))
                              .set("level", f.diagram.level)
                              .set("bins", bins));
    }
    out.set("reliability_diagrams", figures);
    out.set("files", r.files).set("command_line", r.command_line).set("created", r.created);
    out.set("wall_time_seconds", r.seconds).set("calib_version", r.version);
    return out;
}

}  // namespace calib::cli

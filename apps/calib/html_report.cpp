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

bool rejected(const ModelReport& m, double alpha) { return m.tests.front().p_value < alpha; }

// The models' colours (Okabe and Ito's palette, distinguishable with colour-blindness), in CSS as .s0 … .s7.
constexpr std::size_t colours = 8;
std::string series(std::size_t k) { return " s" + std::to_string(k % colours); }

// Plot geometry: a unit square of probabilities, and beneath it an optional panel of counts.
constexpr double left = 56, top = 34, side = 250, gap = 14, hist = 64, width = left + side + 20;
double px(double p) { return left + side * p; }
double py(double f) { return top + side * (1 - f); }

std::string attribute(const char* name, double value) { return std::string(" ") + name + "=\"" + number(value) + "\""; }
std::string line(const char* cls, double x1, double y1, double x2, double y2) {
    return std::string("<line class=\"") + cls + "\"" + attribute("x1", x1) + attribute("y1", y1) + attribute("x2", x2) +
           attribute("y2", y2) + "/>";
}
std::string text(double x, double y, const std::string& content, const char* anchor = "middle", double rotate = 0) {
    std::string t = "<text" + attribute("x", x) + attribute("y", y) + " text-anchor=\"" + anchor + "\"";
    if (rotate != 0) t += " transform=\"rotate(" + number(rotate) + " " + number(x) + " " + number(y) + ")\"";
    return t + ">" + escape(content) + "</text>";
}

// A point with its interval, and a bar of the counts panel; `tip` is shown on hovering.
struct Mark {
    double x, y, lower, upper;
    std::string tip;
    std::size_t model = 0;
};
struct Bar {
    double x0, x1;
    std::size_t count;
    std::string tip;
    std::size_t model = 0;
};

// The unit square with its grid, the dashed diagonal, the marks, and the bars beneath when given. With
// several models, each model's marks are moved sideways by a few pixels so that their intervals do not
// hide each other, and with `split_bars` (bins shared by the models) its bars take its share of the
// bin's width; else they overlap, translucent.
std::string square_plot(const std::string& title, const std::string& x_label, const std::string& y_label,
                        const std::vector<Mark>& marks, const std::vector<Bar>& bars, std::size_t models = 1,
                        bool split_bars = true) {
    const auto shift = [&](std::size_t k) { return 4.0 * (static_cast<double>(k) - (static_cast<double>(models) - 1) / 2); };
    const double bottom = top + side + (bars.empty() ? 0 : gap + hist), height = bottom + 44;
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"" + attribute("width", width) +
                    attribute("height", height) + " viewBox=\"0 0 " + number(width) + " " + number(height) + "\">";
    s += "<title>" + escape(title) + "</title><text class=\"title\"" + attribute("x", left + side / 2) +
         " y=\"18\" text-anchor=\"middle\">" + escape(title) + "</text>";
    for (int t = 0; t <= 5; ++t) {
        const double v = t / 5.0;
        s += line("grid", px(v), top, px(v), top + side) + line("grid", left, py(v), left + side, py(v));
        s += text(px(v), bottom + 16, number(v, "%.1f")) + text(left - 6, py(v) + 4, number(v, "%.1f"), "end");
    }
    s += "<rect class=\"frame\"" + attribute("x", left) + attribute("y", top) + attribute("width", side) +
         attribute("height", side) + "/>" + line("diagonal", px(0), py(0), px(1), py(1));
    for (const Mark& m : marks)
        s += "<g class=\"" + series(m.model).substr(1) + "\"><title>" + escape(m.tip) + "</title>" +
             line("interval", px(m.x) + shift(m.model), py(m.lower), px(m.x) + shift(m.model), py(m.upper)) +
             "<circle class=\"point\"" + attribute("cx", px(m.x) + shift(m.model)) + attribute("cy", py(m.y)) +
             " r=\"3.5\"/></g>";
    if (!bars.empty()) {
        std::size_t most = 1;
        for (const Bar& b : bars) most = std::max(most, b.count);
        for (const Bar& b : bars) {
            const double h = hist * static_cast<double>(b.count) / static_cast<double>(most);
            const double share = (px(b.x1) - px(b.x0)) / static_cast<double>(split_bars ? models : 1);
            const double x0 = px(b.x0) + (split_bars ? share * static_cast<double>(b.model) : 0);
            const double x1 = std::max(x0 + share, x0 + 1.5);
            s += "<rect class=\"bar" + series(b.model) + "\"" + attribute("x", x0) + attribute("y", bottom - h) + attribute("width", x1 - x0) +
                 attribute("height", h) + "><title>" + escape(b.tip) + "</title></rect>";
        }
        s += line("frame", left, bottom, left + side, bottom) + text(left - 6, top + side + gap + 10, std::to_string(most), "end");
        s += text(14, top + side + gap + hist / 2, "count", "middle", -90);
    }
    return s + text(left + side / 2, height - 6, x_label) + text(14, top + side / 2, y_label, "middle", -90) + "</svg>";
}

std::string reliability_svg(const ReportFigure& figure, const std::vector<ModelReport>& models) {
    std::vector<Mark> marks;
    std::vector<Bar> bars;
    for (std::size_t k = 0; k < figure.diagrams.size(); ++k)
        for (const ReliabilityBin& b : figure.diagrams[k].bins) {
            if (b.count == 0) continue;
            const std::string tip = (models.size() > 1 ? models[k].name + ", " : std::string()) + "bin [" +
                                    number(b.lower, "%.3g") + ", " + number(b.upper, "%.3g") + "]: n = " +
                                    std::to_string(b.count) + ", mean probability " + number(b.mean_confidence, "%.3f") +
                                    ", frequency " + number(b.frequency, "%.3f") + " [" + number(b.interval_lower, "%.3f") +
                                    ", " + number(b.interval_upper, "%.3f") + "]";
            marks.push_back({b.mean_confidence, b.frequency, b.interval_lower, b.interval_upper, tip, k});
            bars.push_back({b.lower, b.upper, b.count, tip, k});
        }
    const bool top_label = figure.diagrams.front().event == "top-label";
    return square_plot(figure.title, top_label ? "confidence (largest predicted probability)" : "predicted probability",
                       top_label ? "accuracy" : "observed frequency", marks, bars, figure.diagrams.size(),
                       figure.binning == ReliabilityBinning::uniform);
}

std::string coverage_svg(const CoverageCurve& c, bool ellipsoids) {
    std::vector<Mark> marks;
    for (std::size_t k = 0; k < c.nominal.size(); ++k)
        marks.push_back({c.nominal[k], c.observed[k], c.lower[k], c.upper[k],
                         "central " + number(100 * c.nominal[k], "%g") + (ellipsoids ? " % ellipsoids: " : " % intervals: ") +
                             number(100 * c.observed[k], "%.1f") + " % of the targets inside [" +
                             number(100 * c.lower[k], "%.1f") + ", " + number(100 * c.upper[k], "%.1f") + "]"});
    return square_plot(ellipsoids ? "Coverage of prediction ellipsoids" : "Coverage of central prediction intervals",
                       ellipsoids ? "nominal level of the ellipsoid" : "nominal level of the interval",
                       "fraction of targets inside", marks, {});
}

// Bars of the PIT's counts with the band a uniform PIT stays in (shaded) and its expected count.
std::string pit_svg(const PitHistogram& h, int dimension) {
    const double bottom = top + side, height = bottom + 44, bins = static_cast<double>(h.counts.size());
    double most = static_cast<double>(h.band_upper);
    for (const std::size_t c : h.counts) most = std::max(most, static_cast<double>(c));
    most *= 1.1;
    const auto y = [&](double count) { return bottom - side * count / most; };
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"" + attribute("width", width) +
                    attribute("height", height) + " viewBox=\"0 0 " + number(width) + " " + number(height) + "\">";
    const std::string title = (dimension ? "Mahalanobis PIT (" : "PIT histogram (") + std::to_string(h.counts.size()) + " bins)";
    s += "<title>" + title + "</title><text class=\"title\"" + attribute("x", left + side / 2) +
         " y=\"18\" text-anchor=\"middle\">" + title + "</text>";
    for (std::size_t k = 0; k < h.counts.size(); ++k) {
        const double x0 = px(static_cast<double>(k) / bins), x1 = px(static_cast<double>(k + 1) / bins);
        s += "<rect class=\"bar\"" + attribute("x", x0 + 1) + attribute("y", y(static_cast<double>(h.counts[k]))) +
             attribute("width", x1 - x0 - 2) + attribute("height", bottom - y(static_cast<double>(h.counts[k]))) +
             "><title>[" + number(k / bins, "%.2g") + ", " + number((k + 1) / bins, "%.2g") + "]: " +
             std::to_string(h.counts[k]) + "</title></rect>";
    }
    s += "<rect class=\"band\"" + attribute("x", left) + attribute("y", y(static_cast<double>(h.band_upper))) +
         attribute("width", side) + attribute("height", y(static_cast<double>(h.band_lower)) - y(static_cast<double>(h.band_upper))) +
         "><title>" + number(100 * h.level, "%g") + " % band of each bin's count under a uniform PIT: [" +
         std::to_string(h.band_lower) + ", " + std::to_string(h.band_upper) + "]</title></rect>";
    const double expected = static_cast<double>(h.n) / bins;
    s += line("diagonal", left, y(expected), left + side, y(expected));
    s += "<rect class=\"frame\"" + attribute("x", left) + attribute("y", top) + attribute("width", side) +
         attribute("height", side) + "/>";
    for (int t = 0; t <= 5; ++t) s += text(px(t / 5.0), bottom + 16, number(t / 5.0, "%.1f"));
    s += text(left - 6, y(expected) + 4, number(expected, "%.0f"), "end") + text(left - 6, top + 10, number(most, "%.0f"), "end");
    return s + text(left + side / 2, height - 6, dimension ? "F of chi-squared(" + std::to_string(dimension) + ") at the squared distance" : "PIT value F(y)") + text(14, top + side / 2, "count", "middle", -90) + "</svg>";
}

const char* const style = R"(
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d1d1f;
       max-width: 1060px; margin: 24px auto; padding: 0 20px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; }
.sub { color: #555; margin: 0 0 16px; }
table { border-collapse: collapse; margin: 6px 0; } td, th { padding: 4px 12px 4px 0; text-align: left; vertical-align: top; }
th { font-weight: 600; color: #444; } td.num { font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
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
svg .s0 { fill: #0072b2; stroke: #0072b2; } svg .s1 { fill: #d55e00; stroke: #d55e00; } svg .s2 { fill: #009e73; stroke: #009e73; }
svg .s3 { fill: #cc79a7; stroke: #cc79a7; } svg .s4 { fill: #e69f00; stroke: #e69f00; } svg .s5 { fill: #56b4e9; stroke: #56b4e9; }
svg .s6 { fill: #000000; stroke: #000000; } svg .s7 { fill: #999933; stroke: #999933; }
svg g .interval { stroke: inherit; } svg g .point { fill: inherit; stroke: none; } svg .bar[class*=" s"] { fill-opacity: 0.45; stroke: none; }
.legend span { display: inline-block; margin-right: 18px; } .legend i { display: inline-block; width: 12px; height: 12px;
  border-radius: 6px; margin-right: 6px; vertical-align: -1px; }
.s0 i { background: #0072b2; } .s1 i { background: #d55e00; } .s2 i { background: #009e73; } .s3 i { background: #cc79a7; }
.s4 i { background: #e69f00; } .s5 i { background: #56b4e9; } .s6 i { background: #000000; } .s7 i { background: #999933; } svg .band { fill: #777; fill-opacity: 0.22; stroke: #777; stroke-opacity: 0.6; }
.note { color: #555; font-size: 13px; } code { font-size: 13px; }
footer { margin-top: 30px; color: #666; font-size: 13px; border-top: 1px solid #ddd; padding-top: 10px; }
@media print { body { margin: 0; max-width: none; } .figures { gap: 4px 10px; } }
)";


std::string interval_text(const ReportEstimate& e) {
    return e.lower ? "[" + number(*e.lower) + ", " + number(*e.upper) + "]" : "–";
}

std::string verdict_html(const ModelReport& m, const ReportData& r) {
    const ReportTest& chosen = m.tests.front();
    const bool reject = rejected(m, r.alpha);
    return std::string("<div class=\"verdict ") + (reject ? "reject" : "accept") + "\">" +
           (r.models.size() > 1 ? escape(m.name) + ": " : std::string()) + "<b>" +
           (reject ? "Not calibrated" : "Consistent with calibration") + "</b> at &alpha; = " + number(r.alpha) + ": p " +
           (chosen.p_value == 0 ? "" : "= ") + escape(chosen.p_text) + " (" + escape(chosen.title) + ")" +
           "<div class=\"why\">" +
           (reject ? "The test rejects the hypothesis that the predictions are calibrated."
                   : "The test finds no evidence against calibration; that is not proof of calibration, "
                     "and small data sets have little power.") +
           " " + escape(m.why_recommended) + "</div></div>\n";
}

std::string tests_html(const ReportData& r) {
    const bool several = r.models.size() > 1;
    std::string h = std::string("<h2>Calibration tests</h2>\n<table><tr>") + (several ? "<th>model</th>" : "") +
                    "<th>test</th><th>estimator</th><th>estimate</th><th>statistic</th><th>p-value</th><th>settings</th></tr>\n";
    for (const ModelReport& m : r.models)
        for (std::size_t k = 0; k < m.tests.size(); ++k) {
            const ReportTest& t = m.tests[k];
            h += std::string("<tr") + (k == 0 ? " class=\"chosen\"" : "") + ">" +
                 (several ? "<td>" + (k == 0 ? escape(m.name) : std::string()) + "</td>" : std::string()) + "<td>" +
                 escape(t.method) + (k == 0 ? " (verdict)" : "") + "</td><td>" + escape(t.estimator) +
                 "</td><td class=\"num\">" + number(t.estimate) + "</td><td class=\"num\">" + number(t.statistic) +
                 "</td><td class=\"num\">" + escape(t.p_text) + "</td><td>" + escape(t.settings.empty() ? "–" : t.settings) +
                 "</td></tr>\n";
        }
    h += "</table>";
    for (const ModelReport& m : r.models)
        for (const ReportTest& t : m.tests)
            if (!t.p_note.empty())
                h += "<p class=\"note\">" + (several ? escape(m.name) + ", " : std::string()) + escape(t.method) + ": " +
                     escape(t.p_note) + ".</p>";
    std::string kernels;
    for (const ModelReport& m : r.models)
        kernels += (kernels.empty() ? "" : "; ") + (several ? m.name + ": " : std::string()) + m.kernel;
    h += "<p class=\"note\">Every test is right-tailed: a small p-value speaks against calibration "
         "(docs/tests.md says when each test is valid). Kernel: " + escape(kernels) + ".</p>\n";
    return h;
}

std::string errors_html(const ReportData& r) {
    const bool several = r.models.size() > 1;
    std::string h = "<h2>How far from calibrated</h2>\n<table><tr><th>measure</th>";
    for (const ModelReport& m : r.models)
        h += several ? "<th colspan=\"2\">" + escape(m.name) + "</th>" : "<th>value</th><th>" + number(100 * r.level, "%g") + " % interval</th>";
    if (!several) h += "<th>what it measures</th>";  // several models: below the table, for room
    h += "</tr>\n";
    if (several) {
        h += "<tr><th></th>";
        for (std::size_t k = 0; k < r.models.size(); ++k) h += "<th>value</th><th>" + number(100 * r.level, "%g") + " % interval</th>";
        h += "</tr>\n";
    }
    for (std::size_t e = 0; e < r.models.front().estimates.size(); ++e) {
        h += "<tr><td>" + escape(r.models.front().estimates[e].name) + "</td>";
        for (const ModelReport& m : r.models)
            h += "<td class=\"num\">" + number(m.estimates[e].value) + "</td><td class=\"num\">" + interval_text(m.estimates[e]) + "</td>";
        h += (several ? std::string() : "<td>" + escape(r.models.front().estimates[e].meaning) + "</td>") + "</tr>\n";
    }
    h += "</table>";
    if (several)
        for (const ReportEstimate& e : r.models.front().estimates)
            h += "<p class=\"note\"><b>" + escape(e.name) + "</b>: " + escape(e.meaning) + ".</p>";
    h += "<p class=\"note\">The intervals are " + number(100 * r.level, "%g") +
         " % bootstrap percentile intervals from R = " + std::to_string(r.replicates) + " resamples of the n observations "
         "(seed " + std::to_string(r.seed) + "): how much each estimate would vary on another sample of this size. "
         "The ECE and the CKCE are biased upwards, and more so on a resample (it repeats observations), so "
         "their intervals can lie above the estimate; the SKCE's replicates leave out the pairs of repeated "
         "observations and are centred on it. docs/math.md gives each measure's definition and sources; docs/cli.md "
         "the intervals.</p>\n";
    return h;
}

std::string ranking_html(const RankRun& run) {
    const ModelComparison& comparison = run.comparison.comparison;
    const std::vector<std::string> estimators = run.setup->estimators();
    const std::string level = number(100 * to_double(run.setup->get("level")), "%g") + " %";
    std::string h = "<h2>Ranking</h2>\n<p class=\"note\">As <code>calib rank</code> with the same seed and replicates: "
                    "the models ranked by each estimator (lower is better calibrated), and for each pair the " +
                    level + " paired bootstrap interval of the difference (" + to_text(run.setup->get("replicates")) +
                    " replicates, each resampling the observations once for every model).</p>\n";
    for (std::size_t e = 0; e < estimators.size(); ++e) {
        const EstimatorComparison& c = comparison.results[e];
        h += "<h3>" + escape(estimators[e]) + " <span class=\"note\">(" + escape(description(run, estimators[e])) +
             ")</span></h3>\n<table><tr><th>rank</th><th>model</th><th>estimate</th><th>bootstrap s.e.</th></tr>\n";
        std::size_t place = 1;
        for (const std::size_t k : c.ranking)
            h += "<tr><td>" + std::to_string(place++) + "</td><td><span class=\"legend" + series(k) + "\"><i></i></span>" +
                 escape(run.files[k]) + "</td><td class=\"num\">" + number(c.estimates[k]) + "</td><td class=\"num\">" +
                 number(c.std_errors[k], "%.3g") + "</td></tr>\n";
        h += "</table>\n<table><tr><th>first &minus; second</th><th>difference</th><th>" + level +
             " interval</th><th>P(first lower)</th><th>verdict</th></tr>\n";
        for (const PairComparison& p : c.pairs)
            h += "<tr><td>" + escape(run.files[p.first]) + " &minus; " + escape(run.files[p.second]) +
                 "</td><td class=\"num\">" + number(p.difference) + "</td><td class=\"num\">[" + number(p.lower) + ", " +
                 number(p.upper) + "]</td><td class=\"num\">" + number(p.probability_first_lower, "%.3f") + "</td><td>" +
                 escape(verdict_text(run, p)) + "</td></tr>\n";
        h += "</table>\n";
    }
    return h;
}

std::string legend_html(const std::vector<ModelReport>& models) {
    std::string h = "<p class=\"legend\">";
    for (std::size_t k = 0; k < models.size(); ++k)
        h += "<span class=\"" + series(k).substr(1) + "\"><i></i>" + escape(models[k].name) + "</span>";
    return h + "</p>\n";
}

std::string evaluated_html(const ReportData& r) {
    std::string h = "<p class=\"sub\">" + std::to_string(r.n) + " observations, family " + escape(r.family) +
                    (r.classes ? ", " + std::to_string(r.classes) + " classes" : std::string()) +
                    (r.dimension ? ", dimension " + std::to_string(r.dimension) : std::string());
    for (const ModelReport& m : r.models) {
        h += r.models.size() > 1 ? "<br>" + escape(m.name) + ": " : std::string(", ");
        if (m.accuracy) h += "accuracy " + number(100 * *m.accuracy, "%.1f") + " %";
        if (m.nll) h += "mean negative log-likelihood " + number(*m.nll) + " nats";
    }
    return h + "</p>\n";
}

}  // namespace

std::string report_html(const ReportData& r) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>Calibration report: " + escape(r.title) + "</title><style>" + style + "</style></head><body>\n";
    h += "<h1>Calibration report: " + escape(r.title) + "</h1>\n" + evaluated_html(r);
    for (const ModelReport& m : r.models) h += verdict_html(m, r);
    h += tests_html(r) + errors_html(r);
    if (r.ranking) h += ranking_html(*r.ranking);
    if (!r.figures.empty()) {
        h += "<h2>Reliability diagrams</h2>\n<p class=\"note\">Each point is a bin of predictions: its mean "
             "predicted probability against how often the event happened, with the exact (Clopper&ndash;Pearson) " +
             number(100 * r.figures.front().diagrams.front().level, "%g") +
             " % interval; a calibrated model stays on the dashed diagonal. Beneath: the number of predictions in "
             "each bin." + (r.models.size() > 1 ? " The models' points are drawn a few pixels apart." : "") + "</p>\n";
        if (r.models.size() > 1) h += legend_html(r.models);
        h += "<div class=\"figures\">\n";
        for (const ReportFigure& f : r.figures) h += reliability_svg(f, r.models) + "\n";
        h += "</div>\n";
    }
    if (r.pit) {
        const bool ellipsoids = r.dimension > 0;
        h += "<h2>Predictive distributions</h2>\n<p class=\"note\">Left: " +
             std::string(ellipsoids
                             ? "the squared Mahalanobis distance of each target from its predicted mean, through the "
                               "CDF of the chi-squared distribution with d = " + std::to_string(r.dimension) +
                               " degrees of freedom (the distance's law under calibration), which is then uniform"
                             : "the probability integral transform F(y) of each target under its predicted "
                               "distribution, which is uniform for a calibrated model") +
             "; the shaded band holds each bin's count with probability " + number(100 * r.pit->level, "%g") +
             " % under uniformity (bin by bin), the dashed line is the expected count. Right: how often the target "
             "falls in the " + (ellipsoids ? "central prediction ellipsoid" : "central interval") +
             " of each nominal level, with exact intervals; calibrated: on the "
             "diagonal. Over-dispersed predictions put too many targets inside (points above), under-dispersed "
             "ones too few.</p>\n<div class=\"figures\">\n" + pit_svg(*r.pit, r.dimension) + "\n" +
             coverage_svg(*r.coverage, ellipsoids) + "\n</div>\n";
    }
    std::string files;
    for (const ModelReport& m : r.models)
        for (const std::string& f : m.files) files += (files.empty() ? "" : ", ") + f;
    h += "<footer>Files: " + escape(files) + "<br>Command: <code>" + escape(r.command_line) + "</code><br>calib " +
         escape(r.version) + ", " + escape(r.created) + ", " + number(r.seconds, "%.2f") + " s</footer>\n</body></html>\n";
    return h;
}

namespace {

JsonObject model_json(const ModelReport& m, double alpha) {
    JsonObject out;
    out.set("name", m.name).set("files", m.files);
    if (m.accuracy) out.set("accuracy", *m.accuracy);
    if (m.nll) out.set("nll", *m.nll);
    out.set("verdict", rejected(m, alpha) ? "not calibrated" : "consistent with calibration")
        .set("verdict_test", m.tests.front().method)
        .set("why", m.why_recommended);
    std::vector<JsonObject> tests;
    for (const ReportTest& t : m.tests)
        tests.push_back(JsonObject()
                            .set("method", t.method)
                            .set("estimator", t.estimator)
                            .set("estimate", t.estimate)
                            .set("statistic", t.statistic)
                            .set("p_value", t.p_value)
                            .set("settings", t.settings));
    out.set("tests", tests).set("kernel", m.kernel);
    std::vector<JsonObject> estimates;
    for (const ReportEstimate& e : m.estimates) {
        JsonObject estimate;
        estimate.set("name", e.name).set("value", e.value);
        if (e.lower) estimate.set("lower", *e.lower).set("upper", *e.upper).set("std_error", *e.std_error);
        estimates.push_back(estimate);
    }
    return out.set("estimates", estimates);
}

JsonObject diagram_json(const ReliabilityDiagram& d) {
    std::vector<JsonObject> bins;
    for (const ReliabilityBin& b : d.bins) {
        JsonObject bin;
        bin.set("lower", b.lower).set("upper", b.upper).set("count", b.count).set("events", b.events);
        if (b.count > 0)
            bin.set("mean_confidence", b.mean_confidence)
                .set("frequency", b.frequency)
                .set("interval_lower", b.interval_lower)
                .set("interval_upper", b.interval_upper);
        bins.push_back(bin);
    }
    return JsonObject().set("bins", bins);
}

}  // namespace

JsonObject report_json(const ReportData& r) {
    JsonObject out;
    out.set("command", "report").set("title", r.title).set("family", r.family).set("n", r.n);
    if (r.classes) out.set("classes", r.classes);
    if (r.dimension) out.set("dimension", r.dimension);
    out.set("alpha", r.alpha);
    out.set("intervals", JsonObject()
                             .set("method", "percentile bootstrap")
                             .set("replicates", r.replicates)
                             .set("level", r.level)
                             .set("seed", r.seed));
    std::vector<JsonObject> models;
    for (const ModelReport& m : r.models) models.push_back(model_json(m, r.alpha));
    out.set("models", models);
    if (r.ranking) out.set("ranking", rank_json(*r.ranking));
    std::vector<JsonObject> figures;
    for (const ReportFigure& f : r.figures) {
        std::vector<JsonObject> diagrams;
        for (const ReliabilityDiagram& d : f.diagrams) diagrams.push_back(diagram_json(d));
        figures.push_back(JsonObject()
                              .set("title", f.title)
                              .set("event", f.diagrams.front().event)
                              .set("binning", to_string(f.binning))
                              .set("level", f.diagrams.front().level)
                              .set("models", diagrams));
    }
    out.set("reliability_diagrams", figures);
    if (r.pit) {
        const std::vector<double> counts(r.pit->counts.begin(), r.pit->counts.end());
        out.set(r.dimension ? "mahalanobis_pit_histogram" : "pit_histogram",
                JsonObject()
                    .set("counts", counts)
                    .set("band_lower", r.pit->band_lower)
                    .set("band_upper", r.pit->band_upper)
                    .set("level", r.pit->level));
        out.set(r.dimension ? "ellipsoid_coverage" : "interval_coverage",
                JsonObject()
                    .set("nominal", r.coverage->nominal)
                    .set("observed", r.coverage->observed)
                    .set("lower", r.coverage->lower)
                    .set("upper", r.coverage->upper)
                    .set("level", r.coverage->level));
    }
    out.set("command_line", r.command_line).set("created", r.created);
    out.set("wall_time_seconds", r.seconds).set("calib_version", r.version);
    return out;
}

}  // namespace calib::cli

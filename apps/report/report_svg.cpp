// The figures of `calib report` as inline SVG (report_svg.hpp).
#include "report_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace calib::page {

std::string number(double x, const char* format) {
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

// The models' colours (Okabe and Ito's palette, distinguishable with colour-blindness), in CSS as .s0 … .s7.
std::string series(std::size_t k) {
    constexpr std::size_t colours = 8;
    return " s" + std::to_string(k % colours);
}

namespace {

// Plot geometry: a unit square of probabilities, and beneath it an optional panel of counts.
constexpr double left = 56, top = 34, side = 250, gap = 14, hist = 64, width = left + side + 20;
double px(double p) { return left + side * p; }

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
    bool at_edge = false;  // beyond a logit axis (a frequency of 0 or 1): drawn hollow at its edge
};
struct Bar {
    double x0, x1;
    std::size_t count;
    std::string tip;
    std::size_t model = 0;
};
// A line through (x, y) with a shaded band [lower, upper] at band_x (none when band_x is empty).
struct Curve {
    std::vector<double> x, y, band_x, lower, upper;
    std::string tip;
    std::size_t model = 0;
};

// The probability axes of a square: the usual [0, 1], or the logit scale log(p/(1 - p)) over the decades
// of p and 1 - p that the marks reach (ticks 0.001, 0.01, 0.1, 0.5, 0.9, 0.99, ...), on both axes, so
// that the diagonal stays the diagonal. Values beyond the range (a frequency of 0 or 1, an interval's
// end) are drawn at its edge.
class Scale {
public:
    static Scale linear() { return Scale(); }
    static Scale logit(const std::vector<double>& values) {
        Scale s;
        s.logit_ = true;
        const std::vector<double> ticks = logit_ticks();
        double lo = 0.5, hi = 0.5;
        for (const double v : values)
            if (v > 0 && v < 1) lo = std::min(lo, v), hi = std::max(hi, v);
        s.lo_ = ticks.front();
        s.hi_ = ticks.back();
        for (const double t : ticks) {
            if (t <= lo) s.lo_ = t;
            if (t >= hi && s.hi_ == ticks.back()) s.hi_ = t;
        }
        return s;
    }
    // The position of probability p across the square, in [0, 1].
    double at(double p) const {
        if (!logit_) return p;
        const double x = (odds(std::clamp(p, lo_, hi_)) - odds(lo_)) / (odds(hi_) - odds(lo_));
        return std::clamp(x, 0.0, 1.0);
    }
    std::vector<std::pair<double, std::string>> ticks() const {
        std::vector<std::pair<double, std::string>> out;
        if (!logit_) {
            for (int t = 0; t <= 5; ++t) out.push_back({t / 5.0, number(t / 5.0, "%.1f")});
            return out;
        }
        for (const double t : logit_ticks()) {
            if (t < lo_ || t > hi_) continue;
            std::string label = number(t, t >= 0.5 ? "%.10g" : t >= 1e-4 ? "%.4f" : "%.0e");  // 0.001; 1e-05
            if (t < 0.5 && t >= 1e-4) label.erase(label.find_last_not_of('0') + 1);
            if (t < 1e-4) label.erase(label.find("e-0") + 2, 1);                           // 1e-5
            out.push_back({t, label});
        }
        return out;
    }
    bool is_logit() const { return logit_; }

private:
    static double odds(double p) { return std::log(p / (1 - p)); }
    static std::vector<double> logit_ticks() {
        return {1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999, 0.999999};
    }
    bool logit_ = false;
    double lo_ = 0, hi_ = 1;
};

// The unit square with its grid, the dashed diagonal, the marks, and the bars beneath when given. With
// several models, each model's marks are moved sideways by a few pixels so that their intervals do not
// hide each other; with `split_bars` (bins shared by the models) its bars take its share of the bin's
// width, else (each model its own bins) a row of the panel of its own.
// Counts that differ by more than a factor of 20 are drawn on a log scale (log(1 + count)), so that a
// bin of a few predictions stays visible beside one of thousands; the panel's label says so.
std::string square_plot(const std::string& title, const std::string& x_label, const std::string& y_label,
                        const std::vector<Mark>& marks, const std::vector<Bar>& bars, std::size_t models = 1,
                        bool split_bars = true, const Scale& scale = Scale::linear(),
                        const std::vector<Curve>& curves = {}, const std::vector<SmoothEce>& smooth_ece = {}) {
    const auto x_at = [&](double p) { return left + side * scale.at(p); };
    const auto y_at = [&](double f) { return top + side * (1 - scale.at(f)); };
    const auto shift = [&](std::size_t k) { return 4.0 * (static_cast<double>(k) - (static_cast<double>(models) - 1) / 2); };
    const double bottom = top + side + (bars.empty() ? 0 : gap + hist), height = bottom + 44;
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"" + attribute("width", width) +
                    attribute("height", height) + " viewBox=\"0 0 " + number(width) + " " + number(height) + "\">";
    s += "<title>" + escape(title) + "</title><text class=\"title\"" + attribute("x", left + side / 2) +
         " y=\"18\" text-anchor=\"middle\">" + escape(title) + "</text>";
    double labelled_x = -1e9, labelled_y = 1e9;  // a tick's label only where it does not run into the last one
    for (const auto& [v, label] : scale.ticks()) {
        s += line("grid", x_at(v), top, x_at(v), top + side) + line("grid", left, y_at(v), left + side, y_at(v));
        if (x_at(v) - labelled_x >= 7.0 * static_cast<double>(label.size()))
            s += text(x_at(v), bottom + 16, label), labelled_x = x_at(v);
        if (labelled_y - y_at(v) >= 13) s += text(left - 6, y_at(v) + 4, label, "end"), labelled_y = y_at(v);
    }
    s += "<rect class=\"frame\"" + attribute("x", left) + attribute("y", top) + attribute("width", side) +
         attribute("height", side) + "/>" + line("diagonal", left, top + side, left + side, top);
    // The curves beneath the bins' marks: each model's band, then its line.
    for (const Curve& c : curves) {
        if (c.x.empty()) continue;
        std::string band, curve;
        for (std::size_t j = 0; j < c.band_x.size(); ++j) band += number(x_at(c.band_x[j])) + "," + number(y_at(c.upper[j])) + " ";
        for (std::size_t j = c.band_x.size(); j-- > 0;) band += number(x_at(c.band_x[j])) + "," + number(y_at(c.lower[j])) + " ";
        for (std::size_t j = 0; j < c.x.size(); ++j) curve += number(x_at(c.x[j])) + "," + number(y_at(c.y[j])) + " ";
        s += "<g class=\"" + series(c.model).substr(1) + "\"><title>" + escape(c.tip) + "</title>" +
             (band.empty() ? std::string() : "<polygon class=\"smooth-band\" points=\"" + band + "\"/>") +
             "<polyline class=\"smooth\" points=\"" + curve + "\"/></g>";
    }
    // The smooth ECE's curves, dotted: each model's smoothed frequency where its kernel holds the weight of
    // at least smooth_ece_min_weight predictions (elsewhere one far prediction's label decides it), in
    // pieces where that weight falls short in between.
    for (std::size_t k = 0; k < smooth_ece.size(); ++k) {
        const SmoothEce& e = smooth_ece[k];
        std::string pieces, piece;
        std::size_t points = 0;
        const auto close = [&] {
            if (points >= 2) pieces += "<polyline class=\"smooth-ece\" points=\"" + piece + "\"/>";
            piece.clear();
            points = 0;
        };
        for (std::size_t j = 0; j < e.mesh.size(); ++j) {
            if (smooth_ece_weight(e, j) < smooth_ece_min_weight) {
                close();
                continue;
            }
            piece += number(x_at(e.mesh[j])) + "," + number(y_at(e.frequency[j])) + " ";
            ++points;
        }
        close();
        s += "<g class=\"" + series(k).substr(1) + "\"><title>smooth ECE's reliability curve (Blasiok &amp; Nakkiran): "
             "the frequency smoothed by a Gaussian kernel reflected at 0 and 1, bandwidth " +
             number(e.bandwidth, "%.3g") + " = the smooth ECE</title>" + pieces + "</g>";
    }
    for (const Mark& m : marks)
        s += "<g class=\"" + series(m.model).substr(1) + "\"><title>" + escape(m.tip) + "</title>" +
             line("interval", x_at(m.x) + shift(m.model), y_at(m.lower), x_at(m.x) + shift(m.model), y_at(m.upper)) +
             "<circle class=\"point" + (m.at_edge ? " edge" : "") + "\"" + attribute("cx", x_at(m.x) + shift(m.model)) + attribute("cy", y_at(m.y)) +
             " r=\"3.5\"/></g>";
    if (!bars.empty()) {
        std::size_t most = 1, fewest = SIZE_MAX;
        for (const Bar& b : bars) most = std::max(most, b.count), fewest = std::min(fewest, std::max<std::size_t>(b.count, 1));
        const bool log_counts = most > 20 * fewest;
        const auto fraction = [&](std::size_t count) {
            const double c = static_cast<double>(count), m = static_cast<double>(most);
            return log_counts ? std::log1p(c) / std::log1p(m) : c / m;
        };
        for (const Bar& b : bars) {
            const bool rows = !split_bars && models > 1;
            const double row = rows ? hist / static_cast<double>(models) : hist;
            const double base = bottom - (rows ? row * static_cast<double>(models - 1 - b.model) : 0);
            const double h = (rows ? row - 1 : row) * fraction(b.count);
            const double share = (x_at(b.x1) - x_at(b.x0)) / static_cast<double>(split_bars ? models : 1);
            const double x0 = x_at(b.x0) + (split_bars ? share * static_cast<double>(b.model) : 0);
            const double x1 = std::max(x0 + share, x0 + 1.5);
            s += "<rect class=\"bar" + series(b.model) + "\"" + attribute("x", x0) + attribute("y", base - h) +
                 attribute("width", x1 - x0) + attribute("height", h) + "><title>" + escape(b.tip) + "</title></rect>";
        }
        s += line("frame", left, bottom, left + side, bottom) + text(left - 6, top + side + gap + 10, std::to_string(most), "end");
        s += text(14, top + side + gap + hist / 2, log_counts ? "count (log)" : "count", "middle", -90);
    }
    return s + text(left + side / 2, height - 6, x_label) + text(14, top + side / 2, y_label, "middle", -90) + "</svg>";
}

}  // namespace

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
            const bool at_edge = figure.logit && (b.events == 0 || b.events == b.count);
            marks.push_back({b.mean_confidence, b.frequency, b.interval_lower, b.interval_upper, tip, k, at_edge});
            bars.push_back({b.lower, b.upper, b.count, tip, k});
        }
    const bool top_label = figure.diagrams.front().event == "top-label";
    std::vector<double> values;  // what the logit scale must show: the points and the curves' probabilities
    for (const Mark& m : marks) values.push_back(m.x), values.push_back(m.at_edge ? m.x : m.y);
    const std::string scale_note = figure.logit ? " (logit scale)" : "";
    // Bins of equal counts need no counts panel: the title says how many predictions each holds.
    if (figure.binning == ReliabilityBinning::equal_mass) bars.clear();
    std::vector<Curve> curves;
    for (std::size_t k = 0; k < figure.diagrams.size(); ++k) {
        const ReliabilityDiagram& d = figure.diagrams[k];
        curves.push_back({d.smooth.probability, d.smooth.frequency, d.smooth.probability, d.smooth.lower, d.smooth.upper,
                          "smoothed frequency (kernel smoother, bandwidth " + number(d.smooth.bandwidth, "%.3g") +
                              " on the logit scale) with its pointwise band",
                          k});
        // Its probabilities, not its frequencies: a smoothed frequency near 0 or 1 would stretch the scale
        // over decades that hold no prediction; it is drawn at the edge instead.
        values.insert(values.end(), d.smooth.probability.begin(), d.smooth.probability.end());
    }
    return square_plot(figure.title,
                       (top_label ? figure.logit ? "confidence" : "confidence (largest predicted probability)"
                                  : "predicted probability") + scale_note,
                       (top_label ? "accuracy" : "observed frequency") + scale_note, marks, bars, figure.diagrams.size(),
                       figure.binning == ReliabilityBinning::uniform, figure.logit ? Scale::logit(values) : Scale::linear(),
                       curves, figure.smooth_ece);
}

// Each model's CORP curve through its PAV pieces' ends with the consistency band shaded, and the pieces'
// counts beneath (a row per model).
std::string corp_svg(const ReportCorp& corp, const std::vector<ModelReport>& models) {
    std::vector<Curve> curves;
    std::vector<Bar> bars;
    std::vector<double> values;  // what the logit scale must show: the predictions
    for (std::size_t k = 0; k < corp.diagrams.size(); ++k) {
        const CorpDiagram& d = corp.diagrams[k];
        Curve c{{}, {}, d.x, d.consistency_lower, d.consistency_upper,
                (models.size() > 1 ? models[k].name + ": " : std::string()) + "CORP curve (isotonic recalibration) with the " +
                    number(100 * d.level, "%g") + " % consistency band of a calibrated model from " +
                    std::to_string(d.replicates) + " resamples",
                k};
        if (d.replicates == 0) c.band_x.clear();
        for (const IsotonicBlock& b : d.curve) {
            c.x.insert(c.x.end(), {b.lower, b.upper});
            c.y.insert(c.y.end(), {b.value, b.value});
            values.insert(values.end(), {b.lower, b.upper});
            bars.push_back({b.lower, b.upper, b.count,
                            (models.size() > 1 ? models[k].name + ", " : std::string()) + "[" + number(b.lower, "%.3g") +
                                ", " + number(b.upper, "%.3g") + "]: n = " + std::to_string(b.count) +
                                ", recalibrated to " + number(b.value, "%.3f"),
                            k});
        }
        curves.push_back(std::move(c));
    }
    const bool top_label = corp.event == "Top-label";
    const std::string scale_note = corp.logit ? " (logit scale)" : "";
    return square_plot("CORP: " + corp.event + ", no bins", (top_label ? "confidence" : "predicted probability") + scale_note,
                       std::string(top_label ? "recalibrated accuracy" : "recalibrated probability") + scale_note, {}, bars,
                       corp.diagrams.size(), false, corp.logit ? Scale::logit(values) : Scale::linear(), curves);
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

}  // namespace calib::page

// The JSON form of `calib report` (html_report.hpp): the page's numbers, and the data behind each figure.
#include "html_report.hpp"

namespace calib::cli {

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
        if (!e.warnings.empty()) estimate.set("warnings", e.warnings);
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
    JsonObject out;
    out.set("bins", bins);
    if (!d.smooth.probability.empty())
        out.set("smooth", JsonObject()
                              .set("bandwidth", d.smooth.bandwidth)
                              .set("probability", d.smooth.probability)
                              .set("frequency", d.smooth.frequency)
                              .set("lower", d.smooth.lower)
                              .set("upper", d.smooth.upper));
    return out;
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
                              .set("scale", f.logit ? "logit" : "linear")
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

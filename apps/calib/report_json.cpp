// The JSON form of `calib report` (html_report.hpp): the page's numbers, and the data behind each figure.
#include "html_report.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

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
    if (!m.test_notes.empty()) out.set("test_notes", m.test_notes);
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

// A diagram's record (reliability.hpp) as JSON. An empty bin's mean confidence, frequency and interval
// are undefined (NaN in the record, as Python gives them); JSON has no NaN, so they are left out.
JsonObject diagram_json(const ReliabilityDiagram& d) {
    Record record = d.record();
    for (Field& f : record)
        if (auto* bins = std::get_if<std::vector<Record>>(&f.value))
            for (Record& bin : *bins)
                bin.erase(std::remove_if(bin.begin(), bin.end(),
                                         [](const Field& g) {
                                             const double* x = std::get_if<double>(&g.value);
                                             return x && std::isnan(*x);
                                         }),
                          bin.end());
    return JsonObject().merge(record);
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
    if (r.ranking) out.set("ranking", JsonObject().set("command", "rank").merge(*r.ranking));
    std::vector<JsonObject> figures;
    for (const ReportFigure& f : r.figures) {
        std::vector<JsonObject> diagrams, smooth;
        for (const ReliabilityDiagram& d : f.diagrams) diagrams.push_back(diagram_json(d));
        for (const SmoothEce& e : f.smooth_ece)  // the fields of calib estimate --estimator smooth-ece --curve-points
            smooth.push_back(JsonObject()
                                 .set("estimate", e.value)
                                 .set("bandwidth_used", e.bandwidth)
                                 .set("t", e.mesh)
                                 .set("frequency", e.frequency)
                                 .set("density", e.density));
        JsonObject figure;
        figure.set("title", f.title)
            .set("event", f.diagrams.front().event)
            .set("binning", to_string(f.binning))
            .set("scale", f.logit ? "logit" : "linear")
            .set("level", f.diagrams.front().level)
            .set("models", diagrams);
        if (!smooth.empty()) figure.set("smooth_ece", smooth);  // one per model, on the [0, 1] scale
        figures.push_back(figure);
    }
    out.set("reliability_diagrams", figures);
    if (r.pit) {
        out.set(r.dimension ? "mahalanobis_pit_histogram" : "pit_histogram", JsonObject().merge(r.pit->record()));
        out.set(r.dimension ? "ellipsoid_coverage" : "interval_coverage", JsonObject().merge(r.coverage->record()));
    }
    out.set("command_line", r.command_line).set("created", r.created);
    out.set("wall_time_seconds", r.seconds).set("calib_version", r.version);
    return out;
}

}  // namespace calib::cli

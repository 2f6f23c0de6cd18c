// The report's numbers as one record (the operation report's result; `calib report --format json`):
// the page's numbers, and the data behind each figure.
#include <calib/report.hpp>

namespace calib::detail {

namespace {

std::uint64_t count(std::size_t k) { return static_cast<std::uint64_t>(k); }

Record model_record(const ModelReport& m, double alpha) {
    Record out{{"name", m.name}};
    if (m.accuracy) out.push_back({"accuracy", *m.accuracy});
    if (m.nll) out.push_back({"nll", *m.nll});
    out.push_back({"verdict", std::string(rejected(m, alpha) ? "not calibrated" : "consistent with calibration")});
    out.push_back({"verdict_test", m.tests.front().method});
    out.push_back({"why", m.why_recommended});
    std::vector<Record> tests;
    for (const ReportTest& t : m.tests)
        tests.push_back({{"method", t.method},
                         {"estimator", t.estimator},
                         {"estimate", t.estimate},
                         {"statistic", t.statistic},
                         {"p_value", t.p_value},
                         {"settings", t.settings}});
    out.push_back({"tests", tests});
    out.push_back({"kernel", m.kernel});
    if (!m.test_notes.empty()) out.push_back({"test_notes", m.test_notes});
    std::vector<Record> estimates;
    for (const ReportEstimate& e : m.estimates) {
        Record estimate{{"name", e.name}, {"value", e.value}};
        if (e.lower) estimate.insert(estimate.end(), {{"lower", *e.lower}, {"upper", *e.upper}, {"std_error", *e.std_error}});
        if (!e.warnings.empty()) estimate.push_back({"warnings", e.warnings});
        estimates.push_back(std::move(estimate));
    }
    out.push_back({"estimates", estimates});
    return out;
}

}  // namespace

Record report_record(const ReportData& r) {
    Record out{{"command", std::string("report")}, {"title", r.title}, {"family", r.family}, {"n", count(r.n)}};
    if (r.classes) out.push_back({"classes", std::int64_t(r.classes)});
    if (r.dimension) out.push_back({"dimension", std::int64_t(r.dimension)});
    out.push_back({"alpha", r.alpha});
    out.push_back({"intervals", Record{{"method", std::string("percentile bootstrap")},
                                       {"replicates", count(r.replicates)},
                                       {"level", r.level},
                                       {"seed", r.seed}}});
    std::vector<Record> models;
    for (const ModelReport& m : r.models) models.push_back(model_record(m, r.alpha));
    out.push_back({"models", models});
    if (r.ranking) {
        Record ranking{{"command", std::string("rank")}};
        ranking.insert(ranking.end(), r.ranking->begin(), r.ranking->end());
        out.push_back({"ranking", ranking});
    }
    std::vector<Record> figures;
    for (const ReportFigure& f : r.figures) {
        std::vector<Record> diagrams, smooth;
        for (const ReliabilityDiagram& d : f.diagrams) diagrams.push_back(defined_bins(d.record()));
        for (const SmoothEce& e : f.smooth_ece)  // the fields of calib estimate --estimator smooth-ece --curve-points
            smooth.push_back({{"estimate", e.value},
                              {"bandwidth_used", e.bandwidth},
                              {"t", e.mesh},
                              {"frequency", e.frequency},
                              {"density", e.density}});
        Record figure{{"title", f.title},
                      {"event", f.diagrams.front().event},
                      {"binning", to_string(f.binning)},
                      {"scale", std::string(f.logit ? "logit" : "linear")},
                      {"level", f.diagrams.front().level},
                      {"models", diagrams}};
        if (!smooth.empty()) figure.push_back({"smooth_ece", smooth});  // one per model, on the [0, 1] scale
        figures.push_back(std::move(figure));
    }
    if (r.corp) {  // each model's diagram (calib diagram --diagram corp's fields), then its log score's decomposition
        std::vector<Record> diagrams;
        for (std::size_t k = 0; k < r.corp->diagrams.size(); ++k) {
            Record d = r.corp->diagrams[k].record();
            const CorpDecomposition& log = r.corp->log_score[k];
            d.push_back({"log_score", Record{{"mean_score", log.mean_score},
                                             {"recalibrated_score", log.recalibrated_score},
                                             {"mcb", log.mcb},
                                             {"dsc", log.dsc},
                                             {"unc", log.unc},
                                             {"contradicted", count(log.contradicted)}}});
            diagrams.push_back(std::move(d));
        }
        out.push_back({"corp_diagram", Record{{"event", r.corp->event},
                                              {"scale", std::string(r.corp->logit ? "logit" : "linear")},
                                              {"models", diagrams}}});
    }
    out.push_back({"reliability_diagrams", figures});
    if (r.pit) {
        out.push_back({r.dimension ? "mahalanobis_pit_histogram" : "pit_histogram", r.pit->record()});
        out.push_back({r.dimension ? "ellipsoid_coverage" : "interval_coverage", r.coverage->record()});
    }
    return out;
}

}  // namespace calib::detail

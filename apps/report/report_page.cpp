// The HTML page of the calibration report (report_page.hpp): its sections, styled by one inline style sheet,
// with the figures of report_svg.hpp.
#include "report_page.hpp"

#include "report_svg.hpp"

#include <calib/options.hpp>
#include <calib/version.hpp>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <string>
#include <vector>

namespace calib::page {

namespace {

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
svg .smooth { fill: none; stroke: #1f5fa8; stroke-width: 1.5; } svg .smooth-band { fill: #1f5fa8; fill-opacity: 0.12; stroke: none; }
svg g .smooth { stroke: inherit; fill: none; } svg g .smooth-band { fill: inherit; fill-opacity: 0.12; stroke: none; }
svg .smooth-ece { fill: none; stroke: #1f5fa8; stroke-width: 1.5; stroke-dasharray: 2 3; } svg g .smooth-ece { stroke: inherit; fill: none; }
svg .point { fill: #1f5fa8; } svg .bar { fill: #9db8d9; } svg .point.edge { fill: #fff; stroke: #1f5fa8; stroke-width: 1.5; }
svg .s0 { fill: #0072b2; stroke: #0072b2; } svg .s1 { fill: #d55e00; stroke: #d55e00; } svg .s2 { fill: #009e73; stroke: #009e73; }
svg .s3 { fill: #cc79a7; stroke: #cc79a7; } svg .s4 { fill: #e69f00; stroke: #e69f00; } svg .s5 { fill: #56b4e9; stroke: #56b4e9; }
svg .s6 { fill: #000000; stroke: #000000; } svg .s7 { fill: #999933; stroke: #999933; }
svg g .interval { stroke: inherit; } svg g .point { fill: inherit; stroke: none; } svg g .point.edge { fill: #fff; stroke: inherit; } svg .bar[class*=" s"] { fill-opacity: 0.45; stroke: none; }
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
        for (const std::string& note : m.test_notes)
            h += "<p class=\"note\">" + (several ? escape(m.name) + ", " : std::string()) + escape(note) + ".</p>";
    for (const ModelReport& m : r.models)
        for (const ReportTest& t : m.tests)
            if (!t.p_note.empty())
                h += "<p class=\"note\">" + (several ? escape(m.name) + ", " : std::string()) + escape(t.method) + ": " +
                     escape(t.p_note) + ".</p>";
    std::string kernels;
    for (const ModelReport& m : r.models)
        kernels += (kernels.empty() ? "" : "; ") + (several ? m.name + ": " : std::string()) + m.kernel;
    h += "<p class=\"note\">Every test is right-tailed: a small p-value speaks against calibration. Kernel: " +
         escape(kernels) + ".</p>\n<p class=\"note\"><b>The statistics.</b> ";
    std::vector<std::string> explained;  // each method once, in the table's order
    for (const ReportTest& t : r.models.front().tests)
        if (std::find(explained.begin(), explained.end(), t.method) == explained.end()) {
            explained.push_back(t.method);
            h += "<i>" + escape(t.method) + "</i>: " + escape(t.statistic_meaning) + ". ";
        }
    h += "See also <a href=\"#terms\">the terms</a> below.</p>\n";
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
         "(seed " + std::to_string(r.seed) + "): how much each estimate would vary on another sample of this size. " +
         (r.classes ? "The ECE and the CKCE are biased upwards, and more so on a resample (it repeats observations), "
                      "so their intervals can lie above the estimate; "
                    : "") +
         std::string(r.classes ? "the" : "The") +
         " SKCE's replicates leave out the pairs of repeated observations and are centred on the estimate. "
         "<a href=\"#terms\">The terms</a> below say what each measure is.</p>\n";
    for (const ModelReport& m : r.models)
        for (const ReportEstimate& e : m.estimates)
            for (const std::string& w : e.warnings)
                h += "<p class=\"note warning\"><b>" + escape(e.name) + (several ? " (" + escape(m.name) + ")" : "") +
                     "</b>: as <code>calib estimate</code> warns, " + escape(render_message(w, NameStyle::command_line)) +
                     "</p>\n";
    return h;
}

std::string ranking_html(const Record& ranking) {
    const auto& names = std::get<std::vector<std::string>>(find(ranking, "models"));
    const Record& results = std::get<Record>(find(ranking, "results"));
    const std::string level = number(100 * to_double(find(ranking, "level")), "%g") + " %";
    std::string h = "<h2>Ranking</h2>\n<p class=\"note\">As <code>calib rank</code> with the same seed and replicates: "
                    "the models ranked by each estimator (lower is better calibrated), and for each pair the " +
                    level + " paired bootstrap interval of the difference (" + to_text(find(ranking, "replicates")) +
                    " replicates, each resampling the observations once for every model).</p>\n";
    for (const std::string& estimator : std::get<std::vector<std::string>>(find(ranking, "estimators"))) {
        const Record& r = std::get<Record>(find(results, estimator));
        h += "<h3>" + escape(estimator) + " <span class=\"note\">(" + escape(to_text(find(r, "description"))) +
             ")</span></h3>\n<table><tr><th>rank</th><th>model</th><th>estimate</th><th>bootstrap s.e.</th></tr>\n";
        std::size_t place = 1;
        for (const RankedModel& m : ranked_models(ranking, estimator))
            h += "<tr><td>" + std::to_string(place++) + "</td><td><span class=\"legend" + series(m.model) + "\"><i></i></span>" +
                 escape(names[m.model]) + "</td><td class=\"num\">" + number(m.estimate) + "</td><td class=\"num\">" +
                 number(m.std_error, "%.3g") + "</td></tr>\n";
        h += "</table>\n<table><tr><th>first &minus; second</th><th>difference</th><th>" + level +
             " interval</th><th>P(first lower)</th><th>verdict</th></tr>\n";
        for (const Record& p : std::get<std::vector<Record>>(find(r, "comparisons")))
            h += "<tr><td>" + escape(to_text(find(p, "first"))) + " &minus; " + escape(to_text(find(p, "second"))) +
                 "</td><td class=\"num\">" + number(to_double(find(p, "difference"))) + "</td><td class=\"num\">[" +
                 number(to_double(find(p, "lower"))) + ", " + number(to_double(find(p, "upper"))) +
                 "]</td><td class=\"num\">" + number(to_double(find(p, "probability_first_lower")), "%.3f") + "</td><td>" +
                 escape(to_text(find(p, "verdict"))) + "</td></tr>\n";
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

// What the page's words mean, so that the page needs nothing else to be read.
std::string terms_html(const ReportData& r) {
    std::string h =
        "<h2 id=\"terms\">Terms</h2>\n<dl class=\"note\">"
        "<dt><b>Calibrated</b></dt><dd>Among the observations given a prediction, the outcomes follow that prediction: "
        "of the events predicted with probability 0.8, 80 % happen" +
        std::string(r.classes ? "" : "; for a predictive distribution, the targets are distributed as predicted") +
        ".</dd>"
        "<dt><b>p-value, &alpha;</b></dt><dd>How often a calibrated model would give a statistic at least as large "
        "as this one. Below the level &alpha; the test rejects calibration; above it the data show no evidence "
        "against calibration, which is not proof of calibration: a test of little power (few observations, or a "
        "fast test) rarely rejects.</dd>"
        "<dt><b>SKCE</b></dt><dd>The squared kernel calibration error (Widmann, Lindsten &amp; Zachariah 2019): "
        "an average over pairs of observations of the product of their prediction errors, weighted by how similar "
        "the two predictions are (the kernel); 0 for a calibrated model. Its unbiased estimate can be negative "
        "when the model is close to calibrated.</dd>"
        "<dt><b>Kernel, lengthscale</b></dt><dd>The similarity of two predictions, exp(&minus;distance / "
        "lengthscale); the lengthscale is the median distance between the predictions unless given.</dd>"
        "<dt><b>Block test, B</b></dt><dd>The SKCE estimated on consecutive blocks of B observations, whose "
        "average is compared with its standard error: fast, and the more powerful the larger B.</dd>";
    if (r.classes)
        h += "<dt><b>ECE</b></dt><dd>The expected calibration error: the predictions are grouped in bins, and the "
             "gap between the mean predicted probability and the observed frequency is averaged over the bins, "
             "weighted by their counts; top-label: the confidence of the predicted class against the accuracy; "
             "canonical: the whole probability vector binned, each bin's mean prediction against its label "
             "frequencies (the ECE of calib estimate). It depends on the bins and is biased upwards.</dd>"
             "<dt><b>CKCE</b></dt><dd>The conditional kernel calibration error (Moskvichev &amp; Sejdinovic): how far "
             "the distribution of the labels given the prediction is from the prediction, by kernel regression.</dd>"
             "<dt><b>TCE₂²</b></dt><dd>The squared top-label calibration error (Gruber &amp; Bach): the mean over the "
             "predictions of (confidence − accuracy at that confidence)², on the scale of a squared probability "
             "(0.01 is an RMS gap of 0.1). Estimated by two-step kernel ridge regression chosen by 5-fold "
             "cross-validation on 80 % of the observations and evaluated on the other 20 %, which of Gruber &amp; "
             "Bach's estimators was the least biased on network-like outputs in calib's study (on average within "
             "10 % of the truth for n = 2 000 to 20 000); no interval is computed for it.</dd>";
    else
        h += "<dt><b>PIT</b></dt><dd>The probability integral transform: the predicted CDF at the observed target, "
             "uniform on [0, 1] for a calibrated model.</dd>";
    return h + "<dt><b>Interval</b></dt><dd>A bootstrap percentile interval: the range of the estimate over "
               "resamples of the observations, how much it would vary on another sample of this size.</dd></dl>\n";
}

// A decomposition's numbers in a table row: mean score, MCB, DSC, UNC; an infinite mean log score says why.
std::string decomposition_cells(const CorpDecomposition& d) {
    const std::string infinite = "<td class=\"num\" title=\"" + std::to_string(d.contradicted) +
                                 " prediction(s) of 0 or 1 contradicted by the outcome\">&infin;</td>";
    return (std::isinf(d.mean_score) ? infinite : "<td class=\"num\">" + number(d.mean_score) + "</td>") +
           (std::isinf(d.mcb) ? infinite : "<td class=\"num\">" + number(d.mcb) + "</td>") + "<td class=\"num\">" +
           number(d.dsc) + "</td><td class=\"num\">" + number(d.unc) + "</td>";
}

std::string corp_html(const ReportData& r) {
    const ReportCorp& c = *r.corp;
    const CorpDiagram& first = c.diagrams.front();
    std::string h =
        "<h2>Reliability without bins (CORP)</h2>\n<p class=\"note\">The line is the isotonic recalibration of the " +
        std::string(c.event == "Top-label" ? "confidence" : "predicted probability") +
        " (CORP: Dimitriadis, Gneiting &amp; Jordan 2021): for each prediction, the frequency of the event among the "
        "predictions like it, by the pool-adjacent-violators algorithm, with no bins to choose. A calibrated model's "
        "line is the dashed diagonal. The shaded band is where a calibrated model's line would fall at each "
        "prediction with probability " + number(100 * first.level, "%g") + " % (pointwise, from " +
        std::to_string(first.replicates) + " resamples of the predictions with outcomes drawn from them, seed " +
        std::to_string(first.seed) + "; <code>calib diagram</code> gives its numbers): where the line leaves it, the "
        "data speak against calibration at those predictions. Beneath: the number of predictions in each piece of "
        "the line." + (c.logit ? " The predictions crowd near 0 or 1, so both axes are on the logit scale." : "") +
        "</p>\n";
    h += "<table><tr>" + std::string(r.models.size() > 1 ? "<th>model</th>" : "") +
         "<th>score</th><th>mean score</th><th>MCB (miscalibration)</th><th>DSC (discrimination)</th><th>UNC "
         "(uncertainty)</th></tr>\n";
    for (std::size_t k = 0; k < c.diagrams.size(); ++k)
        for (const bool log : {false, true}) {
            h += "<tr>" + (r.models.size() > 1 ? "<td>" + escape(r.models[k].name) + "</td>" : std::string()) + "<td>" +
                 (log ? "log score" : "Brier score") + "</td>" +
                 decomposition_cells(log ? c.log_score[k] : c.diagrams[k].decomposition) + "</tr>\n";
        }
    h += "</table>\n<p class=\"note\">The mean score of the " +
         std::string(c.event == "Top-label" ? "confidence (against whether the top class is right)" : "predictions") +
         " splits as mean score = MCB &minus; DSC + UNC: MCB is what the isotonic recalibration would remove, DSC "
         "what the predictions' order gains over always predicting the base rate, UNC the base rate's own score "
         "(Brier: (p &minus; y)&sup2;; log: the negative log-likelihood, infinite where a prediction of 0 or 1 is "
         "contradicted). <code>calib estimate --estimator corp" +
         std::string(c.event == "Top-label" ? " --event top-label" : "") + "</code> gives the same numbers.</p>\n";
    if (r.models.size() > 1) h += legend_html(r.models);
    return h + "<div class=\"figures\">\n" + corp_svg(c, r.models) + "\n</div>\n";
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

double smooth_ece_weight(const SmoothEce& curve, std::size_t j) {
    return static_cast<double>(curve.n) * curve.density.at(j) * curve.bandwidth * std::sqrt(2 * M_PI);
}

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return buffer;
}

std::string report_html(const ReportData& r, const PageInfo& page) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>Calibration report: " + escape(r.title) + "</title><style>" + style + "</style></head><body>\n";
    h += "<h1>Calibration report: " + escape(r.title) + "</h1>\n" + evaluated_html(r);
    for (const ModelReport& m : r.models) h += verdict_html(m, r);
    h += tests_html(r) + errors_html(r);
    if (r.ranking) h += ranking_html(*r.ranking);
    if (r.corp) h += corp_html(r);
    if (!r.figures.empty()) {
        h += "<h2>Reliability diagrams</h2>\n<p class=\"note\">Each point is a bin of predictions: its mean "
             "predicted probability against how often the event happened, with the exact (Clopper&ndash;Pearson) " +
             number(100 * r.figures.front().diagrams.front().level, "%g") +
             " % interval; a calibrated model stays on the dashed diagonal. The line with its shaded band is the "
             "same without bins: a Gaussian kernel smoother of the events against the predicted probability on the "
             "logit scale, bandwidth by Silverman's rule, with a pointwise 95 % band for its noise (not for the "
             "smoothing's bias, which rounds off sharp turns), from the 1st to the 99th percentile of the "
             "predictions. On the diagrams drawn on the usual [0, 1] scale, the dotted line is the smooth ECE's "
             "reliability curve (Błasiok &amp; Nakkiran): the frequency smoothed by a Gaussian kernel reflected at 0 "
             "and 1, with the bandwidth equal to the smooth ECE it gives (<code>calib estimate --estimator smooth-ece "
             "--curve-points 101</code>), drawn where the kernel holds the weight of at least " +
             number(smooth_ece_min_weight, "%g") + " predictions. Beneath: the number of predictions in "
             "each bin (on a log scale where the counts differ by more than 20 times)." +
             (r.models.size() > 1 ? " The models' points are drawn a few pixels apart." : "") +
             (std::any_of(r.figures.begin(), r.figures.end(), [](const ReportFigure& f) { return f.logit; })
                  ? " Predictions crowded near 0 or 1 (more than half within 0.05 of them, as a confident network's) "
                    "are drawn with bins of equal counts on the logit scale log(p/(1 - p)), on which 0.9, 0.99 and "
                    "0.999 are equally far apart; a bin whose frequency is 0 or 1, which that scale cannot place, is "
                    "drawn hollow at the edge."
                  : "") +
             "</p>\n";
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
    h += terms_html(r);
    std::string files;
    for (const std::vector<std::string>& model : page.files)
        for (const std::string& f : model) files += (files.empty() ? "" : ", ") + f;
    h += "<footer>" + (files.empty() ? "" : "Files: " + escape(files) + "<br>") + "Command: <code>" +
         escape(page.command_line) + "</code><br>calib " + escape(version) + ", " + escape(page.created) + ", " +
         number(page.seconds, "%.2f") + " s</footer>\n</body></html>\n";
    return h;
}

}  // namespace calib::page

// `calib report`: one page that answers "is this model calibrated, where is it miscalibrated, and how
// sure are we" — the verdict of the test recommended for the data size beside the other tests'
// p-values, the calibration errors with bootstrap intervals, and reliability diagrams with exact
// intervals (html_report.hpp); for several models on the same labels, also the ranking of
// `calib rank` and their diagrams overlaid.
#include "commands.hpp"

#include "args.hpp"
#include "html_report.hpp"
#include "model_files.hpp"
#include "progress_bar.hpp"
#include "report_model.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"

#include <calib/operation.hpp>
#include <calib/registry.hpp>
#include <calib/version.hpp>

#include <algorithm>
#include <ctime>
#include <limits>
#include <iostream>
#include <sstream>

namespace calib::cli {

namespace {

// How many models a report shows: one or more.
const OperationInfo report_models{"report", "", "", false, 1, std::numeric_limits<std::size_t>::max()};

std::vector<OptionSpec> report_option_specs() {
    std::vector<OptionSpec> specs = command_option_specs("report");
    for (const char* name : {"replicates", "level", "seed"}) specs.push_back({name, true});
    return specs;
}

std::string command_line(const std::vector<std::string>& arguments) {
    std::string line = "calib report";
    for (const std::string& a : arguments)
        line += " " + (a.find_first_of(" \t'\"$") == std::string::npos ? a : "'" + a + "'");
    return line;
}

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return buffer;
}

// Whether the probabilities of an event crowd near 0 or 1: more than half of them (over every model)
// below 0.05 or above 0.95. Then a diagram on the [0, 1] scale puts most bins in one corner, and the
// report draws it with equal-count bins on the logit scale.
constexpr double crowded_margin = 0.05;
// The points of the smoothed reliability curve drawn beside the bins (SmoothReliability).
constexpr std::size_t smooth_points = 60;
bool crowded(const std::vector<CategoricalData>& models, std::optional<int> k) {
    std::size_t near = 0, all = 0;
    for (const CategoricalData& d : models) {
        const MatrixView& p = d.probabilities();
        for (Eigen::Index i = 0; i < p.rows(); ++i) {
            const double q = k ? p(i, *k) : p.row(i).maxCoeff();
            near += (q < crowded_margin || q > 1 - crowded_margin) ? 1 : 0;
            ++all;
        }
    }
    return 2 * near > all;
}

// The reliability diagrams of the class predictions, each with one diagram per model: top-label with
// equal-width and equal-count bins, then P(Y = 1) for binary predictions or one per class for m ≤ 20.
// The equal-count top-label diagram and the class diagrams of probabilities that crowd near 0 or 1 are
// drawn on the logit scale, the class diagrams then with equal-count bins (the equal-width top-label
// diagram stays on the usual scale, as the other diagrams' reference).
std::vector<ReportFigure> class_figures(const std::vector<CategoricalData>& models, std::size_t bins) {
    const std::size_t n = models.front().size(), counted = std::min(bins, n);  // at most one equal-count bin per observation
    const int m = models.front().num_classes();
    std::vector<ReportFigure> figures;
    const auto figure = [&](ReliabilityBinning binning, std::optional<int> k, const std::string& event, bool logit) {
        const bool equal_mass = binning == ReliabilityBinning::equal_mass;
        const ReliabilityOptions o{binning, equal_mass ? counted : bins, 0.95, smooth_points};
        // "Class 3, 10 bins of 1000 predictions" (equal counts; the axes say "logit scale")
        const std::string title = event + ", " + std::to_string(o.bins) +
                                  (equal_mass ? (n % o.bins ? " bins of about " : " bins of ") +
                                                    std::to_string((n + o.bins / 2) / o.bins) + " predictions"
                                              : " bins of equal width");
        ReportFigure f{title, {}, binning, logit, {}};
        SmoothEceOptions smooth;
        smooth.curve_points = smooth_ece_points;
        for (const CategoricalData& d : models) {
            f.diagrams.push_back(k ? class_reliability_diagram(d, *k, o) : reliability_diagram(d, o));
            if (!logit) f.smooth_ece.push_back(smooth_ece(k ? d.class_event(*k) : d.top_label_event(), smooth));
        }
        figures.push_back(std::move(f));
    };
    const auto class_figure = [&](int k, const std::string& event) {
        const bool logit = crowded(models, k);
        figure(logit ? ReliabilityBinning::equal_mass : ReliabilityBinning::uniform, k, event, logit);
    };
    figure(ReliabilityBinning::uniform, std::nullopt, "Top-label", false);
    figure(ReliabilityBinning::equal_mass, std::nullopt, "Top-label", crowded(models, std::nullopt));
    if (m == 2)
        class_figure(1, "P(Y = 1)");
    else if (m <= 20)
        for (int k = 0; k < m; ++k) class_figure(k, "Class " + std::to_string(k));
    return figures;
}

// One predictive-distribution model: the PIT with its band and the coverage of central intervals;
// for mvnormal, the PIT of the squared Mahalanobis distance and the coverage of ellipsoids.
void add_predictive_figures(ReportData& report, const AnyData& data, std::size_t bins) {
    const PredictiveChecks checks = predictive_checks(data, bins, DiagramOptions().nominal);
    report.dimension = checks.dimension;
    report.pit = checks.pit;
    report.coverage = checks.coverage;
}

}  // namespace

int run_report(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << report_help();
        return 0;
    }
    std::vector<std::string> rest;
    const std::vector<std::string> files = take_model_files(arguments, rest, report_models);
    Args args(rest, report_option_specs(), "report");
    const FamilyInfo& family = take_family(args);
    const ReadOptions read = take_reading_options(args, family);
    if (files.size() > 1) check_classes("a comparison of models (several `input` files, as in calib rank)", family);
    const CommandSetup command = take_command_options(args, "report");
    const CommandOptions& o = command.values();
    const int threads = o.threads;
    const bool quiet = o.quiet;
    const std::string format = o.format;
    const std::optional<std::string> output = command.given("output") ? std::optional<std::string>(o.output) : std::nullopt;
    ReportData report;
    report.alpha = *o.alpha;
    ReportSettings settings;
    settings.bins = o.bins;
    // The intervals' and the ranking's replicates, level and seed: the options of calib rank, checked by
    // its registry entry; one model needs only the CKCE's replicates of the comparison.
    ComparisonSetup comparison;
    if (files.size() == 1) comparison.set("estimators", Value(std::string("ckce")));
    for (const char* name : {"replicates", "level", "seed"})
        if (const auto text = args.take(name)) comparison.set(name, Value(*text));
    comparison.check();
    settings.intervals.replicates = static_cast<std::size_t>(to_double(comparison.get("replicates")));
    settings.intervals.level = to_double(comparison.get("level"));
    settings.intervals.seed = std::stoull(to_text(comparison.get("seed")));
    settings.bootstrap_test = {{"seed", comparison.get("seed")}};
    const std::optional<std::string> name = command.given("name") ? std::optional<std::string>(o.name) : std::nullopt;
    reject_unused(args, {&command, &comparison}, "calib report");
    if (stage == Stage::options) return 0;
    if (output || format == "html") check_output(args, "output", output.value_or("report.html"), files);  // before the work

    std::vector<AnyData> data;
    std::vector<FileSummary> read_files;
    for (const std::string& file : files) {
        const std::size_t before = read_files.size();
        data.push_back(read_input(InputOptions{&family, file, read}, &read_files));
        ModelReport m;
        m.name = files.size() == 1 ? name.value_or(file) : file;
        for (std::size_t f = before; f < read_files.size(); ++f) m.files.push_back(read_files[f].path);
        report.models.push_back(std::move(m));
    }
    std::vector<CategoricalData> classes;
    for (const AnyData& d : data)
        if (const auto* c = std::get_if<CategoricalData>(&d)) classes.push_back(*c);
    if (classes.size() > 1) check_same_labels(classes, files, "calib report");
    const std::size_t n = data_size(data.front());
    report.title = name.value_or(files.size() == 1 ? files.front() : std::to_string(files.size()) + " models");
    report.family = family.name;
    report.n = n;
    report.command_line = command_line(arguments);
    report.created = now_utc();
    report.version = version;
    report.replicates = settings.intervals.replicates;
    report.level = settings.intervals.level;
    report.seed = settings.intervals.seed;

    ProgressBar bar("calib report", !quiet);
    settings.intervals.parallel = ParallelOptions{threads, &bar};
    // The CKCE with its intervals, and for several models the whole ranking, from one comparison.
    std::optional<ComparisonRun> compared;
    const EstimatorComparison* ckce = nullptr;
    if (!classes.empty()) {
        report.classes = classes.front().num_classes();
        if (n > exact_ckce_limit) comparison.set("ckce_method", Value(std::string("lowrank")));
        if (n > gamma_limit) comparison.set("median_subsample", Value(std::to_string(linear_median_subsample)));
        compared = comparison.run(classes, settings.intervals.parallel);
        const std::vector<std::string>& estimators = compared->estimators;
        ckce = &compared->comparison.results[static_cast<std::size_t>(
            std::find(estimators.begin(), estimators.end(), "ckce") - estimators.begin())];
        if (classes.size() > 1) report.ranking = compared->record(files);
        report.figures = class_figures(classes, settings.bins);
    } else {
        add_predictive_figures(report, data.front(), settings.bins);
    }
    for (std::size_t k = 0; k < data.size(); ++k) {
        ModelReport m = evaluate_model(data[k], family, settings, ckce, k);
        m.name = report.models[k].name;
        m.files = report.models[k].files;
        report.models[k] = std::move(m);
    }
    bar.finish();
    report.seconds = seconds_since_start();

    if (format == "json") {
        const std::string text = json_output(report_json(report)) + "\n";
        if (output)
            write_file(*output, text);
        else
            std::cout << text;
        return 0;
    }
    const std::string path = output.value_or("report.html");
    write_file(path, report_html(report));
    std::ostringstream verdicts;
    for (const ModelReport& m : report.models) {
        const ReportTest& chosen = m.tests.front();
        if (&m != &report.models.front()) verdicts << "; ";
        if (report.models.size() > 1) verdicts << m.name << ": ";
        verdicts << (chosen.p_value < report.alpha ? "not calibrated" : "consistent with calibration") << " at alpha = "
                 << report.alpha << ": " << chosen.method << " p " << (chosen.p_value == 0 ? "" : "= ") << chosen.p_text;
    }
    std::cerr << "calib report: wrote " << path << " (" << verdicts.str() << ")\n";
    return 0;
}

}  // namespace calib::cli

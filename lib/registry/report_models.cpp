// The report's numbers (calib/report.hpp): each model's tests, errors and intervals, and the figures —
// the report's policy, what runs at which n, in the thresholds of report.hpp.
#include "registry/report_models.hpp"

#include <calib/calibration_curve.hpp>
#include <calib/debiased_l2.hpp>
#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/reliability.hpp>
#include <calib/smooth_ece.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <type_traits>
#include <variant>

namespace calib::detail {

namespace {


template <class Setup>
void set_all(Setup& setup, const std::vector<std::pair<std::string, Value>>& values) {
    for (const auto& [name, value] : values) setup.set(name, value);
    setup.check();
}

ReportEstimate with_interval(std::string name, std::string meaning, const BootstrapInterval& b) {
    return {std::move(name), std::move(meaning), b.estimate, b.lower, b.upper, b.std_error, {}};
}

// Runs a test through the registry with `values` and the rest its defaults, as calib test does.
void add_test(ModelReport& m, const std::string& method, const std::vector<std::pair<std::string, Value>>& values,
              const AnyData& data, const Kernel* kernel, const ParallelOptions& parallel) {
    TestSetup setup = make_test(method);
    set_all(setup, values);
    setup.validate(data_size(data));
    const TestResult r = setup.run(data, kernel, nullptr, parallel);
    // "< 0.001 (no replicate of 1000 reached ...)": the bound in the table, the reason in a note.
    std::string p_text = describe_p_value(r), p_note;
    if (const std::size_t paren = p_text.find(" ("); paren != std::string::npos) {
        p_note = p_text.substr(paren + 2, p_text.size() - paren - 3);
        p_text.resize(paren);
    }
    const TestInWords words = test_in_words(r);
    m.tests.push_back({method, setup.info().title, r.estimator, r.estimate, r.statistic, r.p_value, p_text, p_note,
                       words.settings, words.statistic});
}

void add_tests(ModelReport& m, const AnyData& data, const Kernel& kernel, const ReportSettings& s,
               const ParallelOptions& parallel) {
    const std::size_t n = data_size(data);
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, Value>>>> tests;
    if (n <= report_bootstrap_limit) {
        tests.push_back({"bootstrap", s.bootstrap_test});
        m.why_recommended = "The verdict is the bootstrap test of the unbiased SKCE: the reference and the most "
                            "powerful of calib's tests, used up to n = 10 000.";
    }
    if (n >= 4) tests.push_back({"block", {{"block_size", Value(std::string("sqrt"))}}});
    if (n > report_bootstrap_limit)
        m.why_recommended = "The verdict is the block test with B = sqrt(n), O(n sqrt n): above n = 10 000 the "
                            "bootstrap's O(n^2 R) cost is too high for a report; the block test has less power.";
    if (n <= report_gamma_limit) tests.push_back({"gamma", {}});
    if (n < 8)  // the smallest n of calib's validity study (docs/tests.md)
        m.why_recommended += " Caution: n = " + std::to_string(n) +
                             " is below n = 8, the smallest size at which calib's validity study measured the "
                             "tests' type-I error; read the p-values as indications only.";
    for (const auto& [method, values] : tests) add_test(m, method, values, data, &kernel, parallel);
}

// Binary predictions: the clinical tests, the cumulative-difference tests and T-Cal with calib test's
// defaults, after the verdict's (a test the data do not allow, Hosmer-Lemeshow below n = 10 or Cox on
// separated outcomes, is named in a note); the ICI and Emax of the loess calibration curve with
// bootstrap intervals.
void add_binary_summary(ModelReport& m, const CategoricalData& d, const ReportSettings& s,
                        const ParallelOptions& parallel) {
    const AnyData data = d;
    for (const char* method : {"spiegelhalter", "citl", "cox", "hosmer-lemeshow", "ks", "kuiper", "t-cal"}) {
        try {
            add_test(m, method, {}, data, nullptr, parallel);
        } catch (const invalid_argument& e) {
            m.test_notes.push_back(std::string(method) + " not computed: " + e.what());
        } catch (const numerical_error& e) {
            m.test_notes.push_back(std::string(method) + " not computed: " + e.what());
        }
    }
    if (d.size() < 4) return;  // the loess's smallest n (docs/cli.md)
    FlexibleCalibrationOptions o;
    o.resampling.replicates = s.intervals.replicates;
    o.resampling.level = s.intervals.level;
    o.resampling.seed = s.intervals.seed;
    o.parallel = parallel;
    const FlexibleCalibration f = flexible_calibration(d, o);
    m.estimates.push_back(with_interval(
        "ICI (loess calibration curve)",
        "binary predictions: the mean distance |curve - p| of the loess curve of the outcomes on the predictions from "
        "the diagonal (Austin & Steyerberg; calib estimate --estimator ici)",
        f.intervals[0]));
    m.estimates.push_back(with_interval("Emax (loess calibration curve)",
                                        "the largest distance of that curve from the diagonal at a prediction",
                                        f.intervals[3]));
}

// The canonical ECE, the top-label ECE over equal-width and equal-count bins, with intervals, Kumar et
// al.'s debiased L2 error, the smooth ECE and the CKCE.
void add_class_errors(ModelReport& m, const CategoricalData& d, const ReportSettings& s, const EstimatorComparison& ckce,
                      std::size_t index) {
    const std::size_t n = d.size(), B = s.bins, counted = std::min(B, n);  // at most one equal-count bin per observation
    // The canonical ECE as `calib estimate --estimator ece --mode canonical` prints it (its other
    // defaults), named by its notion, bins and distance; the top-label one, the front-ends' default, is
    // the next row, over the report's bins.
    EstimatorSetup estimate_ece = make_estimator("ece");
    estimate_ece.set("mode", Value(std::string("canonical")));
    estimate_ece.validate(n);
    const Record ece_record = estimate_ece.record(n);
    std::string binning = to_text(find(ece_record, "binning"));
    if (binning.rfind("uniform:", 0) == 0) binning = binning.substr(8) + " equal-width bins per class";
    std::string distance = to_text(find(ece_record, "distance"));
    std::transform(distance.begin(), distance.end(), distance.begin(), [](unsigned char c) { return std::toupper(c); });
    m.estimates.push_back(with_interval(
        "ECE (" + to_text(find(ece_record, "mode")) + ", " + binning + ", " + distance + " distance)",
        "the canonical ECE (Widmann et al. 2019): the whole probability vector binned, the distance between each "
        "bin's mean prediction and its label frequencies; its bias depends strongly on n and m",
        resample_interval(
            n,
            [&](const std::vector<std::size_t>& i) {
                return estimate_ece.run(AnyData(subset(d, i)), nullptr, nullptr, s.intervals.parallel).estimate;
            },
            s.intervals)));
    EceOptions ece_options;
    ece_options.mode = EceMode::top_label;
    ece_options.nbins = static_cast<int>(B);
    m.estimates.push_back(with_interval(
        "ECE (top-label, " + std::to_string(B) + " equal-width bins)",
        "the mean gap between confidence and accuracy over the bins of the diagram",
        resample_interval(n, [&](const std::vector<std::size_t>& i) { return ece(subset(d, i), ece_options); },
                          s.intervals)));
    const ReliabilityOptions equal_count{ReliabilityBinning::equal_mass, counted, 0.95};
    m.estimates.push_back(with_interval(
        "ECE (top-label, " + std::to_string(counted) + " equal-count bins)",
        "the same over bins of equal counts (less sensitive to sparse bins)",
        resample_interval(
            n, [&](const std::vector<std::size_t>& i) { return binned_ece(reliability_diagram(subset(d, i), equal_count)); },
            s.intervals)));
    // The binned L2 error of Kumar et al. (calib estimate --estimator debiased-l2's defaults) with its
    // basic bootstrap interval, and the smooth ECE of the event the diagram shows (no interval: each
    // replicate would search its own bandwidth).
    DebiasedL2Options l2;
    l2.resampling = {s.intervals.replicates, s.intervals.level, s.intervals.seed};
    l2.parallel = s.intervals.parallel;
    const bool binary = d.num_classes() == 2;
    m.estimates.push_back(with_interval(
        std::string("L2 calibration error (debiased, 15 equal-mass bins") + (binary ? ")" : ", each class)"),
        "Kumar, Liang & Ma's root of the binned squared error (mean prediction - frequency)^2 with its noise "
        "subtracted" + std::string(binary ? "" : ", each class against the rest") +
            "; a basic bootstrap interval (around the debiased value)",
        debiased_l2(d, l2).intervals[0]));
    SmoothEceOptions smooth;
    smooth.parallel = s.intervals.parallel;
    m.estimates.push_back({std::string("smooth ECE") + (binary ? "" : " (top-label)"),
                           "Blasiok & Nakkiran's kernel-smoothed mean |prediction - frequency|, at the bandwidth equal "
                           "to itself (no interval)",
                           smooth_ece(binary ? d : d.top_label_event(), smooth).value, {}, {}, {}, {}});
    m.estimates.push_back({"CKCE",
                           "conditional kernel calibration error (Moskvichev & Sejdinovic): how far the label distribution given "
                           "the prediction is from the prediction",
                           ckce.estimates[index], ckce.lower[index], ckce.upper[index], ckce.std_errors[index], {}});
    std::size_t correct = 0;
    for (const ReliabilityBin& b : reliability_diagram(d, {ReliabilityBinning::uniform, 1, 0.95}).bins) correct += b.events;
    m.accuracy = static_cast<double>(correct) / static_cast<double>(n);
}

// Whether the probabilities of an event crowd near 0 or 1 (report_crowded_margin): a diagram on the
// [0, 1] scale would put most bins in one corner.
bool crowded(const std::vector<CategoricalData>& models, std::optional<int> k) {
    std::size_t near = 0, all = 0;
    for (const CategoricalData& d : models) {
        const MatrixView& p = d.probabilities();
        for (Eigen::Index i = 0; i < p.rows(); ++i) {
            const double q = k ? p(i, *k) : p.row(i).maxCoeff();
            near += (q < report_crowded_margin || q > 1 - report_crowded_margin) ? 1 : 0;
            ++all;
        }
    }
    return 2 * near > all;
}

}  // namespace

ModelReport evaluate_model(const AnyData& data, const FamilyInfo& family, const ReportSettings& s,
                           const EstimatorComparison* ckce, std::size_t index) {
    ModelReport m;
    const std::size_t n = data_size(data);
    const ParallelOptions& parallel = s.intervals.parallel;
    KernelSetup kernel_setup(family);
    if (n > report_gamma_limit) kernel_setup.set("median_subsample", Value(std::to_string(linear_median_subsample)));
    const Kernel kernel = kernel_setup.resolve(data, parallel);
    m.kernel = describe_kernel(kernel_setup, kernel);
    add_tests(m, data, kernel, s, parallel);
    if (n <= report_quadratic_skce_limit) {
        const BootstrapInterval skce =
            std::visit([&](const auto& d) { return skce_unbiased_interval(d, kernel, s.intervals); }, data);
        m.estimates.push_back(with_interval("SKCE (unbiased)",
                                            "squared kernel calibration error: 0 for a calibrated model; its unbiased "
                                            "estimate can be slightly negative",
                                            skce));
    } else {
        EstimatorSetup setup = make_estimator("skce-block");
        set_all(setup, {{"block_size", Value(std::string("sqrt"))}});
        setup.validate(n);
        m.estimates.push_back({"SKCE (block, B = sqrt(n))",
                               "squared kernel calibration error estimated on blocks: 0 for a calibrated model",
                               setup.run(data, &kernel, nullptr, parallel).estimate, {}, {}, {}, {}});
    }
    if (const auto* d = std::get_if<CategoricalData>(&data)) {
        add_class_errors(m, *d, s, *ckce, index);
        if (d->num_classes() == 2) {
            add_binary_summary(m, *d, s, parallel);
        } else {  // T-Cal on the confidence, the event of the top-label diagram
            add_test(m, "t-cal", {{"event", Value(std::string("top-label"))}}, data, nullptr, parallel);
            m.tests.back().title += " (top-label)";
        }
    }
    if (family.classes && n >= report_squared_ce_minimum && n <= report_squared_ce_limit) {
        // calib estimate --estimator ce-ukkr: of the squared-CE estimators the least biased on network-like
        // outputs (docs/squared_ce.md, "Which estimator to trust"); its estimate is a cross-validated fit
        // on 80 % evaluated on the other 20 %, so it has no bootstrap interval (R such fits are too slow).
        EstimatorSetup setup = make_estimator("ce-ukkr");
        setup.validate(n);
        const EstimateResult r = setup.run(data, nullptr, nullptr, parallel);
        m.estimates.push_back({"TCE₂² (top-label, two-step kernel ridge regression)",
                               "the squared top-label calibration error E(confidence − accuracy at that confidence)² "
                               "of Gruber & Bach, estimated by cross-validated kernel ridge regression (no interval)",
                               r.estimate, {}, {}, {}, r.warnings});
    }
    m.nll = std::visit(
        [](const auto& d) -> std::optional<double> {
            if constexpr (std::is_same_v<std::decay_t<decltype(d)>, CategoricalData>) return std::nullopt;  // the accuracy instead
            else return mean_nll(d);
        },
        data);
    return m;
}

std::vector<ReportFigure> class_figures(const std::vector<CategoricalData>& models, std::size_t bins) {
    const std::size_t n = models.front().size(), counted = std::min(bins, n);  // at most one equal-count bin per observation
    const int m = models.front().num_classes();
    std::vector<ReportFigure> figures;
    const auto figure = [&](ReliabilityBinning binning, std::optional<int> k, const std::string& event, bool logit) {
        const bool equal_mass = binning == ReliabilityBinning::equal_mass;
        const ReliabilityOptions o{binning, equal_mass ? counted : bins, 0.95, report_smooth_points};
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
    else if (m <= report_class_diagrams_limit)
        for (int k = 0; k < m; ++k) class_figure(k, "Class " + std::to_string(k));
    return figures;
}

ReportCorp corp_figure(const std::vector<CategoricalData>& models, const ReportSettings& settings) {
    const bool binary = models.front().num_classes() == 2;
    ReportCorp out{binary ? "P(Y = 1)" : "Top-label", crowded(models, binary ? std::optional<int>(1) : std::nullopt), {}, {}};
    CorpDiagramOptions o;
    o.level = settings.intervals.level;
    // The bands' refits are kept (16 bytes per replicate and band point): more replicates than this
    // would not narrow them visibly, and a report of R = 10^6 intervals must still draw its diagram.
    o.replicates = std::min<std::size_t>(settings.intervals.replicates, report_corp_replicates_limit);
    o.seed = settings.intervals.seed;
    o.parallel = settings.intervals.parallel;
    for (const CategoricalData& d : models) {
        const CategoricalData event = binary ? d : d.top_label_event();
        out.diagrams.push_back(corp_diagram(event, o));
        out.log_score.push_back(corp_decomposition(event, CorpScore::log));
    }
    return out;
}

}  // namespace calib::detail

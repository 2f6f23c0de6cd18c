// `calib report`: one page that answers "is this model calibrated, where is it miscalibrated, and how
// sure are we" — the verdict of the test recommended for the data size beside the other tests'
// p-values, the calibration errors, and reliability diagrams with exact intervals (html_report.hpp).
// Every number comes from the registry's methods with their defaults, as `calib test` and
// `calib estimate` compute them.
#include "commands.hpp"

#include "args.hpp"
#include "html_report.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"
#include "table_report.hpp"
#include "usage_error.hpp"

#include <calib/registry.hpp>
#include <calib/version.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>

namespace calib::cli {

namespace {

// The verdict's test: the bootstrap (the most powerful, O(n²R)) up to this n, the block test above.
constexpr std::size_t bootstrap_limit = 10000;
constexpr std::size_t gamma_limit = 50000;        // the Gamma test's one O(n²) pass
constexpr std::size_t quadratic_skce_limit = 20000;  // the unbiased SKCE; above it, the block SKCE
constexpr std::size_t exact_ckce_limit = 3000;    // the exact CKCE (O(n³)); above it, lowrank

std::vector<OptionSpec> report_option_specs() {
    std::vector<OptionSpec> specs = shared_option_specs;
    for (const char* name : {"name", "output", "alpha", "bins", "replicates", "seed"}) specs.push_back({name, true});
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

// Writes the whole text to a temporary file beside `path`, then renames it: an existing file is
// replaced whole or not at all.
void write_atomically(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) throw invalid_argument("cannot write the report to " + path + ": " + std::strerror(errno));
        out << text;
        out.flush();
        if (!out) {
            std::remove(temporary.c_str());
            throw invalid_argument("cannot write the report to " + path + ": " + std::strerror(errno));
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        std::remove(temporary.c_str());
        throw invalid_argument("cannot write the report to " + path + ": " + std::strerror(error));
    }
}

template <class Setup>
void set_all(Setup& setup, const std::vector<std::pair<std::string, Value>>& values) {
    for (const auto& [name, value] : values) setup.set(name, value);
    setup.check();
}

}  // namespace

int run_report(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << report_help();
        return 0;
    }
    Args args(arguments, report_option_specs(), "report");
    const InputOptions input = take_input_options(args);
    const int threads = take_threads(args);
    const bool quiet = args.take_flag("quiet");
    const std::string format = args.take("format", "html");
    if (format != "html" && format != "json") throw usage_error("option --format " + format + ", expected html or json");
    const std::optional<std::string> output = args.take("output");
    if (output && output->empty()) throw usage_error("option --output has an empty file name");
    ReportData report;
    report.alpha = 0.05;
    if (const auto text = args.take("alpha")) {
        report.alpha = parse_double("alpha", *text);
        if (!(report.alpha > 0 && report.alpha < 1)) throw usage_error("option --alpha = '" + *text + "', must be in (0, 1)");
    }
    ReliabilityOptions bins;
    if (const auto text = args.take("bins")) {
        const double b = parse_double("bins", *text);
        if (!(b >= 1 && b <= 1000 && std::floor(b) == b)) throw usage_error("option --bins = '" + *text + "', must be an integer in [1, 1000]");
        bins.bins = static_cast<std::size_t>(b);
    }
    // The resampling options of the bootstrap test, checked by the registry now.
    std::vector<std::pair<std::string, Value>> resampling;
    for (const char* name : {"replicates", "seed"})
        if (const auto text = args.take(name)) resampling.emplace_back(name, Value(*text));
    {
        TestSetup check = make_test("bootstrap");
        try {
            set_all(check, resampling);
        } catch (const option_error& e) {
            throw usage_error("option --" + e.option() + " = " + e.value() + ", must be " + e.rule());
        }
    }
    report.name = args.take("name", input.path);
    for (const std::string& name : args.unused()) throw usage_error("option --" + name + " does not apply to calib report");
    if (stage == Stage::options) return 0;

    RunRecord run;
    const AnyData data = read_input(input, &run.files);
    const std::size_t n = data_size(data);
    for (const FileSummary& f : run.files) report.files.push_back(f.path);
    report.family = input.family->name;
    report.n = n;
    report.command_line = command_line(arguments);
    report.created = now_utc();
    report.version = version;

    ProgressBar bar("calib report", !quiet);
    const ParallelOptions parallel{threads, &bar};
    const KernelSetup kernel_setup(*input.family);
    const Kernel kernel = kernel_setup.resolve(data, parallel);
    report.kernel = describe_kernel(kernel_setup, kernel);

    // The tests: the verdict's first, then the others that apply at this n.
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, Value>>>> tests;
    if (n <= bootstrap_limit) {
        tests.push_back({"bootstrap", resampling});
        report.why_recommended = "The verdict is the bootstrap test of the unbiased SKCE: the reference and the most "
                                 "powerful of calib's tests, used up to n = 10 000.";
    }
    if (n >= 4) tests.push_back({"block", {{"block_size", Value(std::string("sqrt"))}}});
    if (n > bootstrap_limit)
        report.why_recommended = "The verdict is the block test with B = sqrt(n), O(n sqrt n): above n = 10 000 the "
                                 "bootstrap's O(n^2 R) cost is too high for a report; the block test has less power.";
    if (n <= gamma_limit) tests.push_back({"gamma", {}});
    if (n < 8)  // the smallest n of calib's validity study (docs/tests.md)
        report.why_recommended += " Caution: n = " + std::to_string(n) +
                                  " is below n = 8, the smallest size at which calib's validity study measured the "
                                  "tests' type-I error (docs/tests.md); read the p-values as indications only.";
    for (const auto& [method, values] : tests) {
        TestSetup setup = make_test(method);
        set_all(setup, values);
        setup.validate(n);
        const TestResult r = setup.run(data, &kernel, nullptr, parallel);
        // "< 0.001 (no replicate of 1000 reached ...)": the bound in the table, the reason in a note.
        std::string p_text = describe_p_value(r), p_note;
        if (const std::size_t paren = p_text.find(" ("); paren != std::string::npos) {
            p_note = p_text.substr(paren + 2, p_text.size() - paren - 3);
            p_text.resize(paren);
        }
        report.tests.push_back({method, setup.info().title, r.estimator, r.estimate, r.statistic, r.p_value, p_text,
                                p_note, describe_record(setup.record(n))});
    }

    const auto estimate = [&](const std::string& name, const std::vector<std::pair<std::string, Value>>& values) {
        EstimatorSetup setup = make_estimator(name);
        set_all(setup, values);
        setup.validate(n);
        return setup.run(data, setup.kernel_use() == KernelUse::skce ? &kernel : nullptr, nullptr, parallel).estimate;
    };
    if (n <= quadratic_skce_limit)
        report.estimates.push_back({"SKCE (unbiased)", "squared kernel calibration error: 0 for a calibrated model; "
                                    "its unbiased estimate can be slightly negative",
                                    estimate("skce-unbiased", {})});
    else
        report.estimates.push_back({"SKCE (block, B = sqrt(n))", "squared kernel calibration error estimated on blocks: "
                                    "0 for a calibrated model",
                                    estimate("skce-block", {{"block_size", Value(std::string("sqrt"))}})});
    if (has_classes(data)) {
        const CategoricalData& d = std::get<CategoricalData>(data);
        report.classes = d.num_classes();
        const std::string B = std::to_string(bins.bins);
        const auto diagram = [&](ReliabilityBinning binning, std::optional<int> k, const std::string& title) {
            ReliabilityOptions o = bins;
            o.binning = binning;
            if (binning == ReliabilityBinning::equal_mass) o.bins = std::min(o.bins, n);  // at most one bin per observation
            report.figures.push_back({title, k ? class_reliability_diagram(d, *k, o) : reliability_diagram(d, o), binning});
        };
        diagram(ReliabilityBinning::uniform, std::nullopt, "Top-label, " + B + " bins of equal width");
        diagram(ReliabilityBinning::equal_mass, std::nullopt,
                "Top-label, " + std::to_string(std::min(bins.bins, n)) + " bins of equal counts");
        if (d.num_classes() == 2)
            diagram(ReliabilityBinning::uniform, 1, "P(Y = 1), " + B + " bins of equal width");
        else if (d.num_classes() <= 20)
            for (int k = 0; k < d.num_classes(); ++k)
                diagram(ReliabilityBinning::uniform, k, "Class " + std::to_string(k) + ", " + B + " bins of equal width");
        std::size_t correct = 0;
        for (const ReliabilityBin& b : report.figures.front().diagram.bins) correct += b.events;
        report.accuracy = static_cast<double>(correct) / static_cast<double>(n);
        report.estimates.push_back({"ECE (top-label, " + B + " equal-width bins)",
                                    "the mean gap between confidence and accuracy over the bins of the diagram",
                                    estimate("ece", {{"mode", Value(std::string("top-label"))},
                                                     {"binning", Value("uniform:" + B)}})});
        double gaps = 0;  // Σ_b (n_b/n)|frequency_b − mean confidence_b| over the equal-count bins
        for (const ReliabilityBin& b : report.figures[1].diagram.bins)
            gaps += static_cast<double>(b.count) / static_cast<double>(n) * std::abs(b.frequency - b.mean_confidence);
        report.estimates.push_back({"ECE (top-label, " + std::to_string(std::min(bins.bins, n)) + " equal-count bins)",
                                    "the same over bins of equal counts (less sensitive to sparse bins)", gaps});
        report.estimates.push_back(
            {"CKCE", "conditional kernel calibration error (docs/ckce.md): how far the label distribution given "
                     "the prediction is from the prediction",
             estimate("ckce", n <= exact_ckce_limit ? std::vector<std::pair<std::string, Value>>{}
                                                    : std::vector<std::pair<std::string, Value>>{{"ckce_method", Value(std::string("lowrank"))}})});
    }
    // Univariate predictive distributions: the PIT and the coverage of central intervals.
    const auto with_pit = [&](const std::vector<double>& u) {
        report.pit = pit_histogram(u, bins.bins, 0.95);
        report.coverage = interval_coverage(u, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95});
    };
    if (const auto* d = std::get_if<NormalData>(&data)) with_pit(pit(*d));
    if (const auto* d = std::get_if<LaplaceData>(&data)) with_pit(pit(*d));
    if (const auto* d = std::get_if<MixtureNormalData>(&data)) with_pit(pit(*d));
    bar.finish();
    report.seconds = seconds_since_start();

    if (format == "json") {
        const std::string text = report_json(report).dump() + "\n";
        if (output)
            write_atomically(*output, text);
        else
            std::cout << text;
        return 0;
    }
    const std::string path = output.value_or("report.html");
    write_atomically(path, report_html(report));
    const ReportTest& chosen = report.tests[report.recommended];
    std::cerr << "calib report: wrote " << path << " (" << (chosen.p_value < report.alpha ? "not calibrated" : "consistent with calibration")
              << " at alpha = " << report.alpha << ": " << chosen.method << " p " << (chosen.p_value == 0 ? "" : "= ")
              << chosen.p_text << ")\n";
    return 0;
}

}  // namespace calib::cli

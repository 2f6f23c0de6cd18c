// The help texts of `calib`: the families, the methods and their options are generated from the
// registry (calib/registry.hpp), so that every option appears with its documented default; the
// prose around them is written here once. docs/cli.md has the long version.
#include "commands.hpp"

#include <calib/metrics.hpp>
#include <calib/operation.hpp>
#include <calib/registry.hpp>
#include <calib/tool/command.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace calib::cli {

const char* const main_usage = R"(Usage:
  calib estimate --family F --input FILE --estimator E [options]
  calib test     --family F --input FILE --method M [options]
  calib rank     --family F --input MODEL1.csv MODEL2.csv ... [options]
  calib report   --family F --input FILE [MODEL2 ...] [--output report.html] [options]
  calib recalibrate fit   --family F --input FILE --method M --out map.json [options]
  calib recalibrate apply --map map.json --input FILE --output FILE.npy|FILE.csv
  calib metrics  --family F --input FILE [--features FILE] [--threshold C] [options]
  calib reproduce PRESET --input FILE [--labels FILE] [options]
  calib --help | --version
  calib COMMAND --help
)";

namespace {

const std::string main_commands = R"(Commands:
  estimate   estimate a calibration error (SKCE, CKCE, UCME or ECE) of the predictions in a file
             and print it as one JSON object
  test       test "the predictions are calibrated" and print the p-value and the test's
             details as one JSON object
  rank       rank several models evaluated on the same labelled data by calibration errors
             (CKCE, SKCE, ECE), with paired bootstrap intervals for their differences
  report     write a one-page HTML report: the verdict of a calibration test, every test's
             p-value, the calibration errors with bootstrap intervals and reliability diagrams
             with exact intervals; of several models, also their ranking
  recalibrate
             fit a recalibration map (temperature, vector or matrix scaling; affine Gaussian)
             by NLL and write it as JSON; apply a map file to new predictions
  metrics    the evaluation metrics of Marx et al. (2023): accuracy, top-label ECE, entropy and
             NLL of class predictions; NLL, QCE, DCE and LCE of univariate distributions
  reproduce  one row of a published table (neurips2019: the CIFAR-10 errors and p-values of
             Widmann et al. 2019) from one model's outputs, with the paper's conventions
)";

const std::string main_tail = R"(
Exit codes: 0 success, 2 bad command line, bad input file, an output that cannot be written, or
a result that cannot be computed on this data (the message says what to change), 1 internal
failure.
Errors are reported as one line on stderr: "calib: <message>".

Examples:
  calib estimate --family categorical --input preds.csv --estimator skce-unbiased
  calib test --family categorical --input preds.csv --method bootstrap --alpha 0.05
  calib rank --family categorical --input resnet.csv densenet.csv --format table
  calib recalibrate fit --family categorical --input preds.npy --labels labels.npy --method temperature --out map.json
  calib diagram --family binary --input scores.csv --replicates 1000
)";

}  // namespace

std::string main_help() {
    // The commands described above by hand, then every other operation of the library by its summary.
    std::string commands = main_commands;
    for (const Operation* op : operations())
        if (const std::string command = op->info().name.substr(0, op->info().name.find(' '));  // recalibrate fit
            commands.find("\n  " + command + " ") == std::string::npos && commands.find("\n  " + command + "\n") == std::string::npos)
            commands += "  " + op->info().name + std::string(op->info().name.size() < 9 ? 9 - op->info().name.size() : 1, ' ') +
                        "  " + op->info().summary + "\n";
    return "calib - calibration errors of probabilistic predictions\n\n" + std::string(main_usage) + "\n" + commands +
           main_tail;
}

namespace {

constexpr std::size_t label_width = 24, line_width = 100;

// `text` wrapped at line_width, its lines after the first indented by `indent` spaces.
std::string wrap(const std::string& text, std::size_t indent, std::size_t first_column) {
    std::string out, line;
    std::size_t column = first_column;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && column + 1 + word.size() > line_width) {
            out += line + "\n" + std::string(indent, ' ');
            line.clear();
            column = indent;
        }
        column += (line.empty() ? 0 : 1) + word.size();
        line += (line.empty() ? "" : " ") + word;
        start = end + 1;
    }
    return out + line + "\n";
}

// "  --name FORM          help (default D)", wrapped.
std::string entry(const std::string& label, const std::string& text) {
    std::string head = "  " + label;
    if (head.size() + 1 < label_width)
        head += std::string(label_width - head.size(), ' ');
    else
        head += "\n" + std::string(label_width, ' ');
    return head + wrap(text, label_width, label_width);
}

std::string options_text(const std::vector<OptionInfo>& options) {
    std::string out;
    for (const OptionInfo& o : options) {
        std::string text = o.help;
        if (!o.condition.option.empty())
            text += "; " + render_message(describe_condition(o.condition), NameStyle::command_line);
        if (o.required)
            text += " (required)";
        else if (!o.default_value.empty() && !o.metavar.empty())  // a flag is off unless given
            text += " (default " + o.default_value + ")";
        out += entry(option_name(o.name, NameStyle::command_line) + (o.metavar.empty() ? "" : " " + o.metavar), text);
    }
    return out;
}

std::string methods_text(const std::vector<MethodInfo>& methods) {
    std::string out;
    for (const MethodInfo& m : methods)
        out += entry(m.name, m.summary + (m.binary_only    ? " (binary; categorical: 2 classes, or --event)"
                                          : m.classes_only ? " (categorical and binary only)"
                                          : m.univariate_only ? " (univariate families only)"
                                                           : ""));
    return out;
}

// Whether the option applies only when a chain of conditions reaches `option` = `value` (the MMD's
// options in a test apply only with --estimator mmd).
bool only_with(const std::vector<OptionInfo>& options, const OptionInfo& o, const std::string& option,
               const std::string& value) {
    for (const OptionInfo* at = &o; !at->condition.option.empty();) {
        const Condition& c = at->condition;
        if (c.option == option) return c.values == std::vector<std::string>{value};
        const auto next = std::find_if(options.begin(), options.end(),
                                       [&](const OptionInfo& i) { return i.name == c.option; });
        if (next == options.end()) return false;
        at = &*next;
    }
    return false;
}

// The options of each method, under its name; the MMD's options of the tests are listed once, as
// those of 'calib estimate --estimator mmd'.
template <class Make>
std::string method_options_text(const std::vector<MethodInfo>& methods, Make make) {
    std::string out;
    for (const MethodInfo& m : methods) {
        const auto setup = make(m.name);
        std::vector<OptionInfo> shown;
        for (const OptionInfo& o : setup.options())
            if (!only_with(setup.options(), o, "estimator", "mmd")) shown.push_back(o);
        if (shown.empty()) continue;
        out += "\nOptions of " + m.name + ":\n" + options_text(shown);
    }
    return out;
}

std::string families_text() {
    std::string out = "Input (text or NumPy .npy files; columns by position, the targets last):\n";
    for (const FamilyInfo& f : families())
        out += entry("--family " + f.name, f.prediction_columns + " | " + f.target_columns + ": " + f.summary);
    return out + R"(  --input FILE          the predictions, then the targets unless --labels is given: a text file
                        (comma, tab, semicolon or whitespace separated) or a .npy file; - is stdin
)" + options_text(reading_options(true));
}

// The command's own options (the registry's CommandSetup) and --help.
// The command's own options (the registry's CommandSetup), then `more` (an operation's own, such as
// test's --alpha), then --help.
std::string command_options_text(const std::string& command, const std::vector<OptionInfo>& more = {}) {
    return "\nOther:\n" + options_text(CommandSetup(command).options()) + options_text(more) + entry("--help", "this text");
}

// --preset of estimate and test, from the registry's presets.
std::string preset_option_text() {
    std::string names, conventions;
    for (const Preset& p : presets()) {
        std::string set;
        for (const auto& [name, value] : p.conventions)
            set += (set.empty() ? "" : ", ") + option_name(name, NameStyle::command_line) + " " + value;
        names += (names.empty() ? "" : "|") + p.name;
        conventions += (conventions.empty() ? "" : "; ") + p.name + ": " + set;
    }
    return entry("--preset " + names, "the conventions of a published experiment, set where the method has the "
                                      "option and it was not given (" + conventions +
                                      "); 'calib reproduce --help' lists its table");
}

// An operation's own options besides its method's choice and --preset (test's --alpha).
std::vector<OptionInfo> verdict_options(const Operation& operation) {
    std::vector<OptionInfo> options;
    for (const OptionInfo& o : operation.own_options())
        if (o.name != operation.info().method && o.name != "preset") options.push_back(o);
    return options;
}

// The families with that property ("categorical, binary"), from the families table.
std::string families_where(bool FamilyInfo::*property) {
    std::string names;
    for (const FamilyInfo& f : families())
        if (f.*property) names += (names.empty() ? "" : ", ") + f.name;
    return names;
}

}  // namespace

namespace {

std::string estimate_help() {
    return R"(calib estimate - estimate a calibration error and print one JSON object

Usage:
  calib estimate --family F --input FILE --estimator E [estimator options] [kernel options]

)" + families_text() +
           "\nEstimators (--estimator E):\n" + methods_text(estimator_methods()) +
           method_options_text(estimator_methods(), make_estimator) +
           "\nKernel options (estimators of the SKCE and the UCME; k = k_P(p,p') * k_Y(y,y')):\n" +
           options_text(KernelSetup(families().front()).options()) + command_options_text("estimate") + preset_option_text() + R"(
Output: one JSON object on one line: estimator, estimate, n, the estimator's own numbers
(block_size, num_blocks; num_locations; for ckce lambda, ridge, rank, ...), the options used, the
kernel (lengthscale, lengthscale_rule, kernel), family, input, labels, files (what was read),
max_simplex_deviation, threads, compute_seconds (the kernel's lengthscale and the estimator),
wall_time_seconds (the whole command) and calib_version. Numbers are in the shortest form that
reads back exactly.

Exit codes: 0 success, 2 bad option or bad input file, 1 internal failure.

Examples:
  calib estimate --family categorical --input preds.csv --estimator skce-unbiased
  calib estimate --family normal --input gauss.csv --estimator skce-block --block-size sqrt
  calib estimate --family binary --input scores.csv --estimator ece --binning uniform:15
  calib estimate --family categorical --input preds.csv --estimator ckce --ckce-method rff
)";
}

std::string test_help() {
    return R"(calib test - test whether predictions are calibrated; print one JSON object

Usage:
  calib test --family F --input FILE --method M [method options] [kernel options]
             [--alpha A] [--threads N]

Input and kernel options are those of 'calib estimate' (see 'calib estimate --help'); every
method uses the kernel except consistency with ece. With --estimator mmd (block, bootstrap, gamma)
the test is of the conditional MMD of a notion of calibration and takes the options of 'calib
estimate --estimator mmd' (--notion, --kernel-p, --metric, --lengthscale, --kernel-y, --features,
--groups, ...) instead of the kernel options.

Methods (--method M; every test is right-tailed: a small p-value speaks against calibration):
)" + methods_text(test_methods()) +
           method_options_text(test_methods(), make_test) +
           "\nKernel options:\n" + options_text(KernelSetup(families().front()).options()) +
           command_options_text("test", verdict_options(find_operation("test"))) + preset_option_text() + R"(
Output: one JSON object on one line: method, null, estimator, estimate, statistic, p_value,
alpha, reject, low_power (when the test has little power for this n and may miss a
miscalibration: the block test with B below max(2, floor(sqrt(n))), the distribution-free bounds,
cme at fewer than 10 locations; the table's verdict repeats it), n, the method's details (e.g.
block_size, num_blocks, std_error; replicates, seed), the kernel (lengthscale, lengthscale_rule,
kernel), the options used, [preset], family, input, files (what was read, test locations
included), threads, compute_seconds, wall_time_seconds and calib_version.

Exit codes: 0 success, 2 bad option, bad input file, or a test that cannot be computed on this
data (e.g. a singular CME covariance; the message says what to change), 1 internal failure.

Examples:
  calib test --family categorical --input preds.csv --method block --block-size sqrt --alpha 0.05
  calib test --family binary --input scores.csv --method bootstrap --replicates 2000 --seed 7
  calib test --family normal --input gauss.csv --method cme --locations 5
)";
}

std::string diagram_help() {
    return R"(calib diagram - the numbers of a diagram of the predictions; print one JSON object

Usage:
  calib diagram --family F --input FILE [--diagram D] [diagram options]

)" + families_text() +
           "\nDiagrams (--diagram D; default: corp for class predictions, pit for predictive distributions):\n" +
           methods_text(diagram_methods()) +
           method_options_text(diagram_methods(), [](const std::string& name) { return DiagramSetup(name); }) +
           command_options_text("diagram") + R"(
Output: one JSON object on one line: command, diagram, n, the diagram's numbers (corp: event, level,
replicates, seed, curve with the PAV fit's pieces lower, upper, value, count; points with x,
recalibrated, count and the consistency and confidence bands at each band point; score, mean_score,
recalibrated_score, mcb, dsc, unc; with --event class-wise a list classes of these, one per class.
reliability: event, binning and bins with each bin's counts, frequency and interval; pit: counts,
band_lower, band_upper; coverage: nominal, observed, lower, upper), the options used, family,
input, files, threads, compute_seconds, wall_time_seconds and calib_version. --format table prints
the summary: the decomposition and how many band points leave the consistency band.

Exit codes: 0 success, 2 bad option or bad input file, 1 internal failure.

Examples:
  calib diagram --family binary --input scores.csv
  calib diagram --family categorical --input preds.csv --event top-label --replicates 1000
  calib diagram --family categorical --input preds.csv --diagram reliability --bins 15
  calib diagram --family normal --input gauss.csv --diagram coverage
)";
}

}  // namespace

std::string metrics_help();  // below, with the other commands' texts
std::string reproduce_help();
std::string rank_help();
std::string report_help();

std::string operation_help(const Operation& operation) {
    if (operation.info().name == "estimate") return estimate_help();
    if (operation.info().name == "test") return test_help();
    if (operation.info().name == "metrics") return metrics_help();
    if (operation.info().name == "reproduce") return reproduce_help();
    if (operation.info().name == "rank") return rank_help();
    if (operation.info().name == "report") return report_help();
    if (operation.info().name == "diagram") return diagram_help();
    // An operation without its own text: its description and options from the registry.
    const OperationInfo& info = operation.info();
    const std::string method = info.method.empty() ? "" : " " + option_name(info.method, NameStyle::command_line) + " M";
    return "calib " + info.name + " - " + info.summary + "\n\nUsage:\n  calib " + info.name +
           " --family F --input FILE" + method + " [options]\n\n" +
           families_text() + "\nOptions:\n" + options_text(operation.options()) + command_options_text(info.name);
}

std::string report_help() {
    return R"(calib report - a one-page calibration report of the predictions in a file (or of several models)

Usage:
  calib report --family F --input FILE [--labels FILE] [reading options] [--output report.html]
  calib report --family categorical|binary --input MODEL1 MODEL2 ... [options]

Writes one self-contained HTML file (inline CSS and SVG, nothing fetched; readable offline and
printable): what was evaluated (n, classes and accuracy, or the mean negative log-likelihood); the
verdict at --alpha of the test recommended for the data size (the bootstrap test of the unbiased
SKCE up to n = 10000, the block test with B = sqrt(n) above), with the p-values of the block and
Gamma tests beside it (binary predictions: also the clinical tests, ks, kuiper and t-cal; more
classes: t-cal on the top-label confidence); the SKCE, and for class predictions the ECE of calib
estimate (canonical), the top-label ECE of equal-width and equal-count bins and the CKCE, each with
a percentile bootstrap interval (--replicates, --level, --seed), the debiased L2 error with a basic
bootstrap interval, and the smooth ECE (binary predictions: also the ICI and Emax of the loess
calibration curve); the CORP reliability diagram without bins (isotonic recalibration) with its
consistency band, and the CORP decomposition of the Brier and log scores; reliability diagrams (top-label with both
binnings, and per class for m <= 20, or P(Y = 1) for binary data) with Clopper-Pearson intervals
and the bins' counts; for predictive distributions the PIT histogram and the coverage of central
intervals (mvnormal: the PIT of the squared Mahalanobis distance and the coverage of prediction
ellipsoids). Several model files on the same labels (class predictions) add the ranking of calib
rank with the same seed and replicates, and overlay the models' diagrams. The kernel is the
family's default with the median lengthscale, as in calib test.

Options:
  --family, --input, --labels, --header, --delimiter, --one-based-labels, --logits,
  --simplex-tolerance, --renormalize
                        as in calib estimate (see 'calib estimate --help'); --input takes one
                        file, or several (class predictions, the same labels) as in calib rank
)" + options_text(find_operation("report").options()) + options_text(CommandSetup("report").options()) + R"(
Exit codes: 0 success (whatever the verdict), 2 bad option, bad input or an unwritable output,
1 internal failure.

Examples:
  calib report --family categorical --input preds.npy --labels labels.npy --output preds.html
  calib report --family categorical --input lenet.csv densenet.csv resnet.csv --output models.html
)";
}

std::string rank_help() {
    return R"(calib rank - rank models by calibration error, with paired bootstrap intervals

Usage:
  calib rank --family categorical|binary --input MODEL1.csv MODEL2.csv [...] [options]

Every file holds one model's predictions on the same labelled data (the format of
'calib estimate'; the labels must be the same in every file, line by line). Each estimator ranks
the models (lower is better calibrated); a paired bootstrap gives an interval for each difference
so that "model A is better calibrated than model B" can be said at a stated confidence.

Options:
  --input FILES         two or more model files (also --input A.csv --input B.csv)
  --family F            categorical or binary
  --labels FILE, --header, --delimiter, --one-based-labels, --logits, --simplex-tolerance,
  --renormalize         as in 'calib estimate'; one --labels file serves every model
)" + options_text(ComparisonSetup().options()) +
           command_options_text("rank") + R"(
The CKCE's lengthscale (median: per model on the full data) also sets the jkce kernel and
is kept for the bootstrap replicates. CKCE replicates are computed in the primal form from a factor
of each model's Gram matrix (exact, eigen: the shortest pivoted Cholesky whose CKCE on the full
data is within 1e-5 relative of the estimate; rff, lowrank: their own).

Output (json): command, models, estimators, replicates, seed, level, interval, and for each
estimator under results: description, estimates, std_errors (bootstrap standard deviations),
ranking (best first), lengthscales (kernel estimators), comparisons (first, second,
difference = first - second, lower, upper, bootstrap_mean, probability_first_lower, verdict);
replicate_factor_ranks (ckce); then kernel, ece, n, every option used (flat, as in the output of
estimate and test), family, input (the model files), files, max_simplex_deviation, threads,
compute_seconds, wall_time_seconds, calib_version.
The intervals are percentile intervals of the paired bootstrap differences. A verdict names the
better calibrated model when the whole interval lies on one side of 0, else "no clear
difference". CKCE and ECE are biased estimators, and resampling with replacement shifts them; the
shift largely cancels in a paired difference (compare bootstrap_mean with difference), which is
why no per-model intervals are given.

Exit codes: 0 success, 2 bad option or input file (including different labels), 1 internal
failure.

Examples:
  calib rank --family categorical --input lenet.csv densenet.csv resnet.csv --format table
  calib rank --family binary --input a.csv b.csv --estimators ckce,ece --replicates 1000 --seed 7
)";
}

// The options of the recalibration fit (the registry's RecalibrationSetup): the categorical maps', then
// those of the normal maps that differ.
std::string fit_options_text() {
    const std::vector<OptionGroup> groups = option_groups("recalibrate fit");
    return "categorical maps (--family categorical):\n" + options_text(groups[0].options) +
           "normal maps (--family normal), the others as for categorical maps:\n" + options_text(groups[1].options);
}

std::string recalibrate_help() {
    return R"(calib recalibrate - fit a recalibration map by NLL (or NLL + lambda MMD^2), and apply it

Usage:
  calib recalibrate fit --family categorical|normal --input FILE [--labels FILE] [--logits]
                        --method M [--objective nll|nll+mmd [--lambda L] [--notion N]] [--ridge L]
                        [--kernel-y K [--threshold C] [--lengthscale L] [--lengthscale-y L]]
                        [--holdout F [--seed S]] --out map.json
  calib recalibrate apply --map map.json --input FILE [--labelled [--one-based-labels]]
                          [--simplex-tolerance T] [--renormalize] --output FILE.npy|FILE.csv
                          [--intervals FILE.npy|FILE.csv]

fit minimises the mean negative log-likelihood of the recalibrated predictions with L-BFGS, or
fits the exact maps (isotonic, top-label-isotonic, histogram, venn-abers) directly
(docs/recalibration.md), and writes the map as JSON. Methods:
  categorical   temperature (softmax(z/T)), temperature-bias (softmax(z/T + b)), vector
                (softmax(w*z + b)), matrix (softmax(Wz + b), objective + ridge * sum of the
                off-diagonal W^2), dirichlet (softmax(W ln p + b), p the softmax of z, objective +
                ridge/(m(m-1)) * sum of the off-diagonal W^2 + intercept_ridge/m * sum b^2: Kull et
                al.'s ODIR), platt (sigmoid(a (z1 - z0) + b), Platt's logistic map of
                the log-odds; m > 2: one-vs-rest, sigmoid(a_k s_k + b_k) of each class's
                log-odds s_k = ln(p_k / (1 - p_k)), rows renormalised), beta (two
                classes: sigmoid(a ln p1 - b ln p0 + c) with a, b >= 0, Kull et al.'s beta
                calibration, p the softmax of z); z are the logits (--logits) or log max(p,
                1e-12);
                isotonic: each class's probability by its isotonic regression (one-vs-rest,
                renormalised; the second class's alone when m = 2), as scikit-learn's
                CalibratedClassifierCV(method="isotonic"); top-label-isotonic: for each class c,
                the isotonic regression of 1{y = c} on p_c over the rows whose top class is c
                (Gupta & Ramdas's top-label calibration), the other classes sharing 1 - q_c in
                proportion to their probabilities, each below q_c when q_c > 1/m (the top class
                is kept); histogram: each class's probability
                binned (--bins, --binning) and mapped to the class's frequency in its bin;
                venn-abers (two classes): the inductive Venn-Abers predictor, for each new
                prediction the isotonic fits p0 and p1 of the validation set with it labelled 0
                and 1, merged into p1 / (1 - p0 + p1) (apply --intervals writes lower = p0, upper = p1);
                auto: the method of best cross-validated score (--folds, --selection-score)
  normal        affine: N(a mu + b, (e^s sigma)^2); affine-features: N(a mu + b,
                (e^(s0 + s1 |x|) sigma)^2) with one feature x per row (--features)

Options of fit:
  --input FILE          the validation predictions with their targets (the formats of
                        'calib estimate'); --labels, --header, --delimiter, --one-based-labels,
                        --logits, --simplex-tolerance, --renormalize as there
)" + fit_options_text() + "\n" + options_text(CommandSetup("recalibrate fit").options()) + R"(
Options of apply:
  --input FILE          predictions: exactly the map's m columns (logits or probabilities, as
                        fitted), or mu, sigma; with --labelled one more, the labels (or y),
                        checked as 'calib estimate' checks them and copied to the output
)" + options_text(find_operation("recalibrate apply").options()) +
           options_text(CommandSetup("recalibrate apply").options()) + R"(
Output: one JSON object on stdout. fit: command, method, objective, n, holdout (fraction, seed,
n_fit, n_held_out, nll_before, nll_after, skce_bootstrap_p_value_before/after, mmd_notion,
mmd_lengthscale, mmd_before, mmd_after), parameters (venn-abers: distinct_scores, the table being
the map file's), objective_before, objective_after, (nll+mmd: lambda, notion, mmd_block_size,
mmd_lengthscale), iterations, evaluations, status (converged, max_iterations,
line_search_failed), map, then family, input, files, threads, compute_seconds,
wall_time_seconds, calib_version; warnings (a fit stopped by --max-iterations, a map worse
than the identity on the held-out rows: also on stderr). apply: command, method, n, columns, map,
the reading options as used, output (its columns p_1 ... p_m or mu, sigma; label or y with
--labelled), intervals (with --intervals; its columns lower, upper), then family (the map's),
input, files, threads, compute_seconds, wall_time_seconds, calib_version. No output may be one
of the command's input files.

Examples:
  calib recalibrate fit --family categorical --input preds.npy --labels labels.npy --method temperature --holdout 0.3 --out map.json
  calib recalibrate apply --map map.json --input preds.npy --output recal.npy
)";
}

// The options of the metrics (the registry's MetricsSetup): class predictions', then the univariate
// families' own.
std::string metrics_options_text() {
    const std::vector<OptionGroup> groups = option_groups("metrics");
    return options_text(groups[0].options) + "univariate families also:\n" + options_text(groups[1].options);
}

std::string metrics_help() {
    std::string classes, univariate;
    for (const MetricInfo& m : metric_descriptions()) (m.classes ? classes : univariate) += entry(m.name, m.summary);
    return R"(calib metrics - the evaluation metrics of Marx, Zalouk & Ermon (NeurIPS 2023)

Usage:
  calib metrics --family F --input FILE [--labels FILE] [--features FILE] [--threshold C]
                [--qce-binning floor|round] [--bins B] [--lce-lengthscale L] [--format json|table]

Prints every metric that applies to the family as one JSON object (docs/metrics.md has the formulas).
Class predictions (--family )" + families_where(&FamilyInfo::classes) + "):\n" + classes +
           "Univariate distributions (--family " + families_where(&FamilyInfo::univariate) + "):\n" + univariate + R"(
Options:
)" + metrics_options_text() + options_text(CommandSetup("metrics").options()) + R"(  The reading options of 'calib estimate' (--labels, --header, --delimiter, --one-based-labels,
  --logits, --simplex-tolerance, --renormalize) apply.

Output fields: command, n, the metrics above, threshold and threshold_rule (median or given), bins,
qce_binning, with features lce_lengthscale, lce_lengthscale_rule, kce_lengthscale (normal:
kce_lengthscale_y) and features, then family, input,
files, threads, compute_seconds, wall_time_seconds, calib_version. An infinite NLL is null.

Examples:
  calib metrics --family categorical --input preds.npy --labels labels.npy
  calib metrics --family normal --input forecasts.csv --features x.csv --format table
)";
}

std::string reproduce_help() {
    std::string text = R"(calib reproduce - one row of a published table from one model's outputs

Usage:
  calib reproduce PRESET --input FILE [--labels FILE] [--one-based-labels] [--family categorical|binary]
                  [--format json|table] [--threads N]

Computes every column of the preset's table with the paper's conventions and prints them under the
table's own names, to compare with the published row. The same conventions, without the table, are
'calib estimate --preset PRESET' and 'calib test --preset PRESET' (they set the options below where
the estimator or test has them and they were not given). --family defaults to categorical; the
reading options of 'calib estimate' (--labels, --header, --delimiter, --one-based-labels, --logits,
--simplex-tolerance, --renormalize) apply.

Presets:
)";
    for (const Preset& p : presets()) {
        std::string conventions, columns;
        for (const auto& [name, value] : p.conventions)
            conventions += (conventions.empty() ? "" : ", ") + option_name(name, NameStyle::command_line) + " " + value;
        for (const PresetColumn& c : p.columns) {
            std::string options;
            for (const auto& [name, value] : c.options)
                options += " " + option_name(name, NameStyle::command_line) + " " + value;
            columns += "    " + c.table + "." + c.name + ": " + (c.test ? "test --method " : "estimate --estimator ") +
                       c.method + options + "\n";
        }
        text += entry(p.name, p.source + "; conventions: " + conventions) + columns;
    }
    return text + R"(
Output (json): command, preset, source, n, one object per table ({column: estimate or p-value}),
lengthscale (the kernel's, chosen once by the preset's rule), then family, input, files, threads,
compute_seconds, wall_time_seconds, calib_version. docs/reproduction.md compares a row with the
published one.

Example:
  calib reproduce neurips2019 --input densenet121.csv --labels labels.csv --one-based-labels --format table
)";
}

}  // namespace calib::cli


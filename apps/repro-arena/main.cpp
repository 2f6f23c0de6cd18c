// repro-arena: every calibration test of calib side by side (docs/tests.md, "The arena"): the type-I
// error on calibrated models and the power against stated miscalibrations, with Monte-Carlo
// intervals, and the time of each test, on one grid of designs.
//
// Models: binary (p ~ U(0, 1)) and 10-class (p ~ Dir(1)) predictions; the labels are drawn from the
// true probabilities q, which are
//   calibrated     q = p;
//   overconfident  the predictions are p' = softmax(2 log p) (binary: sigmoid(2 logit p)), q = p;
//   underconfident p' = softmax(log p / 2), q = p;
//   prior-shift    q ∝ p·w with w = 2 for the last class, 1 for the others (the event rate moves);
//   local          in one region of the predictions only: binary q = p + 0.12 sin²(π(p − 0.6)/0.3) for
//                  0.6 < p < 0.9; 10-class the same bump moves 0.05 sin²(π(p₀ − 0.1)/0.2) of class 0's
//                  probability to class 1 where 0.1 < p₀ < 0.3 (a third of the predictions);
//   feature        miscalibrated only given a feature x ~ N(0, 1) (drawn for every design) that the model
//                  ignores: with t = tanh(2x), binary q = p + t·p(1 − p)/2 (q of class 0), 10-class
//                  t·min(p₀, p₁) of probability moved from class 1 to class 0; averaged over x, q = p
//                  (calibrated given the prediction alone).
// Tests, through the registry with calib test's defaults (R = 1000 resamples, T-Cal 3000 draws): block
// (B = √n), bootstrap, gamma, spectral (n ≤ 1000), the three distribution-free bounds, consistency
// resampling of the ECE, cme (the most locations of its validity range, at most 10), and the tests of
// binary predictions (spiegelhalter, citl, cox, hosmer-lemeshow, ks, kuiper, t-cal) — of the top-label
// event for the 10-class model — and the bootstrap test of the conditional MMD of individual calibration
// given the feature x (Marx et al.'s notion, with its default kernels). The other kernel tests use the
// family's default kernel with the median lengthscale (calib test's). A test that fails on a data set
// (a singular CME covariance, Cox's fit on outcomes the predictions separate) counts as not rejecting
// and is counted in the summary's `not_run`.
// Cells arena_<family>_<design>_n<n>, n = 50, 200, 1000 and 10 000 (a quarter of the replicates there, for
// time: about 10 s of tests per data set; --quick stops at 1000): each replicate's p-values (nan: not run)
// and, apart, each test's seconds. Summaries: arena_summary.csv (rejections at α = 0.01, 0.05, 0.1 with the
// Wilson 95 % interval of the rate and, for calibrated models, the 99 % binomial band around α; the
// verdict "not run" for a test a cell's n does not take: spectral above n = 1000, cme without a valid J)
// and arena_times.csv (mean seconds per data set on one thread).
#include "../harness/harness.hpp"

#include <calib/hypothesis.hpp>
#include <calib/registry.hpp>
#include <calib/tool/synthetic.hpp>

#include <boost/math/distributions/binomial.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

const repro::AppInfo info{
    "repro-arena",
    "every calibration test side by side: type-I error and power on one grid of designs, and time.",
    "calib's own study (docs/tests.md, the arena); not from a paper",
    200,
    3,
    2026,
    "Cells: arena_<family>_<design>_n<n> for the families binary and categorical (10 classes), the\n"
    "designs calibrated, overconfident, underconfident, prior-shift, local and feature, and n = 50, 200,\n"
    "1000 and 10 000 (a quarter of the replicates at 10 000; --quick: n <= 1000).\n"
    "Summaries: arena_summary.csv (rates with intervals), arena_times.csv (seconds per data set).\n"};

const std::array<const char*, 2> families{{"binary", "categorical"}};
const std::array<const char*, 6> designs{{"calibrated", "overconfident", "underconfident", "prior-shift", "local",
                                          "feature"}};
const std::array<std::size_t, 4> sizes{{50, 200, 1000, 10000}};
constexpr std::size_t large_n = 10000;  // its cells have a quarter of the replicates; --quick skips them
const std::array<double, 3> alphas{{0.01, 0.05, 0.1}};
constexpr int classes = 10;
constexpr std::size_t spectral_limit = 1000;

// The tests: a name for the tables, the registry's method and its options beyond the defaults.
struct ArenaTest {
    const char* name;
    const char* method;
    std::vector<std::pair<std::string, std::string>> options;
    bool binary_event = false;  // a test of binary predictions: the top-label event of class predictions
};
const std::vector<ArenaTest>& arena_tests() {
    static const std::vector<ArenaTest> tests{
        {"block_sqrt", "block", {{"block_size", "sqrt"}}},
        {"bootstrap", "bootstrap", {}},
        {"gamma", "gamma", {}},
        {"spectral", "spectral", {}},
        {"dfree_biased", "dfree-biased", {}},
        {"dfree_unbiased", "dfree-unbiased", {}},
        {"dfree_block", "dfree-block", {{"block_size", "sqrt"}}},
        {"consistency_ece", "consistency", {{"estimator", "ece"}}},
        {"cme", "cme", {}},
        {"spiegelhalter", "spiegelhalter", {}, true},
        {"citl", "citl", {}, true},
        {"cox", "cox", {}, true},
        {"hosmer_lemeshow", "hosmer-lemeshow", {}, true},
        {"ks", "ks", {}, true},
        {"kuiper", "kuiper", {}, true},
        {"t_cal", "t-cal", {}, true},
        {"mmd_individual", "bootstrap", {{"estimator", "mmd"}, {"notion", "individual"}, {"features", "arrays"}}},
    };
    return tests;
}

// The most CME locations within the F null's validity range for the n − J observations tested (narrower
// for binary predictions), at most 10 (the 2021 experiments' number); 0 when not even one fits.
std::size_t cme_locations(std::size_t n, bool two_classes) {
    std::size_t j = 0;
    while (j < 10 && j + 1 <= calib::cme_max_locations(n - (j + 1), calib::CmeReference::f, two_classes)) ++j;
    return j;
}

// A data set of one design: the predictions shown to the tests, labels drawn from the true
// probabilities, and the feature x.
struct DataSet {
    calib::CategoricalData data;
    calib::Matrix feature;
};
DataSet generate(std::size_t family, std::size_t design, std::size_t n, calib::Rng& rng) {
    const int m = family == 0 ? 2 : classes;
    boost::random::gamma_distribution<double> gamma(1.0);
    boost::random::normal_distribution<double> normal;
    calib::Matrix shown(static_cast<Eigen::Index>(n), m), feature(static_cast<Eigen::Index>(n), 1);
    std::vector<int> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        Eigen::RowVectorXd p(m);
        calib::synthetic::dirichlet_row(gamma, p, rng);  // Beta(1, 1) for two classes: p₁ ~ U(0, 1)
        const double x = normal(rng);
        feature(static_cast<Eigen::Index>(i), 0) = x;
        Eigen::RowVectorXd q = p, s = p;
        const std::string d = designs[design];
        if (d == "overconfident" || d == "underconfident") {
            const double power = d == "overconfident" ? 2.0 : 0.5;
            s = p.array().pow(power).matrix();
            s /= s.sum();
        } else if (d == "prior-shift") {
            q(m - 1) *= 2;
            q /= q.sum();
        } else if (d == "local") {
            const auto bump = [](double v, double lo, double width) {
                const double wave = std::sin(M_PI * (v - lo) / width);
                return v > lo && v < lo + width ? wave * wave : 0.0;
            };
            if (m == 2) {
                q(1) = p(1) + 0.12 * bump(p(1), 0.6, 0.3);
                q(0) = 1 - q(1);
            } else {
                const double moved = 0.05 * bump(p(0), 0.1, 0.2);
                q(0) -= moved;
                q(1) += moved;
            }
        } else if (d == "feature") {
            const double t = std::tanh(2 * x);
            const double moved = m == 2 ? t * p(0) * p(1) / 2 : t * std::min(p(0), p(1));
            q(0) += moved;
            q(1) -= moved;
        }
        shown.row(static_cast<Eigen::Index>(i)) = s;
        labels[i] = calib::synthetic::draw_label(q, rng);
    }
    return {calib::CategoricalData(std::move(shown), std::move(labels)), std::move(feature)};
}

// One data set's p-values (nan: the test does not apply or the data do not allow it) and seconds.
struct Outcome {
    std::vector<double> p_values, seconds;
};
Outcome run_tests(const DataSet& set, std::size_t family, std::uint64_t seed) {
    const calib::CategoricalData& data = set.data;
    const calib::AnyData any = data;
    const calib::FamilyInfo& family_info = calib::find_family(families[family]);
    const calib::ParallelOptions serial{1};
    const std::size_t n = data.size();
    const std::size_t cme_j = cme_locations(n, /*two_classes=*/family == 0);
    Outcome out;
    for (const ArenaTest& t : arena_tests()) {
        double p = std::numeric_limits<double>::quiet_NaN();
        const auto start = std::chrono::steady_clock::now();
        const bool applies = (std::string(t.method) != "spectral" || n <= spectral_limit) &&
                             (std::string(t.method) != "cme" || cme_j > 0);
        if (applies) {
            calib::TestSetup setup = calib::make_test(t.method);
            for (const auto& [name, value] : t.options) setup.set(name, value);
            if (std::string(t.method) == "cme") setup.set("locations", std::to_string(cme_j));
            if (t.binary_event && family == 1) setup.set("event", "top-label");
            if (setup.takes_table("features") && setup.applies("features")) setup.set_table("features", set.feature);
            if (setup.option("seed") && setup.applies("seed")) setup.set("seed", std::to_string(seed));
            setup.check();
            std::optional<calib::KernelSetup> kernel;
            if (setup.kernel_use() == calib::KernelUse::skce) kernel.emplace(family_info);
            try {
                p = calib::run_method(setup, kernel ? &*kernel : nullptr, any, nullptr, serial).result.p_value;
            } catch (const calib::numerical_error&) {  // a singular CME covariance, a separated Cox fit
            } catch (const calib::invalid_argument&) {   // a limit of the data (not run, counted as such)
            }
        }
        out.p_values.push_back(p);
        out.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return out;
}

// The sample sizes a run covers, and the data sets per cell at each.
std::size_t size_count(const repro::Options& o) { return o.quick ? sizes.size() - 1 : sizes.size(); }
std::size_t cell_reps(const repro::Options& o, std::size_t n) {
    return n == large_n ? std::max<std::size_t>(1, o.reps / 4) : o.reps;
}

// A cell's random stream: the cells of n ≤ 1000 first, then those of n = 10 000 (added later; numbering them
// after the others left the others' draws, and their recorded results, unchanged).
std::uint64_t cell_stream_index(std::size_t family, std::size_t design, std::size_t size_index) {
    const std::size_t small = sizes.size() - 1;
    return size_index < small ? (family * designs.size() + design) * small + size_index
                              : families.size() * designs.size() * small + family * designs.size() + design;
}

std::string cell_name(std::size_t family, std::size_t design, std::size_t n) {
    return std::string("arena_") + families[family] + "_" + designs[design] + "_n" + std::to_string(n);
}

void run_cell(const repro::Options& o, const repro::Output& out, std::size_t family, std::size_t design,
              std::size_t size_index) {
    const std::size_t n = sizes[size_index];
    const std::string name = cell_name(family, design, n);
    calib::JsonObject parameters;
    parameters.set("family", families[family]).set("design", designs[design]).set("n", n);
    parameters.set("classes", family == 0 ? 2 : classes).set("tests", "calib test's defaults (repro-arena --help)");
    const std::size_t reps = cell_reps(o, n);
    parameters.set("data_sets", reps);  // the sidecar's options.reps is --reps; n = 10 000 takes a quarter
    if (out.done(name, parameters)) return;
    std::vector<std::string> columns{"family", "design", "n", "replicate"};
    for (const ArenaTest& t : arena_tests()) columns.push_back(std::string("p_") + t.name);
    repro::Table table(columns), times({"family", "design", "n", "replicate", "test", "seconds"});
    table.resize(reps);
    std::vector<std::vector<std::string>> time_rows(reps * arena_tests().size());
    repro::Progress progress(o, "arena " + name, reps);
    const std::uint64_t cell = cell_stream_index(family, design, size_index);
    const double wall = repro::time_call([&] {
        repro::distribute(
            reps, o, &progress,
            [&](std::size_t r, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, cell, r);
                const Outcome outcome = run_tests(generate(family, design, n, rng), family, rng());
                std::vector<std::string> row{families[family], designs[design], repro::fmt(n), repro::fmt(r)};
                for (double p : outcome.p_values) row.push_back(repro::fmt(p));
                result.put(row);
                result.put(outcome.seconds);
            },
            [&](std::size_t r, repro::Packet& result) {
                table.set(r, result.get_strings());
                const std::vector<double> seconds = result.get_doubles();
                for (std::size_t t = 0; t < seconds.size(); ++t)
                    time_rows[r * seconds.size() + t] = {families[family], designs[design], repro::fmt(n),
                                                         repro::fmt(r), arena_tests()[t].name,
                                                         repro::fmt(seconds[t])};
            });
    });
    if (out.writer())  // the results reach rank 0 alone (Gather::root)
        for (auto& row : time_rows) times.add_row(std::move(row));
    // The times first: the cell's own file, written last, is what --resume takes as "done".
    out.write(name + "_times", times, parameters, wall);
    out.write(name, table, parameters, wall);
}

// Wilson's 95 % interval of a rate k/N.
std::pair<double, double> wilson(double k, double trials) {
    const double z = 1.959963984540054, p = k / trials, z2 = z * z / trials;
    const double centre = (p + z2 / 2) / (1 + z2);
    const double half = z * std::sqrt(p * (1 - p) / trials + z2 / (4 * trials)) / (1 + z2);
    return {k == 0 ? 0.0 : centre - half, k == trials ? 1.0 : centre + half};
}

void summarise(const repro::Options& o, const repro::Output& out) {
    repro::Table summary({"family", "design", "n", "test", "alpha", "rejections", "trials", "not_run", "rate",
                          "rate_lo", "rate_hi", "band_lo", "band_hi", "verdict"});
    repro::Table times({"family", "n", "test", "mean_seconds"});
    for (std::size_t family = 0; family < families.size(); ++family)
        for (std::size_t s = 0; s < size_count(o); ++s) {
            std::vector<double> seconds(arena_tests().size(), 0.0);
            double data_sets = 0;
            for (std::size_t design = 0; design < designs.size(); ++design) {
                const std::string name = cell_name(family, design, sizes[s]);
                const repro::CsvFile cell(out.csv_path(name));
                for (const ArenaTest& t : arena_tests()) {
                    const std::vector<double> p = cell.numbers(std::string("p_") + t.name);
                    std::size_t not_run = 0;
                    for (double v : p) not_run += std::isnan(v);
                    for (double alpha : alphas) {
                        std::size_t k = 0;
                        for (double v : p) k += v < alpha;  // a test not run does not reject
                        const double trials = double(p.size());
                        const auto [lo, hi] = wilson(double(k), trials);
                        const boost::math::binomial_distribution<double> null(trials, alpha);
                        const double band_lo = boost::math::quantile(null, 0.005);
                        const double band_hi = boost::math::quantile(boost::math::complement(null, 0.005));
                        std::string verdict = "power";
                        if (not_run == p.size())  // a test the cell's n does not take (spectral, cme)
                            verdict = "not run";
                        else if (design == 0)
                            verdict = double(k) > band_hi ? "liberal" : double(k) < band_lo ? "conservative" : "inside";
                        summary.add(families[family], designs[design], sizes[s], t.name, alpha, k, p.size(), not_run,
                                    double(k) / trials, lo, hi, band_lo, band_hi, verdict);
                    }
                }
                const repro::CsvFile time_cell(out.csv_path(name + "_times"));
                for (std::size_t row = 0; row < time_cell.rows(); ++row) {
                    const std::string test = time_cell.cell(row, "test");
                    for (std::size_t t = 0; t < arena_tests().size(); ++t)
                        if (test == arena_tests()[t].name) seconds[t] += time_cell.number(row, "seconds");
                }
                data_sets += double(cell.rows());
            }
            for (std::size_t t = 0; t < arena_tests().size(); ++t)
                times.add(families[family], sizes[s], arena_tests()[t].name, seconds[t] / data_sets);
        }
    calib::JsonObject parameters;
    parameters.set("rejection_rule", "p < alpha; a test not run does not reject")
        .set("interval", "Wilson 95% interval of the rate")
        .set("band", "99% two-sided binomial band around alpha * trials (calibrated designs)");
    out.write("arena_summary", summary, parameters, 0);
    out.write("arena_times", times, parameters, 0);
}

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& o) {
        const repro::Output out(o, info);
        for (std::size_t family = 0; family < families.size(); ++family)
            for (std::size_t design = 0; design < designs.size(); ++design)
                for (std::size_t s = 0; s < size_count(o); ++s) run_cell(o, out, family, design, s);
        if (out.writer()) summarise(o, out);
    });
}

// repro-iclr2021-synthetic: the synthetic Gaussian experiments of Widmann, Lindsten & Zachariah
// (ICLR 2021), "Calibration tests beyond classification", App. A.2 (Figs. 2, 6–11).
//
// Predictions P_X = N(c·1_d, 0.1²·I_d) with c ∼ U(0, 1), d ∈ {1, 10}; targets Y ∼ P_X (calibrated
// model) or Y ∼ N([0.1, μ_2, …, μ_d], 0.1²·I_d) (uncalibrated model); n ∈ {4, 16, 64, 256, 1024};
// 500 data sets per (model, d, n). Kernel exp(−W₂(p, p'))·exp(−‖y − y'‖²/2) (calib's default normal
// kernel; d = 10 through MvNormalData::diagonal).
//   (a) estimators SKCE biased and block B = 2, √n (max(2, ⌊√n⌋)), n: mean absolute error against
//       the ground truth (0, or for the uncalibrated model the mean of the unbiased estimator on
//       1000 independent data sets of 1000 samples), variance, minimum time;
//   (b) tests at α = 0.05 (reject iff p < α, the 2021 code's rule): block z-tests with B = 2 and √n,
//       the bootstrap (1000 resamples), the CME test at J = 10 fixed test locations (χ² reference,
//       and the exact-F reference), and calib's Gamma test: type-I/II error and minimum time.
//       calib::cme_test refuses n ≤ J and numerically singular covariances (no ridge here): such
//       data sets give no p-value (nan in the CSV) and are counted apart, as `failed`.
//
// Outputs (in --out): one CSV per cell, <model>_d<d>_n<n>.csv (one row per data set, deterministic)
// and <model>_d<d>_n<n>_times.csv (seconds per call); truth_d<d>.csv; cme_locations_d<d>.csv;
// cme_study_d<d>.csv (the CME test's type-I error for 20 other draws of its locations);
// summaries estimators.csv and tests.csv beside the published values, estimators_times.csv and
// tests_times.csv (minimum and median seconds per call); .meta.json sidecars.
#include "../harness/harness.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <array>
#include <cmath>
#include <limits>

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double alpha = 0.05;
constexpr double prediction_sd = 0.1;
constexpr std::size_t num_locations = 10;

const repro::AppInfo info{
    "repro-iclr2021-synthetic",
    "The synthetic Gaussian experiments of Widmann et al. (ICLR 2021, App. A.2): estimators and tests.",
    "ICLR 2021 App. A.2, synthetic Gaussian models",
    500,
    20,
    100,
    "Cells: {calibrated, uncalibrated} x d in {1, 10} x n in {4, 16, 64, 256, 1024} (--quick: n <= 64),\n"
    "truth_d1, truth_d10 (ground truth of the uncalibrated model), cme_locations_d1/_d10,\n"
    "cme_study_d1/_d10 (CME type-I error for 20 other location draws).\n"
    "Summaries: estimators.csv (MAE, variance, min time), tests.csv (test errors, min time).\n"};

const std::array<int, 2> dimensions{{1, 10}};
const std::array<std::size_t, 5> sizes{{4, 16, 64, 256, 1024}};
const std::array<const char*, 2> models{{"calibrated", "uncalibrated"}};
const std::array<const char*, 4> estimators{{"biased", "block2", "blocksqrt", "unbiased"}};
const std::array<const char*, 6> tests{{"block2", "blocksqrt", "bootstrap", "cme", "cme_f", "gamma"}};

struct Scale {
    std::size_t num_sizes, resamples, truth_sets, truth_n;
};
Scale scale(const repro::Options& o) { return o.quick ? Scale{3, 100, 10, 200} : Scale{5, 1000, 1000, 1000}; }

// Predictions N(c·1_d, 0.1²I) and targets (calibrated: from the prediction; uncalibrated: the first
// coordinate from N(0.1, 0.1²)). d = 1 gives NormalData, d > 1 MvNormalData (diagonal).
struct Sample {
    calib::Matrix mean, targets;
};
Sample draw(bool calibrated, int d, std::size_t n, calib::Rng& rng) {
    boost::random::uniform_01<double> uniform;
    boost::random::normal_distribution<double> normal;
    Sample s{calib::Matrix(static_cast<Eigen::Index>(n), d), calib::Matrix(static_cast<Eigen::Index>(n), d)};
    for (Eigen::Index i = 0; i < s.mean.rows(); ++i) {
        const double c = uniform(rng);
        for (int k = 0; k < d; ++k) {
            s.mean(i, k) = c;
            const double centre = (!calibrated && k == 0) ? 0.1 : c;
            s.targets(i, k) = centre + prediction_sd * normal(rng);
        }
    }
    return s;
}

calib::NormalData as_normal(const Sample& s) {
    return calib::NormalData(s.mean.col(0), calib::Vector::Constant(s.mean.rows(), prediction_sd), s.targets.col(0));
}
calib::MvNormalData as_mvnormal(const Sample& s) {
    return calib::MvNormalData::diagonal(s.mean, calib::Matrix::Constant(s.mean.rows(), s.mean.cols(), prediction_sd),
                                         s.targets);
}

// The CME test locations of dimension d: predictions N(m, 0.1²I), m ∼ U[0,1]^d, targets
// N(0, 0.1²I); drawn once per dimension (as the authors' scripts) from their own stream.
// Set 0 is the experiment's; sets 1, 2, … serve the study of how the CME test's level depends on
// the draw of the locations.
Sample locations(const repro::Options& o, std::size_t d_index, std::size_t set = 0) {
    calib::Rng rng = set == 0 ? repro::cell_stream(o, 900 + d_index, 0) : repro::cell_stream(o, 910 + d_index, set);
    const int d = dimensions[d_index];
    boost::random::uniform_01<double> uniform;
    boost::random::normal_distribution<double> normal;
    Sample s{calib::Matrix(num_locations, d), calib::Matrix(num_locations, d)};
    for (Eigen::Index j = 0; j < s.mean.rows(); ++j)
        for (int k = 0; k < d; ++k) s.mean(j, k) = uniform(rng);
    for (Eigen::Index j = 0; j < s.mean.rows(); ++j)
        for (int k = 0; k < d; ++k) s.targets(j, k) = prediction_sd * normal(rng);
    return s;
}

struct Row {
    std::array<double, 4> estimate{}, estimate_time{};
    std::array<double, 6> p{}, test_time{};
};

// One data set: every estimator and test, each timed.
template <class Data>
Row evaluate(const Data& data, const Data& cme_locations, std::uint64_t bootstrap_seed, std::size_t resamples) {
    const calib::ParallelOptions serial{1};
    const calib::Kernel kernel = calib::default_kernel<calib::NormalData>();
    const std::size_t n = data.size(), b = calib::sqrt_block_size(n);
    Row row;
    auto estimate = [&](int k, auto f) { row.estimate_time[k] = repro::time_call([&] { row.estimate[k] = f(); }); };
    estimate(0, [&] { return calib::skce_biased(data, kernel, serial); });
    estimate(1, [&] { return calib::skce_block(data, kernel, 2, serial).estimate; });
    estimate(2, [&] { return calib::skce_block(data, kernel, b, serial).estimate; });
    estimate(3, [&] { return calib::skce_unbiased(data, kernel, serial); });

    auto test = [&](int k, auto f) {
        row.test_time[k] = repro::time_call([&] {
            try {
                row.p[k] = f().p_value;
            } catch (const calib::numerical_error&) {  // CME with n ≤ J: recorded as nan
                row.p[k] = nan;
            }
        });
    };
    calib::BlockTestOptions block;
    block.parallel = serial;
    block.block_size = 2;
    test(0, [&] { return calib::block_test(data, kernel, block); });
    block.block_size = b;
    test(1, [&] { return calib::block_test(data, kernel, block); });
    calib::BootstrapOptions boot;
    boot.replicates = resamples;
    boot.seed = bootstrap_seed;
    boot.parallel = serial;
    test(2, [&] { return calib::bootstrap_test(data, kernel, boot); });
    calib::CmeOptions cme;  // the paper's J = 10 at n <= 1024 is outside calib's validity range (docs/tests.md)
    cme.reference = calib::CmeReference::chi2;
    cme.parallel = serial;
    cme.allow_outside_validity = true;
    test(3, [&] { return calib::cme_test(data, cme_locations, kernel, cme); });
    cme.reference = calib::CmeReference::f;
    test(4, [&] { return calib::cme_test(data, cme_locations, kernel, cme); });
    test(5, [&] { return calib::gamma_test(data, kernel, serial); });
    return row;
}

std::string cell_name(std::size_t model, int d, std::size_t n) {
    return std::string(models[model]) + "_d" + std::to_string(d) + "_n" + std::to_string(n);
}

void run_cell(const repro::Options& o, const repro::Output& out, std::size_t model, std::size_t d_index,
              std::size_t n_index) {
    const int d = dimensions[d_index];
    const std::size_t n = sizes[n_index];
    const Scale s = scale(o);
    const std::string name = cell_name(model, d, n);
    calib::JsonObject parameters;
    parameters.set("model", models[model]).set("d", d).set("n", n).set("prediction_sd", prediction_sd)
        .set("kernel", "exp(-W2) x exp(-|y-y'|^2/2)").set("bootstrap_resamples", s.resamples)
        .set("cme_locations", num_locations).set("cme_policy", "no ridge; n <= J or a singular covariance: no p-value (nan)").set("alpha", alpha);
    if (out.done(name, parameters)) return;

    const Sample where = locations(o, d_index);
    std::vector<std::string> columns{"model", "d", "n", "replicate"}, time_columns = columns;
    for (const char* e : estimators) columns.push_back(std::string("est_") + e), time_columns.push_back(std::string("est_") + e);
    for (const char* t : tests) columns.push_back(std::string("p_") + t), time_columns.push_back(std::string("test_") + t);
    repro::Table table(columns), times(time_columns);
    table.resize(o.reps);
    times.resize(o.reps);
    const std::size_t cell_id = model * 100 + d_index * 10 + n_index;
    repro::Progress progress(o, "iclr2021 " + name, o.reps);
    const double wall = repro::time_call([&] {
        repro::distribute(
            o.reps, o, &progress,
            [&](std::size_t r, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, cell_id, r);
                const Sample sample = draw(model == 0, d, n, rng);
                const std::uint64_t bootstrap_seed = rng();
                const Row row = d == 1 ? evaluate(as_normal(sample), as_normal(where), bootstrap_seed, s.resamples)
                                       : evaluate(as_mvnormal(sample), as_mvnormal(where), bootstrap_seed, s.resamples);
                std::vector<std::string> cells{models[model], repro::fmt(d), repro::fmt(n), repro::fmt(r)}, time_cells = cells;
                for (std::size_t k = 0; k < estimators.size(); ++k)
                    cells.push_back(repro::fmt(row.estimate[k])), time_cells.push_back(repro::fmt(row.estimate_time[k]));
                for (std::size_t k = 0; k < tests.size(); ++k)
                    cells.push_back(repro::fmt(row.p[k])), time_cells.push_back(repro::fmt(row.test_time[k]));
                result.put(cells);
                result.put(time_cells);
            },
            [&](std::size_t r, repro::Packet& result) {
                table.set(r, result.get_strings());
                times.set(r, result.get_strings());
            });
    });
    out.write(name + "_times", times, parameters, wall);  // first: the cell counts as done once its CSV exists
    out.write(name, table, parameters, wall);
}

// Ground truth of the uncalibrated model: the mean of the unbiased estimator on independent data
// sets of 1000 samples (the paper's recipe).
void run_truth(const repro::Options& o, const repro::Output& out, std::size_t d_index) {
    const int d = dimensions[d_index];
    const Scale s = scale(o);
    const std::string name = "truth_d" + std::to_string(d);
    calib::JsonObject parameters;
    parameters.set("model", "uncalibrated").set("d", d).set("data_sets", s.truth_sets).set("n", s.truth_n)
        .set("estimator", "unbiased");
    if (out.done(name, parameters)) return;
    repro::Table table({"d", "set", "skce_unbiased"});
    table.resize(s.truth_sets);
    const calib::Kernel kernel = calib::default_kernel<calib::NormalData>();
    const calib::ParallelOptions serial{1};
    repro::Progress progress(o, "iclr2021 " + name, s.truth_sets);
    const double wall = repro::time_call([&] {
        repro::distribute(
            s.truth_sets, o, &progress,
            [&](std::size_t k, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, 800 + d_index, k);
                const Sample sample = draw(false, d, s.truth_n, rng);
                const double value = d == 1 ? calib::skce_unbiased(as_normal(sample), kernel, serial)
                                            : calib::skce_unbiased(as_mvnormal(sample), kernel, serial);
                result.put(repro::Table::row(d, k, value));
            },
            [&](std::size_t k, repro::Packet& result) { table.set(k, result.get_strings()); });
    });
    out.write(name, table, parameters, wall);
}

// How much the CME test's type-I error depends on the (fixed) draw of its test locations: the
// calibrated data sets of the experiment (the same streams), tested at `cme_location_sets` further
// independent location draws. Only the CME test, which is cheap.
void run_cme_study(const repro::Options& o, const repro::Output& out, std::size_t d_index) {
    const int d = dimensions[d_index];
    const Scale s = scale(o);
    const std::size_t sets = o.quick ? 3 : 20;
    const std::string name = "cme_study_d" + std::to_string(d);
    calib::JsonObject parameters;
    parameters.set("model", "calibrated").set("d", d).set("location_sets", sets).set("num_locations", num_locations)
        .set("data_sets", "the experiment's calibrated data sets, n >= 16");
    if (out.done(name, parameters)) return;
    repro::Table table({"d", "n", "location_set", "type1_chi2", "type1_f", "valid"});
    const calib::Kernel kernel = calib::default_kernel<calib::NormalData>();
    const calib::CmeOptions chi2{calib::CmeReference::chi2, 0, calib::ParallelOptions{1}, true};
    const calib::CmeOptions f{calib::CmeReference::f, 0, calib::ParallelOptions{1}, true};
    double wall = 0;
    for (std::size_t n_index = 1; n_index < s.num_sizes; ++n_index) {
        const std::size_t n = sizes[n_index];
        const std::size_t cell_id = 0 * 100 + d_index * 10 + n_index;  // the calibrated cell's streams
        std::vector<std::array<std::size_t, 3>> counts(sets);         // rejections χ², F, valid
        repro::Progress progress(o, "iclr2021 " + name + " n" + std::to_string(n), o.reps);
        std::vector<std::vector<std::array<double, 2>>> p(o.reps, std::vector<std::array<double, 2>>(sets));
        wall += repro::time_call([&] {
            repro::distribute(
                o.reps, o, &progress,
                [&](std::size_t r, repro::Packet& result) {
                    calib::Rng rng = repro::cell_stream(o, cell_id, r);
                    const Sample sample = draw(true, d, n, rng);
                    for (std::size_t l = 0; l < sets; ++l) {
                        const Sample where = locations(o, d_index, l + 1);
                        auto pv = [&](const calib::CmeOptions& options) {
                            try {
                                return d == 1 ? calib::cme_test(as_normal(sample), as_normal(where), kernel, options).p_value
                                              : calib::cme_test(as_mvnormal(sample), as_mvnormal(where), kernel, options).p_value;
                            } catch (const calib::numerical_error&) {
                                return nan;
                            }
                        };
                        result.put(pv(chi2));
                        result.put(pv(f));
                    }
                },
                [&](std::size_t r, repro::Packet& result) {
                    for (std::size_t l = 0; l < sets; ++l) p[r][l] = {result.get_double(), result.get_double()};
                });
        });
        if (!out.writer()) continue;  // the p-values are on rank 0
        for (std::size_t r = 0; r < o.reps; ++r)
            for (std::size_t l = 0; l < sets; ++l)
                if (!std::isnan(p[r][l][0])) {
                    counts[l][0] += p[r][l][0] < alpha;
                    counts[l][1] += p[r][l][1] < alpha;
                    ++counts[l][2];
                }
        for (std::size_t l = 0; l < sets; ++l) {
            const double valid = double(counts[l][2]);
            table.add(d, n, l + 1, counts[l][2] ? double(counts[l][0]) / valid : nan,
                      counts[l][2] ? double(counts[l][1]) / valid : nan, counts[l][2]);
        }
    }
    out.write(name, table, parameters, wall);
}

void write_locations(const repro::Options& o, const repro::Output& out, std::size_t d_index) {
    const Sample where = locations(o, d_index);
    std::vector<std::string> columns{"location"};
    for (Eigen::Index k = 0; k < where.mean.cols(); ++k) columns.push_back("mean_" + std::to_string(k + 1));
    for (Eigen::Index k = 0; k < where.mean.cols(); ++k) columns.push_back("target_" + std::to_string(k + 1));
    repro::Table table(columns);
    for (Eigen::Index j = 0; j < where.mean.rows(); ++j) {
        std::vector<std::string> cells{repro::fmt(static_cast<std::size_t>(j))};
        for (Eigen::Index k = 0; k < where.mean.cols(); ++k) cells.push_back(repro::fmt(where.mean(j, k)));
        for (Eigen::Index k = 0; k < where.mean.cols(); ++k) cells.push_back(repro::fmt(where.targets(j, k)));
        table.add_row(cells);
    }
    calib::JsonObject parameters;
    parameters.set("d", dimensions[d_index]).set("prediction_sd", prediction_sd).set("target_sd", prediction_sd);
    out.write("cme_locations_d" + std::to_string(dimensions[d_index]), table, parameters, 0);
}

// Published values [the authors' Calibration_ICLR2021 repository: experiments/data/synthetic/
// tests_*.csv and errors_*.csv].
// Test errors: [test][d][model][n]; test order block2, blocksqrt, bootstrap, cme.
const double published_errors[4][2][2][5] = {
    {{{.128, .050, .054, .054, .060}, {.648, .122, 0, 0, 0}}, {{.102, .052, .064, .048, .048}, {.748, .308, 0, 0, 0}}},
    {{{.134, .038, .030, .020, .020}, {.654, .046, 0, 0, 0}}, {{.108, .066, .062, .050, .042}, {.734, .148, 0, 0, 0}}},
    {{{.142, .058, .040, .060, .056}, {.272, 0, 0, 0, 0}}, {{.004, 0, .010, .042, .044}, {.712, .002, 0, 0, 0}}},
    {{{.530, .882, .356, .118, .068}, {.478, 0, 0, 0, 0}}, {{.478, .760, .152, .058, .074}, {.458, .004, 0, 0, 0}}}};
// Minimum test time at n = 1024 in seconds: [test][d].
const double published_test_time[4][2] = {{1.3e-4, 1.6e-4}, {1.5e-3, 2.2e-3}, {1.05, 0.80}, {6.7e-4, 9.9e-4}};
// Estimator MAE at n = 1024, d = 1, calibrated model: biased, B = 2, √n, n.
const double published_mae_calibrated_d1[4] = {9.6e-6, 2.4e-4, 4.0e-5, 6.1e-6};

double published_error(std::size_t test, std::size_t d_index, std::size_t model, std::size_t n_index) {
    return test < 4 ? published_errors[test][d_index][model][n_index] : nan;
}

void summarise(const repro::Options& o, const repro::Output& out) {
    const Scale s = scale(o);
    // Deterministic summaries, and the timings apart (they vary from run to run).
    repro::Table est({"model", "d", "n", "estimator", "truth", "mean", "mae", "variance", "published_mae"});
    repro::Table tst({"model", "d", "n", "test", "error", "valid", "failed", "published_error"});
    repro::Table est_times({"model", "d", "n", "estimator", "min_time_s", "median_time_s"});
    repro::Table tst_times({"model", "d", "n", "test", "min_time_s", "median_time_s", "published_min_time_s"});
    for (std::size_t d_index = 0; d_index < dimensions.size(); ++d_index) {
        const int d = dimensions[d_index];
        const double truth_uncalibrated = repro::mean(repro::CsvFile(out.csv_path("truth_d" + std::to_string(d))).numbers("skce_unbiased"));
        // Rows ordered by (d, model, estimator or test, n): each curve against n is one block.
        for (std::size_t model = 0; model < models.size(); ++model) {
            std::vector<repro::CsvFile> cells, times;
            for (std::size_t n_index = 0; n_index < s.num_sizes; ++n_index) {
                cells.emplace_back(out.csv_path(cell_name(model, d, sizes[n_index])));
                times.emplace_back(out.csv_path(cell_name(model, d, sizes[n_index]) + "_times"));
            }
            const double truth = model == 0 ? 0.0 : truth_uncalibrated;
            for (std::size_t e = 0; e < estimators.size(); ++e) {
                for (std::size_t n_index = 0; n_index < s.num_sizes; ++n_index) {
                    const std::size_t n = sizes[n_index];
                    const std::vector<double> x = cells[n_index].numbers(std::string("est_") + estimators[e]);
                    std::vector<double> abs_error(x.size());
                    for (std::size_t i = 0; i < x.size(); ++i) abs_error[i] = std::abs(x[i] - truth);
                    const double published = (model == 0 && d == 1 && n == 1024) ? published_mae_calibrated_d1[e] : nan;
                    est.add(models[model], d, n, estimators[e], truth, repro::mean(x), repro::mean(abs_error),
                            repro::variance(x), published);
                    const std::vector<double> t = times[n_index].numbers(std::string("est_") + estimators[e]);
                    est_times.add(models[model], d, n, estimators[e], repro::minimum(t), repro::median(t));
                }
            }
            for (std::size_t t = 0; t < tests.size(); ++t) {
                for (std::size_t n_index = 0; n_index < s.num_sizes; ++n_index) {
                    const std::size_t n = sizes[n_index];
                    const std::vector<double> p = cells[n_index].numbers(std::string("p_") + tests[t]);
                    std::size_t valid = 0, errors = 0;
                    for (double v : p) {
                        if (std::isnan(v)) continue;
                        ++valid;
                        errors += model == 0 ? (v < alpha) : !(v < alpha);
                    }
                    const double error = valid ? double(errors) / double(valid) : nan;
                    const double published_time = (t < 4 && n == 1024) ? published_test_time[t][d_index] : nan;
                    tst.add(models[model], d, n, tests[t], error, valid, p.size() - valid,
                            published_error(t, d_index, model, n_index));
                    const std::vector<double> time = times[n_index].numbers(std::string("test_") + tests[t]);
                    tst_times.add(models[model], d, n, tests[t], repro::minimum(time), repro::median(time), published_time);
                }
            }
        }
    }
    calib::JsonObject parameters;
    parameters.set("alpha", alpha).set("rejection_rule", "p < alpha (the 2021 code)")
        .set("error", "type I (calibrated) or type II (uncalibrated) share over the valid p-values");
    out.write("estimators", est, parameters, 0);
    out.write("tests", tst, parameters, 0);
    out.write("estimators_times", est_times, parameters, 0);
    out.write("tests_times", tst_times, parameters, 0);
}

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& o) {
        const repro::Output out(o, info);
        const Scale s = scale(o);
        for (std::size_t d_index = 0; d_index < dimensions.size(); ++d_index) {
            write_locations(o, out, d_index);
            run_truth(o, out, d_index);
        }
        for (std::size_t d_index = 0; d_index < dimensions.size(); ++d_index)
            for (std::size_t model = 0; model < models.size(); ++model)
                for (std::size_t n_index = 0; n_index < s.num_sizes; ++n_index) run_cell(o, out, model, d_index, n_index);
        for (std::size_t d_index = 0; d_index < dimensions.size(); ++d_index) run_cme_study(o, out, d_index);
        if (out.writer()) summarise(o, out);
    });
}

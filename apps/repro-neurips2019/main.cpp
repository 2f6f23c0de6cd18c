// repro-neurips2019: the synthetic experiments of Widmann, Lindsten & Zachariah (NeurIPS 2019),
// "Calibration tests in multi-class classification" (poster and full paper).
//
// 10⁴ data sets of n = 250 predictions g(X) ∼ Dir(0.1, …, 0.1) over m = 10 classes, with labels
//   M1: Cat(g(X))                         calibrated
//   M2: ½ Cat(g(X)) + ½ Cat(e_1)           uncalibrated (π = 0.5, β = e_1)
//   M3: Cat(1/10, …, 1/10)                 uncalibrated (π = 1, β = 1/m)
// Kernel exp(−TV(p, p')/ν) ⊗ δ with ν the median of all n² pairwise TV distances of the data set
// (diagonal zeros included, the authors' convention). Per data set: the estimates ECE (10 uniform
// bins per coordinate, TV), SKCE_b, SKCE_uq, SKCE_ul, and the p-values of C (consistency resampling
// of the ECE), D_b, D_uq, D_ul (distribution-free bounds), A_uq (bootstrap) and A_l (linear
// estimator, normal null with the variance divisor s of the 2019 code).
//
// Outputs (in --out): M1.csv … M3.csv (one row per data set), truth_M1.csv … (the independent
// estimate of the true SKCE), estimates.csv (means vs true and published values), test_errors.csv
// (empirical test error against α = 0, 0.01, …, 1), tests_published.csv (α = 0.01, 0.05, 0.1 beside
// the published values); each with a .meta.json sidecar.
#include "../harness/harness.hpp"

#include <calib/tool/synthetic.hpp>

#include <boost/math/special_functions/beta.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <array>
#include <cmath>
#include <cstdio>

namespace {

constexpr int num_classes = 10;
constexpr std::size_t sample_size = 250;
constexpr double dirichlet_alpha = 0.1;

const repro::AppInfo info{
    "repro-neurips2019",
    "The synthetic experiments of Widmann et al. (NeurIPS 2019): estimates and test errors for models M1-M3.",
    "NeurIPS 2019 poster / full paper, synthetic Dirichlet models",
    10000,
    40,
    1234,
    "Cells: M1, M2, M3 (n = 250, m = 10, one row per data set) and truth_M1..M3 (the true SKCE).\n"
    "Summaries: estimates.csv, test_errors.csv, tests_published.csv.\n"};

struct Model {
    const char* name;
    double pi;        // probability of drawing the label from β instead of the prediction
    bool beta_first;  // β = e_1 (true) or the uniform distribution (false)
};
const std::array<Model, 3> models{{{"M1", 0.0, true}, {"M2", 0.5, true}, {"M3", 1.0, false}}};

// Settings that --quick scales down.
struct Scale {
    std::size_t resamples;    // C and A_uq
    std::size_t truth_sets;   // independent bandwidths for the true SKCE
    std::size_t truth_pairs;  // independent pairs per bandwidth
};
Scale scale(const repro::Options& o) {
    return o.quick ? Scale{100, 20, 2000} : Scale{1000, 2000, 5000};
}

// n predictions Dir(0.1·1) (normalised Gamma(0.1) draws, as the authors' sampler) and labels.
calib::CategoricalData generate(const Model& model, std::size_t n, calib::Rng& rng) {
    boost::random::gamma_distribution<double> gamma(dirichlet_alpha);
    boost::random::uniform_01<double> uniform;
    calib::Matrix p(static_cast<Eigen::Index>(n), num_classes);
    std::vector<int> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto row = static_cast<Eigen::Index>(i);
        calib::synthetic::dirichlet_row(gamma, p.row(row), rng);
        if (model.pi > 0 && uniform(rng) < model.pi)
            labels[i] = model.beta_first ? 0 : static_cast<int>(calib::uniform_index(rng, num_classes));
        else
            labels[i] = calib::synthetic::draw_label(p.row(row), rng);
    }
    return calib::CategoricalData(std::move(p), std::move(labels));
}

calib::Kernel kernel_for(const calib::CategoricalData& data) {
    calib::Kernel kernel = calib::default_kernel<calib::CategoricalData>();  // exp(−TV/ν) ⊗ δ
    calib::MedianOptions median;
    median.variant = calib::MedianVariant::full;
    kernel.prediction.lengthscale = calib::median_distance(data, calib::Metric::tv, median);
    return kernel;
}

// ECE_TV of the generative model [the full NeurIPS 2019 paper's appendix]:
//   π Σ_i (β_i I(β_i; α_i, α_0 − α_i) − α_i/α_0 I(β_i; α_i + 1, α_0 − α_i)).
double true_ece(const Model& model) {
    const double a = dirichlet_alpha, a0 = num_classes * dirichlet_alpha;
    double sum = 0;
    for (int i = 0; i < num_classes; ++i) {
        const double beta = model.beta_first ? (i == 0 ? 1.0 : 0.0) : 1.0 / num_classes;
        sum += beta * boost::math::ibeta(a, a0 - a, beta) - a / a0 * boost::math::ibeta(a + 1, a0 - a, beta);
    }
    return model.pi * sum;
}

const std::array<const char*, 4> estimators{{"ece", "skce_b", "skce_uq", "skce_ul"}};
const std::array<const char*, 6> tests{{"C", "D_b", "D_uq", "D_ul", "A_uq", "A_l"}};

// Published values [the authors' CalibrationPaper repository: paper/figures/errors_comparison.tex
// and pvalues_comparison.tex]: mean and true value per estimator and model; test errors at α = 0.05
// (and at 0.01 and 0.1 for the type-I error of A_uq, A_l). NaN: not published.
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
const double published_mean[4][3] = {{0.4395, 0.6633, 0.8918},
                                     {1.791e-3, 0.09977, 0.02051},
                                     {-8.62e-6, 0.09655, 0.01517},
                                     {1.604e-4, 0.09656, 0.01505}};
const double published_true[4][3] = {{0, 0.45, 0.71064},
                                     {-8.62e-6, 0.09655, 0.01517},
                                     {-8.62e-6, 0.09655, 0.01517},
                                     {-8.62e-6, 0.09655, 0.01517}};
double published_error(int test, int model, double alpha) {
    const double at05[6][3] = {{1.0, 0, 0}, {0, 0.371, 1.0}, {0, 1.0, 1.0}, {0, 1.0, 1.0}, {0.0347, 0, 0}, {0.0455, 0, 0.814}};
    if (std::abs(alpha - 0.05) < 1e-12) return at05[test][model];
    if (model == 0 && test == 4) return std::abs(alpha - 0.01) < 1e-12 ? 0.0048 : std::abs(alpha - 0.1) < 1e-12 ? 0.0791 : nan;
    if (model == 0 && test == 5) return std::abs(alpha - 0.01) < 1e-12 ? 0.0077 : std::abs(alpha - 0.1) < 1e-12 ? 0.098 : nan;
    return nan;
}

// One cell: all data sets of one model.
void run_model(const repro::Options& o, const repro::Output& out, std::size_t index) {
    const Model& model = models[index];
    const Scale s = scale(o);
    calib::JsonObject parameters;
    parameters.set("model", model.name).set("pi", model.pi).set("beta", model.beta_first ? "e_1" : "uniform")
        .set("n", sample_size).set("m", num_classes).set("dirichlet_alpha", dirichlet_alpha)
        .set("kernel", "exp(-TV/nu) x white, nu = median of all n^2 TV distances (diagonal included)")
        .set("ece", "uniform binning, 10 bins per coordinate, TV").set("resamples", s.resamples)
        .set("A_l_variance_divisor", "s");
    if (out.done(model.name, parameters)) return;

    repro::Table table({"model", "replicate", "bandwidth", "ece", "skce_b", "skce_uq", "skce_ul", "p_C", "p_D_b",
                        "p_D_uq", "p_D_ul", "p_A_uq", "p_A_l"});
    table.resize(o.reps);
    const calib::ParallelOptions serial{1};
    repro::Progress progress(o, std::string("neurips2019 ") + model.name, o.reps);
    const double wall = repro::time_call([&] {
        repro::distribute(
            o.reps, o, &progress,
            [&](std::size_t r, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, index, r);
                const calib::CategoricalData data = generate(model, sample_size, rng);
                const std::uint64_t seed_c = rng(), seed_a = rng();
                const calib::Kernel kernel = kernel_for(data);

                const double ece = calib::ece(data, {});
                const double skce_b = calib::skce_biased(data, kernel, serial);
                const double skce_uq = calib::skce_unbiased(data, kernel, serial);
                const double skce_ul = calib::skce_block(data, kernel, 2, serial).estimate;

                calib::ConsistencyOptions c;
                c.replicates = s.resamples;
                c.seed = seed_c;
                c.parallel = serial;
                const double p_c = calib::consistency_test(data, [](const calib::CategoricalData& d) { return calib::ece(d, {}); },
                                                           "ece", c).p_value;
                calib::DistributionFreeOptions d;
                d.parallel = serial;
                const double p_db = calib::dfree_biased_test(data, kernel, d).p_value;
                const double p_duq = calib::dfree_unbiased_test(data, kernel, d).p_value;
                const double p_dul = calib::dfree_block_test(data, kernel, 2, d).p_value;
                calib::BootstrapOptions a;
                a.replicates = s.resamples;
                a.seed = seed_a;
                a.parallel = serial;
                const double p_auq = calib::bootstrap_test(data, kernel, a).p_value;
                calib::BlockTestOptions l;
                l.block_size = 2;
                l.divisor = calib::VarianceDivisor::s;
                l.parallel = serial;
                const double p_al = calib::block_test(data, kernel, l).p_value;

                result.put(repro::Table::row(model.name, r, kernel.prediction.lengthscale, ece, skce_b, skce_uq, skce_ul,
                                             p_c, p_db, p_duq, p_dul, p_auq, p_al));
            },
            [&](std::size_t r, repro::Packet& result) { table.set(r, result.get_strings()); });
    });
    out.write(model.name, table, parameters, wall);
}

// The true SKCE, estimated independently of the data sets above: for each of K fresh data sets of
// n = 250 its median-heuristic bandwidth ν_k, then the mean of h over N independent pairs (the
// linear estimator on a fresh sample of 2N) with that bandwidth. The mean over k estimates
// E_ν[SKCE(ν)] for the bandwidth distribution the estimators see.
void run_truth(const repro::Options& o, const repro::Output& out, std::size_t index) {
    const Model& model = models[index];
    const Scale s = scale(o);
    const std::string name = std::string("truth_") + model.name;
    calib::JsonObject parameters;
    parameters.set("model", model.name).set("bandwidth_sets", s.truth_sets).set("pairs_per_set", s.truth_pairs)
        .set("method", "mean over K fresh n = 250 bandwidths of the linear SKCE on 2N fresh samples");
    if (out.done(name, parameters)) return;
    repro::Table table({"model", "set", "bandwidth", "skce_linear"});
    table.resize(s.truth_sets);
    const calib::ParallelOptions serial{1};
    repro::Progress progress(o, "neurips2019 " + name, s.truth_sets);
    const double wall = repro::time_call([&] {
        repro::distribute(
            s.truth_sets, o, &progress,
            [&](std::size_t k, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, 100 + index, k);
                const calib::Kernel kernel = kernel_for(generate(model, sample_size, rng));
                const calib::CategoricalData pairs = generate(model, 2 * s.truth_pairs, rng);
                const double linear = calib::skce_block(pairs, kernel, 2, serial).estimate;
                result.put(repro::Table::row(model.name, k, kernel.prediction.lengthscale, linear));
            },
            [&](std::size_t k, repro::Packet& result) { table.set(k, result.get_strings()); });
    });
    out.write(name, table, parameters, wall);
}

void summarise(const repro::Output& out) {
    repro::Table estimates({"model", "estimator", "mean", "sd", "se_mean", "true", "true_se", "z", "published_mean",
                            "published_true"});
    repro::Table errors({"model", "test", "alpha", "error"});
    repro::Table published({"model", "test", "alpha", "error", "published_error"});
    for (std::size_t mi = 0; mi < models.size(); ++mi) {
        const Model& model = models[mi];
        const repro::CsvFile cell(out.csv_path(model.name));
        const repro::CsvFile truth(out.csv_path(std::string("truth_") + model.name));
        const std::vector<double> t = truth.numbers("skce_linear");
        const double true_skce = repro::mean(t), true_skce_se = std::sqrt(repro::variance(t) / double(t.size()));
        for (std::size_t e = 0; e < estimators.size(); ++e) {
            const std::vector<double> x = cell.numbers(estimators[e]);
            const double m = repro::mean(x), sd = std::sqrt(repro::variance(x)), se = sd / std::sqrt(double(x.size()));
            const double truth_value = e == 0 ? true_ece(model) : true_skce;
            const double truth_se = e == 0 ? 0.0 : true_skce_se;
            const double z = (m - truth_value) / std::sqrt(se * se + truth_se * truth_se);
            estimates.add(model.name, estimators[e], m, sd, se, truth_value, truth_se, z, published_mean[e][mi],
                          published_true[e][mi]);
        }
        // Empirical test error: the share of p ≤ α for M1 (type I), of p > α for M2, M3 (type II);
        // p ≤ α as the 2019 paper's ECDF.
        for (std::size_t ti = 0; ti < tests.size(); ++ti) {
            const std::vector<double> p = cell.numbers(std::string("p_") + tests[ti]);
            for (int a = 0; a <= 100; ++a) {
                const double alpha = a / 100.0;
                std::size_t count = 0;
                for (double v : p) count += mi == 0 ? (v <= alpha + 1e-12) : (v > alpha + 1e-12);
                const double error = double(count) / double(p.size());
                errors.add(model.name, tests[ti], alpha, error);
                if (a == 1 || a == 5 || a == 10)
                    published.add(model.name, tests[ti], alpha, error, published_error(int(ti), int(mi), alpha));
            }
        }
    }
    calib::JsonObject parameters;
    parameters.set("rejection_rule", "p <= alpha (the 2019 ECDF)");
    out.write("estimates", estimates, parameters, 0);
    out.write("test_errors", errors, parameters, 0);
    out.write("tests_published", published, parameters, 0);
}

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& o) {
        const repro::Output out(o, info);
        for (std::size_t m = 0; m < models.size(); ++m) run_truth(o, out, m);
        for (std::size_t m = 0; m < models.size(); ++m) run_model(o, out, m);
        if (out.writer()) summarise(out);
    });
}

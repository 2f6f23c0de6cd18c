// repro-iclr2021-ols: the ordinary-least-squares example of Widmann, Lindsten & Zachariah (ICLR
// 2021), App. A.1 (Figs. 1, 4, 5).
//
// X ∼ U[−1, 1], Y = sin(πX) + |1 + X|·ε with ε ∼ N(0, 0.15²) (heteroscedastic). The model is an OLS
// line with homoscedastic Gaussian noise, N(a + bx, σ²), fitted on 100 training pairs, with σ the
// standard deviation of the training residuals (divisor n − 1, as the authors' code). On 50
// validation pairs: the empirical cumulative probability of the PIT values P(Y ≤ Y_i | X = X_i)
// against the quantile level τ (the "quantile calibration" curve, Fig. 5), and the bootstrap
// p-value of n·SKCE_uq with 100 000 resamples for the kernel exp(−W₂)·exp(−(y − y')²/2).
//
// Cells: experiment (the single experiment of the paper: data, fit, curve and test), and
// repetitions (the same experiment on --reps independent draws, 10 000 resamples each: how often
// the test rejects at α = 0.05, i.e. its power here, since one p-value near 0.05 says little).
// Outputs: experiment.csv (fit and p-values), ols_train.csv / ols_validation.csv (the data and PIT
// values), ols_curves.csv (true and fitted conditional mean and 5–95% bands on a grid),
// quantile_curve.csv (empirical and population cumulative probability vs τ), repetitions.csv and
// summary.csv; each with a .meta.json sidecar.
#include "../harness/harness.hpp"

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include <algorithm>
#include <cmath>

namespace {

constexpr std::size_t train_n = 100, validation_n = 50;
constexpr double noise_sd = 0.15, alpha = 0.05;
const double pi = boost::math::constants::pi<double>();

const repro::AppInfo info{
    "repro-iclr2021-ols",
    "The OLS example of Widmann et al. (ICLR 2021, App. A.1): quantile curve and bootstrap p-value.",
    "ICLR 2021 App. A.1, ordinary least squares on heteroscedastic sin data",
    1000,
    20,
    1234,
    "Cells: experiment (the paper's single experiment, replicate 0 of its own stream) and\n"
    "repetitions (--reps independent repetitions: the rejection rate at alpha = 0.05).\n"};

struct Scale {
    std::size_t resamples, repetition_resamples, population;
};
Scale scale(const repro::Options& o) { return o.quick ? Scale{10000, 1000, 20000} : Scale{100000, 10000, 1000000}; }

struct Pairs {
    calib::Vector x, y;
};
Pairs draw(std::size_t n, calib::Rng& rng) {
    boost::random::uniform_real_distribution<double> uniform(-1.0, 1.0);
    boost::random::normal_distribution<double> normal(0.0, noise_sd);
    Pairs p{calib::Vector(static_cast<Eigen::Index>(n)), calib::Vector(static_cast<Eigen::Index>(n))};
    for (Eigen::Index i = 0; i < p.x.size(); ++i) {
        p.x(i) = uniform(rng);
        p.y(i) = std::sin(pi * p.x(i)) + std::abs(1 + p.x(i)) * normal(rng);
    }
    return p;
}

struct Fit {
    double intercept, slope, sigma;
};
Fit ols(const Pairs& train) {
    const double n = static_cast<double>(train.x.size());
    const double mx = train.x.mean(), my = train.y.mean();
    const double sxy = ((train.x.array() - mx) * (train.y.array() - my)).sum();
    const double sxx = (train.x.array() - mx).square().sum();
    Fit f;
    f.slope = sxy / sxx;
    f.intercept = my - f.slope * mx;
    const calib::Vector residual = train.y.array() - f.intercept - f.slope * train.x.array();
    f.sigma = std::sqrt(residual.squaredNorm() / (n - 1));  // the residuals have mean 0
    return f;
}

calib::NormalData predictions(const Fit& f, const Pairs& p) {
    return calib::NormalData((f.intercept + f.slope * p.x.array()).matrix(), calib::Vector::Constant(p.x.size(), f.sigma), p.y);
}

// PIT values P(Y ≤ y_i | X = x_i) under the model.
std::vector<double> pit(const Fit& f, const Pairs& p) {
    const boost::math::normal standard;
    std::vector<double> u(static_cast<std::size_t>(p.x.size()));
    for (Eigen::Index i = 0; i < p.x.size(); ++i)
        u[static_cast<std::size_t>(i)] = boost::math::cdf(standard, (p.y(i) - f.intercept - f.slope * p.x(i)) / f.sigma);
    return u;
}

double share_at_most(const std::vector<double>& sorted, double tau) {
    return double(std::upper_bound(sorted.begin(), sorted.end(), tau) - sorted.begin()) / double(sorted.size());
}

struct Experiment {
    Pairs train, validation;
    Fit fit;
    calib::TestResult bootstrap, gamma, block2, blocksqrt;
};
Experiment run_once(calib::Rng& rng, std::size_t resamples) {
    Experiment e;
    e.train = draw(train_n, rng);
    e.validation = draw(validation_n, rng);
    const std::uint64_t bootstrap_seed = rng();
    e.fit = ols(e.train);
    const calib::NormalData data = predictions(e.fit, e.validation);
    const calib::Kernel kernel = calib::default_kernel<calib::NormalData>();
    const calib::ParallelOptions serial{1};
    calib::BootstrapOptions b;
    b.replicates = resamples;
    b.seed = bootstrap_seed;
    b.parallel = serial;
    e.bootstrap = calib::bootstrap_test(data, kernel, b);
    e.gamma = calib::gamma_test(data, kernel, serial);
    calib::BlockTestOptions block;
    block.parallel = serial;
    e.block2 = calib::block_test(data, kernel, block);
    block.block_size = calib::sqrt_block_size(data.size());
    e.blocksqrt = calib::block_test(data, kernel, block);
    return e;
}

void run_experiment(const repro::Options& o, const repro::Output& out) {
    const Scale s = scale(o);
    calib::JsonObject parameters;
    parameters.set("train_n", train_n).set("validation_n", validation_n).set("noise_sd", noise_sd)
        .set("resamples", s.resamples).set("population_sample", s.population)
        .set("kernel", "exp(-W2) x exp(-(y-y')^2/2)").set("sigma", "SD of the training residuals, divisor n - 1");
    if (out.done("experiment", parameters)) return;
    Experiment e;
    const double wall = repro::time_call([&] {
        calib::Rng rng = repro::cell_stream(o, 0, 0);
        e = run_once(rng, s.resamples);
    });

    repro::Table result({"intercept", "slope", "sigma", "skce_uq", "p_bootstrap", "p_gamma", "p_block2", "p_blocksqrt",
                         "published_intercept", "published_slope", "published_sigma", "published_p_bootstrap"});
    result.add(e.fit.intercept, e.fit.slope, e.fit.sigma, e.bootstrap.estimate, e.bootstrap.p_value, e.gamma.p_value,
               e.block2.p_value, e.blocksqrt.p_value, 0.0321, 1.0060, 0.4472, 0.04625);

    repro::Table train({"x", "y"}), validation({"x", "y", "mean", "sigma", "pit"});
    for (Eigen::Index i = 0; i < e.train.x.size(); ++i) train.add(e.train.x(i), e.train.y(i));
    const std::vector<double> u = pit(e.fit, e.validation);
    for (Eigen::Index i = 0; i < e.validation.x.size(); ++i)
        validation.add(e.validation.x(i), e.validation.y(i), e.fit.intercept + e.fit.slope * e.validation.x(i), e.fit.sigma,
                       u[static_cast<std::size_t>(i)]);

    // Conditional mean and 5–95% band of the truth and of the model on a grid of x.
    const double z = boost::math::quantile(boost::math::normal(), 0.95);
    repro::Table curves({"x", "true_mean", "true_lower", "true_upper", "model_mean", "model_lower", "model_upper"});
    for (int k = 0; k <= 200; ++k) {
        const double x = -1 + k / 100.0, m = std::sin(pi * x), sd = std::abs(1 + x) * noise_sd;
        const double mm = e.fit.intercept + e.fit.slope * x;
        curves.add(x, m, m - z * sd, m + z * sd, mm, mm - z * e.fit.sigma, mm + z * e.fit.sigma);
    }

    // Cumulative probability vs τ: on the validation set (the paper's curve), and for the fitted
    // model in the population (a large fresh sample): a quantile-calibrated model gives τ.
    std::vector<double> sorted = u;
    std::sort(sorted.begin(), sorted.end());
    calib::Rng population_rng = repro::cell_stream(o, 1, 0);
    std::vector<double> population = pit(e.fit, draw(s.population, population_rng));
    std::sort(population.begin(), population.end());
    repro::Table quantile({"tau", "validation", "population"});
    for (int k = 0; k <= 100; ++k) {
        const double tau = k / 100.0;
        quantile.add(tau, share_at_most(sorted, tau), share_at_most(population, tau));
    }
    out.write("ols_train", train, parameters, wall);
    out.write("ols_validation", validation, parameters, wall);
    out.write("ols_curves", curves, parameters, wall);
    out.write("quantile_curve", quantile, parameters, wall);
    out.write("experiment", result, parameters, wall);
}

void run_repetitions(const repro::Options& o, const repro::Output& out) {
    const Scale s = scale(o);
    calib::JsonObject parameters;
    parameters.set("train_n", train_n).set("validation_n", validation_n).set("noise_sd", noise_sd)
        .set("resamples", s.repetition_resamples);
    if (out.done("repetitions", parameters)) return;
    repro::Table table({"replicate", "intercept", "slope", "sigma", "skce_uq", "p_bootstrap", "p_gamma", "p_block2",
                        "p_blocksqrt"});
    table.resize(o.reps);
    repro::Progress progress(o, "iclr2021 OLS repetitions", o.reps);
    const double wall = repro::time_call([&] {
        repro::distribute(
            o.reps, o, &progress,
            [&](std::size_t r, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, 2, r);
                const Experiment e = run_once(rng, s.repetition_resamples);
                result.put(repro::Table::row(r, e.fit.intercept, e.fit.slope, e.fit.sigma, e.bootstrap.estimate,
                                             e.bootstrap.p_value, e.gamma.p_value, e.block2.p_value, e.blocksqrt.p_value));
            },
            [&](std::size_t r, repro::Packet& result) { table.set(r, result.get_strings()); });
    });
    out.write("repetitions", table, parameters, wall);
}

void summarise(const repro::Output& out) {
    const repro::CsvFile repetitions(out.csv_path("repetitions"));
    repro::Table summary({"test", "rejection_rate", "median_p", "repetitions"});
    for (const char* test : {"p_bootstrap", "p_gamma", "p_block2", "p_blocksqrt"}) {
        std::vector<double> p = repetitions.numbers(test);
        std::size_t reject = 0;
        for (double v : p) reject += v < alpha;
        std::sort(p.begin(), p.end());
        const double median = p.size() % 2 ? p[p.size() / 2] : 0.5 * (p[p.size() / 2 - 1] + p[p.size() / 2]);
        summary.add(test + 2, double(reject) / double(p.size()), median, p.size());
    }
    calib::JsonObject parameters;
    parameters.set("alpha", alpha).set("rejection_rule", "p < alpha");
    out.write("summary", summary, parameters, 0);
}

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& o) {
        const repro::Output out(o, info);
        run_experiment(o, out);
        run_repetitions(o, out);
        if (out.writer()) summarise(out);
    });
}

// repro-iclr2021-friedman: the Friedman 1 experiment of Widmann, Lindsten & Zachariah (ICLR 2021),
// §5.2 and App. A.3 (Figs. 3 and 12).
//
// Data: Y = 10 sin(πX₁X₂) + 20(X₃ − 0.5)² + 10X₄ + 5X₅ + ε, X ∼ U[0,1]¹⁰, ε ∼ N(0, 1); 100 training
// and 50 test pairs. Model: N(f_θ(x), σ²) with f_θ a 10→200→50→1 ReLU network (Glorot-uniform
// weights, zero biases) trained by 5000 full-batch Adam steps on the training MSE, σ² set to the
// training MSE (its maximum-likelihood value) after every step; ten networks from different
// initialisations, and at every evaluated iteration their equal-weight ensemble, a mixture of ten
// normals. Evaluated on the training and the test set: MSE, average NLL, average pinball loss over
// τ = 0.05, 0.10, …, 0.95, SKCE unbiased and biased, and the bootstrap p-value (1000 resamples) for
// the kernel exp(−W₂)·exp(−(y − y')²/2) (the ensemble: exp(−MW₂)·exp(−(y − y')²/2)).
//
// Iterations evaluated: 0, 10, 20, …, 5000 (the paper evaluates every iteration; on this grid the
// curves look the same and the app runs in about a minute of CPU). --quick: 3 networks, 300
// iterations.
//
// Outputs (in --out): training.csv (one row per iteration, model and data set), summary.csv (per
// iteration and data set: mean, min and max over the networks and the ensemble's value), claims.csv
// (how often the ensemble beats the average member, per measure); .meta.json sidecars.
#include "../harness/harness.hpp"
#include "network.hpp"

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <array>
#include <cmath>
#include <limits>

namespace {

constexpr std::size_t train_n = 100, test_n = 50, features = 10;
constexpr int evaluation_step = 10;
const double pi = boost::math::constants::pi<double>();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

const repro::AppInfo info{
    "repro-iclr2021-friedman",
    "The Friedman 1 experiment of Widmann et al. (ICLR 2021, App. A.3): networks and their ensemble during training.",
    "ICLR 2021 section 5.2 / App. A.3, Friedman 1 regression",
    10,
    3,
    1234,
    "--reps is the number of networks (10 in the paper). Cell: training (every measure along training).\n"
    "Summaries: summary.csv (networks' mean/min/max and the ensemble), claims.csv.\n"};

struct Scale {
    int iterations;
    std::size_t resamples;
};
Scale scale(const repro::Options& o) { return o.quick ? Scale{300, 200} : Scale{5000, 1000}; }

std::vector<int> evaluated_iterations(int last) {
    std::vector<int> it;
    for (int t = 0; t <= last; t += evaluation_step) it.push_back(t);
    return it;
}
// Features as columns (10 × n), targets as a row.
struct Set {
    friedman::Matrix x;
    friedman::RowVector y;
};
Set friedman1(std::size_t n, calib::Rng& rng) {
    boost::random::uniform_01<double> uniform;
    boost::random::normal_distribution<double> noise;
    Set s{friedman::Matrix(features, static_cast<Eigen::Index>(n)), friedman::RowVector(static_cast<Eigen::Index>(n))};
    for (Eigen::Index i = 0; i < s.x.cols(); ++i) {
        for (Eigen::Index k = 0; k < s.x.rows(); ++k) s.x(k, i) = uniform(rng);
        s.y(i) = 10 * std::sin(pi * s.x(0, i) * s.x(1, i)) + 20 * (s.x(2, i) - 0.5) * (s.x(2, i) - 0.5) + 10 * s.x(3, i) +
                 5 * s.x(4, i) + noise(rng);
    }
    return s;
}

// A model's predictions on one data set: N(mean_i, σ²) for a network; for the ensemble the
// equal-weight mixture of the members' normals (component k of observation i: means(i, k), σ_k).
struct Predictions {
    friedman::Matrix means;  // n × K
    friedman::Vector sigmas; // K
};

const std::array<double, 19> quantile_levels = [] {
    std::array<double, 19> t{};
    for (std::size_t k = 0; k < t.size(); ++k) t[k] = 0.05 * double(k + 1);
    return t;
}();

double pinball(double y, double q, double tau) { return y >= q ? tau * (y - q) : (1 - tau) * (q - y); }

// The τ-quantile of the mixture Σ_k N(μ_k, σ_k²)/K, by bisection on its CDF.
double mixture_quantile(const friedman::Matrix& means, Eigen::Index i, const friedman::Vector& sigmas, double tau) {
    const boost::math::normal standard;
    const Eigen::Index K = means.cols();
    const double z = boost::math::quantile(standard, tau);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (Eigen::Index k = 0; k < K; ++k) {  // the quantile lies between the components' quantiles
        lo = std::min(lo, means(i, k) + z * sigmas(k));
        hi = std::max(hi, means(i, k) + z * sigmas(k));
    }
    for (int step = 0; step < 100 && hi - lo > 1e-12 * (1 + std::abs(lo)); ++step) {
        const double mid = 0.5 * (lo + hi);
        double cdf = 0;
        for (Eigen::Index k = 0; k < K; ++k) cdf += boost::math::cdf(standard, (mid - means(i, k)) / sigmas(k));
        (cdf / double(K) < tau ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

struct Measures {
    double mse = nan, nll = nan, pinball = nan, skce_unbiased = nan, skce_biased = nan, p_value = nan;
};

// MSE of the mean prediction, average NLL, and average pinball loss.
void scoring(const Predictions& p, const friedman::RowVector& y, Measures& m) {
    const Eigen::Index n = p.means.rows(), K = p.means.cols();
    const boost::math::normal standard;
    double se = 0, nll = 0, loss = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double mean = p.means.row(i).mean();
        se += (y(i) - mean) * (y(i) - mean);
        // −log Σ_k N(y; μ_k, σ_k²)/K, with the log-sum-exp shift.
        std::vector<double> log_density(static_cast<std::size_t>(K));
        double top = -std::numeric_limits<double>::infinity();
        for (Eigen::Index k = 0; k < K; ++k) {
            const double r = (y(i) - p.means(i, k)) / p.sigmas(k);
            log_density[static_cast<std::size_t>(k)] = -0.5 * r * r - std::log(p.sigmas(k)) - 0.5 * std::log(2 * pi);
            top = std::max(top, log_density[static_cast<std::size_t>(k)]);
        }
        double sum = 0;
        for (double l : log_density) sum += std::exp(l - top);
        nll -= top + std::log(sum / double(K));
        for (double tau : quantile_levels) {
            const double q = K == 1 ? p.means(i, 0) + p.sigmas(0) * boost::math::quantile(standard, tau)
                                    : mixture_quantile(p.means, i, p.sigmas, tau);
            loss += pinball(y(i), q, tau);
        }
    }
    m.mse = se / double(n);
    m.nll = nll / double(n);
    m.pinball = loss / (double(n) * double(quantile_levels.size()));
}

// SKCE unbiased and biased, and the bootstrap p-value: for a network of its normal predictions, for
// the ensemble of the equal-weight mixtures (kernel exp(−MW₂)·exp(−(y − y')²/2)).
template <class Data>
void calibration(const Data& data, std::uint64_t seed, std::size_t resamples, Measures& m) {
    const calib::ParallelOptions serial{1};
    const calib::Kernel kernel = calib::default_kernel<calib::NormalData>();
    calib::BootstrapOptions b;
    b.replicates = resamples;
    b.seed = seed;
    b.parallel = serial;
    const calib::TestResult test = calib::bootstrap_test(data, kernel, b);
    m.skce_unbiased = test.estimate;
    m.skce_biased = calib::skce_biased(data, kernel, serial);
    m.p_value = test.p_value;
}
void calibration(const Predictions& p, const friedman::RowVector& y, std::uint64_t seed, std::size_t resamples,
                 Measures& m) {
    const Eigen::Index n = p.means.rows(), K = p.means.cols();
    if (K == 1)
        calibration(calib::NormalData(p.means.col(0), calib::Vector::Constant(n, p.sigmas(0)), y.transpose()), seed,
                    resamples, m);
    else
        calibration(calib::MixtureNormalData::ensemble(p.means, p.sigmas.transpose().replicate(n, 1), y.transpose()),
                    seed, resamples, m);
}

struct Snapshot {
    int iteration;
    double sigma;
    friedman::RowVector train, test;  // mean predictions
};

const std::array<const char*, 6> measures{{"mse", "nll", "pinball", "skce_unbiased", "skce_biased", "p_value"}};

void run(const repro::Options& o, const repro::Output& out) {
    const Scale s = scale(o);
    const std::vector<int> iterations = evaluated_iterations(s.iterations);
    const std::size_t networks = o.reps;
    calib::JsonObject parameters;
    parameters.set("train_n", train_n).set("test_n", test_n).set("architecture", "10-200-50-1 ReLU")
        .set("optimiser", "full-batch Adam, eta = 0.001, beta = (0.9, 0.999), eps = 1e-8")
        .set("iterations", s.iterations).set("evaluated_every", evaluation_step)
        .set("bootstrap_resamples", s.resamples).set("kernel", "exp(-W2) x exp(-(y-y')^2/2); ensemble exp(-MW2) x ...");
    if (out.done("training", parameters)) return;
    Eigen::setNbThreads(1);  // Eigen's own OpenMP products off: one network per thread

    calib::Rng train_rng = repro::cell_stream(o, 0, 0), test_rng = repro::cell_stream(o, 1, 0);
    const Set train = friedman1(train_n, train_rng), test = friedman1(test_n, test_rng);

    // 1. Train the networks (in parallel), keeping their predictions at the evaluated iterations.
    std::vector<std::vector<Snapshot>> snapshots(networks);
    double wall = 0;
    {
        repro::Progress progress(o, "friedman: training", networks);
        wall += repro::time_call([&] {
            // Every rank needs every network's predictions for step 2: Gather::all.
            repro::distribute(
                networks, o, &progress,
                [&](std::size_t k, repro::Packet& result) {
                    calib::Rng rng = repro::cell_stream(o, 2, k);
                    friedman::Network net({int(features), 200, 50, 1}, rng);
                    std::size_t next = 0;
                    for (int t = 0; t <= s.iterations; ++t) {
                        if (t > 0) net.adam_step(train.x, train.y);
                        if (next < iterations.size() && iterations[next] == t) {
                            const friedman::RowVector fit = net.predict(train.x);
                            const double mse = (fit - train.y).squaredNorm() / double(train_n);
                            const friedman::RowVector on_test = net.predict(test.x);
                            result.put(static_cast<std::uint64_t>(t));
                            result.put(std::sqrt(mse));
                            result.put(std::vector<double>(fit.data(), fit.data() + fit.size()));
                            result.put(std::vector<double>(on_test.data(), on_test.data() + on_test.size()));
                            ++next;
                        }
                    }
                },
                [&](std::size_t k, repro::Packet& result) {
                    while (snapshots[k].size() < iterations.size()) {
                        const int t = static_cast<int>(result.get_size());
                        const double sigma = result.get_double();
                        const std::vector<double> fit = result.get_doubles(), on_test = result.get_doubles();
                        snapshots[k].push_back({t, sigma, friedman::RowVector::Map(fit.data(), Eigen::Index(fit.size())),
                                                friedman::RowVector::Map(on_test.data(), Eigen::Index(on_test.size()))});
                    }
                },
                repro::Gather::all);
        });
    }

    // 2. Every measure, per (iteration, model, set); model K = networks is the ensemble.
    const std::size_t models = networks + 1, tasks = iterations.size() * models;
    std::vector<std::array<Measures, 2>> results(tasks);
    {
        repro::Progress progress(o, "friedman: evaluation", tasks);
        wall += repro::time_call([&] {
            repro::distribute(
                tasks, o, &progress,
                [&](std::size_t task, repro::Packet& packet) {
                    const std::size_t it = task / models, model = task % models;
                    calib::Rng rng = repro::cell_stream(o, 3, task);
                    for (int set = 0; set < 2; ++set) {
                        const friedman::RowVector& y = set == 0 ? train.y : test.y;
                        Predictions p;
                        if (model < networks) {
                            const Snapshot& snap = snapshots[model][it];
                            p.means = (set == 0 ? snap.train : snap.test).transpose();
                            p.sigmas = friedman::Vector::Constant(1, snap.sigma);
                        } else {
                            p.means.resize(y.size(), static_cast<Eigen::Index>(networks));
                            p.sigmas.resize(static_cast<Eigen::Index>(networks));
                            for (std::size_t k = 0; k < networks; ++k) {
                                const Snapshot& snap = snapshots[k][it];
                                p.means.col(static_cast<Eigen::Index>(k)) = (set == 0 ? snap.train : snap.test).transpose();
                                p.sigmas(static_cast<Eigen::Index>(k)) = snap.sigma;
                            }
                        }
                        Measures m;
                        scoring(p, y, m);
                        calibration(p, y, rng(), s.resamples, m);
                        for (double v : {m.mse, m.nll, m.pinball, m.skce_unbiased, m.skce_biased, m.p_value}) packet.put(v);
                    }
                },
                [&](std::size_t task, repro::Packet& packet) {
                    for (Measures& m : results[task])
                        for (double* v : {&m.mse, &m.nll, &m.pinball, &m.skce_unbiased, &m.skce_biased, &m.p_value})
                            *v = packet.get_double();
                });
        });
    }

    repro::Table table({"iteration", "model", "set", "mse", "nll", "pinball", "skce_unbiased", "skce_biased", "p_value"});
    for (std::size_t task = 0; task < tasks; ++task) {
        const std::size_t it = task / models, model = task % models;
        const std::string name = model < networks ? "net" + std::to_string(model + 1) : "ensemble";
        for (int set = 0; set < 2; ++set) {
            const Measures& m = results[task][static_cast<std::size_t>(set)];
            table.add(iterations[it], name, set == 0 ? "train" : "test", m.mse, m.nll, m.pinball, m.skce_unbiased,
                      m.skce_biased, m.p_value);
        }
    }
    out.write("training", table, parameters, wall);
}

// Per (set, iteration): the networks' mean, min and max and the ensemble's value of every measure;
// and how often the ensemble is better than the average member (lower, or for the p-value higher).
void summarise(const repro::Output& out) {
    const repro::CsvFile training(out.csv_path("training"));
    std::vector<std::string> columns{"iteration", "set"};
    for (const char* m : measures)
        for (const char* w : {"_mean", "_min", "_max", "_ensemble"}) columns.push_back(std::string(m) + w);
    repro::Table summary(columns);
    std::array<std::array<std::size_t, 2>, 6> better{}, compared{};
    std::array<std::vector<std::vector<std::string>>, 2> rows_of;  // train rows, then test rows: one block per curve
    std::size_t row = 0;
    while (row < training.rows()) {
        const double iteration = training.number(row, "iteration");
        for (const std::string set : {"train", "test"}) {
            std::vector<std::string> cells{repro::fmt(iteration), set};
            std::vector<std::vector<double>> values(measures.size());
            std::vector<double> ensemble(measures.size(), nan);
            std::size_t r = row;
            for (; r < training.rows() && training.number(r, "iteration") == iteration; ++r) {
                if (training.cell(r, "set") != set) continue;
                for (std::size_t k = 0; k < measures.size(); ++k) {
                    const double v = training.number(r, measures[k]);
                    if (training.cell(r, "model") == "ensemble")
                        ensemble[k] = v;
                    else
                        values[k].push_back(v);
                }
            }
            for (std::size_t k = 0; k < measures.size(); ++k) {
                const double mean = repro::mean(values[k]);
                cells.push_back(repro::fmt(mean));
                cells.push_back(repro::fmt(repro::minimum(values[k])));
                cells.push_back(repro::fmt(repro::maximum(values[k])));
                cells.push_back(repro::fmt(ensemble[k]));
                if (!std::isnan(ensemble[k]) && !std::isnan(mean) && iteration > 0) {
                    const std::size_t s = set == "train" ? 0 : 1;
                    ++compared[k][s];
                    better[k][s] += k == 5 ? ensemble[k] > mean : ensemble[k] < mean;
                }
            }
            rows_of[set == "train" ? 0 : 1].push_back(cells);
        }
        while (row < training.rows() && training.number(row, "iteration") == iteration) ++row;
    }
    for (const auto& block : rows_of)
        for (const auto& cells : block) summary.add_row(cells);
    repro::Table claims({"measure", "set", "ensemble_better_share", "iterations_compared"});
    for (std::size_t k = 0; k < measures.size(); ++k)
        for (std::size_t s = 0; s < 2; ++s)
            claims.add(measures[k], s == 0 ? "train" : "test",
                       compared[k][s] ? double(better[k][s]) / double(compared[k][s]) : nan, compared[k][s]);
    calib::JsonObject parameters;
    parameters.set("better", "lower, except the p-value: higher; iterations > 0");
    out.write("summary", summary, parameters, 0);
    out.write("claims", claims, parameters, 0);
}

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& o) {
        const repro::Output out(o, info);
        run(o, out);
        if (out.writer()) summarise(out);
    });
}

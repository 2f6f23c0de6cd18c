// repro-validity: calib's own validity study (docs/tests.md, "Validity range"): the type-I error of
// every calibration test on calibrated models at small n, and of the CME test's two references
// (χ²_J, F(J, n−J)) over the number of test locations J.
//
// Designs (calibrated, so every rejection is a false one):
//   categorical  m = 10, predictions Dir(0.1), labels drawn from them (the 2019 model M1); kernel
//                exp(−TV/ν) ⊗ δ with ν the median of all n² TV distances of the data set;
//   normal       N(μ, σ²), μ ∼ N(0, 1), σ ∼ U(0.1, 1.1), targets drawn from them; kernel
//                exp(−W2) ⊗ exp(−(y − y')²/2);
//   binary       (CME cells only) P(Y = 1) = p ∼ U(0, 1), y ∼ Bernoulli(p), as two-class predictions;
//                the categorical design's kernel.
// Cells:
//   levels_<design>_n<n>, n = 8 … 256 (categorical, normal): p-values of block (B = 2 and √n),
//     bootstrap, gamma, spectral (R = 1000 resamples each), cme (J = 2 drawn from the data, both
//     references) and the three distribution-free tests;
//   cme_<design>_n<n>: the CME test at J locations drawn from the data (and removed from it: the test
//     uses n − J observations), χ² and F p-values of one statistic; categorical and normal at n = 60 …
//     1000 and J = 2 … n/3; binary, whose range is narrower (docs/tests.md), at n = 200 … 5000 and
//     J = 1 … 10 with J² ≤ 0.05 n.
// Summaries: levels_summary.csv, smallest_n.csv, cme_summary.csv (rates at α = 0.01, 0.05, 0.1 with
// the 99% binomial band around α).
#include "../harness/harness.hpp"

#include <calib/tool/synthetic.hpp>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace {

const repro::AppInfo info{
    "repro-validity",
    "calib's validity study: type-I error of every test at small n, and of the CME test's references over J.",
    "calib's own study (docs/tests.md, validity range); not from a paper",
    2000,
    40,
    2026,
    "Cells: levels_<design>_n<n> (n = 8..256, every test) and cme_<design>_n<n> (n = 60..1000,\n"
    "J = 2..n/3) for the designs categorical and normal; cme_binary_n<n> (two-class predictions,\n"
    "n = 200..5000, J = 1..10 with J^2 <= 0.05 n). Summaries: levels_summary.csv, smallest_n.csv, cme_summary.csv.\n"};

constexpr std::size_t resamples = 1000;  // bootstrap and spectral
const std::array<std::size_t, 6> level_sizes{{8, 16, 32, 64, 128, 256}};
const std::array<double, 3> alphas{{0.01, 0.05, 0.1}};
const std::array<const char*, 3> designs{{"categorical", "normal", "binary"}};
constexpr std::size_t level_designs = 2;  // the binary design has CME cells only
constexpr std::size_t binary = 2;
// The CME cells of each design: n, and J of which locations_for keeps those that fit n.
const std::vector<std::size_t>& cme_sizes(std::size_t design) {
    static const std::vector<std::size_t> wide{60, 100, 250, 500, 1000}, two_classes{200, 500, 1000, 2000, 5000};
    return design == binary ? two_classes : wide;
}
const std::vector<std::size_t>& cme_locations(std::size_t design) {
    static const std::vector<std::size_t> wide{2, 5, 10, 20, 50, 100, 200, 333}, two_classes{1, 2, 3, 5, 7, 10};
    return design == binary ? two_classes : wide;
}
const std::array<const char*, 10> level_tests{{"block2", "blocksqrt", "bootstrap", "gamma", "spectral", "cme2_chi2",
                                                "cme2_f", "dfree_biased", "dfree_unbiased", "dfree_block"}};

calib::CategoricalData categorical(std::size_t n, calib::Rng& rng) {
    boost::random::gamma_distribution<double> gamma(0.1);
    calib::Matrix p(static_cast<Eigen::Index>(n), 10);
    std::vector<int> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto row = static_cast<Eigen::Index>(i);
        calib::synthetic::dirichlet_row(gamma, p.row(row), rng);
        labels[i] = calib::synthetic::draw_label(p.row(row), rng);
    }
    return calib::CategoricalData(std::move(p), std::move(labels));
}

calib::CategoricalData binary_predictions(std::size_t n, calib::Rng& rng) {
    boost::random::uniform_01<double> u;
    calib::Vector p(static_cast<Eigen::Index>(n));
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        p(static_cast<Eigen::Index>(i)) = u(rng);
        y[i] = u(rng) < p(static_cast<Eigen::Index>(i)) ? 1 : 0;
    }
    return calib::CategoricalData::from_binary(p, y);
}

calib::NormalData normal(std::size_t n, calib::Rng& rng) {
    boost::random::normal_distribution<double> z;
    boost::random::uniform_01<double> u;
    calib::Vector mu(static_cast<Eigen::Index>(n)), sigma(static_cast<Eigen::Index>(n)), y(static_cast<Eigen::Index>(n));
    for (Eigen::Index i = 0; i < mu.size(); ++i) {
        mu(i) = z(rng);
        sigma(i) = 0.1 + u(rng);
        y(i) = mu(i) + sigma(i) * z(rng);
    }
    return calib::NormalData(std::move(mu), std::move(sigma), std::move(y));
}

calib::Kernel kernel_for(const calib::CategoricalData& data) {
    calib::Kernel kernel = calib::default_kernel<calib::CategoricalData>();
    calib::MedianOptions median;
    median.variant = calib::MedianVariant::full;
    median.parallel = calib::ParallelOptions{1};
    kernel.prediction.lengthscale = calib::median_distance(data, calib::Metric::tv, median);
    return kernel;
}
calib::Kernel kernel_for(const calib::NormalData&) { return calib::default_kernel<calib::NormalData>(); }

// The data set of replicate r of a cell of a design, with the seed of its tests (from the same stream).
template <class Data>
Data generate(std::size_t design, std::size_t n, calib::Rng& rng);
template <>
calib::CategoricalData generate(std::size_t design, std::size_t n, calib::Rng& rng) {
    return design == binary ? binary_predictions(n, rng) : categorical(n, rng);
}
template <>
calib::NormalData generate(std::size_t, std::size_t n, calib::Rng& rng) { return normal(n, rng); }

// The χ² p-value of a CME test's statistic Q (the F one is the test's own result).
double chi2_p_value(const calib::TestResult& cme) {
    return boost::math::cdf(boost::math::complement(boost::math::chi_squared(double(cme.details_as<calib::CmeDetails>().num_locations)), cme.statistic));
}

template <class Data>
calib::TestResult cme_f(const Data& data, std::size_t locations, std::uint64_t seed, const calib::Kernel& kernel) {
    calib::CmeOptions o;
    o.reference = calib::CmeReference::f;
    o.parallel = calib::ParallelOptions{1};
    o.allow_outside_validity = true;  // the study measures where the range ends
    return calib::cme_test(data, locations, seed, kernel, o);
}

template <class Data>
std::vector<double> level_p_values(const Data& data, std::uint64_t seed) {
    const calib::ParallelOptions serial{1};
    const calib::Kernel kernel = kernel_for(data);
    calib::BlockTestOptions b2;
    b2.parallel = serial;
    calib::BlockTestOptions bs = b2;
    bs.block_size = calib::sqrt_block_size(data.size());
    calib::BootstrapOptions boot;
    boot.replicates = resamples;
    boot.seed = seed;
    boot.parallel = serial;
    calib::SpectralOptions spectral;
    spectral.replicates = resamples;
    spectral.seed = seed + 1;
    spectral.parallel = serial;
    calib::DistributionFreeOptions d;
    d.parallel = serial;
    const calib::TestResult cme = cme_f(data, 2, seed + 2, kernel);
    return {calib::block_test(data, kernel, b2).p_value,
            calib::block_test(data, kernel, bs).p_value,
            calib::bootstrap_test(data, kernel, boot).p_value,
            calib::gamma_test(data, kernel, serial).p_value,
            calib::spectral_test(data, kernel, spectral).p_value,
            chi2_p_value(cme),
            cme.p_value,
            calib::dfree_biased_test(data, kernel, d).p_value,
            calib::dfree_unbiased_test(data, kernel, d).p_value,
            calib::dfree_block_test(data, kernel, 2, d).p_value};
}

std::string level_cell(std::size_t design, std::size_t n) {
    return std::string("levels_") + designs[design] + "_n" + std::to_string(n);
}
std::string cme_cell(std::size_t design, std::size_t n) {
    return std::string("cme_") + designs[design] + "_n" + std::to_string(n);
}
// The J of a cell: 3J <= n; for two classes also J^2 <= 0.05 n, ten times the range (beyond it the
// two-class covariance is often singular at small n: J = 10 of n = 200).
std::vector<std::size_t> locations_for(std::size_t design, std::size_t n) {
    std::vector<std::size_t> out;
    for (std::size_t j : cme_locations(design))
        if (3 * j <= n && (design != binary || 20 * j * j <= n)) out.push_back(j);
    return out;
}

calib::JsonObject design_parameters(std::size_t design, std::size_t n) {
    calib::JsonObject p;
    p.set("design", designs[design]).set("n", n);
    if (design == 0)
        p.set("m", 10).set("predictions", "Dir(0.1)").set("kernel", "exp(-TV/nu) x white, nu = median of all n^2 TV distances");
    else if (design == binary)
        p.set("m", 2).set("predictions", "P(Y = 1) ~ U(0,1)").set("kernel", "exp(-TV/nu) x white, nu = median of all n^2 TV distances");
    else
        p.set("predictions", "N(mu, sigma^2), mu ~ N(0,1), sigma ~ U(0.1,1.1)").set("kernel", "exp(-W2) x exp(-(y-y')^2/2)");
    return p;
}

template <class Data>
void run_levels(const repro::Options& o, const repro::Output& out, std::size_t design, std::size_t size_index) {
    const std::size_t n = level_sizes[size_index];
    const std::string name = level_cell(design, n);
    calib::JsonObject parameters = design_parameters(design, n);
    parameters.set("resamples", resamples).set("cme_locations", 2);
    if (out.done(name, parameters)) return;
    std::vector<std::string> columns{"design", "n", "replicate"};
    for (const char* t : level_tests) columns.push_back(std::string("p_") + t);
    repro::Table table(columns);
    table.resize(o.reps);
    repro::Progress progress(o, "validity " + name, o.reps);
    const double wall = repro::time_call([&] {
        repro::distribute(
            o.reps, o, &progress,
            [&](std::size_t r, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, design * 100 + size_index, r);
                const Data data = generate<Data>(design, n, rng);
                std::vector<std::string> row{designs[design], repro::fmt(n), repro::fmt(r)};
                for (double p : level_p_values(data, rng())) row.push_back(repro::fmt(p));
                result.put(row);
            },
            [&](std::size_t r, repro::Packet& result) { table.set(r, result.get_strings()); });
    });
    out.write(name, table, parameters, wall);
}

template <class Data>
void run_cme(const repro::Options& o, const repro::Output& out, std::size_t design, std::size_t size_index) {
    const std::size_t n = cme_sizes(design)[size_index];
    const std::string name = cme_cell(design, n);
    const std::vector<std::size_t> js = locations_for(design, n);
    calib::JsonObject parameters = design_parameters(design, n);
    parameters.set("locations", design == binary ? "drawn from the data and removed from it; J = 1,2,3,5,7,10 with J^2 <= 0.05 n"
                                                 : "drawn from the data and removed from it; J = 2..n/3 of 2,5,10,20,50,100,200,333");
    if (out.done(name, parameters)) return;
    repro::Table table({"design", "n", "J", "replicate", "p_chi2", "p_f"});
    table.resize(o.reps * js.size());
    repro::Progress progress(o, "validity " + name, o.reps);
    const double wall = repro::time_call([&] {
        repro::distribute(
            o.reps, o, &progress,
            [&](std::size_t r, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, 1000 + design * 100 + size_index, r);
                const Data data = generate<Data>(design, n, rng);
                const calib::Kernel kernel = kernel_for(data);
                const std::uint64_t seed = rng();
                for (std::size_t k = 0; k < js.size(); ++k) {
                    // A data set whose covariance at the drawn locations is singular is refused by the
                    // test, as calib test refuses it (two classes, rarely: 3 locations of n = 200): NaN,
                    // counted apart from the trials.
                    double p_chi2 = std::numeric_limits<double>::quiet_NaN(), p_f = p_chi2;
                    try {
                        const calib::TestResult t = cme_f(data, js[k], seed, kernel);
                        p_chi2 = chi2_p_value(t);
                        p_f = t.p_value;
                    } catch (const calib::numerical_error&) {
                    }
                    result.put(repro::Table::row(designs[design], n, js[k], r, p_chi2, p_f));
                }
            },
            [&](std::size_t r, repro::Packet& result) {
                for (std::size_t k = 0; k < js.size(); ++k) table.set(k * o.reps + r, result.get_strings());
            });
    });
    out.write(name, table, parameters, wall);
}

// The 99% two-sided band of the number of rejections among `trials` at level α.
std::pair<double, double> binomial_band(std::size_t trials, double alpha) {
    const boost::math::binomial_distribution<double> b(double(trials), alpha);
    return {boost::math::quantile(b, 0.005), boost::math::quantile(boost::math::complement(b, 0.005))};
}

struct Rate {
    std::size_t rejections = 0, trials = 0, refused = 0;
    double lo = 0, hi = 0;
    std::string verdict;  // "inside", "conservative" (below the band), "liberal" (above it)
};
Rate rate(const std::vector<double>& p, double alpha) {
    Rate r;
    for (double v : p) r.rejections += v < alpha;
    for (double v : p) r.refused += std::isnan(v);  // a test that refused the data set (CME cells)
    r.trials = p.size() - r.refused;
    std::tie(r.lo, r.hi) = binomial_band(r.trials, alpha);
    const double k = double(r.rejections);
    r.verdict = k > r.hi ? "liberal" : k < r.lo ? "conservative" : "inside";
    return r;
}

void summarise(const repro::Output& out) {
    repro::Table levels({"design", "n", "test", "alpha", "rejections", "trials", "rate", "band_lo", "band_hi", "verdict"});
    repro::Table smallest({"design", "test", "smallest_valid_n", "rule"});
    for (std::size_t design = 0; design < level_designs; ++design) {
        std::vector<std::vector<bool>> liberal(level_tests.size());
        for (std::size_t s = 0; s < level_sizes.size(); ++s) {
            const repro::CsvFile cell(out.csv_path(level_cell(design, level_sizes[s])));
            for (std::size_t t = 0; t < level_tests.size(); ++t) {
                const std::vector<double> p = cell.numbers(std::string("p_") + level_tests[t]);
                bool any_liberal = false;
                for (double alpha : alphas) {
                    const Rate r = rate(p, alpha);
                    any_liberal = any_liberal || (alpha == 0.05 && r.verdict == "liberal");
                    levels.add(designs[design], level_sizes[s], level_tests[t], alpha, r.rejections, r.trials,
                               double(r.rejections) / double(r.trials), r.lo, r.hi, r.verdict);
                }
                liberal[t].push_back(any_liberal);
            }
        }
        // The smallest n of the grid from which on the rate at α = 0.05 is never above the band.
        for (std::size_t t = 0; t < level_tests.size(); ++t) {
            std::size_t first = level_sizes.size();
            while (first > 0 && !liberal[t][first - 1]) --first;
            smallest.add(designs[design], level_tests[t],
                         first < level_sizes.size() ? double(level_sizes[first]) : std::numeric_limits<double>::quiet_NaN(),
                         "alpha = 0.05 not above the 99% band at this n and every larger n of the grid (nan: none)");
        }
    }
    repro::Table cme({"design", "n", "J", "n_test", "reference", "alpha", "rejections", "trials", "refused", "rate",
                      "band_lo", "band_hi", "verdict"});
    for (std::size_t design = 0; design < designs.size(); ++design)
        for (std::size_t n : cme_sizes(design)) {
            const repro::CsvFile cell(out.csv_path(cme_cell(design, n)));
            const std::vector<double> js = cell.numbers("J");
            for (std::size_t j : locations_for(design, n))
                for (const char* reference : {"chi2", "f"}) {
                    std::vector<double> p;
                    const std::vector<double> all = cell.numbers(std::string("p_") + reference);
                    for (std::size_t i = 0; i < all.size(); ++i)
                        if (js[i] == double(j)) p.push_back(all[i]);
                    for (double alpha : alphas) {
                        const Rate r = rate(p, alpha);
                        cme.add(designs[design], n, j, n - j, reference, alpha, r.rejections, r.trials, r.refused,
                                double(r.rejections) / double(r.trials), r.lo, r.hi, r.verdict);
                    }
                }
        }
    calib::JsonObject parameters;
    parameters.set("rejection_rule", "p < alpha").set("band", "99% two-sided binomial band around alpha * trials");
    out.write("levels_summary", levels, parameters, 0);
    out.write("smallest_n", smallest, parameters, 0);
    out.write("cme_summary", cme, parameters, 0);
}

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& o) {
        const repro::Output out(o, info);
        for (std::size_t s = 0; s < level_sizes.size(); ++s) {
            run_levels<calib::CategoricalData>(o, out, 0, s);
            run_levels<calib::NormalData>(o, out, 1, s);
        }
        for (std::size_t s = 0; s < cme_sizes(0).size(); ++s) {
            run_cme<calib::CategoricalData>(o, out, 0, s);
            run_cme<calib::NormalData>(o, out, 1, s);
        }
        for (std::size_t s = 0; s < cme_sizes(binary).size(); ++s) run_cme<calib::CategoricalData>(o, out, binary, s);
        if (out.writer()) summarise(out);
    });
}

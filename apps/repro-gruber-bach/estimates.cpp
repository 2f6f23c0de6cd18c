// The squared-CE estimators on the §5.1 data: against the population values, and their runtime.
#include "simulation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace gruber_bach {

namespace {

const EstimatorCase cases[] = {{calib::CeNotion::top_label, "bins-15"}, {calib::CeNotion::top_label, "ce-bins"},
                               {calib::CeNotion::top_label, "ce-kde"},  {calib::CeNotion::top_label, "ce-kkr"},
                               {calib::CeNotion::top_label, "ce-ukkr"}, {calib::CeNotion::canonical, "ce-kde"},
                               {calib::CeNotion::canonical, "ce-kkr"},  {calib::CeNotion::canonical, "ce-ukkr"}};

// The population values on one large sample. CCE₂² = E‖f − P‖² exactly, since q(f) = P (f ↦ P is
// one-to-one). TCE₂² = E(s − m(s))², m(s) = E[P_c | s] with s = max f, c its (first) argmax, is not
// a function of P alone: m is the mean of P_c over equal-mass bins of √N consecutive s values, and
// the noise of that mean, Var_bin(P_c)/|bin|, is subtracted from each squared difference.
struct Truth {
    double canonical = 0, top_label = 0;
};
Truth population(std::size_t n, calib::Rng& rng) {
    const Sample s = draw(n, rng);
    const calib::Matrix f = s.data.probabilities();
    Truth t;
    t.canonical = (f - s.truth).rowwise().squaredNorm().mean();
    std::vector<double> conf(n), true_prob(n);
    for (std::size_t i = 0; i < n; ++i) {
        Eigen::Index c = 0;
        conf[i] = f.row(static_cast<Eigen::Index>(i)).maxCoeff(&c);
        true_prob[i] = s.truth(static_cast<Eigen::Index>(i), c);
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return conf[a] < conf[b]; });
    const auto width = static_cast<std::size_t>(std::sqrt(double(n)));
    double total = 0;
    for (std::size_t start = 0; start < n; start += width) {
        const std::size_t end = std::min(n, start + width), m = end - start;
        double mean = 0, square = 0;
        for (std::size_t j = start; j < end; ++j) mean += true_prob[order[j]];
        mean /= double(m);
        for (std::size_t j = start; j < end; ++j) square += std::pow(true_prob[order[j]] - mean, 2);
        const double noise = m > 1 ? square / double(m - 1) / double(m) : 0;
        for (std::size_t j = start; j < end; ++j) total += std::pow(conf[order[j]] - mean, 2) - noise;
    }
    t.top_label = total / double(n);
    return t;
}

}  // namespace

void run_estimates(const repro::Output& out) {
    const repro::Options& o = out.options();
    const std::size_t population_n = o.quick ? 100000 : 1000000;
    calib::JsonObject parameters;
    parameters.set("n", static_cast<double>(sample_size)).set("classes", classes).set("dirichlet_alpha", dirichlet_alpha)
        .set("temperature", temperature).set("population_n", static_cast<double>(population_n))
        .set("pipeline", "5 folds, 20% test, default grids, reference-code ridges, gamma 1");
    if (!out.done("estimates", parameters)) {
        calib::Rng population_rng = repro::cell_stream(o, 1, 0);
        Truth truth;
        const double truth_wall = repro::time_call([&] { truth = population(population_n, population_rng); });
        repro::Table truth_table({"notion", "truth", "sqrt_truth"});
        truth_table.add("canonical", truth.canonical, std::sqrt(truth.canonical));
        truth_table.add("top-label", truth.top_label, std::sqrt(truth.top_label));
        out.write("truth", truth_table, parameters, truth_wall);

        repro::Table table({"replicate", "notion", "estimator", "estimate", "hyperparameter", "truth"});
        constexpr std::size_t per_rep = std::size(cases);
        table.resize(o.reps * per_rep);
        repro::Progress progress(o, "gruber-bach estimates", o.reps);
        const double wall = repro::time_call([&] {
            repro::distribute(
                o.reps, o, &progress,
                [&](std::size_t r, repro::Packet& result) {
                    calib::Rng rng = repro::cell_stream(o, 2, r);
                    const Sample s = draw(sample_size, rng);
                    const std::uint64_t seed = rng();  // the pipeline's split
                    for (std::size_t c = 0; c < per_rep; ++c) {
                        double chosen = 0;
                        const double e = estimate(s.data, cases[c], seed, chosen);
                        const bool canonical = cases[c].notion == calib::CeNotion::canonical;
                        result.put(repro::Table::row(r, calib::to_string(cases[c].notion), cases[c].name, e, chosen,
                                                     canonical ? truth.canonical : truth.top_label));
                    }
                },
                [&](std::size_t r, repro::Packet& result) {
                    for (std::size_t c = 0; c < per_rep; ++c) table.set(r * per_rep + c, result.get_strings());
                });
        });
        out.write("estimates", table, parameters, wall);
    }
    // Bias and spread over replicates, on the squared scale and of the root.
    if (!out.writer()) return;
    const repro::CsvFile raw(out.csv_path("estimates"));
    repro::Table summary({"notion", "estimator", "truth", "estimate_mean", "bias", "estimate_sd", "rmse",
                          "sqrt_truth", "sqrt_mean", "sqrt_sd", "reps"});
    for (const EstimatorCase& c : cases) {
        std::vector<double> e, root, error;
        double truth = 0;
        for (std::size_t i = 0; i < raw.rows(); ++i) {
            if (raw.cell(i, "notion") != calib::to_string(c.notion) || raw.cell(i, "estimator") != c.name) continue;
            truth = raw.number(i, "truth");
            e.push_back(raw.number(i, "estimate"));
            root.push_back(std::sqrt(std::max(e.back(), 0.0)));
            error.push_back(std::pow(e.back() - truth, 2));
        }
        summary.add(calib::to_string(c.notion), c.name, truth, repro::mean(e), repro::mean(e) - truth,
                    std::sqrt(repro::variance(e)), std::sqrt(repro::mean(error)), std::sqrt(truth), repro::mean(root),
                    std::sqrt(repro::variance(root)), e.size());
    }
    out.write("estimates_summary", summary, parameters, 0);
}

void run_runtime(const repro::Output& out) {
    const repro::Options& o = out.options();
    // n = 10 000, KRR at 3 000 as when it had only the O(n³) dense path (the recorded table stays
    // comparable); the low-rank default's n = 10 000 times are `calib-bench squared-ce` (docs/performance.md).
    const std::size_t large = o.quick ? 500 : 10000, krr = o.quick ? 500 : 3000;
    calib::JsonObject parameters;
    parameters.set("n", static_cast<double>(large)).set("krr_n", static_cast<double>(krr)).set("threads", 1);
    if (out.done("runtime_times", parameters)) return;
    repro::Table table({"notion", "estimator", "n", "seconds", "estimate", "hyperparameter"});
    const double wall = repro::time_call([&] {
        for (const EstimatorCase& c : cases) {
            const std::string name = c.name;
            const std::size_t n = name == "ce-kkr" || name == "ce-ukkr" ? krr : large;
            calib::Rng rng = repro::cell_stream(o, 3, n);
            const Sample s = draw(n, rng);
            double e = 0, chosen = 0;
            const double seconds = repro::time_call([&] { e = estimate(s.data, c, 0, chosen); });
            table.add(calib::to_string(c.notion), c.name, n, seconds, e, chosen);
        }
    });
    out.write("runtime_times", table, parameters, wall);
}

}  // namespace gruber_bach

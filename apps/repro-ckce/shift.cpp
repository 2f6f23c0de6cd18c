// Fig. 4(a) [ms-ckce §5.2.1]: X ∈ [−1, 1] from a normal(α, 0.25²) truncated to [−1, 1], labels
// with P(Y = 1 | X = x) = σ(x), the miscalibrated model Q(Y = 1 | X = x) = σ(5x); n = 1000 per α.
// P(Y | Q) does not depend on α (covariate shift), so a marginal-free error should stay flat.
// The α grid and the replicates per α are not in the paper (ckce.md §6.2.10): α = −1, −0.9, …, 1
// and 5 replicates by default.
#include "dgp.hpp"
#include "experiments.hpp"
#include "runner.hpp"

#include <chrono>
#include <cmath>
#include <map>

namespace repro {

void run_shift(const RunContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<double> alphas;
    if (ctx.quick)
        alphas = {-1, -0.5, 0, 0.5, 1};
    else
        for (int k = -10; k <= 10; ++k) alphas.push_back(k / 10.0);
    const std::size_t n = ctx.quick ? 300 : 1000;
    const double scale = 0.25, slope = 5;
    Experiment e;
    e.name = "ckce-shift";
    e.id = 4;
    e.key_header = "metric";
    e.cells = alphas.size();
    e.reps = static_cast<std::size_t>(ctx.reps_or(ctx.quick ? 1 : 5));
    e.signature = "alphas=" + std::to_string(alphas.size()) + " n=" + std::to_string(n) + " reps=" + std::to_string(e.reps) +
                  " seed=" + std::to_string(ctx.seed);

    const auto entries = run_tasks(ctx, e, [&](std::size_t cell, std::size_t, calib::Rng& rng) {
        calib::Vector q(static_cast<Eigen::Index>(n));
        std::vector<int> y(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double x = truncated_normal(alphas[cell], scale, -1, 1, rng);
            y[i] = uniform(rng) < logistic(x) ? 1 : 0;
            q(static_cast<Eigen::Index>(i)) = logistic(slope * x);
        }
        const Scores s = paper_scores(calib::CategoricalData::from_binary(q, y));
        return std::vector<RawRow>{{"ckce", s.ckce}, {"jkce", s.jkce}, {"ece", s.ece}};
    });

    std::map<std::pair<std::size_t, std::string>, std::vector<double>> values;
    for (const RawEntry& x : entries) values[{x.cell, x.key}].push_back(x.value);
    CsvFile out(ctx.path("ckce-shift.csv"), "alpha,metric,mean,sd,reps");
    for (std::size_t c = 0; c < alphas.size(); ++c)
        for (const char* metric : {"ckce", "jkce", "ece"}) {
            const std::vector<double>& v = values.at({c, metric});
            double mean = 0, ss = 0;
            for (const double x : v) mean += x / static_cast<double>(v.size());
            for (const double x : v) ss += (x - mean) * (x - mean);
            const double sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0;
            out.row({num(alphas[c]), metric, num(mean), num(sd), std::to_string(v.size())});
        }
    out.close();
    // The set-up panel: the conditionals and the input densities at three locations.
    CsvFile setup(ctx.path("ckce-shift-setup.csv"), "x,p_true,q_model,density_alpha_-0.5,density_alpha_0,density_alpha_0.5");
    for (int k = 0; k <= 200; ++k) {
        const double x = -1 + k / 100.0;
        setup.row({num(x), num(logistic(x)), num(logistic(slope * x)), num(truncated_normal_pdf(x, -0.5, scale, -1, 1)),
                   num(truncated_normal_pdf(x, 0, scale, -1, 1)), num(truncated_normal_pdf(x, 0.5, scale, -1, 1))});
    }
    setup.close();
    calib::JsonObject p;
    p.set("alpha", alphas).set("n", n).set("scale", scale).set("truth", "P(Y=1|x) = 1/(1+exp(-x))");
    p.set("model", "Q(Y=1|x) = 1/(1+exp(-5x))").set("inputs", "normal(alpha, 0.25^2) truncated to [-1, 1]");
    write_sidecar(ctx, e.name, "Fig. 4(a): CKCE, JKCE and ECE under covariate shift", p, static_cast<int>(e.reps),
                  {"ckce-shift.csv", "ckce-shift-setup.csv", "ckce-shift-raw.csv"},
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace repro

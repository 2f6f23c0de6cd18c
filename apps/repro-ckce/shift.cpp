// Fig. 4(a) [ms-ckce §5.2.1]: X ∈ [−1, 1] from a normal(α, 0.25²) truncated to [−1, 1], labels
// with P(Y = 1 | X = x) = σ(x), the miscalibrated model Q(Y = 1 | X = x) = σ(5x); n = 1000 per α.
// P(Y | Q) does not depend on α (covariate shift), so a marginal-free error should stay flat.
// The α grid and the replicates per α are not in the paper (calib's choice): α = −1, −0.9, …, 1
// and 5 replicates by default.
#include "dgp.hpp"
#include "experiments.hpp"

#include <cmath>
#include <map>

namespace repro {

void run_shift(const Output& out) {
    const bool quick = out.options().quick;
    std::vector<double> alphas;
    if (quick)
        alphas = {-1, -0.5, 0, 0.5, 1};
    else
        for (int k = -10; k <= 10; ++k) alphas.push_back(k / 10.0);
    const std::size_t n = quick ? 300 : 1000;
    const double scale = 0.25, slope = 5;
    calib::JsonObject p;
    p.set("description", "Fig. 4(a): CKCE, JKCE and ECE under covariate shift");
    p.set("alpha", alphas).set("n", n).set("scale", scale).set("truth", "P(Y=1|x) = 1/(1+exp(-x))");
    p.set("model", "Q(Y=1|x) = 1/(1+exp(-5x))").set("inputs", "normal(alpha, 0.25^2) truncated to [-1, 1]");

    Table table({"alpha", "metric", "mean", "sd", "reps"});
    const double wall = time_call([&] {
        const TaskGrid tasks{"ckce-shift", 4, "metric", alphas.size()};
        const auto rows = run_tasks(out, tasks, p, [&](std::size_t cell, std::size_t, calib::Rng& rng) {
            calib::Vector q(static_cast<Eigen::Index>(n));
            std::vector<int> y(n);
            for (std::size_t i = 0; i < n; ++i) {
                const double x = truncated_normal(alphas[cell], scale, -1, 1, rng);
                y[i] = uniform(rng) < logistic(x) ? 1 : 0;
                q(static_cast<Eigen::Index>(i)) = logistic(slope * x);
            }
            const Scores s = paper_scores(calib::CategoricalData::from_binary(q, y));
            return std::vector<TaskValue>{{"ckce", s.ckce}, {"jkce", s.jkce}, {"ece", s.ece}};
        });
        std::map<std::pair<std::size_t, std::string>, std::vector<double>> values;
        for (const TaskRow& x : rows) values[{x.cell, x.key}].push_back(x.value);
        for (std::size_t c = 0; c < alphas.size(); ++c)
            for (const char* metric : {"ckce", "jkce", "ece"}) {
                const std::vector<double>& v = values.at({c, metric});
                const MeanSd s = mean_sd(v);
                table.add(fmt_exact(alphas[c]), metric, fmt_exact(s.mean), fmt_exact(s.sd), v.size());
            }
    });
    out.write("ckce-shift", table, p, wall);

    // The set-up panel: the conditionals and the input densities at three locations.
    Table setup({"x", "p_true", "q_model", "density_alpha_-0.5", "density_alpha_0", "density_alpha_0.5"});
    for (int k = 0; k <= 200; ++k) {
        const double x = -1 + k / 100.0;
        setup.add(fmt_exact(x), fmt_exact(logistic(x)), fmt_exact(logistic(slope * x)),
                  fmt_exact(truncated_normal_pdf(x, -0.5, scale, -1, 1)),
                  fmt_exact(truncated_normal_pdf(x, 0, scale, -1, 1)),
                  fmt_exact(truncated_normal_pdf(x, 0.5, scale, -1, 1)));
    }
    out.write("ckce-shift-setup", setup, p, 0);
}

}  // namespace repro

// Fig. 2 [ms-ckce §5.1.1, App. C.1]: m = 10 classes, P(Y | X = x_i) ~ Dir(0.1), y_i drawn from it;
// calibrated models f_t (the truth) and f_m (the uniform marginal), miscalibrated f_u (temperature
// 2) and f_o (temperature ½); in each trial all four models see the same conditionals and labels
// (calib's reading; the paper does not say). Reported: the proportion of trials in which the calibrated
// model's estimate is strictly lower (ties counted separately), with 95% Wilson intervals (the paper
// gives no level).
#include "dgp.hpp"
#include "experiments.hpp"

#include <cmath>
#include <map>
#include <tuple>

namespace repro {

namespace {

const char* const model_names[] = {"true", "marginal", "under", "over"};
const char* const metric_names[] = {"ckce", "jkce", "ece"};

// Wilson score interval of a proportion s/N at the normal quantile z.
struct Interval {
    double lower = 0, upper = 0;
};
Interval wilson(double s, double n, double z = 1.959963984540054) {
    if (n <= 0) return {0, 1};
    const double p = s / n, z2 = z * z, d = 1 + z2 / n;
    const double centre = (p + z2 / (2 * n)) / d;
    const double half = z / d * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    // The interval contains p̂; rounding must not make it miss p̂ = 0 or 1 by an ulp.
    return {std::min(p, std::max(0.0, centre - half)), std::max(p, std::min(1.0, centre + half))};
}

}  // namespace

void run_comparison(const Output& out) {
    const std::vector<std::size_t> grid = out.options().quick ? std::vector<std::size_t>{10, 50, 200}
                                                              : std::vector<std::size_t>{10, 20, 50, 100, 200, 500, 1000};
    const int m = 10;
    const double alpha = 0.1;
    const std::size_t reps = out.options().reps;
    calib::JsonObject p;
    p.set("description", "Fig. 2: proportion of trials in which the calibrated model scores lower");
    p.set("n", std::vector<double>(grid.begin(), grid.end())).set("classes", m).set("dirichlet_alpha", alpha);
    p.set("temperatures", std::vector<double>{2, 0.5}).set("wilson_z", 1.959963984540054);
    p.set("ckce", "simplex kernel, median bandwidth per model, lambda = n^(-1/4), exact");
    p.set("jkce", "unbiased SKCE, same kernel").set("ece", "uniform 3 bins per coordinate, L1");

    Table table({"n", "calibrated", "miscalibrated", "metric", "wins", "ties", "trials", "proportion", "wilson_lower",
                 "wilson_upper"});
    const double wall = time_call([&] {
        const TaskGrid tasks{"ckce-comparison", 3, "model,metric", grid.size()};
        const auto rows = run_tasks(out, tasks, p, [&](std::size_t cell, std::size_t, calib::Rng& rng) {
            const std::size_t n = grid[cell];
            const Matrix truth = dirichlet(n, m, alpha, rng);
            const std::vector<int> y = draw_labels(truth, rng);
            const Matrix models[] = {truth, Matrix::Constant(truth.rows(), m, 1.0 / m), temperature(truth, 2),
                                     temperature(truth, 0.5)};
            std::vector<TaskValue> values;
            for (int k = 0; k < 4; ++k) {
                const Scores s = paper_scores(calib::CategoricalData(models[k], y));
                const double v[] = {s.ckce, s.jkce, s.ece};
                for (int q = 0; q < 3; ++q) values.push_back({std::string(model_names[k]) + "," + metric_names[q], v[q]});
            }
            return values;
        });
        // value[(cell, rep, "model,metric")]
        std::map<std::tuple<std::size_t, std::size_t, std::string>, double> value;
        for (const TaskRow& x : rows) value[{x.cell, x.replicate, x.key}] = x.value;
        const std::pair<const char*, const char*> pairs[] = {{"true", "under"}, {"true", "over"}, {"marginal", "under"}, {"marginal", "over"}};
        for (std::size_t c = 0; c < grid.size(); ++c)
            for (const auto& [cal, mis] : pairs)
                for (const char* metric : metric_names) {
                    double wins = 0, ties = 0;
                    for (std::size_t r = 0; r < reps; ++r) {
                        const double a = value.at({c, r, std::string(cal) + "," + metric});
                        const double b = value.at({c, r, std::string(mis) + "," + metric});
                        wins += a < b;
                        ties += a == b;
                    }
                    const double trials = static_cast<double>(reps);
                    const Interval w = wilson(wins, trials);
                    table.add(grid[c], cal, mis, metric, fmt_exact(wins), fmt_exact(ties), fmt_exact(trials),
                              fmt_exact(wins / trials), fmt_exact(w.lower), fmt_exact(w.upper));
                }
    });
    out.write("ckce-comparison", table, p, wall);
}

}  // namespace repro

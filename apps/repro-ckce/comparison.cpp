// Fig. 2 [ms-ckce §5.1.1, App. C.1]: m = 10 classes, P(Y | X = x_i) ~ Dir(0.1), y_i drawn from it;
// calibrated models f_t (the truth) and f_m (the uniform marginal), miscalibrated f_u (temperature
// 2) and f_o (temperature ½); in each trial all four models see the same conditionals and labels
// (ckce.md §6.2.11). Reported: the proportion of trials in which the calibrated model's estimate is
// strictly lower (ties counted separately, §6.2.8), with 95% Wilson intervals (§6.2.9).
#include "dgp.hpp"
#include "experiments.hpp"
#include "runner.hpp"

#include <chrono>
#include <map>
#include <tuple>

namespace repro {

namespace {
const char* const model_names[] = {"true", "marginal", "under", "over"};
const char* const metric_names[] = {"ckce", "jkce", "ece"};
}  // namespace

void run_comparison(const RunContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::size_t> grid =
        ctx.quick ? std::vector<std::size_t>{10, 50, 200} : std::vector<std::size_t>{10, 20, 50, 100, 200, 500, 1000};
    const int m = 10;
    const double alpha = 0.1;
    Experiment e;
    e.name = "ckce-comparison";
    e.id = 3;
    e.key_header = "model,metric";
    e.cells = grid.size();
    e.reps = static_cast<std::size_t>(ctx.reps_or(ctx.quick ? 10 : 100));
    std::string sizes;
    for (const std::size_t n : grid) sizes += (sizes.empty() ? "" : " ") + std::to_string(n);
    e.signature = "n=" + sizes + " m=10 alpha=0.1 t=2,0.5 reps=" + std::to_string(e.reps) + " seed=" + std::to_string(ctx.seed);

    const auto entries = run_tasks(ctx, e, [&](std::size_t cell, std::size_t, calib::Rng& rng) {
        const std::size_t n = grid[cell];
        const Matrix truth = dirichlet(n, m, alpha, rng);
        const std::vector<int> y = draw_labels(truth, rng);
        const Matrix models[] = {truth, Matrix::Constant(truth.rows(), m, 1.0 / m), temperature(truth, 2),
                                 temperature(truth, 0.5)};
        std::vector<RawRow> rows;
        for (int k = 0; k < 4; ++k) {
            const Scores s = paper_scores(calib::CategoricalData(models[k], y));
            const double values[] = {s.ckce, s.jkce, s.ece};
            for (int q = 0; q < 3; ++q) rows.push_back({std::string(model_names[k]) + "," + metric_names[q], values[q]});
        }
        return rows;
    });

    // value[(cell, rep, "model,metric")]
    std::map<std::tuple<std::size_t, std::size_t, std::string>, double> value;
    for (const RawEntry& x : entries) value[{x.cell, x.rep, x.key}] = x.value;
    CsvFile out(ctx.path("ckce-comparison.csv"),
                "n,calibrated,miscalibrated,metric,wins,ties,trials,proportion,wilson_lower,wilson_upper");
    const std::pair<const char*, const char*> pairs[] = {{"true", "under"}, {"true", "over"}, {"marginal", "under"}, {"marginal", "over"}};
    for (std::size_t c = 0; c < grid.size(); ++c)
        for (const auto& [cal, mis] : pairs)
            for (const char* metric : metric_names) {
                double wins = 0, ties = 0;
                for (std::size_t r = 0; r < e.reps; ++r) {
                    const double a = value.at({c, r, std::string(cal) + "," + metric});
                    const double b = value.at({c, r, std::string(mis) + "," + metric});
                    wins += a < b;
                    ties += a == b;
                }
                const double trials = static_cast<double>(e.reps);
                const Interval w = wilson(wins, trials);
                out.row({std::to_string(grid[c]), cal, mis, metric, num(wins), num(ties), num(trials), num(wins / trials),
                         num(w.lower), num(w.upper)});
            }
    out.close();
    calib::JsonObject p;
    p.set("n", std::vector<double>(grid.begin(), grid.end())).set("classes", m).set("dirichlet_alpha", alpha);
    p.set("temperatures", std::vector<double>{2, 0.5}).set("wilson_z", 1.959963984540054);
    p.set("ckce", "simplex kernel, median bandwidth per model, lambda = n^(-1/4), exact");
    p.set("jkce", "unbiased SKCE, same kernel").set("ece", "uniform 3 bins per coordinate, L1");
    write_sidecar(ctx, e.name, "Fig. 2: proportion of trials in which the calibrated model scores lower", p,
                  static_cast<int>(e.reps), {"ckce-comparison.csv", "ckce-comparison-raw.csv"},
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace repro

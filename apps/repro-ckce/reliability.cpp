// Fig. 1 [ms-ckce App. C.2]: m = 2, n = 1000, P(Y | X = x_i) ~ Dir(1, 1), y_i drawn from it; the
// true model, an underconfident (temperature 2) and an overconfident (temperature ½) one. Ten
// uniform bins of the confidence in class 0 ([k/10, (k+1)/10), the last closed; the paper's bins
// are closed on both ends, ckce.md §3.3): mean confidence, accuracy (frequency of y = 0) and count
// per bin, and the CKCE of each model on the same 1000 samples.
#include "dgp.hpp"
#include "experiments.hpp"
#include "runner.hpp"

#include <chrono>
#include <cmath>
#include <map>

namespace repro {

namespace {
const char* const model_names[] = {"true", "under", "over"};
}

void run_reliability(const RunContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    const std::size_t n = 1000, bins = 10;
    Experiment e;
    e.name = "ckce-reliability";
    e.id = 2;
    e.key_header = "model,quantity,bin";
    e.cells = 1;
    e.reps = 1;  // one sample, as in the paper's figure
    e.signature = "n=1000 bins=10 seed=" + std::to_string(ctx.seed);

    const auto entries = run_tasks(ctx, e, [&](std::size_t, std::size_t, calib::Rng& rng) {
        const Matrix truth = dirichlet(n, 2, 1.0, rng);
        const std::vector<int> y = draw_labels(truth, rng);
        const Matrix models[] = {truth, temperature(truth, 2), temperature(truth, 0.5)};
        std::vector<RawRow> rows;
        for (int k = 0; k < 3; ++k) {
            std::vector<double> conf(bins), acc(bins), count(bins);
            for (std::size_t i = 0; i < n; ++i) {
                const double c = models[k](static_cast<Eigen::Index>(i), 0);
                const std::size_t b = std::min(bins - 1, static_cast<std::size_t>(std::floor(c * bins)));
                conf[b] += c, acc[b] += y[i] == 0, count[b] += 1;
            }
            const std::string name = model_names[k];
            for (std::size_t b = 0; b < bins; ++b) {
                rows.push_back({name + ",count," + std::to_string(b), count[b]});
                rows.push_back({name + ",confidence," + std::to_string(b), count[b] > 0 ? conf[b] / count[b] : NAN});
                rows.push_back({name + ",accuracy," + std::to_string(b), count[b] > 0 ? acc[b] / count[b] : NAN});
            }
            const Scores s = paper_scores(calib::CategoricalData(models[k], y));
            rows.push_back({name + ",ckce,-1", s.ckce});
            rows.push_back({name + ",jkce,-1", s.jkce});
            rows.push_back({name + ",ece,-1", s.ece});
        }
        return rows;
    });

    std::map<std::string, double> v;
    for (const RawEntry& x : entries) v[x.key] = x.value;
    CsvFile out(ctx.path("ckce-reliability.csv"), "model,bin,lower,upper,count,confidence,accuracy");
    CsvFile scores(ctx.path("ckce-reliability-scores.csv"), "model,ckce,jkce,ece");
    for (const char* model : model_names) {
        const std::string m = model;
        for (std::size_t b = 0; b < bins; ++b) {
            const std::string s = "," + std::to_string(b);
            out.row({m, std::to_string(b), num(b / 10.0), num((b + 1) / 10.0), num(v.at(m + ",count" + s)),
                     num(v.at(m + ",confidence" + s)), num(v.at(m + ",accuracy" + s))});
        }
        scores.row({m, num(v.at(m + ",ckce,-1")), num(v.at(m + ",jkce,-1")), num(v.at(m + ",ece,-1"))});
    }
    out.close();
    scores.close();
    calib::JsonObject p;
    p.set("n", n).set("classes", 2).set("dirichlet_alpha", 1.0).set("temperatures", std::vector<double>{2, 0.5});
    p.set("bins", bins).set("binned", "confidence in class 0; empty bins have confidence and accuracy null");
    write_sidecar(ctx, e.name, "Fig. 1: reliability diagram data and the CKCE of three models", p, 1,
                  {"ckce-reliability.csv", "ckce-reliability-scores.csv", "ckce-reliability-raw.csv"},
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace repro

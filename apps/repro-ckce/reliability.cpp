// Fig. 1 [ms-ckce App. C.2]: m = 2, n = 1000, P(Y | X = x_i) ~ Dir(1, 1), y_i drawn from it; the
// true model, an underconfident (temperature 2) and an overconfident (temperature ½) one. Ten
// uniform bins of the confidence in class 0 ([k/10, (k+1)/10), the last closed; the paper's bins
// are closed on both ends, App. C.2): mean confidence, accuracy (frequency of y = 0) and count
// per bin, and the CKCE of each model on the same 1000 samples.
#include "dgp.hpp"
#include "experiments.hpp"

#include <cmath>
#include <map>

namespace repro {

namespace {
const char* const model_names[] = {"true", "under", "over"};
}

void run_reliability(const Output& out) {
    const std::size_t n = 1000, bins = 10;
    calib::JsonObject p;
    p.set("description", "Fig. 1: reliability diagram data and the CKCE of three models");
    p.set("n", n).set("classes", 2).set("dirichlet_alpha", 1.0).set("temperatures", std::vector<double>{2, 0.5});
    p.set("bins", bins).set("binned", "confidence in class 0; empty bins have confidence and accuracy nan");

    Table diagram({"model", "bin", "lower", "upper", "count", "confidence", "accuracy"});
    Table scores({"model", "ckce", "jkce", "ece"});
    const double wall = time_call([&] {
        const TaskGrid tasks{"ckce-reliability", 2, "model,quantity,bin", 1};
        const auto rows = run_tasks(out, tasks, p, [&](std::size_t, std::size_t, calib::Rng& rng) {
            const Matrix truth = dirichlet(n, 2, 1.0, rng);
            const std::vector<int> y = draw_labels(truth, rng);
            const Matrix models[] = {truth, temperature(truth, 2), temperature(truth, 0.5)};
            std::vector<TaskValue> values;
            for (int k = 0; k < 3; ++k) {
                std::vector<double> conf(bins), acc(bins), count(bins);
                for (std::size_t i = 0; i < n; ++i) {
                    const double c = models[k](static_cast<Eigen::Index>(i), 0);
                    const std::size_t b = std::min(bins - 1, static_cast<std::size_t>(std::floor(c * bins)));
                    conf[b] += c, acc[b] += y[i] == 0, count[b] += 1;
                }
                const std::string name = model_names[k];
                for (std::size_t b = 0; b < bins; ++b) {
                    values.push_back({name + ",count," + std::to_string(b), count[b]});
                    values.push_back({name + ",confidence," + std::to_string(b), count[b] > 0 ? conf[b] / count[b] : NAN});
                    values.push_back({name + ",accuracy," + std::to_string(b), count[b] > 0 ? acc[b] / count[b] : NAN});
                }
                const Scores s = paper_scores(calib::CategoricalData(models[k], y));
                values.push_back({name + ",ckce,-1", s.ckce});
                values.push_back({name + ",jkce,-1", s.jkce});
                values.push_back({name + ",ece,-1", s.ece});
            }
            return values;
        });
        std::map<std::string, double> v;
        for (const TaskRow& x : rows) v[x.key] = x.value;
        for (const char* model : model_names) {
            const std::string m = model;
            for (std::size_t b = 0; b < bins; ++b) {
                const std::string s = "," + std::to_string(b);
                diagram.add(m, b, fmt_exact(b / 10.0), fmt_exact((b + 1) / 10.0), fmt_exact(v.at(m + ",count" + s)),
                            fmt_exact(v.at(m + ",confidence" + s)), fmt_exact(v.at(m + ",accuracy" + s)));
            }
            scores.add(m, fmt_exact(v.at(m + ",ckce,-1")), fmt_exact(v.at(m + ",jkce,-1")),
                       fmt_exact(v.at(m + ",ece,-1")));
        }
    });
    out.write("ckce-reliability", diagram, p, wall);
    out.write("ckce-reliability-scores", scores, p, wall);
}

}  // namespace repro

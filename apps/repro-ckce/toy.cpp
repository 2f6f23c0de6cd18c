// App. A [ms-ckce Table 2]: x ∈ {0, 1} with P(X = 0) = p; the model predicts Q(Y = 1 | x) = 0.3 and
// 0.6, the truth is P(Y = 1 | x) = 0.5; discrete kernels 1{q = q'} and 1{y = y'}. Closed forms
// (App. A): CKCE = 0.1 for every p, JKCE = 0.1p² − 0.04p + 0.02, ECE_L1 = 0.2 + 0.2p (the
// printed 0.4 − 0.2p swaps the groups). For each p: the library's estimators on
// simulated samples (mean and sd over the replicates) and on the exact-frequency sample of the
// same size (n p observations at 0.3, half of each group labelled 1). The CKCE with the discrete
// kernel is computed from the exact factor of its Gram matrix (the group indicators).
#include "dgp.hpp"
#include "experiments.hpp"

#include <calib/ckce.hpp>
#include <calib/estimators.hpp>

#include <cmath>
#include <map>

namespace repro {

namespace {

// The toy's estimates for one sample: group g(i) = 0 for q = 0.3, 1 for q = 0.6.
std::vector<TaskValue> toy_estimates(const std::vector<int>& group, const std::vector<int>& y) {
    const std::size_t n = y.size();
    calib::Vector q(static_cast<Eigen::Index>(n));
    Matrix factor = Matrix::Zero(static_cast<Eigen::Index>(n), 2);
    for (std::size_t i = 0; i < n; ++i) {
        q(static_cast<Eigen::Index>(i)) = group[i] == 0 ? 0.3 : 0.6;
        factor(static_cast<Eigen::Index>(i), group[i]) = 1;
    }
    const calib::CategoricalData d = calib::CategoricalData::from_binary(q, y);
    const double lambda = calib::Regularization{}.lambda(n);
    // The discrete kernel as a Gaussian of tiny lengthscale: exp(−0.18/(2·10⁻⁶)) = 0 in doubles.
    const calib::Kernel discrete{{calib::PredictionKernelShape::sqexp, calib::Metric::euclidean, 1e-3},
                                 {calib::TargetKernelType::white, 1, {}}};
    return {{"ckce_paper_lambda", calib::ckce_low_rank(factor, d, {}, lambda, {1})},
            {"ckce_small_lambda", calib::ckce_low_rank(factor, d, {}, 1e-6, {1})},
            {"jkce_unbiased", calib::skce_unbiased(d, discrete, {1})},
            {"jkce_biased", calib::skce_biased(d, discrete, {1})},
            {"ece", calib::ece(d, calib::ckce_paper_ece_options())}};
}

double closed_form(const std::string& metric, double p) {
    if (metric == "ece") return 0.2 + 0.2 * p;
    if (metric.rfind("jkce", 0) == 0) return 0.1 * p * p - 0.04 * p + 0.02;
    return 0.1;
}

}  // namespace

void run_toy(const Output& out) {
    const bool quick = out.options().quick;
    const std::vector<double> ps = quick ? std::vector<double>{0.2, 0.5, 0.8}
                                         : std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    const std::size_t n = quick ? 2000 : 10000;
    calib::JsonObject p;
    p.set("description", "App. A: estimators against the closed forms as P(X = 0) = p varies");
    p.set("p", ps).set("n", n).set("q", std::vector<double>{0.3, 0.6}).set("p_y1_given_x", 0.5);
    p.set("ckce_paper_lambda", "discrete kernels, lambda = n^(-1/4)").set("ckce_small_lambda", "discrete kernels, lambda = 1e-6");
    p.set("jkce", "SKCE with the discrete kernel (unbiased and biased)").set("ece", "uniform 3 bins per coordinate, L1");

    Table table({"p", "metric", "closed_form", "mean", "sd", "reps", "exact_frequency"});
    const double wall = time_call([&] {
        const TaskGrid tasks{"ckce-toy", 1, "metric", ps.size()};
        const auto rows = run_tasks(out, tasks, p, [&](std::size_t cell, std::size_t, calib::Rng& rng) {
            std::vector<int> group(n), y(n);
            for (std::size_t i = 0; i < n; ++i) {
                group[i] = uniform(rng) < ps[cell] ? 0 : 1;
                y[i] = uniform(rng) < 0.5 ? 1 : 0;
            }
            return toy_estimates(group, y);
        });
        std::map<std::pair<std::size_t, std::string>, std::vector<double>> values;
        for (const TaskRow& x : rows) values[{x.cell, x.key}].push_back(x.value);
        for (std::size_t c = 0; c < ps.size(); ++c) {
            // The exact-frequency sample: round(n p) observations at 0.3; half of each group labelled 1.
            const auto n0 = static_cast<std::size_t>(std::lround(ps[c] * static_cast<double>(n)));
            std::vector<int> group(n), y(n);
            for (std::size_t i = 0; i < n; ++i) {
                group[i] = i < n0 ? 0 : 1;
                y[i] = static_cast<int>((i < n0 ? i : i - n0) % 2);
            }
            std::map<std::string, double> exact;
            for (const TaskValue& r : toy_estimates(group, y)) exact[r.key] = r.value;
            for (const char* metric : {"ckce_paper_lambda", "ckce_small_lambda", "jkce_unbiased", "jkce_biased", "ece"}) {
                const std::vector<double>& v = values.at({c, metric});
                const MeanSd s = mean_sd(v);
                table.add(fmt_exact(ps[c]), metric, fmt_exact(closed_form(metric, ps[c])), fmt_exact(s.mean),
                          fmt_exact(s.sd), v.size(), fmt_exact(exact.at(metric)));
            }
        }
    });
    out.write("ckce-toy", table, p, wall);
}

}  // namespace repro

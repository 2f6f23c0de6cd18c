// Fig. 1 of Gruber & Bach (§5.1): the empirical risk (20) of h_sim(θ) against θ.
#include "simulation.hpp"

#include <cmath>
#include <vector>

namespace gruber_bach {

namespace {

// The code's grid 2^{−5}, 2^{−4.95}, …, 2^{4.95}: 200 values, index 100 is θ = 1 exactly.
constexpr int grid_size = 200, theta_one = 100;
double theta(int k) { return std::exp2(0.05 * (k - theta_one)); }

}  // namespace

void run_risk(const repro::Output& out) {
    const repro::Options& o = out.options();
    calib::JsonObject parameters;
    parameters.set("n", static_cast<double>(sample_size)).set("classes", classes).set("dirichlet_alpha", dirichlet_alpha)
        .set("temperature", temperature).set("theta_grid", "2^(-5 + 0.05 k), k = 0..199")
        .set("h_sim", "exponent theta / 0.3 on f (section 5.1)");
    if (out.done("risk", parameters)) return;
    std::vector<std::vector<double>> risk(o.reps);  // [replicate][θ index]
    repro::Progress progress(o, "gruber-bach risk", o.reps);
    const double wall = repro::time_call([&] {
        repro::distribute(
            o.reps, o, &progress,
            [&](std::size_t r, repro::Packet& result) {
                calib::Rng rng = repro::cell_stream(o, 0, r);
                const Sample s = draw(sample_size, rng);
                const calib::Matrix f = s.data.probabilities();
                const calib::Matrix residuals = calib::ce_problems(s.data, calib::CeNotion::canonical)[0].residuals;
                std::vector<double> at;
                for (int k = 0; k < grid_size; ++k)
                    at.push_back(calib::ce_risk_low_rank(residuals, calib::power_ce_factor(f, theta(k) / temperature)));
                result.put(at);
            },
            [&](std::size_t r, repro::Packet& result) { risk[r] = result.get_doubles(); });
    });
    if (!out.writer()) return;  // the risks are on rank 0
    // Per θ: the risk's mean and sd over replicates, and the paired difference R(θ) − R(1) within
    // replicates (its mean, sd and the share of replicates where θ = 1 is better).
    repro::Table table({"theta", "risk_mean", "risk_sd", "diff_mean", "diff_sd", "share_theta1_lower"});
    for (int k = 0; k < grid_size; ++k) {
        std::vector<double> at, diff;
        double lower = 0;
        for (const auto& rep : risk) {
            at.push_back(rep[k]);
            diff.push_back(rep[k] - rep[theta_one]);
            lower += rep[theta_one] < rep[k];
        }
        table.add(theta(k), repro::mean(at), std::sqrt(repro::variance(at)), repro::mean(diff),
                  std::sqrt(repro::variance(diff)), lower / double(o.reps));
    }
    repro::Table argmin({"replicate", "argmin_theta", "risk_min", "risk_theta1"});
    for (std::size_t r = 0; r < o.reps; ++r) {
        int best = 0;
        for (int k = 1; k < grid_size; ++k)
            if (risk[r][k] < risk[r][best]) best = k;
        argmin.add(r, theta(best), risk[r][best], risk[r][theta_one]);
    }
    out.write("risk_argmin", argmin, parameters, wall);
    out.write("risk", table, parameters, wall);
}

}  // namespace gruber_bach

// repro-gruber-bach: the simulation of Gruber & Bach, "Optimizing estimators of squared calibration
// errors in classification" (TMLR 2025), §5.1 / Fig. 1, and a comparison of
// the squared-CE estimators against the ground truth on the same data, with their runtimes.
#include "simulation.hpp"

namespace {

const repro::AppInfo info{
    "repro-gruber-bach",
    "The simulation of Gruber & Bach (TMLR 2025, section 5.1): the risk of h_sim(theta), and the estimators.",
    "Gruber & Bach section 5.1 / Fig. 1: n = 500, 5 classes, P ~ Dir(0.04), f = softmax(0.3 log P)",
    100,
    4,
    2025,
    "Outputs: risk.csv (per theta: the risk (20) of h_sim, mean and sd over replicates, and the\n"
    "paired difference to theta = 1), risk_argmin.csv (per replicate), truth.csv (population CCE2^2\n"
    "and TCE2^2), estimates.csv (per replicate and estimator), estimates_summary.csv (bias, sd, RMSE)\n"
    "and runtime_times.csv (seconds per estimator, n = 10 000; KRR at n = 3 000; --quick: 500).\n"};

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& options) {
        const repro::Output out(options, info);
        gruber_bach::run_risk(out);
        gruber_bach::run_estimates(out);
        gruber_bach::run_runtime(out);
    });
}

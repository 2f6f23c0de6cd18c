// repro-marx: a synthetic demo for Marx, Zalouk & Ermon (NeurIPS 2023) (marx.hpp).
#include "marx.hpp"

#include <cmath>

namespace marx {

Moments moments(const std::vector<double>& values) {
    return {repro::mean(values), std::sqrt(repro::variance(values) / double(values.size()))};
}

double rejection_rate(const std::vector<double>& p_values) {
    double rejected = 0;
    for (const double p : p_values) rejected += p < level;
    return p_values.empty() ? 0 : rejected / double(p_values.size());
}

}  // namespace marx

namespace {

const repro::AppInfo info{
    "repro-marx",
    "A synthetic demo of Marx, Zalouk & Ermon (NeurIPS 2023): recalibration by NLL + lambda MMD^2 (not a reproduction).",
    "Marx, Zalouk & Ermon 2023: synthetic demo (the paper's tables are on real data; not reproduced)",
    50,
    3,
    2023,
    "Outputs: regression.csv (per replicate and method: held-out NLL, QCE, DCE, individual MMD^2 with\n"
    "RBF and sign targets, the MMD bootstrap test's p-value, the map's a, b, s0, s1), regression_base.csv\n"
    "(the cubic forecaster, c, the kernel's lengthscales), regression_summary.csv (mean and s.e.),\n"
    "regression_curves.csv (replicate 0's conditional mean and sd), classification.csv (per replicate and\n"
    "method: NLL, ECE, accuracy, entropy, SKCE and its bootstrap p-value, MMD^2, T), classification_summary.csv,\n"
    "classification_kernels.csv, and *_times.csv (seconds per fit and evaluation).\n"};

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& options) {
        const repro::Output out(options, info);
        marx::run_regression(out);
        marx::run_classification(out);
    });
}

// repro-marx: a synthetic demo of Marx, Zalouk & Ermon (NeurIPS 2023), "Calibration by distribution
// matching: trainable kernel calibration metrics", of calib's own design. Not a
// reproduction of the paper's tables, which are all on real data sets and neural networks: the demo
// fits small recalibration maps by NLL and by NLL + λ·MMD² and reports the paper's metrics on a held-out
// split (docs/reproduction.md, section "Marx, Zalouk & Ermon (2023): a synthetic demo").
//   regression      parts 1 and 3: heteroscedastic sin data, a cubic least-squares forecaster with a
//                   constant σ, affine(-features) maps; the MMD with an RBF target (part 1) and with
//                   the sign kernel of a threshold decision (part 3)
//   classification  part 2: an overconfident softmax model with a class-prior shift, temperature and
//                   temperature + bias scaling, SKCE test before and after
#pragma once

#include "../harness/harness.hpp"

#include <calib/metrics.hpp>
#include <calib/mmd.hpp>
#include <calib/recalibration.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace marx {

// The tests' bootstrap replicates (calib's default) and their level for the rejection rates.
constexpr std::size_t bootstrap_replicates = 1000;
constexpr double level = 0.05;

void run_regression(const repro::Output& out);
void run_classification(const repro::Output& out);

// For the summary tables of both parts: the mean and standard error (sd/√R) of R values, and the
// share of p-values below `level`.
struct Moments {
    double mean = 0, se = 0;
};
Moments moments(const std::vector<double>& values);
double rejection_rate(const std::vector<double>& p_values);

}  // namespace marx

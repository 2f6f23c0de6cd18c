// The four experiments of repro-ckce, each writing its CSV files (with their sidecars) through the
// harness's Output, whose options carry the experiment's replicates:
//   toy          App. A: CKCE, JKCE and ECE against their closed forms as P(X) varies
//   reliability  Fig. 1: reliability diagram data and the CKCE of three binary models
//   comparison   Fig. 2 (§5.1.1): how often the calibrated model scores lower than the
//                miscalibrated one, with Wilson intervals, against n
//   shift        Fig. 4(a) (§5.2.1): the three estimates under covariate shift
// A common model evaluation: the paper's CKCE, JKCE and ECE configurations (per-model median γ).
#pragma once

#include "../harness/harness.hpp"

#include <calib/data.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace repro {

void run_toy(const Output& out);
void run_reliability(const Output& out);
void run_comparison(const Output& out);
void run_shift(const Output& out);

// CKCE (exact, λ = n^{−1/4}), JKCE (unbiased SKCE, same simplex kernel) and ECE (3 bins per
// coordinate, L1), with γ the median of the model's own prediction distances [ms-ckce §5].
struct Scores {
    double ckce = 0, jkce = 0, ece = 0, bandwidth = 0;
};
Scores paper_scores(const calib::CategoricalData& data);

// Mean and standard deviation (divisor n − 1; 0 for one value) over the replicates, summed in
// double in replicate order: the published results (docs/reproduction.md) were computed so, and
// repro::mean and repro::variance, which sum in long double, differ from them in the last bits.
struct MeanSd {
    double mean = 0, sd = 0;
};
inline MeanSd mean_sd(const std::vector<double>& v) {
    MeanSd s;
    double ss = 0;
    for (const double x : v) s.mean += x / static_cast<double>(v.size());
    for (const double x : v) ss += (x - s.mean) * (x - s.mean);
    s.sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0;
    return s;
}

}  // namespace repro

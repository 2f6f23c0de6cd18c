// The four experiments of repro-ckce, each writing its CSV files and JSON sidecar into ctx.out:
//   toy          App. A: CKCE, JKCE and ECE against their closed forms as P(X) varies
//   reliability  Fig. 1: reliability diagram data and the CKCE of three binary models
//   comparison   Fig. 2 (§5.1.1): how often the calibrated model scores lower than the
//                miscalibrated one, with Wilson intervals, against n
//   shift        Fig. 4(a) (§5.2.1): the three estimates under covariate shift
// A common model evaluation: the paper's CKCE, JKCE and ECE configurations (per-model median γ).
#pragma once

#include "report.hpp"

#include <calib/data.hpp>

#include <string>
#include <vector>

namespace repro {

void run_toy(const RunContext& ctx);
void run_reliability(const RunContext& ctx);
void run_comparison(const RunContext& ctx);
void run_shift(const RunContext& ctx);

// CKCE (exact, λ = n^{−1/4}), JKCE (unbiased SKCE, same simplex kernel) and ECE (3 bins per
// coordinate, L1), with γ the median of the model's own prediction distances [ms-ckce §5].
struct Scores {
    double ckce = 0, jkce = 0, ece = 0, bandwidth = 0;
};
Scores paper_scores(const calib::CategoricalData& data);

}  // namespace repro

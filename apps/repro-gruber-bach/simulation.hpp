// The data of Gruber & Bach §5.1 and the three experiments of repro-gruber-bach, each
// writing its CSV files (with sidecars) through the harness's Output:
//   risk       Fig. 1: the risk (20) of h_sim(θ) on the θ grid, mean ± sd, paired against θ = 1
//   estimates  the squared-CE estimators against the population CCE₂² and TCE₂²
//   runtime    the wall time of each estimator on one large data set
#pragma once

#include "../harness/harness.hpp"

#include <calib/squared_ce.hpp>

#include <cstddef>

namespace gruber_bach {

constexpr int classes = 5;
constexpr std::size_t sample_size = 500;
constexpr double dirichlet_alpha = 0.04, temperature = 0.3;

// True probabilities P ~ Dir(0.04·1), labels Y ~ Cat(P), and the model f = softmax(0.3 log P).
struct Sample {
    calib::Matrix truth;        // P
    calib::CategoricalData data;  // f and Y
};
// Row by row: 5 pairs (Gamma(α + 1), uniform) draws, then the label's uniform draw. log G =
// log G_{α+1} + log U / α (calib's choice): with α = 0.04 most Gamma(α) draws underflow to 0 in
// double, but their logarithms do not, and f is computed from them, so it has no spurious zeros.
Sample draw(std::size_t n, calib::Rng& rng);

void run_risk(const repro::Output& out);
void run_estimates(const repro::Output& out);
void run_runtime(const repro::Output& out);

// The estimators of the comparison: (notion, name); "bins-15" is the plug-in (10) with 15 equal-width
// bins on the whole sample, the others the CV pipeline (§5) with default grids.
struct EstimatorCase {
    calib::CeNotion notion;
    const char* name;
};
// The pipeline's estimate, or the plug-in for "bins-15"; `chosen` receives the chosen grid value.
double estimate(const calib::CategoricalData& data, const EstimatorCase& c, std::uint64_t seed, double& chosen);

}  // namespace gruber_bach

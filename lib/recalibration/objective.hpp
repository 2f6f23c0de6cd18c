// Internal: the recalibration objectives and their analytic gradients in the optimiser's coordinates
// θ, which are a map's parameters except that the temperature enters as log T (so that any real θ is
// a valid map and L-BFGS needs no bounds). docs/recalibration.md derives the gradients.
#pragma once

#include <calib/mmd.hpp>
#include <calib/recalibration.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// A categorical problem: the inputs z as columns (m×n, one observation per column, so that a row's
// values are contiguous) and the labels.
struct CategoricalProblem {
    RecalibrationMethod method = RecalibrationMethod::temperature;
    double ridge = 0;
    double intercept_ridge = 0;  // dirichlet's μ
    Matrix z;
    std::vector<int> labels;
    // + lambda · MMD² (block estimate, blocks of mmd_block_size) when lambda > 0.
    double lambda = 0;
    MmdNotion notion = MmdNotion::canonical;
    double mmd_lengthscale = 1;
    std::size_t mmd_block_size = 0;
};

// Scores of n ≥ 1 rows and m ≥ 2 columns with n labels in [0, m); throws invalid_argument naming the
// function and the first row that breaks it.
void check_labelled_scores(const char* function, const CategoricalScores& data);

// z of each observation: the logits, or log max(p, floor); transposed. Throws for labels out of range
// or non-finite scores.
Matrix input_columns(const Matrix& scores, bool logits, double floor);

// What makes a map's parameters unusable, or "" when they are usable: a non-finite value, a
// temperature ≤ 0 or with 1/T not finite, a scale s (s0) with exp(s) not finite and > 0. The rule of
// the map files (read) and of the fits (a fit that ends outside it diverged).
std::string map_parameter_problem(const RecalibrationMap& map);

// Parameters ↔ coordinates (log T for T).
Vector to_coordinates(RecalibrationMethod method, const Vector& parameters);
Vector to_parameters(RecalibrationMethod method, const Vector& theta);

// The mapped logits l = f_θ(z) of every column of z.
Matrix mapped_logits(RecalibrationMethod method, const Vector& theta, const Matrix& z);

// The recalibrated probabilities, n×m (softmax of mapped_logits, transposed).
Matrix mapped_probabilities(RecalibrationMethod method, const Vector& theta, const Matrix& z);

// Mean NLL (+ lambda · MMD²) (+ ridge) at θ; the gradient is written when `gradient` is not null.
double categorical_objective(const CategoricalProblem& problem, const Vector& theta, Vector* gradient);
// + lambda · MMD² of the recalibrated forecasts N(μ′, σ′²): the Gaussian conditional MMD's block
// estimate with blocks of block_size and a spec whose lengthscales are fixed (objective nll+mmd).
struct NormalMmdPenalty {
    double lambda = 0;
    GaussianMmdSpec spec;
    std::size_t block_size = 0;
};

// θ = (a, b, s) or, with the column abs_x = |x| (affine-features), (a, b, s0, s1): log σ′ = log σ + s0 + s1|x|.
// Mean NLL, + lambda · MMD² when `mmd` is given, by the chain rule through μ′ = aμ + b and log σ′.
double normal_objective(const NormalData& data, const Vector& theta, Vector* gradient, const Vector& abs_x = Vector(),
                        const NormalMmdPenalty* mmd = nullptr);

}  // namespace calib::detail

// A small fully connected ReLU network trained with full-batch Adam on the mean squared error,
// written on Eigen for the Friedman 1 experiment (no ML framework). Conventions of Flux.jl, which the
// authors used: Dense layers y = W x + b, weights drawn from the uniform Glorot distribution
// U(±√(6/(fan_in + fan_out))), biases 0; Adam with η = 0.001, β = (0.9, 0.999), ε = 1e-8.
#pragma once

#include <calib/tool/random.hpp>

#include <Eigen/Core>

#include <vector>

namespace friedman {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using RowVector = Eigen::RowVectorXd;

class Network {
public:
    // Layer widths, e.g. {10, 200, 50, 1}; weights from rng.
    Network(const std::vector<int>& widths, calib::Rng& rng);

    // Outputs for the columns of x (features × samples); the last layer is linear, the others ReLU.
    RowVector predict(const Matrix& x) const;

    // One Adam step on the mean squared error of the outputs for x against y; returns the loss
    // before the step.
    double adam_step(const Matrix& x, const RowVector& y);

private:
    struct Adam {
        Matrix m, v;
    };
    std::vector<Matrix> weights_, weight_grads_;
    std::vector<Matrix> biases_, bias_grads_;  // out × 1
    std::vector<Adam> weight_moments_;
    std::vector<Adam> bias_moments_;
    long step_ = 0;
};

}  // namespace friedman

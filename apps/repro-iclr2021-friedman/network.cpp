// The network and Adam of network.hpp.
#include "network.hpp"

#include <boost/random/uniform_real_distribution.hpp>

#include <cmath>
#include <stdexcept>

namespace friedman {

namespace {

constexpr double learning_rate = 0.001, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;

// m ← β₁m + (1 − β₁)g, v ← β₂v + (1 − β₂)g², w ← w − η m̂ / (√v̂ + ε) with bias-corrected m̂, v̂.
template <class Parameter, class Gradient, class Moment>
void adam_update(Parameter& w, const Gradient& g, Moment& m, Moment& v, long t) {
    m = beta1 * m + (1 - beta1) * g;
    v = beta2 * v + (1 - beta2) * g.cwiseProduct(g);
    const double c1 = 1 - std::pow(beta1, double(t)), c2 = 1 - std::pow(beta2, double(t));
    w.array() -= learning_rate * (m.array() / c1) / ((v.array() / c2).sqrt() + epsilon);
}

}  // namespace

Network::Network(const std::vector<int>& widths, calib::Rng& rng) {
    if (widths.size() < 2) throw std::invalid_argument("Network: needs at least an input and an output width");
    for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
        const int in = widths[l], out = widths[l + 1];
        const double a = std::sqrt(6.0 / double(in + out));
        boost::random::uniform_real_distribution<double> glorot(-a, a);
        Matrix w(out, in);
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            for (Eigen::Index i = 0; i < w.rows(); ++i) w(i, j) = glorot(rng);
        weights_.push_back(w);
        biases_.push_back(Matrix::Zero(out, 1));
        weight_moments_.push_back({Matrix::Zero(out, in), Matrix::Zero(out, in)});
        bias_moments_.push_back({Matrix::Zero(out, 1), Matrix::Zero(out, 1)});
    }
    weight_grads_.resize(weights_.size());
    bias_grads_.resize(biases_.size());
}

RowVector Network::predict(const Matrix& x) const {
    Matrix a = x;
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        Matrix z = weights_[l] * a;
        z.colwise() += biases_[l].col(0);
        a = l + 1 < weights_.size() ? Matrix(z.cwiseMax(0.0)) : z;
    }
    return a.row(0);
}

double Network::adam_step(const Matrix& x, const RowVector& y) {
    const std::size_t layers = weights_.size();
    // Forward pass, keeping the pre-activations z_l and activations a_l (a_0 = x).
    std::vector<Matrix> z(layers), a(layers + 1);
    a[0] = x;
    for (std::size_t l = 0; l < layers; ++l) {
        z[l] = weights_[l] * a[l];
        z[l].colwise() += biases_[l].col(0);
        a[l + 1] = l + 1 < layers ? Matrix(z[l].cwiseMax(0.0)) : z[l];
    }
    const double n = double(x.cols());
    const RowVector residual = a[layers].row(0) - y;
    const double loss = residual.squaredNorm() / n;

    // Backward pass: δ_L = 2(ŷ − y)/n, δ_l = (W_{l+1}ᵀ δ_{l+1}) ⊙ 1{z_l > 0}.
    Matrix delta = (2.0 / n) * residual;
    for (std::size_t l = layers; l-- > 0;) {
        weight_grads_[l] = delta * a[l].transpose();
        bias_grads_[l] = delta.rowwise().sum();
        if (l > 0) delta = (weights_[l].transpose() * delta).cwiseProduct((z[l - 1].array() > 0).cast<double>().matrix());
    }
    ++step_;
    for (std::size_t l = 0; l < layers; ++l) {
        adam_update(weights_[l], weight_grads_[l], weight_moments_[l].m, weight_moments_[l].v, step_);
        adam_update(biases_[l], bias_grads_[l], bias_moments_[l].m, bias_moments_[l].v, step_);
    }
    return loss;
}

}  // namespace friedman

// An independent reference for the SKCE core h, written from its definition [widmann-2021 §3]
//   h((p,y),(p',y')) = k_P(p,p') · [k_Y(y,y') − E_{Z∼p} k_Y(Z,y') − E_{Z'∼p'} k_Y(y,Z')
//                                    + E_{Z∼p,Z'∼p'} k_Y(Z,Z')]
// with every expectation spelt out (finite sums over classes; Gaussian integrals in closed form),
// sharing no code with the library's pair terms (lib/kernels/family.hpp, terms.hpp, target_terms.hpp), so that
// the engine can be checked against it rather than against itself.
#pragma once

#include <calib/data.hpp>
#include <calib/kernels.hpp>

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace calib::test {

// k_P from a distance, by the shape's definition.
inline double naive_prediction_kernel(const PredictionKernel& k, double distance) {
    return k.shape == calib::PredictionKernelShape::exp ? std::exp(-distance / k.lengthscale)
                                                        : std::exp(-distance * distance / (2 * k.lengthscale * k.lengthscale));
}

// Categorical data: E_{Z∼p} K(Z, y') = Σ_c p_c K(c, y'), E K(Z, Z') = Σ_{c,d} p_c p'_d K(c, d), with
// K the identity (white) or the kernel's class Gram matrix.
inline double naive_h(const calib::CategoricalData& data, const calib::Kernel& kernel, std::size_t i, std::size_t j) {
    const auto& p = data.probabilities();
    const auto a = static_cast<Eigen::Index>(i), b = static_cast<Eigen::Index>(j);
    const Eigen::Index m = p.cols();
    const auto K = [&](Eigen::Index c, Eigen::Index d) {
        return kernel.target.type == calib::TargetKernelType::white ? double(c == d) : kernel.target.gram(c, d);
    };
    double distance = 0;
    for (Eigen::Index c = 0; c < m; ++c) distance += std::abs(p(a, c) - p(b, c));
    if (kernel.prediction.metric == calib::Metric::tv) distance /= 2;
    if (kernel.prediction.metric == calib::Metric::euclidean) distance = (p.row(a) - p.row(b)).norm();
    const int y = data.labels()[i], yp = data.labels()[j];
    double first = 0, second = 0, both = 0;
    for (Eigen::Index c = 0; c < m; ++c) {
        first += p(a, c) * K(c, yp);
        second += p(b, c) * K(y, c);
        for (Eigen::Index d = 0; d < m; ++d) both += p(a, c) * p(b, d) * K(c, d);
    }
    return naive_prediction_kernel(kernel.prediction, distance) * (K(y, yp) - first - second + both);
}

// Normal predictions N(μ, σ²) with the target kernel exp(−(y − y')²/(2ℓ²)): for Z ∼ N(μ, σ²),
// E exp(−(Z − y)²/(2ℓ²)) = ℓ/√(ℓ² + σ²) · exp(−(y − μ)²/(2(ℓ² + σ²))), and for independent Z, Z' the
// same with σ² + σ'² and μ − μ'. W2 = √((μ − μ')² + (σ − σ')²).
inline double naive_h(const calib::NormalData& data, const calib::Kernel& kernel, std::size_t i, std::size_t j) {
    if (kernel.target.type != calib::TargetKernelType::sqexp) throw std::logic_error("naive_h: sqexp targets only");
    const auto a = static_cast<Eigen::Index>(i), b = static_cast<Eigen::Index>(j);
    const double mu = data.mean()(a), s = data.stddev()(a), y = data.targets()(a);
    const double mu2 = data.mean()(b), s2 = data.stddev()(b), y2 = data.targets()(b);
    const double l2 = kernel.target.lengthscale * kernel.target.lengthscale;
    const auto smoothed = [&](double difference, double variance) {
        return std::sqrt(l2 / (l2 + variance)) * std::exp(-difference * difference / (2 * (l2 + variance)));
    };
    const double w2 = std::sqrt((mu - mu2) * (mu - mu2) + (s - s2) * (s - s2));
    return naive_prediction_kernel(kernel.prediction, w2) *
           (smoothed(y - y2, 0) - smoothed(y2 - mu, s * s) - smoothed(y - mu2, s2 * s2) + smoothed(mu - mu2, s * s + s2 * s2));
}

}  // namespace calib::test

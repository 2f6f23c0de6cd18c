// Pair terms built from a prediction kernel and a target term (family.hpp binds them to data):
//   TensorTerm       h(i, j) = k_P(p_i, p_j) · h_Y(i, j)
//   CategoricalTerm  the same for class predictions, fused into one pass over the classes
//   CrossTerm        Z(i, j) = k_P(p_i, q_j) · w(i, t_j) at test locations (q_j, t_j)
#pragma once

#include "engine/term.hpp"
#include "kernels/prediction_kernels.hpp"
#include "kernels/target_terms.hpp"

#include <calib/data.hpp>

#include <cstddef>
#include <utility>

namespace calib::detail {

// h(i, j) = k_P(p_i, p_j) · h_Y(i, j).
template <class PredictionKernelT, class Target>
class TensorTerm {
public:
    TensorTerm(std::size_t n, PredictionKernelT kp, Target target)
        : n_(n), kp_(std::move(kp)), target_(std::move(target)) {}
    std::size_t size() const { return n_; }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        alignas(64) double k[chunk_width];
        kp_.values(i, j0, j1, k);
        target_.pair(i, j0, j1, out);
        for (std::size_t j = 0; j < j1 - j0; ++j) out[j] *= k[j];
    }

private:
    std::size_t n_;
    PredictionKernelT kp_;
    Target target_;
};

// h(i, j) = k_P(p_i, p_j) · r_iᵀ K r_j for categorical predictions (the TensorTerm of
// EmbeddedPredictionKernel and ClassTarget), fused: the distance and the target product are
// accumulated in one pass over the classes, 16 columns at a time in registers, and k_P is applied
// before the block leaves L1. This is the pair loop of the default kernel; fused, it takes 15%
// less time than the two passes of TensorTerm (docs/performance.md).
class CategoricalTerm {
public:
    CategoricalTerm(EmbeddedPredictionKernel kp, ClassTarget target)
        : kp_(std::move(kp)), target_(std::move(target)) {}
    std::size_t size() const { return static_cast<std::size_t>(kp_.features().rows()); }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        // `using std::abs`: std::abs for the scalar tail, Eigen's abs (by ADL) for the blocks.
        if (kp_.l1())
            fused(i, j0, j1 - j0, out, [](const auto& u) { using std::abs; return abs(u); });
        else
            fused(i, j0, j1 - j0, out, [](const auto& u) { return u * u; });
    }

private:
    static constexpr std::size_t block = 16;

    // Eigen's fixed-size arrays keep the block in vector registers whatever the compiler's
    // auto-vectoriser decides.
    using Block = Eigen::Array<double, block, 1>;

    template <class F>
    void fused(std::size_t i, std::size_t j0, std::size_t len, double* out, F f) const {
        const Matrix& p = kp_.features();
        const Matrix& left = target_.residuals();
        const Matrix& right = target_.weighted();
        const auto r = static_cast<Eigen::Index>(i);
        std::size_t j = 0;
        for (; j + block <= len; j += block) {
            alignas(64) Block dist = Block::Zero(), prod = Block::Zero();
            for (Eigen::Index k = 0; k < p.cols(); ++k) {
                dist += f(Eigen::Map<const Block>(p.col(k).data() + j0 + j) - p(r, k));
                prod += left(r, k) * Eigen::Map<const Block>(right.col(k).data() + j0 + j);
            }
            kp_.values_from_sums(dist.data(), block);
            Eigen::Map<Block>(out + j) = dist * prod;
        }
        for (; j < len; ++j) {
            const auto c = static_cast<Eigen::Index>(j0 + j);
            double dist = 0, prod = 0;
            for (Eigen::Index k = 0; k < p.cols(); ++k) {
                dist += f(p(c, k) - p(r, k));
                prod += left(r, k) * right(c, k);
            }
            kp_.values_from_sums(&dist, 1);
            out[j] = dist * prod;
        }
    }

    EmbeddedPredictionKernel kp_;
    ClassTarget target_;
};

// Z(i, j) = k_P(p_i, q_j) · w(i, t_j) for test locations (q_j, t_j).
template <class PredictionKernelT, class Target, class LocationTargets>
class CrossTerm {
public:
    CrossTerm(PredictionKernelT kp, Target target, LocationTargets locations)
        : kp_(std::move(kp)), target_(std::move(target)), locations_(std::move(locations)) {}
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        alignas(64) double k[chunk_width];
        kp_.values(i, j0, j1, k);
        target_.witness(i, locations_, j0, j1, out);
        for (std::size_t j = 0; j < j1 - j0; ++j) out[j] *= k[j];
    }

private:
    PredictionKernelT kp_;
    Target target_;
    LocationTargets locations_;
};

}  // namespace calib::detail

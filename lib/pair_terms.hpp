// Binds a data set and a kernel to the pair term the engine evaluates: the family and the kernel
// are dispatched once here, into a concrete type whose row() is a tight loop over j.
//   with_pair_term(data, kernel, f)             f(term), term.row → h(i, j)               (SKCE)
//   with_cross_term(data, locations, kernel, f) f(term), term.row → k_P(p_i,q_j)·w(i, t_j) (UCME)
//   with_prediction_kernel(data, metric, f)     f(pk),   pk.distances → d(p_i, p_j)
//   with_prediction_kernel(data, kp, f)         f(pk),   pk.values → k_P(p_i, p_j) for the kernel kp
// The kernel must have been validated (validate_kernel) first.
#pragma once

#include "pairwise.hpp"
#include "prediction_kernels.hpp"
#include "target_terms.hpp"

#include <calib/data.hpp>
#include <calib/kernels.hpp>

#include <cmath>
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

// γ of the target kernel: exp(−γ‖·‖²) with γ = 1/(2ℓ²), or exp(−γ|·|) with γ = 1/ℓ.
inline double target_gamma(const TargetKernel& k) {
    return k.type == TargetKernelType::sqexp ? 0.5 / (k.lengthscale * k.lengthscale) : 1 / k.lengthscale;
}

// Embeddings whose Euclidean distance is W2 [widmann-2021 App. D]: (μ, σ) for normals with
// commuting covariances, (μ, √2 β) for Laplace.
inline Matrix w2_embedding(const NormalData& d) {
    Matrix e(d.size(), 2);
    e << d.mean(), d.stddev();
    return e;
}
inline Matrix w2_embedding(const LaplaceData& d) {
    Matrix e(d.size(), 2);
    e << d.mean(), std::sqrt(2.0) * d.scale();
    return e;
}
inline Matrix w2_embedding(const MvNormalData& d) {
    Matrix e(d.size(), 2 * d.dimension());
    e << d.mean(), d.stddev();
    return e;
}

inline EmbeddedPredictionKernel categorical_prediction_kernel(const Matrix& rows, Matrix cols,
                                                              Metric metric, const PredictionKernel& k) {
    return EmbeddedPredictionKernel(rows, std::move(cols), metric != Metric::euclidean,
                                    metric == Metric::tv ? 0.5 : 1.0, k);
}

template <class Data>
EmbeddedPredictionKernel w2_prediction_kernel(const Data& rows, const Data& cols, const PredictionKernel& k) {
    return EmbeddedPredictionKernel(w2_embedding(rows), w2_embedding(cols), false, 1.0, k);
}
template <class Data>
EmbeddedPredictionKernel w2_prediction_kernel(const Data& data, const PredictionKernel& k) {
    return EmbeddedPredictionKernel(w2_embedding(data), Matrix(), false, 1.0, k);
}

inline Matrix as_matrix(const Vector& v) { return v; }

// ---- SKCE pair terms --------------------------------------------------------------------------

template <class F>
decltype(auto) with_pair_term(const CategoricalData& d, const Kernel& k, F&& f) {
    const CategoricalTerm term(
        categorical_prediction_kernel(d.probabilities(), Matrix(), k.prediction.metric, k.prediction),
        ClassTarget(d, k.target));
    return f(term);
}

template <class F>
decltype(auto) with_pair_term(const NormalData& d, const Kernel& k, F&& f) {
    const TensorTerm term(d.size(), w2_prediction_kernel(d, k.prediction),
                          GaussianDiagonalTarget(as_matrix(d.mean()), as_matrix(d.stddev()),
                                                 as_matrix(d.targets()), target_gamma(k.target)));
    return f(term);
}

template <class F>
decltype(auto) with_pair_term(const LaplaceData& d, const Kernel& k, F&& f) {
    const TensorTerm term(d.size(), w2_prediction_kernel(d, k.prediction),
                          LaplaceTarget(d, target_gamma(k.target)));
    return f(term);
}

template <class F>
decltype(auto) with_pair_term(const MvNormalData& d, const Kernel& k, F&& f) {
    if (d.is_diagonal()) {
        const TensorTerm term(d.size(), w2_prediction_kernel(d, k.prediction),
                              GaussianDiagonalTarget(d.mean(), d.stddev(), d.targets(), target_gamma(k.target)));
        return f(term);
    }
    const TensorTerm term(d.size(), BuresPredictionKernel(d, d, k.prediction),
                          GaussianFullTarget(d, target_gamma(k.target)));
    return f(term);
}

template <class F>
decltype(auto) with_pair_term(const MixtureNormalData& d, const Kernel& k, F&& f) {
    const TensorTerm term(d.size(), MixtureW2PredictionKernel(d, d, k.prediction),
                          MixtureNormalTarget(d, target_gamma(k.target)));
    return f(term);
}

// ---- UCME cross terms -------------------------------------------------------------------------

template <class F>
decltype(auto) with_cross_term(const CategoricalData& d, const CategoricalData& t, const Kernel& k, F&& f) {
    const CrossTerm term(categorical_prediction_kernel(d.probabilities(), t.probabilities(),
                                                       k.prediction.metric, k.prediction),
                         ClassTarget(d, k.target), t.labels());
    return f(term);
}

template <class F>
decltype(auto) with_cross_term(const NormalData& d, const NormalData& t, const Kernel& k, F&& f) {
    const CrossTerm term(w2_prediction_kernel(d, t, k.prediction),
                         GaussianDiagonalTarget(as_matrix(d.mean()), as_matrix(d.stddev()),
                                                as_matrix(d.targets()), target_gamma(k.target)),
                         as_matrix(t.targets()));
    return f(term);
}

template <class F>
decltype(auto) with_cross_term(const LaplaceData& d, const LaplaceData& t, const Kernel& k, F&& f) {
    const CrossTerm term(w2_prediction_kernel(d, t, k.prediction), LaplaceTarget(d, target_gamma(k.target)),
                         t.targets());
    return f(term);
}

template <class F>
decltype(auto) with_cross_term(const MvNormalData& d, const MvNormalData& t, const Kernel& k, F&& f) {
    if (d.is_diagonal()) {
        const CrossTerm term(w2_prediction_kernel(d, t, k.prediction),
                             GaussianDiagonalTarget(d.mean(), d.stddev(), d.targets(), target_gamma(k.target)),
                             t.targets());
        return f(term);
    }
    const CrossTerm term(BuresPredictionKernel(d, t, k.prediction), GaussianFullTarget(d, target_gamma(k.target)),
                         t.targets());
    return f(term);
}

template <class F>
decltype(auto) with_cross_term(const MixtureNormalData& d, const MixtureNormalData& t, const Kernel& k, F&& f) {
    const CrossTerm term(MixtureW2PredictionKernel(d, t, k.prediction), MixtureNormalTarget(d, target_gamma(k.target)),
                         t.targets());
    return f(term);
}

// ---- prediction kernels and distances ---------------------------------------------------------

template <class F>
decltype(auto) with_prediction_kernel(const CategoricalData& d, const PredictionKernel& k, F&& f) {
    return f(categorical_prediction_kernel(d.probabilities(), Matrix(), k.metric, k));
}

template <class F>
decltype(auto) with_prediction_kernel(const MixtureNormalData& d, const PredictionKernel& k, F&& f) {
    return f(MixtureW2PredictionKernel(d, d, k));
}

template <class Data, class F>
decltype(auto) with_prediction_kernel(const Data& d, const PredictionKernel& k, F&& f) {
    if constexpr (std::is_same_v<Data, MvNormalData>)
        if (!d.is_diagonal()) return f(BuresPredictionKernel(d, d, k));
    return f(w2_prediction_kernel(d, k));
}

// The kernel's distances() are the metric's; its values() are those of exp(−d) (ℓ = 1).
template <class Data, class F>
decltype(auto) with_prediction_kernel(const Data& d, Metric metric, F&& f) {
    return with_prediction_kernel(d, PredictionKernel{PredictionKernelShape::exp, metric, 1.0}, std::forward<F>(f));
}

}  // namespace calib::detail

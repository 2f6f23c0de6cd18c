// How each data family computes h, in one place per family: which prediction kernel and target term
// it uses. Family<Data> extends the family's traits (family_traits.hpp: name, supported kernels,
// checks) with:
//   with_prediction_kernel(rows, cols, kernel, f)   f(kp): k_P between rows and cols (cols null: rows)
//   with_parts(rows, cols, kernel, f)               f(kp, target): the two halves of h
//   location_targets(locations)                     the targets of test locations, for the UCME
// and the generic binders at the end turn the parts into pair terms for the engine:
//   with_pair_term(data, kernel, f)                 f(term), term.row → h(i, j)               (SKCE)
//   with_cross_term(data, locations, kernel, f)     f(term), term.row → k_P(p_i,q_j)·w(i, t_j) (UCME)
//   with_prediction_kernel(data, kernel | metric, f) f(kp): k_P (or its distances) on the data
// The kernel must have been validated (validate_kernel) first. Heavy to compile: only the engine passes
// of each family (family_ops.ipp) include it.
#pragma once

#include "data/column_major.hpp"
#include "kernels/family_traits.hpp"
#include "kernels/prediction_kernels.hpp"
#include "kernels/target_terms.hpp"
#include "kernels/terms.hpp"

#include <calib/data.hpp>
#include <calib/kernels.hpp>

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

namespace calib::detail {

template <class Data>
struct Family;

// γ of the target kernel: exp(−γ‖·‖²) with γ = 1/(2ℓ²), or exp(−γ|·|) with γ = 1/ℓ.
inline double target_gamma(const TargetKernel& k) {
    return k.type == TargetKernelType::sqexp ? 0.5 / (k.lengthscale * k.lengthscale) : 1 / k.lengthscale;
}

inline Matrix as_matrix(const VectorView& v) { return v; }

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

// The W2 kernel on an embedding; between a set and itself (cols null) the embedding is built once.
template <class Data>
EmbeddedPredictionKernel w2_prediction_kernel(const Data& rows, const Data* cols, const PredictionKernel& k) {
    return EmbeddedPredictionKernel(w2_embedding(rows), cols ? w2_embedding(*cols) : Matrix(), false, 1.0, k);
}

template <>
struct Family<CategoricalData> : FamilyTraits<CategoricalData> {
    // TV = ½ L1 and L1 on the probability vectors themselves; Euclidean on them too.
    template <class F>
    static decltype(auto) with_prediction_kernel(const CategoricalData& rows, const CategoricalData* cols,
                                                 const PredictionKernel& k, F&& f) {
        return f(EmbeddedPredictionKernel(column_major_copy(rows.probabilities()),
                                          cols ? column_major_copy(cols->probabilities()) : Matrix(),
                                          k.metric != Metric::euclidean, k.metric == Metric::tv ? 0.5 : 1.0, k));
    }
    template <class F>
    static decltype(auto) with_parts(const CategoricalData& rows, const CategoricalData* cols, const Kernel& k, F&& f) {
        return with_prediction_kernel(rows, cols, k.prediction,
                                      [&](auto kp) { return f(std::move(kp), ClassTarget(rows, k.target)); });
    }
    static const std::vector<int>& location_targets(const CategoricalData& t) { return t.labels(); }
};

template <>
struct Family<NormalData> : FamilyTraits<NormalData> {
    template <class F>
    static decltype(auto) with_prediction_kernel(const NormalData& rows, const NormalData* cols,
                                                 const PredictionKernel& k, F&& f) {
        return f(w2_prediction_kernel(rows, cols, k));
    }
    template <class F>
    static decltype(auto) with_parts(const NormalData& rows, const NormalData* cols, const Kernel& k, F&& f) {
        return f(w2_prediction_kernel(rows, cols, k.prediction),
                 GaussianDiagonalTarget(as_matrix(rows.mean()), as_matrix(rows.stddev()), as_matrix(rows.targets()),
                                        target_gamma(k.target)));
    }
    static Matrix location_targets(const NormalData& t) { return as_matrix(t.targets()); }
};

template <>
struct Family<LaplaceData> : FamilyTraits<LaplaceData> {
    template <class F>
    static decltype(auto) with_prediction_kernel(const LaplaceData& rows, const LaplaceData* cols,
                                                 const PredictionKernel& k, F&& f) {
        return f(w2_prediction_kernel(rows, cols, k));
    }
    template <class F>
    static decltype(auto) with_parts(const LaplaceData& rows, const LaplaceData* cols, const Kernel& k, F&& f) {
        return f(w2_prediction_kernel(rows, cols, k.prediction), LaplaceTarget(rows, target_gamma(k.target)));
    }
    static Vector location_targets(const LaplaceData& t) { return t.targets(); }
};

// Diagonal covariances embed for W2 like normals; full ones take the Bures distance and the full
// Gaussian expectations.
template <>
struct Family<MvNormalData> : FamilyTraits<MvNormalData> {
    template <class F>
    static decltype(auto) with_prediction_kernel(const MvNormalData& rows, const MvNormalData* cols,
                                                 const PredictionKernel& k, F&& f) {
        if (!rows.is_diagonal()) return f(BuresPredictionKernel(rows, cols ? *cols : rows, k));
        return f(w2_prediction_kernel(rows, cols, k));
    }
    template <class F>
    static decltype(auto) with_parts(const MvNormalData& rows, const MvNormalData* cols, const Kernel& k, F&& f) {
        const double gamma = target_gamma(k.target);
        if (!rows.is_diagonal())
            return f(BuresPredictionKernel(rows, cols ? *cols : rows, k.prediction), GaussianFullTarget(rows, gamma));
        return f(w2_prediction_kernel(rows, cols, k.prediction),
                 GaussianDiagonalTarget(rows.mean(), rows.stddev(), rows.targets(), gamma));
    }
    static Matrix location_targets(const MvNormalData& t) { return t.targets(); }
};

template <>
struct Family<MixtureNormalData> : FamilyTraits<MixtureNormalData> {
    template <class F>
    static decltype(auto) with_prediction_kernel(const MixtureNormalData& rows, const MixtureNormalData* cols,
                                                 const PredictionKernel& k, F&& f) {
        return f(MixtureW2PredictionKernel(rows, cols ? *cols : rows, k));
    }
    template <class F>
    static decltype(auto) with_parts(const MixtureNormalData& rows, const MixtureNormalData* cols, const Kernel& k,
                                     F&& f) {
        return f(MixtureW2PredictionKernel(rows, cols ? *cols : rows, k.prediction),
                 MixtureNormalTarget(rows, target_gamma(k.target)));
    }
    static Vector location_targets(const MixtureNormalData& t) { return t.targets(); }
};

// ---- generic binders ---------------------------------------------------------------------------

// The SKCE pair term of a tensor kernel: the fused CategoricalTerm for class predictions, else
// TensorTerm (k_P · h_Y).
template <class PredictionKernelT, class Target>
auto make_pair_term(std::size_t n, PredictionKernelT kp, Target target) {
    if constexpr (std::is_same_v<PredictionKernelT, EmbeddedPredictionKernel> && std::is_same_v<Target, ClassTarget>)
        return CategoricalTerm(std::move(kp), std::move(target));
    else
        return TensorTerm(n, std::move(kp), std::move(target));
}

template <class Data, class F>
decltype(auto) with_pair_term(const Data& d, const Kernel& k, F&& f) {
    return Family<Data>::with_parts(d, nullptr, k, [&](auto kp, auto target) {
        const auto term = make_pair_term(d.size(), std::move(kp), std::move(target));
        return f(term);
    });
}

template <class Data, class F>
decltype(auto) with_cross_term(const Data& d, const Data& t, const Kernel& k, F&& f) {
    return Family<Data>::with_parts(d, &t, k, [&](auto kp, auto target) {
        const CrossTerm term(std::move(kp), std::move(target), Family<Data>::location_targets(t));
        return f(term);
    });
}

template <class Data, class F>
decltype(auto) with_prediction_kernel(const Data& d, const PredictionKernel& k, F&& f) {
    return Family<Data>::with_prediction_kernel(d, nullptr, k, std::forward<F>(f));
}

// The kernel's distances() are the metric's; its values() are those of exp(−d) (ℓ = 1).
template <class Data, class F>
decltype(auto) with_prediction_kernel(const Data& d, Metric metric, F&& f) {
    return with_prediction_kernel(d, PredictionKernel{PredictionKernelShape::exp, metric, 1.0}, std::forward<F>(f));
}

}  // namespace calib::detail

// What each data family is to the kernels, in one place per family: its name, the metrics and target
// kernels it supports (the first of each is the default), the checks beyond those lists, and which
// prediction kernel and target term compute h for it. Everything family-specific about kernels —
// validation (kernels.cpp), the default kernel, the term dispatch below, the family table of the
// readers and the CLI (families.cpp) — reads it from here.
//
// Family<Data> provides:
//   name, metrics[], targets[]                     the supported kernels (kernels.hpp's table)
//   check_target(function, data, target)           checks a supported target kernel's parameters
//   check_locations(function, data, locations)      test locations live in the predictions' space
//   with_prediction_kernel(rows, cols, kernel, f)   f(kp): k_P between rows and cols (cols null: rows)
//   with_parts(rows, cols, kernel, f)               f(kp, target): the two halves of h
//   location_targets(locations)                     the targets of test locations, for the UCME
// and the generic binders at the end turn the parts into pair terms for the engine:
//   with_pair_term(data, kernel, f)                 f(term), term.row → h(i, j)               (SKCE)
//   with_cross_term(data, locations, kernel, f)     f(term), term.row → k_P(p_i,q_j)·w(i, t_j) (UCME)
//   with_prediction_kernel(data, kernel | metric, f) f(kp): k_P (or its distances) on the data
// The kernel must have been validated (validate_kernel) first.
#pragma once

#include "core/check.hpp"
#include "kernels/class_gram.hpp"
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

inline Matrix as_matrix(const Vector& v) { return v; }

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

// Target kernels without parameters to check beyond the lengthscale.
inline void check_target_lengthscale(const char* function, const TargetKernel& target) {
    if (!(std::isfinite(target.lengthscale) && target.lengthscale > 0))
        fail(function, "target lengthscale = ", format_value(target.lengthscale), ", must be finite and > 0");
}


template <>
struct Family<CategoricalData> {
    static constexpr const char* name = "categorical";
    static constexpr Metric metrics[] = {Metric::tv, Metric::l1, Metric::euclidean};
    static constexpr TargetKernelType targets[] = {TargetKernelType::white, TargetKernelType::gram};

    static void check_target(const char* function, const CategoricalData& data, const TargetKernel& target) {
        if (target.type == TargetKernelType::gram) check_class_gram(function, target.gram, data.num_classes());
    }
    static void check_locations(const char* function, const CategoricalData& data, const CategoricalData& locations) {
        if (locations.num_classes() != data.num_classes())
            fail(function, "the test locations have ", locations.num_classes(), " classes but the data has ",
                 data.num_classes(), "; they must match");
    }
    // TV = ½ L1 and L1 on the probability vectors themselves; Euclidean on them too.
    template <class F>
    static decltype(auto) with_prediction_kernel(const CategoricalData& rows, const CategoricalData* cols,
                                                 const PredictionKernel& k, F&& f) {
        return f(EmbeddedPredictionKernel(rows.probabilities(), cols ? cols->probabilities() : Matrix(),
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
struct Family<NormalData> {
    static constexpr const char* name = "normal";
    static constexpr Metric metrics[] = {Metric::w2};
    static constexpr TargetKernelType targets[] = {TargetKernelType::sqexp};

    static void check_target(const char* function, const NormalData&, const TargetKernel& target) {
        check_target_lengthscale(function, target);
    }
    static void check_locations(const char*, const NormalData&, const NormalData&) {}
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
struct Family<LaplaceData> {
    static constexpr const char* name = "laplace";
    static constexpr Metric metrics[] = {Metric::w2};
    static constexpr TargetKernelType targets[] = {TargetKernelType::exp};

    static void check_target(const char* function, const LaplaceData&, const TargetKernel& target) {
        check_target_lengthscale(function, target);
    }
    static void check_locations(const char*, const LaplaceData&, const LaplaceData&) {}
    template <class F>
    static decltype(auto) with_prediction_kernel(const LaplaceData& rows, const LaplaceData* cols,
                                                 const PredictionKernel& k, F&& f) {
        return f(w2_prediction_kernel(rows, cols, k));
    }
    template <class F>
    static decltype(auto) with_parts(const LaplaceData& rows, const LaplaceData* cols, const Kernel& k, F&& f) {
        return f(w2_prediction_kernel(rows, cols, k.prediction), LaplaceTarget(rows, target_gamma(k.target)));
    }
    static const Vector& location_targets(const LaplaceData& t) { return t.targets(); }
};

// Diagonal covariances embed for W2 like normals; full ones take the Bures distance and the full
// Gaussian expectations.
template <>
struct Family<MvNormalData> {
    static constexpr const char* name = "mvnormal";
    static constexpr Metric metrics[] = {Metric::w2};
    static constexpr TargetKernelType targets[] = {TargetKernelType::sqexp};

    static void check_target(const char* function, const MvNormalData&, const TargetKernel& target) {
        check_target_lengthscale(function, target);
    }
    static void check_locations(const char* function, const MvNormalData& data, const MvNormalData& locations) {
        if (locations.dimension() != data.dimension())
            fail(function, "the test locations have dimension ", locations.dimension(), " but the data has ",
                 data.dimension(), "; they must match");
        if (locations.is_diagonal() != data.is_diagonal())
            fail(function, "the test locations and the data must both have diagonal or both full covariances");
    }
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
    static const Matrix& location_targets(const MvNormalData& t) { return t.targets(); }
};

// W2 is the mixture Wasserstein distance MW2 (an exact transport problem per pair).
template <>
struct Family<MixtureNormalData> {
    static constexpr const char* name = "mixture-normal";
    static constexpr Metric metrics[] = {Metric::w2};
    static constexpr TargetKernelType targets[] = {TargetKernelType::sqexp};

    static void check_target(const char* function, const MixtureNormalData&, const TargetKernel& target) {
        check_target_lengthscale(function, target);
    }
    static void check_locations(const char*, const MixtureNormalData&, const MixtureNormalData&) {}
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
    static const Vector& location_targets(const MixtureNormalData& t) { return t.targets(); }
};

// ---- generic checks and binders -----------------------------------------------------------------

template <class Data>
bool supports(Metric metric) {
    for (const Metric m : Family<Data>::metrics)
        if (m == metric) return true;
    return false;
}

template <class Data>
bool supports(TargetKernelType type) {
    for (const TargetKernelType t : Family<Data>::targets)
        if (t == type) return true;
    return false;
}

// "tv, l1 or euclidean": the names of a list, for messages.
template <class T, std::size_t N>
std::string names_of(const T (&list)[N]) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) out += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + to_string(list[i]);
    return out;
}

template <class Data>
void check_metric(const char* function, Metric metric) {
    if (!supports<Data>(metric))
        fail(function, "metric ", to_string(metric), " does not apply to ", Family<Data>::name, " predictions; use ",
             names_of(Family<Data>::metrics));
}


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

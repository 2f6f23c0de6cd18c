// What each data family supports, in one place per family: its name, the metrics and target kernels it
// supports (the first of each is the default), and the checks beyond those lists. Validation
// (kernels.cpp), the default kernel and the families table (registry/family_table.cpp) read it here;
// how each family computes h is in family.hpp, which builds on these traits. Light: no kernel code.
//
// FamilyTraits<Data> provides:
//   name, metrics[], targets[]                     the supported kernels (kernels.hpp's table)
//   check_target(function, data, target)           checks a supported target kernel's parameters
//   check_locations(function, data, locations)      test locations live in the predictions' space
// and the helpers below check a kernel against them.
#pragma once

#include "core/check.hpp"
#include "kernels/class_gram.hpp"

#include <calib/data.hpp>
#include <calib/kernels.hpp>

#include <cmath>
#include <cstddef>
#include <string>

namespace calib::detail {

template <class Data>
struct FamilyTraits;

// Target kernels without parameters to check beyond the lengthscale.
inline void check_target_lengthscale(const char* function, const TargetKernel& target) {
    if (!(std::isfinite(target.lengthscale) && target.lengthscale > 0))
        fail(function, "target lengthscale = ", format_value(target.lengthscale), ", must be finite and > 0");
}

template <>
struct FamilyTraits<CategoricalData> {
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
};

template <>
struct FamilyTraits<NormalData> {
    static constexpr const char* name = "normal";
    static constexpr Metric metrics[] = {Metric::w2};
    static constexpr TargetKernelType targets[] = {TargetKernelType::sqexp};

    static void check_target(const char* function, const NormalData&, const TargetKernel& target) {
        check_target_lengthscale(function, target);
    }
    static void check_locations(const char*, const NormalData&, const NormalData&) {}
};

template <>
struct FamilyTraits<LaplaceData> {
    static constexpr const char* name = "laplace";
    static constexpr Metric metrics[] = {Metric::w2};
    static constexpr TargetKernelType targets[] = {TargetKernelType::exp};

    static void check_target(const char* function, const LaplaceData&, const TargetKernel& target) {
        check_target_lengthscale(function, target);
    }
    static void check_locations(const char*, const LaplaceData&, const LaplaceData&) {}
};

template <>
struct FamilyTraits<MvNormalData> {
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
};

// W2 is the mixture Wasserstein distance MW2 (an exact transport problem per pair).
template <>
struct FamilyTraits<MixtureNormalData> {
    static constexpr const char* name = "mixture-normal";
    static constexpr Metric metrics[] = {Metric::w2};
    static constexpr TargetKernelType targets[] = {TargetKernelType::sqexp};

    static void check_target(const char* function, const MixtureNormalData&, const TargetKernel& target) {
        check_target_lengthscale(function, target);
    }
    static void check_locations(const char*, const MixtureNormalData&, const MixtureNormalData&) {}
};

// ---- checks against the traits --------------------------------------------------------------------

template <class Data>
bool supports(Metric metric) {
    for (const Metric m : FamilyTraits<Data>::metrics)
        if (m == metric) return true;
    return false;
}

template <class Data>
bool supports(TargetKernelType type) {
    for (const TargetKernelType t : FamilyTraits<Data>::targets)
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
        fail(function, "metric ", to_string(metric), " does not apply to ", FamilyTraits<Data>::name,
             " predictions; use ", names_of(FamilyTraits<Data>::metrics));
}

}  // namespace calib::detail

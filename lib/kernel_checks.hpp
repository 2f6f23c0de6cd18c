// Checks shared by the kernel-related functions: which metrics apply to which family.
#pragma once

#include "check.hpp"

#include <calib/data.hpp>
#include <calib/kernels.hpp>

#include <type_traits>

namespace calib::detail {

inline const char* family_name(const CategoricalData&) { return "categorical"; }
inline const char* family_name(const NormalData&) { return "normal"; }
inline const char* family_name(const LaplaceData&) { return "laplace"; }
inline const char* family_name(const MvNormalData&) { return "mvnormal"; }
inline const char* family_name(const MixtureNormalData&) { return "mixture-normal"; }

// tv, l1 and euclidean apply to probability vectors; w2 to the distribution families.
template <class Data>
void check_metric(const char* function, Metric metric, const Data& data) {
    constexpr bool categorical = std::is_same_v<Data, CategoricalData>;
    if (categorical ? metric == Metric::w2 : metric != Metric::w2)
        fail(function, "metric ", to_string(metric), " does not apply to ", family_name(data),
             " predictions; use ", categorical ? "tv, l1 or euclidean" : "w2");
}

}  // namespace calib::detail

// One model's part of `calib report`: its tests (the verdict's first), its calibration errors with
// bootstrap intervals, and its accuracy or NLL. Every number comes from the registry's methods with
// their defaults, as `calib test` and `calib estimate` compute them, and from the library's intervals.
#pragma once

#include "html_report.hpp"

#include <calib/compare.hpp>
#include <calib/families.hpp>
#include <calib/registry.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace calib::cli {

struct ReportSettings {
    std::size_t bins = 10;       // --bins of the reliability diagrams and the binned ECEs
    IntervalOptions intervals;   // replicates, level, seed and threads of the bootstrap intervals
    std::vector<std::pair<std::string, Value>> bootstrap_test;  // the bootstrap test's options (its seed)
};

// `ckce`: the model comparison's CKCE result (compare_models), whose entry `index` is this model's; null
// for predictive distributions.
ModelReport evaluate_model(const AnyData& data, const FamilyInfo& family, const ReportSettings& settings,
                           const EstimatorComparison* ckce, std::size_t index);

// Above this n the CKCE is the low-rank method (the exact one is O(n³)).
inline constexpr std::size_t exact_ckce_limit = 3000;
// Above this n the report runs no quadratic pass (the Gamma test's is the last): its medians (the SKCE
// kernel's and the CKCE's) are then taken on linear_median_subsample observations, as the linear-time
// methods' are, so that the report stays linear in n.
inline constexpr std::size_t gamma_limit = 50000;

}  // namespace calib::cli

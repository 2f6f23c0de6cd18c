// The conditional MMD's options (calib/mmd.hpp) as the registry's estimator mmd and the tests with
// `estimator` mmd take them: the notion, the kernel options of the SKCE where they apply (kernel_p,
// metric, lengthscale with the median rules, kernel_y, lengthscale_y) and the conditioning files.
#pragma once

#include "registry/common_options.hpp"

#include <calib/mmd.hpp>

#include <string>

namespace calib::detail {

struct MmdChoice {
    MmdNotion notion = MmdNotion::canonical;
    PredictionKernelShape shape = PredictionKernelShape::sqexp;
    Metric metric = Metric::euclidean;
    LengthscaleChoice lengthscale;  // a number, median or median-full
    std::size_t median_subsample = 0;
    std::uint64_t median_seed = default_seed;
    TargetKernelType target = TargetKernelType::white;  // white, or sqexp: the RBF on one-hot labels
    double target_lengthscale = 1.0;
    std::string features, groups;  // files
};

// `notion_condition`: when the notion (and so every other option) applies; empty for the estimator.
OptionList<MmdChoice> mmd_options(Condition notion_condition = {});

// The spec on the data: the files read (their rows checked against n), K_T built, the lengthscales
// chosen by the median rule; `record` receives notion, lengthscale(s) and the kernel as used.
MmdSpec resolve_mmd(const MmdChoice& choice, const CategoricalData& data, const ParallelOptions& parallel,
                    Record& record);

}  // namespace calib::detail

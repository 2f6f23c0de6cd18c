// The conditional MMD's options (calib/mmd.hpp) as the registry's estimator mmd and the tests with
// `estimator` mmd take them: the notion, the kernel options of the SKCE where they apply (kernel_p,
// metric, lengthscale with the median rules, kernel_y, lengthscale_y), the sign kernel's threshold and
// the conditioning files; for class predictions and for Gaussian forecasts (normal family).
#pragma once

#include "registry/common_options.hpp"

#include <calib/families.hpp>
#include <calib/mmd.hpp>

#include <memory>
#include <string>

namespace calib::detail {

// The target kernel: white or sqexp (the RBF on one-hot labels) for class predictions; sqexp (the RBF
// on y), sign, moment, pit, laplacian, tanh or min for Gaussian forecasts.
enum class MmdTargetChoice { white, sqexp, sign, moment, pit, laplacian, tanh, min };

struct MmdChoice {
    MmdNotion notion = MmdNotion::canonical;
    PredictionKernelShape shape = PredictionKernelShape::sqexp;
    Metric metric = Metric::euclidean;
    LengthscaleChoice lengthscale;  // a number, median or median-full
    std::size_t median_subsample = 0;
    std::uint64_t median_seed = default_seed;
    MmdTargetChoice target = MmdTargetChoice::white;
    double target_lengthscale = 1.0;
    double threshold = 0.0;  // sign, tanh, decision: c
    bool threshold_median = false;  // c = the median of the targets (A10: the paper's choice)
    double tau = 1.0;               // tanh
    double min_lower = 0.0, min_upper = 1.0;  // min: --interval LO:HI
    std::string thresholds;         // the threshold notion's pairs as given, "y0:alpha,y0:alpha"
    std::vector<MmdThreshold> threshold_pairs;  // ... and parsed
    // Gaussian forecasts: Ŷ integrated out in closed form or by Monte Carlo (S samples, seeded).
    MmdMarginalisation marginalisation = MmdMarginalisation::analytic;
    std::size_t samples = 10;
    std::uint64_t mc_seed = default_seed;
    std::string features, groups;  // files, or "arrays" when the tables below were given in memory
    std::shared_ptr<const Matrix> feature_table, group_table;  // Setup::set_table (Python's arrays)
};

// `notion_condition`: when the notion (and so every other option) applies; empty for the estimator.
OptionList<MmdChoice> mmd_options(Condition notion_condition = {});

// The spec on the data: the files read, or the tables given (their rows checked against n), K_T built, the lengthscales
// chosen by the median rule; `record` receives notion, lengthscale(s) and the kernel as used.
MmdSpec resolve_mmd(const MmdChoice& choice, const CategoricalData& data, const ParallelOptions& parallel,
                    Record& record);
GaussianMmdSpec resolve_mmd(const MmdChoice& choice, const NormalData& data, const ParallelOptions& parallel,
                            Record& record);

// f(data, spec) with the spec resolved on the data's family: class predictions or Gaussian forecasts
// (another family throws).
template <class F>
auto with_mmd(const AnyData& data, const MmdChoice& choice, const ParallelOptions& parallel, Record& used, F&& f) {
    if (const auto* d = std::get_if<CategoricalData>(&data)) return f(*d, resolve_mmd(choice, *d, parallel, used));
    if (const auto* d = std::get_if<NormalData>(&data)) return f(*d, resolve_mmd(choice, *d, parallel, used));
    throw invalid_argument("the estimator mmd applies to class predictions (categorical, binary) and Gaussian "
                           "forecasts (normal) only");
}

}  // namespace calib::detail

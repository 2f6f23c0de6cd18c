// Kernel configuration: names, defaults, validation against a data family, bounds, and the
// single-pair evaluations prediction_distance and skce_core (kernels.hpp).
#include <calib/kernels.hpp>

#include "core/check.hpp"
#include "data/family_list.hpp"
#include "kernels/family_traits.hpp"
#include "kernels/family_ops.hpp"


#include <algorithm>
#include <type_traits>

namespace calib {

using detail::fail;

std::string to_string(Metric metric) {
    switch (metric) {
        case Metric::tv: return "tv";
        case Metric::l1: return "l1";
        case Metric::euclidean: return "euclidean";
        case Metric::w2: return "w2";
    }
    return "?";
}

std::string to_string(PredictionKernelShape shape) {
    return shape == PredictionKernelShape::exp ? "exp" : "sqexp";
}

std::string to_string(TargetKernelType type) {
    switch (type) {
        case TargetKernelType::white: return "white";
        case TargetKernelType::gram: return "gram";
        case TargetKernelType::sqexp: return "sqexp";
        case TargetKernelType::exp: return "exp";
    }
    return "?";
}

std::string to_string(MedianVariant variant) { return variant == MedianVariant::pairs ? "pairs" : "full"; }

Metric parse_metric(const std::string& name) {
    for (Metric m : {Metric::tv, Metric::l1, Metric::euclidean, Metric::w2})
        if (name == to_string(m)) return m;
    fail("parse_metric", "unknown metric '", name, "', must be one of tv, l1, euclidean, w2");
}

PredictionKernelShape parse_prediction_kernel_shape(const std::string& name) {
    for (PredictionKernelShape s : {PredictionKernelShape::exp, PredictionKernelShape::sqexp})
        if (name == to_string(s)) return s;
    fail("parse_prediction_kernel_shape", "unknown prediction kernel '", name, "', must be exp or sqexp");
}

TargetKernelType parse_target_kernel_type(const std::string& name) {
    for (TargetKernelType t :
         {TargetKernelType::white, TargetKernelType::gram, TargetKernelType::sqexp, TargetKernelType::exp})
        if (name == to_string(t)) return t;
    fail("parse_target_kernel_type", "unknown target kernel '", name,
         "', must be one of white, gram, sqexp, exp");
}

template <class Data>
Kernel default_kernel() {
    using F = detail::FamilyTraits<Data>;
    return {{PredictionKernelShape::exp, F::metrics[0], 1.0}, {F::targets[0], 1.0, {}}};
}


template <class Data>
void validate_kernel(const Data& data, const Kernel& kernel, const char* function) {
    using F = detail::FamilyTraits<Data>;
    detail::check_metric<Data>(function, kernel.prediction.metric);
    if (!(std::isfinite(kernel.prediction.lengthscale) && kernel.prediction.lengthscale > 0))
        fail(function, "prediction lengthscale = ", detail::format_value(kernel.prediction.lengthscale),
             ", must be finite and > 0");
    if (!detail::supports<Data>(kernel.target.type))
        fail(function, "target kernel ", to_string(kernel.target.type), " is not available for ", F::name,
             " predictions (no closed-form expectation); use ", detail::names_of(F::targets));
    F::check_target(function, data, kernel.target);
}

double skce_core_bound(const Kernel& kernel) {
    if (kernel.target.type != TargetKernelType::gram) return 2.0;
    const Matrix& g = kernel.target.gram;
    double bound = 0;
    for (Eigen::Index y = 0; y < g.rows(); ++y)
        for (Eigen::Index z = 0; z < g.rows(); ++z) bound = std::max(bound, g(y, y) + g(z, z) - 2 * g(y, z));
    return bound;
}

namespace {
void check_index(const char* function, const char* argument, std::size_t index, std::size_t n) {
    if (index >= n) fail(function, argument, " = ", index, ", must be < n = ", n);
}
}  // namespace

template <class Data>
double prediction_distance(const Data& data, Metric metric, std::size_t i, std::size_t j) {
    const char* fn = "prediction_distance";
    detail::check_metric<Data>(fn, metric);
    check_index(fn, "i", i, data.size());
    check_index(fn, "j", j, data.size());
    return detail::FamilyOps<Data>::distance(data, metric, i, j);
}

template <class Data>
double skce_core(const Data& data, const Kernel& kernel, std::size_t i, std::size_t j) {
    const char* fn = "skce_core";
    validate_kernel(data, kernel, fn);
    check_index(fn, "i", i, data.size());
    check_index(fn, "j", j, data.size());
    return detail::FamilyOps<Data>::pair(data, kernel, i, j);
}

#define CALIB_INSTANTIATE(Data)                                                                  \
    template Kernel default_kernel<Data>();                                                      \
    template void validate_kernel<Data>(const Data&, const Kernel&, const char*);                \
    template double prediction_distance<Data>(const Data&, Metric, std::size_t, std::size_t);    \
    template double skce_core<Data>(const Data&, const Kernel&, std::size_t, std::size_t);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

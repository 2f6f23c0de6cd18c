// CKCE argument checks, names, the regularisation schedule and the small shared solvers
// (ckce.hpp, ckce/detail.hpp).
#include "data/column_major.hpp"
#include "ckce/detail.hpp"
#include "kernels/class_gram.hpp"

#include <calib/kernels.hpp>

#include <cmath>

namespace calib {

using detail::fail;
using detail::format_value;

double Regularization::lambda(std::size_t n) const {
    const char* fn = "Regularization::lambda";
    if (!(std::isfinite(coefficient) && coefficient > 0))
        fail(fn, "coefficient = ", format_value(coefficient), ", must be finite and > 0");
    if (!std::isfinite(power)) fail(fn, "power = ", format_value(power), ", must be finite");
    if (n == 0) fail(fn, "n = 0, needs at least one observation");
    const double value = coefficient * std::pow(static_cast<double>(n), -power);
    if (!(std::isfinite(value) && value > 0))
        fail(fn, "lambda = ", format_value(coefficient), " * ", n, "^(-", format_value(power), ") = ",
             format_value(value), ", must be finite and > 0");
    return value;
}

EceOptions ckce_paper_ece_options() {
    EceOptions options;
    options.binning = BinningScheme::uniform;
    options.nbins = 3;
    options.distance = EceDistance::l1;
    options.mode = EceMode::canonical;
    return options;
}

std::string to_string(CkceMethod method) {
    switch (method) {
        case CkceMethod::exact: return "exact";
        case CkceMethod::eigen: return "eigen";
        case CkceMethod::rff: return "rff";
        case CkceMethod::lowrank: return "lowrank";
    }
    fail("to_string", "CkceMethod value ", static_cast<int>(method), " is not a valid method");
}

CkceMethod parse_ckce_method(const std::string& name) {
    for (CkceMethod m : {CkceMethod::exact, CkceMethod::eigen, CkceMethod::rff, CkceMethod::lowrank})
        if (name == to_string(m)) return m;
    fail("parse_ckce_method", "method = \"", name, "\", must be one of: exact, eigen, rff, lowrank");
}

std::string to_string(MedianFallback fallback) {
    switch (fallback) {
        case MedianFallback::none: return "none";
        case MedianFallback::nonzero_median: return "nonzero-median";
        case MedianFallback::unit: return "unit";
    }
    fail("to_string", "MedianFallback value ", static_cast<int>(fallback), " is not a valid fallback");
}

namespace detail {

void check_simplex_kernel(const char* function, const SimplexKernel& kernel) {
    if (!kernel.linear && !kernel.gaussian)
        fail(function, "kernel has neither a linear nor a Gaussian part; enable at least one");
    if (kernel.gaussian && !(std::isfinite(kernel.lengthscale) && kernel.lengthscale > 0))
        fail(function, "kernel lengthscale = ", format_value(kernel.lengthscale), ", must be finite and > 0");
}

void check_ckce_target(const char* function, const TargetKernel& target, int m) {
    if (target.type == TargetKernelType::white) return;
    if (target.type != TargetKernelType::gram)
        fail(function, "target kernel ", to_string(target.type), " does not apply to class labels; use white or gram");
    check_class_gram(function, target.gram, m);
}

void check_lambda(const char* function, const char* argument, double lambda) {
    if (!(std::isfinite(lambda) && lambda > 0))
        fail(function, argument, " = ", format_value(lambda), ", must be finite and > 0");
}

void check_attribute(const char* function, const Attribute& attribute, std::size_t n) {
    if (static_cast<std::size_t>(attribute.values.size()) != n)
        fail(function, "attribute has ", attribute.values.size(), " values but the data has n = ", n,
             " observations; they must match");
    for (Eigen::Index i = 0; i < attribute.values.size(); ++i)
        if (!std::isfinite(attribute.values(i)))
            fail_at(i, -1, function, "attribute value (", i, ") = ", format_value(attribute.values(i)),
                    ", must be finite");
    if (attribute.type != AttributeKernelType::kronecker && attribute.type != AttributeKernelType::gaussian)
        fail(function, "attribute type = ", static_cast<int>(attribute.type), " is not a valid AttributeKernelType");
    if (attribute.type == AttributeKernelType::gaussian &&
        !(std::isfinite(attribute.lengthscale) && attribute.lengthscale > 0))
        fail(function, "attribute lengthscale = ", format_value(attribute.lengthscale), ", must be finite and > 0");
}

Matrix residuals(const CategoricalData& data) {
    Matrix a = column_major_copy(data.probabilities());
    for (std::size_t i = 0; i < data.size(); ++i) a(static_cast<Eigen::Index>(i), data.labels()[i]) -= 1;
    return a;
}

double frobenius_dot(const Matrix& x, const Matrix& y) {
    CompensatedSum s;
    for (Eigen::Index c = 0; c < x.cols(); ++c) s.add(x.col(c).dot(y.col(c)));
    return s.value();
}

double primal_ckce(PrimalSums sums, double ridge, const TargetKernel& target) {
    return label_quadratic(primal_solve("ckce", std::move(sums), ridge), target);
}

}  // namespace detail

}  // namespace calib

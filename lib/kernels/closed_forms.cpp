// Public, validating wrappers of the closed-form target-kernel expectations declared in
// calib/kernels.hpp; the formulas themselves live in closed_forms.hpp.
#include <calib/kernels.hpp>

#include "core/check.hpp"
#include "kernels/closed_forms.hpp"
#include "data/covariance_check.hpp"

#include <cmath>

namespace calib {

namespace {

using detail::fail;
using detail::format_value;

void check_real(const char* fn, const char* argument, double value) {
    if (!std::isfinite(value)) fail(fn, argument, " = ", format_value(value), ", must be finite");
}

void check_scale(const char* fn, const char* argument, double value) {
    if (!(std::isfinite(value) && value > 0))
        fail(fn, argument, " = ", format_value(value), ", must be finite and > 0");
}

// A mean or target vector of dimension d ≥ 1 (d = expected, or any when expected < 0).
void check_vector(const char* fn, const char* argument, const Vector& v, long expected,
                  const char* expected_name) {
    if (v.size() < 1) fail(fn, argument, " is empty; the dimension d must be >= 1");
    if (expected >= 0 && v.size() != expected)
        fail(fn, argument, " has ", v.size(), " entries but ", expected_name, " has ", expected,
             "; they must match");
    for (Eigen::Index i = 0; i < v.size(); ++i)
        if (!std::isfinite(v(i)))
            fail(fn, argument, "[", i, "] = ", format_value(v(i)), ", must be finite");
}

}  // namespace

double expected_sqexp_normal(double mean, double stddev, double y, double gamma) {
    const char* fn = "expected_sqexp_normal";
    check_real(fn, "mean", mean);
    check_scale(fn, "stddev", stddev);
    check_real(fn, "y", y);
    check_scale(fn, "gamma", gamma);
    return detail::sqexp_normal_single(mean, stddev * stddev, y, gamma);
}

double expected_sqexp_normal_pair(double mean1, double stddev1, double mean2, double stddev2,
                                  double gamma) {
    const char* fn = "expected_sqexp_normal_pair";
    check_real(fn, "mean1", mean1);
    check_scale(fn, "stddev1", stddev1);
    check_real(fn, "mean2", mean2);
    check_scale(fn, "stddev2", stddev2);
    check_scale(fn, "gamma", gamma);
    return detail::sqexp_normal_pair(mean1, stddev1 * stddev1, mean2, stddev2 * stddev2, gamma);
}

double expected_sqexp_mvnormal(const Vector& mean, const Matrix& covariance, const Vector& y,
                               double gamma) {
    const char* fn = "expected_sqexp_mvnormal";
    check_vector(fn, "mean", mean, -1, "");
    detail::check_covariance(fn, "covariance", -1, covariance, mean.size());
    check_vector(fn, "y", y, mean.size(), "mean");
    check_scale(fn, "gamma", gamma);
    return detail::sqexp_mvnormal_single(mean, covariance, y, gamma);
}

double expected_sqexp_mvnormal_pair(const Vector& mean1, const Matrix& covariance1,
                                    const Vector& mean2, const Matrix& covariance2, double gamma) {
    const char* fn = "expected_sqexp_mvnormal_pair";
    check_vector(fn, "mean1", mean1, -1, "");
    detail::check_covariance(fn, "covariance1", -1, covariance1, mean1.size());
    check_vector(fn, "mean2", mean2, mean1.size(), "mean1");
    detail::check_covariance(fn, "covariance2", -1, covariance2, mean1.size());
    check_scale(fn, "gamma", gamma);
    return detail::sqexp_mvnormal_pair(mean1, covariance1, mean2, covariance2, gamma);
}

double expected_exp_laplace(double mean, double scale, double y, double gamma) {
    const char* fn = "expected_exp_laplace";
    check_real(fn, "mean", mean);
    check_scale(fn, "scale", scale);
    check_real(fn, "y", y);
    check_scale(fn, "gamma", gamma);
    return detail::exp_laplace_single(mean, scale, y, gamma);
}

double expected_exp_laplace_pair(double mean1, double scale1, double mean2, double scale2,
                                 double gamma) {
    const char* fn = "expected_exp_laplace_pair";
    check_real(fn, "mean1", mean1);
    check_scale(fn, "scale1", scale1);
    check_real(fn, "mean2", mean2);
    check_scale(fn, "scale2", scale2);
    check_scale(fn, "gamma", gamma);
    return detail::exp_laplace_pair(mean1, scale1, mean2, scale2, gamma);
}

}  // namespace calib

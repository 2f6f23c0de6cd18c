// The check that a covariance matrix is d×d, finite, symmetric (to 1e-12 relative) and positive
// definite (its Cholesky factorisation succeeds); shared by the data containers and the public
// closed forms.
#pragma once

#include "core/check.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace calib::detail {

// `row` is the observation the matrix belongs to (-1 when none), reported in the exception.
inline void check_covariance(const char* function, const char* argument, long row, const Eigen::MatrixXd& s, long d) {
    if (s.rows() != d || s.cols() != d)
        fail_at(row, -1, function, argument, " is ", s.rows(), "x", s.cols(), ", must be ", d, "x", d);
    for (long b = 0; b < d; ++b)
        for (long a = 0; a < d; ++a)
            if (!std::isfinite(s(a, b)))
                fail_at(row, -1, function, argument, "(", a, ", ", b, ") = ", format_value(s(a, b)), ", must be finite");
    for (long a = 0; a < d; ++a)
        for (long b = 0; b < a; ++b)
            if (!(std::abs(s(a, b) - s(b, a)) <= 1e-12 * (std::abs(s(a, b)) + std::abs(s(b, a)))))
                fail_at(row, -1, function, argument, " is not symmetric: entry (", a, ", ", b, ") = ",
                        format_value(s(a, b)), " but (", b, ", ", a, ") = ", format_value(s(b, a)));
    if (Eigen::LLT<Eigen::MatrixXd>(s).info() != Eigen::Success)
        fail_at(row, -1, function, argument, " is not positive definite (its Cholesky factorisation fails)");
}

}  // namespace calib::detail

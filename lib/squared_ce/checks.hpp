// Argument checks shared by the squared-CE functions (squared_ce.hpp).
#pragma once

#include "core/check.hpp"

#include <calib/squared_ce.hpp>

#include <cmath>

namespace calib::detail {

// A problem's two matrices have one row per observation, at least `min_rows` of them, finite values.
inline void check_problem(const char* function, const char* argument, const CeProblem& p, long min_rows) {
    const long n = static_cast<long>(p.inputs.rows());
    check_same_rows(function, "inputs", n, "residuals", static_cast<long>(p.residuals.rows()));
    if (n < min_rows)
        fail(function, argument, " has n = ", n, " observations, must have n >= ", min_rows);
    if (p.inputs.cols() < 1 || p.residuals.cols() < 1)
        fail(function, argument, " has ", p.inputs.cols(), " input and ", p.residuals.cols(),
             " residual columns, must have >= 1 of each");
    if (!p.inputs.allFinite() || !p.residuals.allFinite())
        fail(function, argument, " has a value that is not finite; all must be finite");
}

inline void check_ridge(const char* function, const char* argument, double ridge) {
    if (!(std::isfinite(ridge) && ridge >= 0))
        fail(function, argument, " = ", format_value(ridge), ", must be finite and >= 0");
}

}  // namespace calib::detail

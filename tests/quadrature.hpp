// ∫_ℝ f of the closed-form tests (test_closed_forms.cpp, test_scores.cpp), by Boost's quadratures.
#pragma once

#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace calib::testing {

// ∫_ℝ f, split at the given kinks: exp-sinh on the two half-lines, adaptive Gauss–Kronrod (61
// points) on the finite pieces. Every piece of the integrands below is analytic.
template <class F>
double integrate_line(const F& f, std::vector<double> cuts) {
    static boost::math::quadrature::exp_sinh<double> half_line;  // not const: Boost 1.74 lacks the const overload
    std::sort(cuts.begin(), cuts.end());
    const double lo = cuts.front(), hi = cuts.back();
    // The tolerances bound the error estimates, which are those of the lower-order rules and far
    // above the actual errors of these smooth pieces (~1e-15).
    double total = half_line.integrate([&](double t) { return f(lo - t); }, 1e-12) +
                   half_line.integrate([&](double t) { return f(hi + t); }, 1e-12);
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
        if (cuts[k + 1] > cuts[k])
            total += boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, cuts[k], cuts[k + 1], 8, 1e-12);
    return total;
}

}  // namespace calib::testing

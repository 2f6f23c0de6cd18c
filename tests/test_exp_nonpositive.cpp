// The vectorised exp of the pair loops (lib/exp_nonpositive.hpp) against a 50-digit reference.
#include "core/exp_nonpositive.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

using calib::detail::exp_nonpositive;
using Reference = boost::multiprecision::cpp_bin_float_50;

// |y − exp(x)| in units of the last place of exp(x), with exp(x) to 50 digits.
double ulp_error(double x, double y) {
    const Reference exact = exp(Reference(x));
    const double rounded = exact.convert_to<double>();
    const double ulp = std::nextafter(rounded, 2 * rounded) - rounded;
    return std::abs((Reference(y) - exact).convert_to<double>()) / ulp;
}

}  // namespace

TEST_CASE("exp_nonpositive is within 1 ulp of exp on [-708.39, 0]") {
    boost::random::mt19937_64 rng(5);
    boost::random::uniform_real_distribution<double> wide(calib::detail::exp_underflow, 0.0), narrow(-1.0, 0.0);
    std::vector<double> x;
    for (int i = 0; i < 20000; ++i) x.push_back(wide(rng));
    for (int i = 0; i < 20000; ++i) x.push_back(narrow(rng));
    // Around the reduction's breakpoints (k·ln 2 ± ln 2 / 2) and the ends of the range.
    for (int k = 0; k <= 1021; k += 7)
        for (const double offset : {-0.5, -1e-9, 0.0, 1e-9, 0.5})
            x.push_back(std::min(0.0, -(k + offset) * 0.6931471805599453));
    for (const double v : {0.0, -0.0, -1e-300, -5e-324, -1e-17, -1e-8, -708.0, calib::detail::exp_underflow})
        x.push_back(v);
    std::vector<double> y = x;
    exp_nonpositive(y.data(), y.size());  // lengths not a multiple of the vector width included
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, ulp_error(x[i], y[i]));
    CHECK(worst <= 1.0 + 1e-9);
    MESSAGE("max error " << worst << " ulp over " << x.size() << " points");
    CHECK(y[x.size() - 8] == 1.0);  // exp(0) and exp(−0) exactly
    CHECK(y[x.size() - 7] == 1.0);
}

TEST_CASE("exp_nonpositive below the normal range, at -inf and NaN") {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    std::vector<double> x = {-708.4, -745.2, -1e6, -inf, nan, -1.0, nan};
    exp_nonpositive(x.data(), x.size());
    CHECK(x[0] == 0.0);
    CHECK(x[1] == 0.0);
    CHECK(x[2] == 0.0);
    CHECK(x[3] == 0.0);
    CHECK(std::isnan(x[4]));
    CHECK(x[5] == doctest::Approx(std::exp(-1.0)).epsilon(1e-15));
    CHECK(std::isnan(x[6]));
}

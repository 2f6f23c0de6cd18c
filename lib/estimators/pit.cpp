// The probability integral transform, its histogram and the coverage of central prediction intervals
// (calib/reliability.hpp).
#include <calib/reliability.hpp>

#include "core/check.hpp"
#include "estimators/binning.hpp"
#include "data/family_list.hpp"
#include "estimators/mahalanobis.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>

#include <cmath>

namespace calib {

namespace {

void check_level(const char* fn, double level) {
    if (!(level > 0 && level < 1)) detail::fail(fn, "level = ", detail::format_value(level), ", must be in (0, 1)");
}

void check_u(const char* fn, const std::vector<double>& u) {
    if (u.empty()) detail::fail(fn, "u is empty; at least one observation is needed");
    for (std::size_t i = 0; i < u.size(); ++i)
        if (!(u[i] >= 0 && u[i] <= 1))
            detail::fail(fn, "u[", i, "] = ", detail::format_value(u[i]), ", must be in [0, 1]");
}

// u_i = F_i(y_i).
template <class Data>
std::vector<double> pit_of(const Data& data) {
    std::vector<double> u(data.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        u[i] = data.cdf(r, data.targets()(r));
    }
    return u;
}

}  // namespace

template <class Data, class>
std::vector<double> pit(const Data& data) {
    return pit_of(data);
}
#define CALIB_PIT(Data) template std::vector<double> pit(const Data&);
CALIB_FOR_EACH_UNIVARIATE_FAMILY(CALIB_PIT)
#undef CALIB_PIT

PitHistogram pit_histogram(const std::vector<double>& u, std::size_t bins, double level) {
    const char* fn = "pit_histogram";
    check_u(fn, u);
    check_level(fn, level);
    detail::check_bins(fn, "bins", bins);
    PitHistogram h;
    h.n = u.size();
    h.level = level;
    h.counts.assign(bins, 0);
    for (const double x : u) ++h.counts[static_cast<std::size_t>(detail::uniform_bin_index(x, static_cast<int>(bins)) - 1)];
    // The tightest band with P(X < lower) ≤ a and P(X > upper) ≤ a, a = (1 − level)/2: lower is the
    // smallest k with P(X ≤ k) > a, upper the largest with P(X ≥ k) > a. Boost's discrete quantiles
    // (rounded outwards) start the search; the CDF settles it.
    const double a = (1 - level) / 2;
    const boost::math::binomial_distribution<> binomial(static_cast<double>(h.n), 1.0 / static_cast<double>(bins));
    const auto at_most = [&](std::size_t k) { return cdf(binomial, static_cast<double>(k)); };                  // P(X ≤ k)
    const auto at_least = [&](std::size_t k) { return k == 0 ? 1.0 : cdf(complement(binomial, static_cast<double>(k - 1))); };  // P(X ≥ k)
    std::size_t lower = static_cast<std::size_t>(quantile(binomial, a));
    while (lower < h.n && at_most(lower) <= a) ++lower;
    while (lower > 0 && at_most(lower - 1) > a) --lower;
    std::size_t upper = static_cast<std::size_t>(quantile(complement(binomial, a)));
    while (upper > 0 && at_least(upper) <= a) --upper;
    while (upper < h.n && at_least(upper + 1) > a) ++upper;
    h.band_lower = lower;
    h.band_upper = upper;
    return h;
}

namespace {

// For each nominal τ, the fraction of u with inside(u, τ), with its Clopper–Pearson interval.
template <class Inside>
CoverageCurve coverage(const char* fn, const std::vector<double>& u, const std::vector<double>& nominal, double level,
                       Inside inside) {
    check_u(fn, u);
    check_level(fn, level);
    CoverageCurve c;
    c.n = u.size();
    c.level = level;
    for (const double tau : nominal) {
        if (!(tau > 0 && tau < 1)) detail::fail(fn, "nominal level ", detail::format_value(tau), ", must be in (0, 1)");
        std::size_t count = 0;
        for (const double x : u) count += inside(x, tau);
        const ProportionInterval ci = clopper_pearson(count, u.size(), level);
        c.nominal.push_back(tau);
        c.observed.push_back(static_cast<double>(count) / static_cast<double>(u.size()));
        c.lower.push_back(ci.lower);
        c.upper.push_back(ci.upper);
    }
    return c;
}

}  // namespace

CoverageCurve interval_coverage(const std::vector<double>& u, const std::vector<double>& nominal, double level) {
    return coverage("interval_coverage", u, nominal, level,
                    [](double x, double tau) { return x >= (1 - tau) / 2 && x <= (1 + tau) / 2; });
}

std::vector<double> mahalanobis_pit(const MvNormalData& data) {
    const boost::math::chi_squared_distribution<> chi2(data.dimension());
    std::vector<double> u(data.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        // A distance that overflows (a target far outside a tiny covariance) is beyond every
        // ellipsoid: u = 1, the chi-square CDF's limit.
        const double d2 = detail::mahalanobis(data, i, "mahalanobis_pit").squared_distance;
        if (std::isnan(d2))
            throw numerical_error(detail::concat("calib::mahalanobis_pit: the squared Mahalanobis distance of row ", i,
                                                 " is not a number (extreme inputs?)"));
        u[i] = std::isinf(d2) ? 1.0 : cdf(chi2, d2);
    }
    return u;
}

CoverageCurve ellipsoid_coverage(const std::vector<double>& u, const std::vector<double>& nominal, double level) {
    return coverage("ellipsoid_coverage", u, nominal, level, [](double x, double tau) { return x <= tau; });
}


std::vector<double> pit(const AnyData& data) {
    return std::visit(
        [](const auto& d) -> std::vector<double> {
            using Data = std::decay_t<decltype(d)>;
            if constexpr (is_univariate_v<Data>) {
                return pit(d);
            } else {
                detail::fail("pit", "the PIT is for univariate predictive distributions (normal, laplace, "
                             "mixture-normal), not ",
                             std::is_same_v<Data, CategoricalData> ? "class predictions"
                                                                   : "multivariate normal predictions");
            }
        },
        data);
}

PredictiveChecks predictive_checks(const AnyData& data, std::size_t bins, const std::vector<double>& nominal,
                                   double level) {
    if (std::holds_alternative<CategoricalData>(data))
        detail::fail("predictive_checks", "the PIT and the coverage are for predictive distributions, not class "
                     "predictions");
    PredictiveChecks checks;
    if (const auto* mv = std::get_if<MvNormalData>(&data)) {
        const std::vector<double> u = mahalanobis_pit(*mv);
        checks.dimension = mv->dimension();
        checks.pit = pit_histogram(u, bins, level);
        checks.coverage = ellipsoid_coverage(u, nominal, level);
        return checks;
    }
    const std::vector<double> u = pit(data);
    checks.pit = pit_histogram(u, bins, level);
    checks.coverage = interval_coverage(u, nominal, level);
    return checks;
}

}  // namespace calib

// The CME (Hotelling T²) test at J test locations (hypothesis.hpp).
#include <calib/hypothesis.hpp>
#include <calib/tool/random.hpp>

#include "core/check.hpp"
#include "data/family_list.hpp"
#include "hypothesis/p_values.hpp"
#include "core/compensated_sum.hpp"
#include "core/parallel.hpp"

#include <Eigen/Cholesky>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>

#include <cmath>
#include <cstdint>
#include <numeric>

namespace calib {

using detail::fail;

namespace {

// The validity range of each reference, J² ≤ (per_mille / 1000)·n: below the smallest J²/n at which
// the measured type-I error left the 99 % binomial band around α = 0.05 (repro-validity's
// cme_summary.csv for 10-class and normal predictions; for predictions of two classes, whose features
// at the locations are functions of one number and nearly collinear, its binary design: every cell at
// J²/n ≤ 0.002 inside, three of 0.004–0.005 above; docs/tests.md). Integers, so that the boundary is exact.
std::uint64_t validity_per_mille(CmeReference reference, bool two_classes) {
    if (two_classes) return 2;
    return reference == CmeReference::f ? 70 : 50;
}

// Predictions of two classes take the narrower range; other families' predictions have two or more numbers.
template <class Data>
bool has_two_classes(const Data&) {
    return false;
}
bool has_two_classes(const CategoricalData& data) { return data.num_classes() == 2; }

const char* reference_name(CmeReference reference) { return reference == CmeReference::f ? "F" : "chi-squared"; }

}  // namespace

std::size_t cme_max_locations(std::size_t n, CmeReference reference, bool two_classes) {
    const std::uint64_t bound = validity_per_mille(reference, two_classes) * std::uint64_t(n);  // 1000·J² ≤ bound
    auto j = static_cast<std::uint64_t>(std::sqrt(double(bound) / 1000));
    while (1000 * (j + 1) * (j + 1) <= bound) ++j;
    while (j > 0 && 1000 * j * j > bound) --j;
    return static_cast<std::size_t>(j);
}

void validate(const CmeOptions& options, std::size_t n, std::size_t J, bool two_classes) {
    const char* fn = "cme_test";
    if (!(std::isfinite(options.ridge) && options.ridge >= 0))
        fail(fn, "`ridge` = ", detail::format_value(options.ridge), ", must be finite and >= 0");
    if (n <= J)
        throw numerical_error(detail::concat(
            "calib::cme_test: n = ", n, " observations for J = ", J,
            " test locations; the covariance of the deviations is singular when n <= J; use more data or fewer "
            "locations (n >> J for a reliable chi-squared null)"));
    const std::size_t max_locations = cme_max_locations(n, options.reference, two_classes);
    if (J > max_locations && !options.allow_outside_validity) {
        const double per_mille = double(validity_per_mille(options.reference, two_classes));
        const std::string needed = detail::format_value(std::ceil(1000 * double(J) * double(J) / per_mille));
        fail(fn, "J = ", J, " test locations on n = ", n, " observations is outside the validity range of the ",
             reference_name(options.reference), " null", two_classes ? " for predictions of two classes" : "",
             " (J^2 <= ", detail::format_value(per_mille / 1000),
             " n; beyond it calibrated models are rejected far more often than alpha, docs/tests.md): ",
             max_locations > 0 ? detail::concat("use at most J = ", max_locations, " or at least n = ", needed)
                               : detail::concat("use at least n = ", needed),
             " observations");
    }
}

template <class Data>
TestResult cme_test(const Data& data, const Data& locations, const Kernel& kernel, const CmeOptions& options) {
    const std::size_t n = data.size(), J = locations.size();
    const bool two_classes = has_two_classes(data);
    validate(options, n, J, two_classes);
    const bool outside_validity = J > cme_max_locations(n, options.reference, two_classes);
    const Matrix z = ucme_deviations(data, locations, kernel, options.parallel);

    // Column means, then the (n−1)-covariance S; each entry is one task with a fixed order.
    Vector mean(J);
    for (Eigen::Index j = 0; j < z.cols(); ++j) {
        detail::CompensatedSum s;
        for (Eigen::Index i = 0; i < z.rows(); ++i) s.add(z(i, j));
        mean(j) = s.value() / double(n);
    }
    const Matrix centred = z.rowwise() - mean.transpose();
    Matrix covariance(J, J);
    detail::parallel_for(J, options.parallel, [&](std::size_t a) {
        for (std::size_t b = 0; b <= a; ++b) {
            detail::CompensatedSum s;
            for (Eigen::Index i = 0; i < centred.rows(); ++i)
                s.add(centred(i, Eigen::Index(a)) * centred(i, Eigen::Index(b)));
            covariance(Eigen::Index(a), Eigen::Index(b)) = covariance(Eigen::Index(b), Eigen::Index(a)) = s.value() / double(n - 1);
        }
    });
    covariance.diagonal().array() += options.ridge;
    const Eigen::LLT<Matrix> llt(covariance);
    // A numerically singular S: the Cholesky factor fails or its pivots collapse relative to the largest.
    const Vector pivots = llt.matrixLLT().diagonal();
    if (llt.info() != Eigen::Success || !(pivots.minCoeff() > 1e-7 * pivots.maxCoeff()))
        throw numerical_error(detail::concat(
            "calib::cme_test: the covariance of the deviations at the ", J,
            " test locations is singular", options.ridge > 0 ? " even with the ridge" : "",
            "; use fewer or more distinct test locations, or regularise with a ridge (CmeOptions::ridge, --ridge EPS)"));
    const double q = double(n) * mean.dot(llt.solve(mean));

    TestResult result;
    result.method = "cme";
    result.estimator = "ucme";
    result.estimate = mean.squaredNorm() / double(J);
    result.statistic = q;
    result.n = n;
    CmeDetails details;
    details.num_locations = J;
    details.reference = options.reference;
    details.df1 = double(J);
    details.ridge = options.ridge;
    details.outside_validity_range = outside_validity;
    if (options.reference == CmeReference::chi2) {
        result.null_approximation = "chi2";
        result.p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(double(J)), q));
    } else {
        // Hotelling: (n − J)/(J (n − 1)) · Q ∼ F(J, n − J) for Gaussian deviations.
        details.df2 = double(n - J);
        details.f_statistic = double(n - J) / (double(J) * double(n - 1)) * q;
        result.null_approximation = "f";
        result.p_value = boost::math::cdf(
            boost::math::complement(boost::math::fisher_f(double(J), double(n - J)), details.f_statistic));
    }
    result.details = details;
    return detail::checked_test_result("cme_test", std::move(result));
}

template <class Data>
TestResult cme_test(const Data& data, std::size_t num_locations, std::uint64_t seed, const Kernel& kernel,
                    const CmeOptions& options) {
    const std::size_t n = data.size();
    if (num_locations < 1 || num_locations >= n)
        fail("cme_test", "num_locations = ", num_locations, ", must be in [1, n - 1 = ", n - 1, "]");
    Rng rng(seed);
    const std::vector<std::size_t> chosen = sample_without_replacement(n, num_locations, rng);
    std::vector<std::size_t> rest;
    rest.reserve(n - num_locations);
    for (std::size_t i = 0, c = 0; i < n; ++i) {
        if (c < chosen.size() && chosen[c] == i)
            ++c;
        else
            rest.push_back(i);
    }
    TestResult result = cme_test(subset(data, rest), subset(data, chosen), kernel, options);
    CmeDetails& details = std::get<CmeDetails>(result.details);
    details.locations_drawn = true;
    details.locations_seed = seed;
    return result;
}

#define CALIB_INSTANTIATE(Data)                                                                           \
    template TestResult cme_test<Data>(const Data&, const Data&, const Kernel&, const CmeOptions&);       \
    template TestResult cme_test<Data>(const Data&, std::size_t, std::uint64_t, const Kernel&, const CmeOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

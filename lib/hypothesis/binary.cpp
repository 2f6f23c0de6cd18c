// The tests of binary predictions (hypothesis.hpp): Spiegelhalter's z, calibration-in-the-large,
// Hosmer–Lemeshow and Cox's logistic recalibration. Each is serial passes over the data in its order
// (a sort for Hosmer–Lemeshow's ranks, a pass per Newton step for Cox's), so results do not depend on
// the number of threads.
#include <calib/hypothesis.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "hypothesis/event_probabilities.hpp"
#include "hypothesis/p_values.hpp"

#include <Eigen/QR>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/tools/toms748_solve.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>
#include <vector>

namespace calib {

using detail::event_probabilities;
using detail::fail;

namespace {

// A two-sided z-test of `numerator` (a sum of independent centred terms under calibration) with the
// variance `variance`; the statistic is |z|. A zero variance (every term is fixed) gives p = 1 when the
// numerator is 0 and p = 0 otherwise (an outcome of probability 0 happened).
TestResult two_sided_z(const char* method, const char* estimator, double estimate, double numerator, double variance,
                       double expected, double std_error, std::size_t n) {
    BinaryZDetails details;
    details.degenerate = !(variance > 0);
    details.expected = expected;
    details.std_error = std_error;
    const double infinity = std::numeric_limits<double>::infinity();
    details.z = details.degenerate ? (numerator == 0 ? 0.0 : std::copysign(infinity, numerator))
                                   : numerator / std::sqrt(variance);
    TestResult result;
    result.method = method;
    result.null_approximation = "normal";
    result.estimator = estimator;
    result.estimate = estimate;
    result.statistic = std::abs(details.z);
    result.p_value = details.degenerate ? (numerator == 0 ? 1.0 : 0.0)
                                        : std::min(1.0, 2 * boost::math::cdf(boost::math::complement(
                                                                boost::math::normal(), result.statistic)));
    result.n = n;
    result.details = details;
    return result;
}

// R's breaks seq(0, 1, 1/g) |> quantile(p, _) (type 7, in R's arithmetic: the k-th probability is
// k·(1/g), the quantile (1 − h)·x_lo + h·x_hi).
std::vector<double> r_quantile_breaks(const Vector& p, std::size_t g) {
    std::vector<double> x(p.data(), p.data() + p.size());
    std::sort(x.begin(), x.end());
    std::vector<double> breaks(g + 1);
    const double by = 1.0 / double(g);
    for (std::size_t k = 0; k <= g; ++k) {
        const double index = double(x.size() - 1) * (double(k) * by);
        const auto lo = static_cast<std::size_t>(std::floor(index)), hi = static_cast<std::size_t>(std::ceil(index));
        const double h = index - double(lo);
        breaks[k] = index > double(lo) && x[hi] != x[lo] ? (1 - h) * x[lo] + h * x[hi] : x[lo];
    }
    return breaks;
}

// The group (0-based) of each observation: by rank with ties together, between R's quantile breaks,
// or by the fixed cut points k/g.
std::vector<std::size_t> hosmer_lemeshow_groups(const Vector& p, std::size_t g,
                                                HosmerLemeshowGrouping grouping) {
    const std::size_t n = static_cast<std::size_t>(p.size());
    std::vector<std::size_t> group(n);
    if (grouping == HosmerLemeshowGrouping::quantile_breaks) {
        // Group k holds b_k < p ≤ b_(k+1), the first also p = b_0; a p above the last break (when
        // g·(1/g) rounds below 1) goes to the last group. Tied breaks leave empty groups.
        const std::vector<double> breaks = r_quantile_breaks(p, g);
        for (std::size_t i = 0; i < n; ++i) {
            const auto first_not_below = std::lower_bound(breaks.begin() + 1, breaks.end(), p[Eigen::Index(i)]);
            group[i] = std::min<std::size_t>(g - 1, std::size_t(first_not_below - (breaks.begin() + 1)));
        }
        return group;
    }
    if (grouping == HosmerLemeshowGrouping::fixed) {
        for (std::size_t i = 0; i < n; ++i) {
            // The smallest k ≥ 1 with p ≤ k/g, with the cut points as the divisions k/g (so 0.3 is in
            // the third of ten groups, exactly).
            const auto cut = [g](std::size_t k) { return double(k) / double(g); };
            std::size_t k = std::min<std::size_t>(g, std::max<std::size_t>(1, std::size_t(std::ceil(p[i] * g))));
            while (k > 1 && p[i] <= cut(k - 1)) --k;
            while (k < g && p[i] > cut(k)) ++k;
            group[i] = k - 1;
        }
        return group;
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    for (std::size_t start = 0; start < n;) {
        std::size_t end = start + 1;  // [start, end): one run of tied predictions
        while (end < n && p[order[end]] == p[order[start]]) ++end;
        // r = end, the number of predictions ≤ this one; the group ⌈g·r/n⌉ (1-based).
        const std::size_t k = (g * end + n - 1) / n;
        for (std::size_t j = start; j < end; ++j) group[order[j]] = k - 1;
        start = end;
    }
    return group;
}

// Cox's logistic recalibration: the log-likelihood of logit P(Y = 1) = a + b·x, its maximum by Newton's
// method, and its profiles (the maximum over one coefficient with the other held).
class CoxFit {
public:
    CoxFit(const Vector& x, const std::vector<int>& y) : x_(x), y_(y) {}

    double log_likelihood(double a, double b) const {
        detail::CompensatedSum sum;
        for (Eigen::Index i = 0; i < x_.size(); ++i) {
            const double eta = a + b * x_[i];
            // y·η − log(1 + e^η), with log(1 + e^η) = max(η, 0) + log1p(e^−|η|).
            sum.add(y_[std::size_t(i)] * eta - (std::max(eta, 0.0) + std::log1p(std::exp(-std::abs(eta)))));
        }
        return sum.value();
    }

    struct Result {
        double a = 0, b = 1;
        double log_likelihood = 0;
        Eigen::Matrix2d covariance = Eigen::Matrix2d::Zero();  // the inverse information (Wald's)
        std::size_t iterations = 0;
        bool converged = false;
    };
    // Newton's method for (a, b) from (0, 1).
    Result maximise() const { return newton(Held::none, 0, 1); }
    // The maximum over the intercept with the slope held at b (held = slope), or over the slope with the
    // intercept held at a (held = intercept), from `start` of the free one. A profile that grows without
    // bound (the free coefficient separates the outcomes) returns with converged = false and ℓ near its
    // supremum.
    enum class Held { none, intercept, slope };
    Result profile(Held held, double value, double start) const {
        return held == Held::slope ? newton(held, start, value) : newton(held, value, start);
    }

private:
    static constexpr std::size_t max_iterations = 100;

    // Halves the steps that would lower the likelihood while it can still tell; near the maximum (the gain
    // gradient·step promised is below what ℓ's rounding can show) takes Newton's full step, which converges
    // quadratically from there.
    Result newton(Held held, double a, double b) const {
        Result r;
        r.a = a;
        r.b = b;
        r.log_likelihood = log_likelihood(r.a, r.b);
        for (r.iterations = 0; r.iterations < max_iterations; ++r.iterations) {
            Eigen::Vector2d gradient = Eigen::Vector2d::Zero();
            Eigen::Matrix2d information = Eigen::Matrix2d::Zero();
            for (Eigen::Index i = 0; i < x_.size(); ++i) {
                const double eta = r.a + r.b * x_[i];
                const double mu = eta >= 0 ? 1 / (1 + std::exp(-eta)) : std::exp(eta) / (1 + std::exp(eta));
                const double w = mu * (1 - mu), residual = y_[std::size_t(i)] - mu;
                gradient += residual * Eigen::Vector2d(1, x_[i]);
                information += w * Eigen::Matrix2d{{1, x_[i]}, {x_[i], x_[i] * x_[i]}};
            }
            r.covariance = inverse(information, held);
            const Eigen::Vector2d step = r.covariance * gradient;
            if (std::abs(step[0]) + std::abs(step[1]) <= 1e-12 * (1 + std::abs(r.a) + std::abs(r.b))) {
                r.converged = r.covariance.allFinite();
                return r;
            }
            double scale = 1, next = log_likelihood(r.a + step[0], r.b + step[1]);
            if (gradient.dot(step) > 1e-10 * (1 + std::abs(r.log_likelihood)))
                for (int halving = 0; halving < 60 && !(next >= r.log_likelihood); ++halving) {
                    scale /= 2;
                    next = log_likelihood(r.a + scale * step[0], r.b + scale * step[1]);
                }
            r.a += scale * step[0];
            r.b += scale * step[1];
            r.log_likelihood = next;
            if (std::abs(r.a) + std::abs(r.b) > 1e6) return r;  // diverging: separation
        }
        return r;
    }

    // The inverse of the information in the free coefficients (0 in the held one's row and column).
    static Eigen::Matrix2d inverse(const Eigen::Matrix2d& information, Held held) {
        Eigen::Matrix2d out = Eigen::Matrix2d::Zero();
        if (held != Held::none) {
            const int k = held == Held::slope ? 0 : 1;
            out(k, k) = 1 / information(k, k);
            return out;
        }
        const double det = information(0, 0) * information(1, 1) - information(0, 1) * information(1, 0);
        if (!(det > 0)) return Eigen::Matrix2d::Constant(std::numeric_limits<double>::quiet_NaN());
        out << information(1, 1), -information(0, 1), -information(1, 0), information(0, 0);
        return out / det;
    }

    const Vector& x_;
    const std::vector<int>& y_;
};

[[noreturn]] void cox_separated() {
    throw numerical_error(
        "calib::cox_test: the logistic recalibration did not converge (its coefficients grow without bound): the "
        "outcomes are separated by the predictions (every event predicted above every non-event, as happens at "
        "small n), so the calibration slope is infinite; use more data or another test");
}

// The likelihood-ratio interval {t : deviance(t) ≤ cutoff} around the estimate `center` (deviance 0), where
// deviance(t) = 2(ℓ̂ − ℓ's profile at t) grows on each side: each end is bracketed by doubling steps from
// the Wald half-width and then found by TOMS 748 to 1e-12 relative. An end the deviance never reaches
// (the profile levels off) is infinite.
template <class Deviance>
std::pair<double, double> likelihood_ratio_interval(double center, double half_width, double cutoff,
                                                    const Deviance& deviance) {
    const auto end = [&](double direction) {
        double inside = center, step = half_width > 0 && std::isfinite(half_width) ? half_width : 1.0;
        for (int doubling = 0; doubling < 40; ++doubling, step *= 2) {
            const double outside = center + direction * step;
            const double d = deviance(outside);
            if (!(d < cutoff)) {
                const double f_inside = deviance(inside) - cutoff, f_outside = d - cutoff;
                const auto shifted = [&](double t) { return deviance(t) - cutoff; };
                const auto close = [](double lo, double hi) { return std::abs(hi - lo) <= 1e-12 * (1 + std::abs(lo)); };
                std::uintmax_t evaluations = 100;
                const auto root = direction > 0 ? boost::math::tools::toms748_solve(shifted, inside, outside, f_inside,
                                                                                    f_outside, close, evaluations)
                                                : boost::math::tools::toms748_solve(shifted, outside, inside, f_outside,
                                                                                    f_inside, close, evaluations);
                return (root.first + root.second) / 2;
            }
            inside = outside;
        }
        return direction * std::numeric_limits<double>::infinity();
    };
    return {end(-1), end(1)};
}

}  // namespace

std::string to_string(HosmerLemeshowGrouping grouping) {
    switch (grouping) {
        case HosmerLemeshowGrouping::quantiles: return "quantiles";
        case HosmerLemeshowGrouping::quantile_breaks: return "quantile-breaks";
        case HosmerLemeshowGrouping::fixed: break;
    }
    return "fixed";
}
std::string to_string(HosmerLemeshowDf df) { return df == HosmerLemeshowDf::validation ? "validation" : "development"; }

namespace {

// The test with the numerator's variance `variance(p)` (of Σ (y − p)(1 − 2p) under calibration).
template <class Variance>
TestResult spiegelhalter(const CategoricalData& data, Variance variance_of) {
    const Vector p = event_probabilities("spiegelhalter_test", data);
    const std::vector<int>& y = data.labels();
    detail::CompensatedSum brier, expected, numerator, variance;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        const double q = p[i], residual = y[std::size_t(i)] - q, w = 1 - 2 * q, v = q * (1 - q);
        brier.add(residual * residual);
        expected.add(v);
        numerator.add(residual * w);
        variance.add(w * w * v);
    }
    const double var = variance_of(p, variance.value());
    // The Brier score of the two-class vectors, (1/n) Σ ‖p − e_y‖² = (2/n) Σ (y − p)² (calib's one Brier
    // score, as `calib estimate --estimator brier`), with its mean and standard deviation under calibration.
    const double scale = 2 / double(p.size());
    return detail::checked_test_result(
        "spiegelhalter_test", two_sided_z("spiegelhalter", "brier", scale * brier.value(), numerator.value(), var,
                                          scale * expected.value(), scale * std::sqrt(var), data.size()));
}

}  // namespace

TestResult spiegelhalter_test(const CategoricalData& data) {
    return spiegelhalter(data, [](const Vector&, double validation) { return validation; });
}

TestResult spiegelhalter_test(const CategoricalData& data, const Matrix& covariates) {
    const char* fn = "spiegelhalter_test";
    if (std::size_t(covariates.rows()) != data.size())
        fail(fn, "the covariates have ", covariates.rows(), " rows, the data n = ", data.size());
    if (!covariates.allFinite()) fail(fn, "the covariates must be finite");
    return spiegelhalter(data, [&](const Vector& p, double validation) {
        if (validation == 0) return 0.0;  // every p in {0, 1/2, 1}: degenerate as without covariates
        // Weighted least squares of d = 1 − 2p on [1, X], weights w = p(1 − p), by pivoted QR of
        // diag(√w)[1, X]; the variance is the residual sum of squares, the squared norm of the part of
        // Qᵀ·target beyond the rank. Columns within 1e-10 (relative pivot) of the span of the others do
        // not count, so a repeated or collinear covariate gives the same fit on every build (Eigen's
        // solve takes the rank found while factorising, where rounding decides whether a copy's pivot
        // of about 1e-16 counts).
        const Vector root_w = (p.array() * (1 - p.array())).sqrt().matrix();
        Matrix design(covariates.rows(), covariates.cols() + 1);
        design.col(0) = root_w;
        design.rightCols(covariates.cols()) = root_w.asDiagonal() * covariates;
        const Vector target = root_w.cwiseProduct((1 - 2 * p.array()).matrix());
        Eigen::ColPivHouseholderQR<Matrix> qr(design);
        qr.setThreshold(1e-10);
        const Vector rotated = qr.householderQ().adjoint() * target;
        const double rss = rotated.tail(rotated.size() - qr.rank()).squaredNorm();
        if (!(rss > 1e-12 * validation))
            fail(fn, "the covariates explain 1 - 2p entirely (residual sum of squares ", detail::format_value(rss),
                 "): the test's variance is 0; leave out the covariates that are functions of p");
        return rss;
    });
}

TestResult calibration_in_the_large_test(const CategoricalData& data) {
    const Vector p = event_probabilities("calibration_in_the_large_test", data);
    const std::vector<int>& y = data.labels();
    detail::CompensatedSum observed, predicted, variance;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        observed.add(y[std::size_t(i)]);
        predicted.add(p[i]);
        variance.add(p[i] * (1 - p[i]));
    }
    const double n = double(p.size());
    const double difference = (observed.value() - predicted.value()) / n;
    return detail::checked_test_result(
        "calibration_in_the_large_test",
        two_sided_z("citl", "mean-difference", difference, observed.value() - predicted.value(), variance.value(),
                    predicted.value() / n, std::sqrt(variance.value()) / n, data.size()));
}

void validate(const HosmerLemeshowOptions& options, std::size_t n) {
    if (options.groups < 2 || options.groups > detail::max_histogram_bins)
        fail("hosmer_lemeshow_test", "groups = ", options.groups, ", must be in [2, ", detail::max_histogram_bins, "]");
    if (options.df == HosmerLemeshowDf::development && options.groups < 3)
        fail("hosmer_lemeshow_test", "groups = ", options.groups,
             " leaves no degrees of freedom with the development rule (G - 2); use at least 3 `groups`");
    if (options.grouping == HosmerLemeshowGrouping::quantiles && options.groups > n)
        fail("hosmer_lemeshow_test", "groups = ", options.groups, " with n = ", n,
             " observations; groups of equal size need at most one group per observation (10 groups is the usual "
             "choice)");
}

TestResult hosmer_lemeshow_test(const CategoricalData& data, const HosmerLemeshowOptions& options) {
    const Vector p = event_probabilities("hosmer_lemeshow_test", data);
    validate(options, data.size());
    const std::vector<int>& y = data.labels();
    const std::size_t g = options.groups;
    const std::vector<std::size_t> group = hosmer_lemeshow_groups(p, g, options.grouping);
    std::vector<detail::CompensatedSum> observed(g), expected(g);
    std::vector<std::size_t> size(g, 0);
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        const std::size_t k = group[std::size_t(i)];
        observed[k].add(y[std::size_t(i)]);
        expected[k].add(p[i]);
        ++size[k];
    }
    HosmerLemeshowDetails details;
    details.grouping = options.grouping;
    details.df_rule = options.df;
    details.smallest_expected = std::numeric_limits<double>::infinity();
    detail::CompensatedSum statistic, squared_error;
    const double n = double(data.size());
    for (std::size_t k = 0; k < g; ++k) {
        if (size[k] == 0) continue;
        ++details.groups;
        const double nk = double(size[k]), o = observed[k].value(), e = expected[k].value();
        details.smallest_expected = std::min({details.smallest_expected, e, nk - e});
        const double variance = e * (1 - e / nk), deviation = o - e;
        // All predictions 0 (or all 1): the outcomes are certain under calibration.
        if (variance > 0)
            statistic.add(deviation * deviation / variance);
        else if (deviation != 0)
            statistic.add(std::numeric_limits<double>::infinity());
        squared_error.add(nk / n * (deviation / nk) * (deviation / nk));
    }
    const std::size_t lost = options.df == HosmerLemeshowDf::development ? 2 : 0;
    if (details.groups <= lost)  // only when groups are empty: validate() asked for g ≥ 3
        fail("hosmer_lemeshow_test", "only ", details.groups, " of the ", g,
             " groups hold predictions (tied or concentrated predictions), and the development rule needs at least "
             "3 for G - 2 degrees of freedom; use the other `grouping`, or `df` validation");
    details.df = double(details.groups - lost);

    TestResult result;
    result.method = "hosmer-lemeshow";
    result.null_approximation = "chi2";
    result.estimator = "grouped-squared-ce";
    result.estimate = squared_error.value();
    result.statistic = statistic.value();
    result.p_value = std::isinf(result.statistic)
                         ? 0.0
                         : boost::math::cdf(boost::math::complement(boost::math::chi_squared(details.df),
                                                                    result.statistic));
    result.n = data.size();
    result.details = details;
    return detail::checked_test_result("hosmer_lemeshow_test", std::move(result));
}

void validate(const CoxOptions& options, std::size_t n) {
    if (!(options.level > 0 && options.level < 1))
        fail("cox_test", "level = ", options.level, ", must be in (0, 1)");
    if (!(options.clip >= 0 && options.clip < 0.5)) fail("cox_test", "clip = ", options.clip, ", must be in [0, 0.5)");
    detail::check_min_size("cox_test", n, 2, "a slope and an intercept");
}

TestResult cox_test(const CategoricalData& data, const CoxOptions& options) {
    const Vector p = event_probabilities("cox_test", data);
    validate(options, data.size());
    const std::vector<int>& y = data.labels();
    Vector x(p.size());
    std::size_t clipped = 0;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        double q = p[i];
        if (options.clip > 0 && !(q >= options.clip && q <= 1 - options.clip)) {
            q = std::min(std::max(q, options.clip), 1 - options.clip);
            ++clipped;
        }
        if (!(q > 0 && q < 1))
            fail("cox_test", "prediction ", i, " is ", p[i],
                 "; the logistic recalibration needs predictions strictly between 0 and 1 (its covariate is logit p): "
                 "`clip` EPS (e.g. 1e-15, as scikit-learn's log_loss clips) takes them into [EPS, 1 - EPS], or the "
                 "tests spiegelhalter, citl, hosmer-lemeshow and ks take them as they are");
        x[i] = std::log(q) - std::log1p(-q);
    }
    if (std::all_of(y.begin(), y.end(), [&](int v) { return v == y[0]; }))
        fail("cox_test", "every outcome is ", y[0], "; the calibration slope needs both outcomes");
    if ((x.array() == x[0]).all())
        fail("cox_test", "every prediction is ", p[0], "; the calibration slope needs predictions that differ");

    const CoxFit fit(x, y);
    using Held = CoxFit::Held;
    const CoxFit::Result joint = fit.maximise(), citl = fit.profile(Held::slope, 1, 0);
    if (!joint.converged || !citl.converged) cox_separated();
    const double z = boost::math::quantile(boost::math::normal(), 0.5 + options.level / 2);
    const double cutoff = boost::math::quantile(boost::math::chi_squared(1.0), options.level);
    const double null_log_likelihood = fit.log_likelihood(0, 1);
    // Twice a log-likelihood gain, ≥ 0 up to rounding (each fit starts at the smaller model's point).
    const auto gain = [](double larger, double smaller) { return std::max(0.0, 2 * (larger - smaller)); };
    const auto chi2_tail = [](double df, double statistic) {
        return boost::math::cdf(boost::math::complement(boost::math::chi_squared(df), statistic));
    };

    CoxDetails details;
    details.level = options.level;
    details.iterations = joint.iterations;
    details.clip = options.clip;
    details.clipped = clipped;
    details.intercept = joint.a;
    details.intercept_se = std::sqrt(joint.covariance(0, 0));
    details.intercept_lower = joint.a - z * details.intercept_se;
    details.intercept_upper = joint.a + z * details.intercept_se;
    details.slope = joint.b;
    details.slope_se = std::sqrt(joint.covariance(1, 1));
    details.slope_lower = joint.b - z * details.slope_se;
    details.slope_upper = joint.b + z * details.slope_se;
    details.citl_intercept = citl.a;
    details.citl_se = std::sqrt(citl.covariance(0, 0));
    details.citl_lower = citl.a - z * details.citl_se;
    details.citl_upper = citl.a + z * details.citl_se;

    // Likelihood-ratio (profile) intervals, each profile warm-started from the last point evaluated.
    double free = joint.a;
    std::tie(details.slope_lr_lower, details.slope_lr_upper) =
        likelihood_ratio_interval(joint.b, z * details.slope_se, cutoff, [&](double b) {
            const CoxFit::Result r = fit.profile(Held::slope, b, free);
            free = std::isfinite(r.a) ? r.a : joint.a;
            return gain(joint.log_likelihood, r.log_likelihood);
        });
    free = joint.b;
    std::tie(details.intercept_lr_lower, details.intercept_lr_upper) =
        likelihood_ratio_interval(joint.a, z * details.intercept_se, cutoff, [&](double a) {
            const CoxFit::Result r = fit.profile(Held::intercept, a, free);
            free = std::isfinite(r.b) ? r.b : joint.b;
            return gain(joint.log_likelihood, r.log_likelihood);
        });
    std::tie(details.citl_lr_lower, details.citl_lr_upper) =
        likelihood_ratio_interval(citl.a, z * details.citl_se, cutoff,
                                  [&](double a) { return gain(citl.log_likelihood, fit.log_likelihood(a, 1)); });

    // The joint statistic splits into the intercept's with the slope at 1 and the slope's given a free
    // intercept [Miller, Hui & Tierney 1991].
    details.citl_statistic = gain(citl.log_likelihood, null_log_likelihood);
    details.citl_p_value = chi2_tail(1, details.citl_statistic);
    details.slope_statistic = gain(joint.log_likelihood, citl.log_likelihood);
    details.slope_p_value = chi2_tail(1, details.slope_statistic);

    TestResult result;
    result.method = "cox";
    result.null_approximation = "chi2";
    result.estimator = "calibration-slope";
    result.estimate = joint.b;
    result.statistic = gain(joint.log_likelihood, null_log_likelihood);
    result.p_value = chi2_tail(2, result.statistic);
    result.n = data.size();
    result.details = details;
    return detail::checked_test_result("cox_test", std::move(result));
}

}  // namespace calib

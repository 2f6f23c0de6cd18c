// The local calibration error with an RBF kernel on features (metrics.hpp; digest §8): the kernel-
// weighted PIT coverage at each observation, through the engine's Gram products.
#include <calib/metrics.hpp>
#include <calib/reliability.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "data/family_list.hpp"
#include "engine/pair_selection.hpp"
#include "engine/pairwise.hpp"
#include "squared_ce/rbf_term.hpp"

#include <cmath>

namespace calib {

using detail::fail;

namespace {

void check_features(const char* fn, const Matrix& features, std::size_t n) {
    if (static_cast<std::size_t>(features.rows()) != n)
        fail(fn, "features has ", features.rows(), " rows but the data has ", n, " observations; they must match");
    if (features.cols() < 1) fail(fn, "features has no columns; at least one is needed");
    for (Eigen::Index j = 0; j < features.cols(); ++j)
        for (Eigen::Index i = 0; i < features.rows(); ++i)
            if (!std::isfinite(features(i, j)))
                fail(fn, "features(", i, ", ", j, ") = ", detail::format_value(features(i, j)), ", must be finite");
}

// The median of ‖x_i − x_j‖ over i < j; points d×n, one observation per column.
double median_distance_of(const Matrix& points, const ParallelOptions& parallel) {
    const std::uint64_t n = static_cast<std::uint64_t>(points.cols()), pairs = n * (n - 1) / 2;
    const auto term = detail::function_term(
        [&](std::size_t i, std::size_t j0, std::size_t j1, double* out) {
            const auto x = points.col(static_cast<Eigen::Index>(i));
            for (std::size_t j = j0; j < j1; ++j) out[j - j0] = (x - points.col(static_cast<Eigen::Index>(j))).norm();
        },
        static_cast<std::size_t>(points.cols()));
    std::vector<std::uint64_t> ranks{pairs / 2};
    if (pairs % 2 == 0) ranks.insert(ranks.begin(), pairs / 2 - 1);
    const std::vector<double> middle = detail::select_pair_ranks(term, ranks, parallel);
    const double median = middle.size() == 1 ? middle[0] : 0.5 * (middle[0] + middle[1]);
    if (!(median > 0) || !std::isfinite(median))
        fail("median_feature_distance", "the median distance between feature rows is ", detail::format_value(median),
             ", must be finite and > 0; give a lengthscale");
    return median;
}

template <class Data>
LceResult lce(const Data& data, const Matrix& features, const LceOptions& options) {
    const char* fn = "local_calibration_error";
    const std::size_t n = data.size(), B = options.levels;
    check_features(fn, features, n);
    detail::check_bins(fn, "levels", B);
    if (!(std::isfinite(options.lengthscale) && options.lengthscale >= 0))
        fail(fn, "lengthscale = ", detail::format_value(options.lengthscale), ", must be finite and > 0 (0: median heuristic)");
    if (options.lengthscale == 0 && n < 2)
        fail(fn, "n = 1 has no pairwise distance for the median heuristic; give a lengthscale");
    const Matrix points = features.transpose();  // one observation per contiguous column
    LceResult result;
    result.median_heuristic = options.lengthscale == 0;
    result.lengthscale = result.median_heuristic ? median_distance_of(points, options.parallel) : options.lengthscale;

    // Column 0 the kernel weights' sum, column j the weight of the y_i ≤ Q_i⁻¹(j/B), i.e. u_i ≤ j/B
    // (j = B: every i, so LCE(x; 1) = 0 and needs no column).
    const std::vector<double> u = pit(data);
    Eigen::MatrixXd indicators(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(B));
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        indicators(r, 0) = 1;
        for (std::size_t j = 1; j < B; ++j)
            indicators(r, static_cast<Eigen::Index>(j)) = u[i] <= static_cast<double>(j) / static_cast<double>(B) ? 1 : 0;
    }
    const double gamma = 1 / (2 * result.lengthscale * result.lengthscale);
    if (!std::isfinite(gamma))  // the own weight exp(−γ·0) would be NaN
        fail(fn, "lengthscale = ", detail::format_value(result.lengthscale), " is too small: 1/(2 lengthscale^2) overflows");
    const Eigen::MatrixXd weighted =
        detail::gram_product(detail::RbfTerm{points, points, gamma}, indicators, nullptr, options.parallel);

    result.total.resize(n);
    detail::CompensatedSum mean;
    for (std::size_t k = 0; k < n; ++k) {
        const auto r = static_cast<Eigen::Index>(k);
        const double weights = weighted(r, 0);  // ≥ 1: the observation's own weight
        double sum = 0;
        for (std::size_t j = 1; j < B; ++j) {
            const double local = weighted(r, static_cast<Eigen::Index>(j)) / weights - static_cast<double>(j) / static_cast<double>(B);
            sum += local * local;
        }
        result.total[k] = sum / static_cast<double>(B);
        mean.add(result.total[k]);
    }
    result.mean = mean.value() / static_cast<double>(n);
    return result;
}

}  // namespace

template <class Data, class>
LceResult local_calibration_error(const Data& data, const Matrix& features, const LceOptions& options) {
    return lce(data, features, options);
}
#define CALIB_LCE(Data) template LceResult local_calibration_error(const Data&, const Matrix&, const LceOptions&);
CALIB_FOR_EACH_UNIVARIATE_FAMILY(CALIB_LCE)
#undef CALIB_LCE

double median_feature_distance(const Matrix& features, const ParallelOptions& parallel) {
    if (features.rows() < 2) fail("median_feature_distance", "n = ", features.rows(), ", needs at least 2 rows for pairwise distances");
    check_features("median_feature_distance", features, static_cast<std::size_t>(features.rows()));
    return median_distance_of(features.transpose(), parallel);
}

}  // namespace calib

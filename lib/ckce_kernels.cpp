// The simplex kernel, its Gram matrices, the discrete kernel and the median heuristic for γ
// (ckce.hpp).
#include "ckce_detail.hpp"
#include "simplex_rows.hpp"

#include <calib/random.hpp>

#include <algorithm>
#include <cmath>

namespace calib {

using detail::fail;

double simplex_kernel(const Eigen::Ref<const Eigen::RowVectorXd>& p, const Eigen::Ref<const Eigen::RowVectorXd>& q,
                      const SimplexKernel& kernel) {
    const char* fn = "simplex_kernel";
    detail::check_simplex_kernel(fn, kernel);
    if (p.size() != q.size()) fail(fn, "p has ", p.size(), " entries but q has ", q.size(), "; they must match");
    double value = 0;
    if (kernel.linear) value += p.dot(q);
    if (kernel.gaussian) value += std::exp(-(p - q).squaredNorm() / (2 * kernel.bandwidth * kernel.bandwidth));
    return value;
}

Matrix simplex_cross_gram(const Matrix& p, const Matrix& q, const SimplexKernel& kernel,
                          const ParallelOptions& parallel) {
    const char* fn = "simplex_cross_gram";
    detail::check_simplex_kernel(fn, kernel);
    if (p.cols() != q.cols()) fail(fn, "p has ", p.cols(), " columns but q has ", q.cols(), "; they must match");
    const detail::SimplexRows rows(p, q, kernel);
    const auto n = static_cast<std::size_t>(p.rows()), n2 = static_cast<std::size_t>(q.rows());
    detail::RowMajorMatrix out(p.rows(), q.rows());
    detail::cross_rows(rows, n, n2, out.data(), parallel.num_threads);
    return out;
}

Matrix simplex_gram(const Matrix& p, const SimplexKernel& kernel, const ParallelOptions& parallel) {
    detail::check_simplex_kernel("simplex_gram", kernel);
    const detail::SimplexRows rows(p, Matrix(), kernel);
    Matrix k;
    detail::fill_lower(rows, k, detail::resolve_threads(parallel.num_threads));
    k.triangularView<Eigen::StrictlyUpper>() = k.transpose();
    return k;
}

Matrix discrete_gram(const Matrix& p) {
    const Eigen::Index n = p.rows();
    Matrix k(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) k(i, j) = (p.row(i).array() == p.row(j).array()).all() ? 1.0 : 0.0;
    return k;
}

namespace {

// The median of values (mean of the two middle ones for an even count); reorders values.
double median(std::vector<double>& values) {
    const std::size_t count = values.size(), half = count / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half), values.end());
    const double upper = values[half];
    if (count % 2) return upper;
    return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half)));
}

}  // namespace

Bandwidth simplex_median_bandwidth(const Matrix& probabilities, const BandwidthOptions& options) {
    const char* fn = "simplex_median_bandwidth";
    if (options.rule != BandwidthRule::distance && options.rule != BandwidthRule::half_squared)
        fail(fn, "rule = ", static_cast<int>(options.rule), " is not a valid BandwidthRule");
    if (options.max_points == 1) fail(fn, "max_points = 1, must be 0 (use all points) or >= 2");
    const auto n = static_cast<std::size_t>(probabilities.rows());
    Matrix p;
    if (options.max_points != 0 && n > options.max_points) {
        Rng rng = make_stream(options.seed, 0);
        const std::vector<std::size_t> keep = sample_without_replacement(n, options.max_points, rng);
        p.resize(static_cast<Eigen::Index>(keep.size()), probabilities.cols());
        for (std::size_t k = 0; k < keep.size(); ++k)
            p.row(static_cast<Eigen::Index>(k)) = probabilities.row(static_cast<Eigen::Index>(keep[k]));
    } else {
        p = probabilities;
    }
    // Squared distances d²(i, j), i < j, row by row (each row its own slots: deterministic).
    const auto np = static_cast<std::size_t>(p.rows());
    const std::size_t pair_rows = np > 0 ? np - 1 : 0;
    std::vector<double> d2(np * pair_rows / 2);
    const Matrix pt = p.transpose();
    const int threads = detail::resolve_threads(options.parallel.num_threads);
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1 && !omp_in_parallel())
    for (std::size_t i = 0; i < pair_rows; ++i) {
        double* out = d2.data() + i * np - i * (i + 1) / 2;
        for (std::size_t j = i + 1; j < np; ++j)
            out[j - i - 1] = (pt.col(static_cast<Eigen::Index>(j)) - pt.col(static_cast<Eigen::Index>(i))).squaredNorm();
    }
    // Distances (rule distance) or squared distances (rule half_squared), and their median.
    const bool distance = options.rule == BandwidthRule::distance;
    if (d2.empty()) return {1.0, BandwidthFallback::unit};
    const auto finish = [&](double med) { return distance ? med : std::sqrt(med / 2); };
    std::vector<double> values = d2;
    if (distance)
        for (double& v : values) v = std::sqrt(v);
    const double med = median(values);
    if (med > 0) return {finish(med), BandwidthFallback::none};
    values.clear();
    for (double v : d2)
        if (v > 0) values.push_back(distance ? std::sqrt(v) : v);
    if (values.empty()) return {1.0, BandwidthFallback::unit};
    return {finish(median(values)), BandwidthFallback::nonzero_median};
}

}  // namespace calib

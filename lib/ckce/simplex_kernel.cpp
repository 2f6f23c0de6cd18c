// The simplex kernel, its Gram matrices, the discrete kernel and the median heuristic for γ
// (ckce.hpp).
#include "ckce/detail.hpp"
#include "engine/pair_selection.hpp"
#include "kernels/prediction_kernels.hpp"
#include "ckce/simplex_rows.hpp"

#include <calib/tool/random.hpp>

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
    if (kernel.gaussian) value += std::exp(-(p - q).squaredNorm() / (2 * kernel.lengthscale * kernel.lengthscale));
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
    detail::cross_rows(rows, n, n2, out.data(), parallel);
    return out;
}

Matrix simplex_gram(const Matrix& p, const SimplexKernel& kernel, const ParallelOptions& parallel) {
    detail::check_simplex_kernel("simplex_gram", kernel);
    const detail::SimplexRows rows(p, Matrix(), kernel);
    Matrix k;
    detail::fill_lower(rows, k, resolve_num_threads(parallel.num_threads));
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

// The values of `ranks` among the squared distances ‖q_i − q_j‖², i < j (exact; see pair_selection.hpp).
std::vector<double> squared_distance_ranks(const Matrix& p, const std::vector<std::uint64_t>& ranks,
                                           const ParallelOptions& parallel) {
    const detail::EmbeddedPredictionKernel euclidean(p, Matrix(), false, 1.0, PredictionKernel{});
    const auto term = detail::function_term(
        [&](std::size_t i, std::size_t j0, std::size_t j1, double* out) { euclidean.sums(i, j0, j1, out); },
        static_cast<std::size_t>(p.rows()));
    return detail::select_pair_ranks(term, ranks, parallel);
}

std::uint64_t zero_distances(const Matrix& p, const ParallelOptions& parallel) {
    const detail::EmbeddedPredictionKernel euclidean(p, Matrix(), false, 1.0, PredictionKernel{});
    const auto term = detail::function_term(
        [&](std::size_t i, std::size_t j0, std::size_t j1, double* out) { euclidean.sums(i, j0, j1, out); },
        static_cast<std::size_t>(p.rows()));
    return detail::count_zero_pairs(term, parallel);
}

// The ranks of the middle value(s) of `count` ordered values that follow `offset` smaller ones.
std::vector<std::uint64_t> middle_ranks(std::uint64_t offset, std::uint64_t count) {
    if (count % 2) return {offset + count / 2};
    return {offset + count / 2 - 1, offset + count / 2};
}

}  // namespace

MedianLengthscale simplex_median_lengthscale(const Matrix& probabilities, const MedianOptions& options) {
    const char* fn = "simplex_median_lengthscale";
    if (options.variant != MedianVariant::pairs)
        fail(fn, "variant = ", to_string(options.variant), ", must be pairs (the median over pairs i < j)");
    if (options.subsample == 1) fail(fn, "subsample = 1, must be 0 (use all points) or >= 2");
    // A NaN would sort anywhere in the selection and yield a plausible but meaningless lengthscale.
    for (Eigen::Index i = 0; i < probabilities.rows(); ++i)
        for (Eigen::Index k = 0; k < probabilities.cols(); ++k)
            detail::check_finite(fn, "probabilities", i, k, probabilities(i, k));
    const auto n = static_cast<std::size_t>(probabilities.rows());
    Matrix p;
    if (options.subsample != 0 && n > options.subsample) {
        Rng rng = make_stream(options.seed, 0);
        const std::vector<std::size_t> keep = sample_without_replacement(n, options.subsample, rng);
        p.resize(static_cast<Eigen::Index>(keep.size()), probabilities.cols());
        for (std::size_t k = 0; k < keep.size(); ++k)
            p.row(static_cast<Eigen::Index>(k)) = probabilities.row(static_cast<Eigen::Index>(keep[k]));
    } else {
        p = probabilities;
    }
    const std::uint64_t np = static_cast<std::uint64_t>(p.rows()), pairs = np * (np - 1) / 2;
    if (np < 2) return {1.0, MedianFallback::unit};
    // The median of the distances from the middle squared distances: the square root is monotone.
    const auto median = [&](const std::vector<double>& middle_squares) {
        double sum = 0;
        for (const double s : middle_squares) sum += std::sqrt(s);
        return sum / static_cast<double>(middle_squares.size());
    };
    const double med = median(squared_distance_ranks(p, middle_ranks(0, pairs), options.parallel));
    if (med > 0) return {med, MedianFallback::none};
    const std::uint64_t zeros = zero_distances(p, options.parallel);
    if (zeros == pairs) return {1.0, MedianFallback::unit};
    return {median(squared_distance_ranks(p, middle_ranks(zeros, pairs - zeros), options.parallel)),
            MedianFallback::nonzero_median};
}

}  // namespace calib

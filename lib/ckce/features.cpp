// Feature-space (primal) CKCE: random Fourier features, pivoted incomplete Cholesky, and the CKCE of
// any factor K ≈ G Gᵀ (ckce.hpp).
#include "ckce/detail.hpp"
#include "ckce/simplex_rows.hpp"
#include "ridge/low_rank.hpp"
#include "ridge/random_features.hpp"

#include <cmath>

namespace calib {

using detail::fail;


Matrix simplex_random_features(const Matrix& p, const SimplexKernel& kernel, std::size_t features,
                               std::uint64_t seed) {
    const char* fn = "simplex_random_features";
    detail::check_simplex_kernel(fn, kernel);
    if (features == 0) fail(fn, "features = 0, must be >= 1");
    const detail::SerialEigenScope serial;
    const detail::RffMap map(p.cols(), kernel.lengthscale, kernel.linear, kernel.gaussian, features, seed);
    const auto n = static_cast<std::size_t>(p.rows());
    Matrix out(p.rows(), map.dimension());
    // The chunks of the CKCE's primal sums, so that both see the same feature values.
    Matrix chunk(static_cast<Eigen::Index>(detail::primal_chunk_rows), map.dimension());
    for (std::size_t i0 = 0; i0 < n; i0 += detail::primal_chunk_rows) {
        const std::size_t i1 = std::min(n, i0 + detail::primal_chunk_rows);
        map.fill(p, i0, i1, chunk);
        out.middleRows(static_cast<Eigen::Index>(i0), static_cast<Eigen::Index>(i1 - i0)) =
            chunk.topRows(static_cast<Eigen::Index>(i1 - i0));
    }
    return out;
}

LowRankFactor simplex_pivoted_cholesky(const Matrix& p, const SimplexKernel& kernel, double tolerance,
                                       std::size_t max_rank, const Attribute* attribute,
                                       const ParallelOptions& parallel) {
    const char* fn = "simplex_pivoted_cholesky";
    detail::check_simplex_kernel(fn, kernel);
    detail::check_low_rank_options(fn, tolerance, max_rank);
    if (attribute) detail::check_attribute(fn, *attribute, static_cast<std::size_t>(p.rows()));
    const int threads = resolve_num_threads(parallel.num_threads);
    const detail::SerialEigenScope serial;
    return detail::pivoted_cholesky(detail::SimplexRows(p, Matrix(), kernel, attribute), tolerance, max_rank,
                                    threads);
}

double ckce_low_rank(const Matrix& factor, const CategoricalData& data, const TargetKernel& target, double lambda,
                     const ParallelOptions& parallel) {
    const char* fn = "ckce_low_rank";
    const auto n = static_cast<Eigen::Index>(data.size());
    if (factor.rows() != n)
        fail(fn, "factor has ", factor.rows(), " rows but the data has n = ", n, " observations; they must match");
    if (factor.cols() == 0) fail(fn, "factor has no columns");
    for (Eigen::Index c = 0; c < factor.cols(); ++c)
        for (Eigen::Index i = 0; i < n; ++i)
            if (!std::isfinite(factor(i, c)))
                detail::fail_at(i, c, fn, "factor(", i, ", ", c, ") = ", detail::format_value(factor(i, c)),
                                ", must be finite");
    detail::check_ckce_target(fn, target, data.num_classes());
    detail::check_lambda(fn, "lambda", lambda);
    const int threads = resolve_num_threads(parallel.num_threads);
    const detail::SerialEigenScope serial;
    const Matrix a = detail::residuals(data);
    const auto sums = detail::primal_sums(data.size(), factor.cols(), a,
                                          [&](std::size_t i0, std::size_t i1, Matrix& f) {
                                              const auto len = static_cast<Eigen::Index>(i1 - i0);
                                              f.topRows(len) = factor.middleRows(static_cast<Eigen::Index>(i0), len);
                                          },
                                          threads);
    return detail::primal_ckce(sums, lambda * static_cast<double>(n), target);
}

}  // namespace calib

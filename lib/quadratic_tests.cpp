// Tests of the quadratic statistic (B = n): bootstrap, Gamma and Gram-spectrum nulls (hypothesis.hpp).
#include <calib/hypothesis.hpp>

#include "check.hpp"
#include "families.hpp"
#include "p_values.hpp"
#include "pair_terms.hpp"
#include "parallel.hpp"
#include "quadratic_sums.hpp"

#include <Eigen/Eigenvalues>
#include <boost/math/distributions/gamma.hpp>
#include <boost/random/normal_distribution.hpp>

#include <cmath>

namespace calib {

using detail::fail;

namespace {

// Multinomial counts of R resamples with replacement (columns 0..R-1), and a last column of ones
// so that H·C also yields the row sums H·1. Replicate r draws from stream r of the seed.
Matrix bootstrap_counts(std::size_t n, std::size_t replicates, std::uint64_t seed, int threads) {
    Matrix c = Matrix::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(replicates + 1));
    c.col(static_cast<Eigen::Index>(replicates)).setOnes();
    detail::parallel_for(replicates, threads, [&](std::size_t r) {
        Rng rng = make_stream(seed, r);
        for (std::size_t k = 0; k < n; ++k) c(static_cast<Eigen::Index>(uniform_index(rng, n)), static_cast<Eigen::Index>(r)) += 1;
    });
    return c;
}

}  // namespace

template <class Data>
TestResult bootstrap_test(const Data& data, const Kernel& kernel, const BootstrapOptions& options) {
    const char* fn = "bootstrap_test";
    validate_kernel(data, kernel, fn);
    const std::size_t n = data.size(), R = options.replicates;
    if (n < 2) fail(fn, "n = ", n, ", needs at least 2 observations");
    if (R < 1) fail(fn, "replicates = 0, must be >= 1");
    const int threads = options.parallel.num_threads;
    const Matrix c = bootstrap_counts(n, R, options.seed, threads);
    const bool cached = double(n) * double(n) * sizeof(double) <= double(options.memory_budget);

    detail::QuadraticSums sums;
    Vector diagonal(n);
    Matrix g;  // Hᵤ·[C, 1], Hᵤ the upper triangle of H with its diagonal
    detail::with_pair_term(data, kernel, [&](const auto& term) {
        sums = detail::quadratic_sums(term, threads);
        for (std::size_t i = 0; i < n; ++i) diagonal(static_cast<Eigen::Index>(i)) = detail::single_pair(term, i, i);
        if (cached) {
            detail::RowMajorMatrix upper(n, n);
            detail::fill_upper_rows(term, upper.data(), threads);
            g = detail::upper_gram_product(term, c, &upper, threads);
        } else {
            g = detail::upper_gram_product(term, c, nullptr, threads);
        }
    });

    // T'_r = n⁻² [α c_rᵀ H c_r − α Σ_a c_ar H_aa − 2 c_rᵀ H 1], α = n/(n−1)   (julia-reference §2.5)
    // with H = Hᵤ + Hᵤᵀ − diag(H):  cᵀHc = 2 c·(Hᵤc) − Σ_a c_a² H_aa,
    //                               cᵀH1 = c·(Hᵤ1) + 1·(Hᵤc) − c·diag(H).
    const double alpha = double(n) / double(n - 1), n2 = double(n) * double(n);
    const Vector upper_row_sums = g.col(static_cast<Eigen::Index>(R));  // Hᵤ1
    std::vector<double> replicate_statistics(R);
    detail::parallel_for(R, threads, [&](std::size_t r) {
        const auto col = static_cast<Eigen::Index>(r);
        const auto cr = c.col(col);
        const auto gr = g.col(col);
        const double on_diagonal = cr.dot(diagonal);  // Σ_a c_a H_aa
        const double quadratic = 2 * cr.dot(gr) - cr.cwiseAbs2().dot(diagonal);
        const double linear = cr.dot(upper_row_sums) + gr.sum() - on_diagonal;
        replicate_statistics[r] = (alpha * quadratic - alpha * on_diagonal - 2 * linear) / n2;
    });
    const double statistic = detail::check_result(fn, alpha * sums.unbiased() - sums.biased());

    TestResult result;
    result.method = "bootstrap";
    result.null_approximation = "bootstrap";
    result.estimator = "skce-unbiased";
    result.estimate = sums.unbiased();
    result.statistic = statistic;
    result.p_value = detail::resampling_p_value(replicate_statistics, statistic, options.rule);
    result.n = n;
    result.details = {{"replicates", double(R)},
                      {"seed", double(options.seed)},
                      {"plus_one_rule", options.rule == PValueRule::plus_one ? 1.0 : 0.0},
                      {"cached_gram_matrix", cached ? 1.0 : 0.0}};
    return result;
}

template <class Data>
TestResult gamma_test(const Data& data, const Kernel& kernel, const ParallelOptions& parallel) {
    const char* fn = "gamma_test";
    validate_kernel(data, kernel, fn);
    const std::size_t n = data.size();
    if (n < 2) fail(fn, "n = ", n, ", needs at least 2 observations");
    const detail::QuadraticSums s = detail::with_pair_term(
        data, kernel, [&](const auto& term) { return detail::quadratic_sums(term, parallel.num_threads); });
    const double nd = double(n);
    const double mean = s.diagonal / nd;                                          // E h(W, W)
    const double second_moment = 2 * s.off_diagonal_squares / (nd * (nd - 1));   // mean_{i≠j} h_ij²
    const double variance = 2 * nd / (nd - 1) * second_moment;
    const double statistic = detail::check_result(fn, nd * s.biased());

    TestResult result;
    result.method = "gamma";
    result.null_approximation = "gamma";
    result.estimator = "skce-biased";
    result.estimate = s.biased();
    result.statistic = statistic;
    result.n = n;
    const bool degenerate = !(mean > 0 && variance > 0);
    if (degenerate) {
        // All h_ij vanish off the diagonal (or everywhere): the null is a point mass at the mean,
        // which the statistic equals; nothing speaks against calibration.
        result.p_value = 1;
        result.details = {{"mean", mean}, {"variance", variance}, {"degenerate", 1.0}};
        return result;
    }
    const double shape = mean * mean / variance, scale = variance / mean;
    result.p_value = boost::math::cdf(boost::math::complement(boost::math::gamma_distribution<double>(shape, scale), statistic));
    result.details = {{"shape", shape}, {"scale", scale}, {"mean", mean}, {"variance", variance}, {"degenerate", 0.0}};
    return result;
}

template <class Data>
TestResult spectral_test(const Data& data, const Kernel& kernel, const SpectralOptions& options) {
    const char* fn = "spectral_test";
    validate_kernel(data, kernel, fn);
    const std::size_t n = data.size(), R = options.replicates;
    if (n < 2) fail(fn, "n = ", n, ", needs at least 2 observations");
    if (R < 1) fail(fn, "replicates = 0, must be >= 1");
    if (n > options.max_n)
        fail(fn, "n = ", n, " exceeds max_n = ", options.max_n,
             " (the spectrum needs O(n^2) memory and O(n^3) time); raise max_n or use the gamma or bootstrap test");
    const int threads = options.parallel.num_threads;
    Matrix h;
    const detail::QuadraticSums s = detail::with_pair_term(data, kernel, [&](const auto& term) {
        h = detail::materialise(term, threads);
        return detail::quadratic_sums(term, threads);
    });
    const double nd = double(n);
    if (options.centred) {  // C H C with C = I − 11ᵀ/n
        const Vector row_means = h.rowwise().mean();
        const double total_mean = row_means.mean();
        h.colwise() -= row_means;
        h.rowwise() -= row_means.transpose();
        h.array() += total_mean;
    }
    const Vector lambda = Eigen::SelfAdjointEigenSolver<Matrix>(h / nd, Eigen::EigenvaluesOnly).eigenvalues();
    std::vector<double> draws(R);
    detail::parallel_for(R, threads, [&](std::size_t r) {
        Rng rng = make_stream(options.seed, r);
        boost::random::normal_distribution<double> z;
        detail::CompensatedSum sum;
        for (Eigen::Index i = 0; i < lambda.size(); ++i) {
            const double zi = z(rng);
            sum.add(lambda(i) * (zi * zi - 1));
        }
        draws[r] = sum.value();
    });
    const double statistic = detail::check_result(fn, nd * s.unbiased());

    TestResult result;
    result.method = "spectral";
    result.null_approximation = "spectral";
    result.estimator = "skce-unbiased";
    result.estimate = s.unbiased();
    result.statistic = statistic;
    result.p_value = detail::resampling_p_value(draws, statistic, options.rule);
    result.n = n;
    result.details = {{"replicates", double(R)},
                      {"seed", double(options.seed)},
                      {"plus_one_rule", options.rule == PValueRule::plus_one ? 1.0 : 0.0},
                      {"centred", options.centred ? 1.0 : 0.0},
                      {"largest_eigenvalue", lambda(lambda.size() - 1)}};
    return result;
}

#define CALIB_INSTANTIATE(Data)                                                                           \
    template TestResult bootstrap_test<Data>(const Data&, const Kernel&, const BootstrapOptions&);        \
    template TestResult gamma_test<Data>(const Data&, const Kernel&, const ParallelOptions&);              \
    template TestResult spectral_test<Data>(const Data&, const Kernel&, const SpectralOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

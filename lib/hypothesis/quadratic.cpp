// Tests of the quadratic statistic (B = n): bootstrap, Gamma and Gram-spectrum nulls (hypothesis.hpp).
#include <calib/hypothesis.hpp>
#include <calib/tool/random.hpp>

#include "core/check.hpp"
#include "engine/count_forms.hpp"
#include "data/family_list.hpp"
#include "core/memory_guard.hpp"
#include "hypothesis/p_values.hpp"
#include "hypothesis/statistic_tests.hpp"
#include "kernels/family_ops.hpp"
#include "core/parallel.hpp"
#include "engine/quadratic_sums.hpp"

#include <Eigen/Eigenvalues>
#include <boost/math/distributions/gamma.hpp>
#include <boost/random/normal_distribution.hpp>

#include <cmath>

namespace calib {

using detail::fail;

// Refused before any work when the counts and products of one pass do not fit the budget.
void validate(const BootstrapOptions& options, std::size_t n) {
    const char* fn = "bootstrap_test";
    const std::size_t R = options.replicates;
    detail::check_min_size(fn, n, 2);
    detail::check_replicates(fn, R);
    const double budget = detail::resolve_memory_budget(fn, options.memory_budget);
    const detail::CountFormsMemory memory = detail::count_forms_memory(n, R);
    if (memory.working > budget)
        fail(fn, "n = ", n, " and ", R, " replicates need ", detail::format_bytes(memory.working),
             " of working memory, more than `memory_budget` = ", detail::format_bytes(budget), "; raise the budget");
}

namespace detail {

TestResult bootstrap_from(std::size_t n, const BootstrapOptions& options, const CountFormsPass& forms,
                          const std::string& estimator) {
    const char* fn = "bootstrap_test";
    const std::size_t R = options.replicates;
    validate(options, n);
    // The cached triangle of H only when it fits the budget too.
    const double budget = detail::resolve_memory_budget(fn, options.memory_budget);
    const detail::CountFormsMemory memory = detail::count_forms_memory(n, R);
    const bool cache = memory.working + memory.cache <= budget;
    const auto counts = [&](std::size_t r0, std::size_t, auto&& out) {
        detail::resampling_counts(options.seed, r0, out, options.parallel);
    };
    const detail::CountForms f = forms(R, counts, cache);
    // T'_r = n⁻² [α c_rᵀ H c_r − α Σ_a c_ar H_aa − 2 c_rᵀ H 1], α = n/(n−1)   (julia-reference §2.5).
    const double alpha = double(n) / double(n - 1), n2 = double(n) * double(n);
    std::vector<double> replicate_statistics(R);
    for (std::size_t r = 0; r < R; ++r)
        replicate_statistics[r] = (alpha * f.quadratic[r] - alpha * f.diagonal[r] - 2 * f.linear[r]) / n2;
    const double statistic = detail::check_result(fn, alpha * f.sums.unbiased() - f.sums.biased());

    TestResult result;
    result.method = "bootstrap";
    result.null_approximation = "bootstrap";
    result.estimator = estimator;
    result.estimate = f.sums.unbiased();
    result.statistic = statistic;
    result.p_value = detail::resampling_p_value(fn, replicate_statistics, statistic, options.rule);
    result.n = n;
    BootstrapDetails details;
    details.replicates = R;
    details.seed = options.seed;
    details.pvalue_rule = options.rule;
    details.cached_gram_matrix = f.cached;
    details.memory_budget = budget;
    details.working_memory = memory.working + (cache ? memory.cache : 0);
    result.details = details;
    return detail::checked_test_result(fn, std::move(result));
}

TestResult gamma_from(const QuadraticSums& s, const std::string& estimator) {
    const char* fn = "gamma_test";
    const std::size_t n = s.n;
    const double nd = double(n);
    const double mean = s.diagonal / nd;                                          // E h(W, W)
    const double second_moment = 2 * s.off_diagonal_squares / (nd * (nd - 1));   // mean_{i≠j} h_ij²
    const double variance = 2 * nd / (nd - 1) * second_moment;
    const double statistic = detail::check_result(fn, nd * s.biased());

    TestResult result;
    result.method = "gamma";
    result.null_approximation = "gamma";
    result.estimator = estimator;
    result.estimate = s.biased();
    result.statistic = statistic;
    result.n = n;
    GammaDetails details;
    details.mean = mean;
    details.variance = variance;
    details.degenerate = !(mean > 0 && variance > 0);
    if (details.degenerate) {
        // All h_ij vanish off the diagonal (or everywhere): the null is a point mass at the mean,
        // which the statistic equals; nothing speaks against calibration.
        result.p_value = 1;
        result.details = details;
        return detail::checked_test_result(fn, std::move(result));
    }
    details.shape = mean * mean / variance;
    details.scale = variance / mean;
    result.p_value = boost::math::cdf(
        boost::math::complement(boost::math::gamma_distribution<double>(details.shape, details.scale), statistic));
    result.details = details;
    return detail::checked_test_result(fn, std::move(result));
}

}  // namespace detail

template <class Data>
TestResult bootstrap_test(const Data& data, const Kernel& kernel, const BootstrapOptions& options) {
    validate_kernel(data, kernel, "bootstrap_test");
    return detail::bootstrap_from(
        data.size(), options,
        [&](std::size_t R, const detail::CountSource& counts, bool cache) {
            return detail::FamilyOps<Data>::count_forms(data, kernel, R, counts, cache, options.parallel);
        },
        "skce-unbiased");
}

template <class Data>
TestResult gamma_test(const Data& data, const Kernel& kernel, const ParallelOptions& parallel) {
    const char* fn = "gamma_test";
    validate_kernel(data, kernel, fn);
    const std::size_t n = data.size();
    detail::check_min_size(fn, n, 2);
    return detail::gamma_from(detail::FamilyOps<Data>::quadratic_sums(data, kernel, parallel), "skce-biased");
}

void validate(const SpectralOptions& options, std::size_t n) {
    const char* fn = "spectral_test";
    detail::check_min_size(fn, n, 2);
    detail::check_replicates(fn, options.replicates);
    if (n > options.max_n)
        fail(fn, "n = ", n, " exceeds max_n = ", options.max_n,
             " (the spectrum needs O(n^2) memory and O(n^3) time); use the gamma or bootstrap test");
    detail::check_memory(fn, 16.0 * double(n) * double(n), "the matrix of h and its eigendecomposition",
                         "use the gamma or bootstrap test");
}

template <class Data>
TestResult spectral_test(const Data& data, const Kernel& kernel, const SpectralOptions& options) {
    const char* fn = "spectral_test";
    validate_kernel(data, kernel, fn);
    const std::size_t n = data.size(), R = options.replicates;
    validate(options, n);
    const ParallelOptions& parallel = options.parallel;
    Matrix h;
    h = detail::FamilyOps<Data>::materialise(data, kernel, parallel);
    const detail::QuadraticSums s = detail::FamilyOps<Data>::quadratic_sums(data, kernel, parallel);
    if (!h.allFinite())  // e.g. an infinite kernel diagonal: the SKCE skips it, the spectrum cannot
        throw numerical_error(detail::concat("calib::", fn, ": the matrix of h(W_i, W_j) has a non-finite entry; a "
                                             "kernel evaluation overflowed (extreme inputs?), so the spectrum is "
                                             "undefined; use the gamma or bootstrap test"));
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
    detail::parallel_for(R, ParallelOptions{parallel.num_threads}, [&](std::size_t r) {
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
    result.p_value = detail::resampling_p_value(fn, draws, statistic, options.rule);
    result.n = n;
    SpectralDetails details;
    details.replicates = R;
    details.seed = options.seed;
    details.pvalue_rule = options.rule;
    details.centred = options.centred;
    details.largest_eigenvalue = lambda(lambda.size() - 1);
    result.details = details;
    return detail::checked_test_result(fn, std::move(result));
}

#define CALIB_INSTANTIATE(Data)                                                                           \
    template TestResult bootstrap_test<Data>(const Data&, const Kernel&, const BootstrapOptions&);        \
    template TestResult gamma_test<Data>(const Data&, const Kernel&, const ParallelOptions&);              \
    template TestResult spectral_test<Data>(const Data&, const Kernel&, const SpectralOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

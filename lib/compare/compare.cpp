// Paired bootstrap comparison of models (compare.hpp): the estimates, the replicates of each
// estimator from the resampling counts, and the summaries of every pair of models.
#include <calib/compare.hpp>

#include "data/column_major.hpp"
#include "core/check.hpp"
#include "ckce/detail.hpp"
#include "ridge/low_rank.hpp"
#include "ridge/random_features.hpp"
#include "engine/count_forms.hpp"
#include "core/memory_guard.hpp"
#include "hypothesis/p_values.hpp"
#include "core/parallel.hpp"
#include "core/serial_eigen.hpp"
#include "ckce/simplex_rows.hpp"
#include "compare/summaries.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace calib {

using detail::fail;

namespace {

constexpr const char* fn = "compare_models";

void check_models(const std::vector<CategoricalData>& models, const ComparisonOptions& o) {
    if (models.empty()) fail(fn, "models is empty, needs at least 1 model");
    const CategoricalData& first = models.front();
    detail::check_min_size(fn, first.size(), 2);
    for (std::size_t k = 1; k < models.size(); ++k) {
        const CategoricalData& d = models[k];
        if (d.size() != first.size())
            fail(fn, "models[", k, "] has n = ", d.size(), " observations but models[0] has ", first.size(),
                 "; the models must be evaluated on the same labelled data");
        if (d.num_classes() != first.num_classes())
            fail(fn, "models[", k, "] has ", d.num_classes(), " classes but models[0] has ", first.num_classes());
        for (std::size_t i = 0; i < d.size(); ++i)
            if (d.labels()[i] != first.labels()[i])
                fail(fn, "models[", k, "] has label ", d.labels()[i], " at observation ", i, " but models[0] has ",
                     first.labels()[i], "; the models must be evaluated on the same labelled data");
    }
    if (o.estimators.empty()) fail(fn, "estimators is empty");
    for (std::size_t e = 0; e < o.estimators.size(); ++e)
        for (std::size_t f = 0; f < e; ++f)
            if (o.estimators[e] == o.estimators[f]) fail(fn, "estimator ", to_string(o.estimators[e]), " is listed twice");
    detail::check_replicates(fn, o.replicates);
    // The counts of every replicate (shared by the estimators, so that the comparison is paired).
    detail::check_memory(fn, 8.0 * double(first.size()) * double(o.replicates), "the resampling counts",
                         "use fewer replicates");
    if (!(o.level > 0 && o.level < 1)) fail(fn, "level = ", detail::format_value(o.level), ", must be in (0, 1)");
    if (!(o.replicate_tolerance >= 0 && o.replicate_tolerance < 1))
        fail(fn, "replicate_tolerance = ", detail::format_value(o.replicate_tolerance), ", must be in [0, 1)");
    const bool kernel = std::any_of(o.estimators.begin(), o.estimators.end(), [](ComparedEstimator e) {
        return e != ComparedEstimator::ece;
    });
    if (kernel && o.ckce.size() != models.size())
        fail(fn, "ckce has ", o.ckce.size(), " entries, needs one per model (", models.size(), ")");
    if (kernel)
        for (std::size_t k = 0; k < models.size(); ++k)
            if (o.ckce[k].attribute) fail(fn, "ckce[", k, "].attribute is set; group calibration is not compared");
}

// The resample of replicate column r of the counts: observation a repeated c_a times.
std::vector<std::size_t> resample_indices(const Matrix& counts, std::size_t r) {
    std::vector<std::size_t> indices;
    indices.reserve(static_cast<std::size_t>(counts.rows()));
    for (Eigen::Index a = 0; a < counts.rows(); ++a)
        for (int c = static_cast<int>(counts(a, static_cast<Eigen::Index>(r))); c > 0; --c)
            indices.push_back(static_cast<std::size_t>(a));
    return indices;
}

// The factor G (n×r, K ≈ GGᵀ) of the model's simplex Gram for the CKCE replicates (compare.hpp):
// rff's own features, lowrank's own factor, and for exact and eigen the shortest of the prefixes of
// one pivoted Cholesky with 64, 96, 144, … (×1.5) columns whose primal CKCE on the full data is within
// `replicate_tolerance` (relative) of the estimate — or the whole factorisation if none is.
Matrix ckce_factor(const CategoricalData& d, const Matrix& a, const CkceOptions& o, const CkceResult& full,
                   double replicate_tolerance, int threads) {
    // A contiguous copy: the feature map and the term read it by rows.
    const Matrix p = detail::column_major_copy(d.probabilities());
    if (o.method == CkceMethod::rff) {
        const detail::RffMap map(p.cols(), o.kernel.lengthscale, o.kernel.linear, o.kernel.gaussian, o.features, o.seed);
        Matrix g(p.rows(), map.dimension());
        map.fill(p, 0, d.size(), g);
        return g;
    }
    const detail::SimplexRows term(p, Matrix(), o.kernel);
    if (o.method == CkceMethod::lowrank) return detail::pivoted_cholesky(term, o.tolerance, o.max_rank, threads).factor;
    detail::PivotedCholesky<detail::SimplexRows> cholesky(term, threads);
    for (std::size_t rank = 64;; rank += rank / 2) {
        cholesky.grow(0, rank);
        Matrix g = cholesky.factor(cholesky.rank());
        if (cholesky.rank() < rank) return g;  // the factorisation is complete
        const double value = detail::primal_ckce(detail::primal_sums(g, a, threads), full.ridge, o.target);
        if (std::abs(value - full.estimate) <= replicate_tolerance * std::abs(full.estimate)) return g;
    }
}

// CKCE of the resample with counts c from the primal sums Gᵀdiag(c)G and Gᵀdiag(c)A, formed from the
// rows with c_a > 0 scaled by √c_a.
double ckce_replicate(const Matrix& g, const Matrix& a, const Eigen::Ref<const Vector>& counts, double ridge,
                      const TargetKernel& target) {
    Eigen::Index drawn = 0;
    for (Eigen::Index i = 0; i < counts.size(); ++i) drawn += counts(i) > 0;
    Matrix gs(drawn, g.cols()), as(drawn, a.cols());
    for (Eigen::Index i = 0, row = 0; i < counts.size(); ++i) {
        if (counts(i) == 0) continue;
        const double w = std::sqrt(counts(i));
        gs.row(row) = w * g.row(i);
        as.row(row++) = w * a.row(i);
    }
    detail::PrimalSums sums{Matrix::Zero(g.cols(), g.cols()), Matrix()};
    sums.gram.selfadjointView<Eigen::Lower>().rankUpdate(gs.transpose());
    sums.cross.noalias() = gs.transpose() * as;
    return detail::primal_ckce(std::move(sums), ridge, target);
}

// std_errors, intervals, ranking and pairs from the estimates and replicates.
void summarise(EstimatorComparison& c, double level) {
    using detail::quantile;
    const std::size_t count = c.estimates.size();
    const double tail = (1 - level) / 2;
    for (const std::vector<double>& r : c.replicates) {
        c.std_errors.push_back(detail::std_error(r));
        c.lower.push_back(quantile(r, tail));
        c.upper.push_back(quantile(r, 1 - tail));
    }
    c.ranking.resize(count);
    std::iota(c.ranking.begin(), c.ranking.end(), std::size_t{0});
    std::stable_sort(c.ranking.begin(), c.ranking.end(),
                     [&](std::size_t a, std::size_t b) { return c.estimates[a] < c.estimates[b]; });
    for (std::size_t a = 0; a < count; ++a)
        for (std::size_t b = a + 1; b < count; ++b) {
            PairComparison p;
            p.first = a, p.second = b;
            p.difference = c.estimates[a] - c.estimates[b];
            const std::size_t reps = c.replicates[a].size();
            std::vector<double> d(reps);
            detail::CompensatedSum sum;
            std::size_t lower = 0;
            for (std::size_t r = 0; r < reps; ++r) {
                d[r] = c.replicates[a][r] - c.replicates[b][r];
                sum.add(d[r]);
                lower += d[r] < 0;
            }
            p.bootstrap_mean = sum.value() / static_cast<double>(reps);
            p.probability_first_lower = static_cast<double>(lower) / static_cast<double>(reps);
            p.lower = quantile(d, tail);
            p.upper = quantile(d, 1 - tail);
            p.verdict = p.upper < 0 ? -1 : p.lower > 0 ? 1 : 0;
            c.pairs.push_back(p);
        }
}

}  // namespace

std::string to_string(ComparedEstimator estimator) {
    switch (estimator) {
        case ComparedEstimator::ckce: return "ckce";
        case ComparedEstimator::jkce: return "jkce";
        case ComparedEstimator::ece: return "ece";
    }
    return "unknown";
}

ComparedEstimator parse_compared_estimator(const std::string& name) {
    for (const ComparedEstimator e : {ComparedEstimator::ckce, ComparedEstimator::jkce, ComparedEstimator::ece})
        if (to_string(e) == name) return e;
    fail("parse_compared_estimator", "unknown estimator '", name, "', expected ckce, jkce or ece");
}

ModelComparison compare_models(const std::vector<CategoricalData>& models, const ComparisonOptions& options) {
    check_models(models, options);
    const std::size_t n = models.front().size(), count = models.size(), R = options.replicates;
    const int threads = resolve_num_threads(options.parallel.num_threads);
    const ParallelOptions parallel{threads, options.parallel.progress};
    Matrix counts(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(R));
    detail::resampling_counts(options.seed, 1, counts, parallel);
    // The SKCE's products with the counts: within the memory budget, as in bootstrap_test.
    const double budget = detail::resolve_memory_budget(fn, options.memory_budget);
    const detail::CountFormsMemory memory = detail::count_forms_memory(n, R);
    const bool cache = memory.working + memory.cache <= budget;

    ModelComparison out;
    out.n = n;
    for (const ComparedEstimator estimator : options.estimators) {
        EstimatorComparison c;
        c.estimator = estimator;
        c.estimates.resize(count);
        c.replicates.assign(count, std::vector<double>(R));
        for (std::size_t k = 0; k < count; ++k) {
            const CategoricalData& d = models[k];
            std::vector<double>& replicates = c.replicates[k];
            if (estimator == ComparedEstimator::ece) {
                c.estimates[k] = ece(d, options.ece);
                detail::parallel_for(
                    R, parallel,
                    [&](std::size_t r) { replicates[r] = ece(subset(d, resample_indices(counts, r)), options.ece); },
                    "ece bootstrap replicates");
            } else if (estimator == ComparedEstimator::jkce) {
                const CkceOptions& o = options.ckce[k];
                const detail::CountSource columns = [&](std::size_t r0, std::size_t r1, Eigen::Ref<Eigen::MatrixXd> block) {
                    block = counts.middleCols(static_cast<Eigen::Index>(r0), static_cast<Eigen::Index>(r1 - r0));
                };
                const detail::CountForms f = detail::jkce_count_forms(fn, d, o.kernel, o.target, R, columns, cache, parallel);
                c.estimates[k] = f.sums.unbiased();
                const double pairs = double(n) * double(n - 1);
                for (std::size_t r = 0; r < R; ++r) replicates[r] = (f.quadratic[r] - f.diagonal[r]) / pairs;
            } else {
                CkceOptions o = options.ckce[k];
                o.parallel = parallel;
                const CkceResult full = ckce(d, o);
                c.estimates[k] = full.estimate;
                const detail::SerialEigenScope serial;
                const Matrix a = detail::residuals(d);
                const Matrix g = ckce_factor(d, a, o, full, options.replicate_tolerance, threads);
                c.replicate_ranks.push_back(static_cast<std::size_t>(g.cols()));
                detail::parallel_for(
                    R, parallel,
                    [&](std::size_t r) {
                        replicates[r] = ckce_replicate(g, a, counts.col(static_cast<Eigen::Index>(r)), full.ridge, o.target);
                    },
                    "ckce bootstrap replicates");
            }
        }
        summarise(c, options.level);
        out.results.push_back(std::move(c));
    }
    return out;
}

}  // namespace calib

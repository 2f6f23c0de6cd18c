// The cross-validation pipeline of the squared-CE estimators (squared_ce.hpp; digest §5), and its
// fixed-hyperparameter mode.
#include "core/parallel.hpp"
#include "squared_ce/checks.hpp"
#include "squared_ce/selection.hpp"

#include <calib/squared_ce.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace calib {

namespace {

using detail::FoldScores;
using detail::mean_std;

CeProblem take(const CeProblem& p, const std::vector<std::size_t>& rows) {
    CeProblem out{Matrix(static_cast<Eigen::Index>(rows.size()), p.inputs.cols()),
                  Matrix(static_cast<Eigen::Index>(rows.size()), p.residuals.cols())};
    for (std::size_t a = 0; a < rows.size(); ++a) {
        out.inputs.row(static_cast<Eigen::Index>(a)) = p.inputs.row(static_cast<Eigen::Index>(rows[a]));
        out.residuals.row(static_cast<Eigen::Index>(a)) = p.residuals.row(static_cast<Eigen::Index>(rows[a]));
    }
    return out;
}

// Without a validation set (fixed_squared_ce without one) the risks are NaN.
FoldScores score_fold(const CeProblem& train, const CeProblem* validation, const CeProblem& test,
                      CeEstimator estimator, const SquaredCeOptions& o, const std::vector<double>& grid) {
    FoldScores scores;
    const auto low_rank_risk = [&](const auto& h) {
        return validation ? ce_risk_low_rank(validation->residuals, h.factor(validation->inputs))
                          : std::numeric_limits<double>::quiet_NaN();
    };
    if (estimator == CeEstimator::bins) {
        for (double m : grid) {
            const BinCeFunction h(train, static_cast<int>(m), o.binning);
            scores.add(low_rank_risk(h), h.diagonal(test.inputs));
        }
        return scores;
    }
    if (estimator == CeEstimator::kde) {
        for (double bandwidth : grid) {
            const KdeCeFunction h(train, bandwidth, o.parallel);
            scores.add(low_rank_risk(h), h.diagonal(test.inputs));
        }
        return scores;
    }
    // One eigendecomposition and one projection of the validation and test inputs serve the whole grid.
    const KrrCeFit fit(train, o.rbf_gamma, o.parallel, o.krr_tolerance);
    const Eigen::Index mv = validation ? validation->inputs.rows() : 0, mt = test.inputs.rows();
    Matrix inputs(mv + mt, train.inputs.cols());
    if (validation) inputs.topRows(mv) = validation->inputs;
    inputs.bottomRows(mt) = test.inputs;
    const double no_risk = std::numeric_limits<double>::quiet_NaN();
    const Matrix b = fit.project(inputs);
    const auto n = static_cast<std::size_t>(train.inputs.rows());
    for (double c : grid) {
        if (estimator == CeEstimator::kkr) {
            const double rho = kronecker_ridge(c, n, o.ridge_preset);
            scores.add(validation ? ce_risk(validation->residuals, fit.kronecker_pairs(b.leftCols(mv), rho), o.parallel)
                                  : no_risk,
                       fit.kronecker_diagonal(b.rightCols(mt), rho), fit.kronecker_sensitivity(rho),
                       fit.kronecker_truncation(rho));
        } else {
            const double mu = two_step_ridge(c, n, o.ridge_preset);
            const Matrix u = fit.two_step_factor(b, mu);
            scores.add(validation ? ce_risk_low_rank(validation->residuals, u.topRows(mv)) : no_risk,
                       u.bottomRows(mt).rowwise().squaredNorm(), fit.two_step_sensitivity(mu), fit.two_step_truncation(mu));
        }
    }
    return scores;
}

void check_options(CeEstimator estimator, const SquaredCeOptions& o, const std::vector<double>& grid) {
    if (grid.empty()) detail::fail("squared_ce", "grid is empty; at least one value is needed");
    for (double g : grid) {
        if (estimator == CeEstimator::bins && !(g >= 1 && g <= 1e6 && g == std::floor(g)))
            detail::fail("squared_ce", "grid value ", detail::format_value(g), " for ce-bins, must be an integer in [1, 1e6]");
        if (estimator == CeEstimator::kde && !(std::isfinite(g) && g > 0))
            detail::fail("squared_ce", "grid value (bandwidth) = ", detail::format_value(g), ", must be finite and > 0");
        if (estimator == CeEstimator::kkr || estimator == CeEstimator::ukkr)
            detail::check_ridge("squared_ce", "grid value (ridge constant)", g);
    }
    if (!(std::isfinite(o.rbf_gamma) && o.rbf_gamma > 0))
        detail::fail("squared_ce", "rbf_gamma = ", detail::format_value(o.rbf_gamma), ", must be finite and > 0");
    if (!(o.krr_tolerance < 1))
        detail::fail("squared_ce", "krr_tolerance = ", detail::format_value(o.krr_tolerance),
                     ", must be < 1 (0: the exact dense path, < 0: the default)");
}


}  // namespace

std::vector<double> default_ce_grid(CeEstimator estimator, CeNotion notion) {
    std::vector<double> grid;
    const bool canonical = notion == CeNotion::canonical;
    if (estimator == CeEstimator::bins) {
        if (canonical) detail::fail("default_ce_grid", "estimator = ce-bins, notion = canonical: binning needs a scalar notion");
        for (int m = 5; m <= 100; m += 5) grid.push_back(m);
    } else if (estimator == CeEstimator::kde) {
        for (int i = 0; i < 15; ++i) grid.push_back(std::pow(10.0, -5 + 4.0 * i / 14));
        for (int i = 1; i <= 5; ++i) grid.push_back(0.2 * i);
    } else if (estimator == CeEstimator::kkr) {
        if (canonical)
            for (int e = 8; e >= -9; --e) grid.push_back(std::pow(10.0, e));
        else
            for (int e = -1; e >= -17; e -= 2) grid.push_back(std::pow(10.0, e));
    } else {
        if (canonical)
            for (int i = 1; i <= 18; ++i) grid.push_back(std::pow(10.0, 4.5 - 0.5 * i));
        else
            for (int e = -1; e >= -9; --e) grid.push_back(std::pow(10.0, e));
    }
    return grid;
}

SquaredCeResult squared_ce(const CategoricalData& data, CeEstimator estimator, const SquaredCeOptions& o) {
    if (estimator == CeEstimator::bins && o.notion == CeNotion::canonical)
        detail::fail("squared_ce", "estimator = ce-bins, notion = canonical: binning needs a scalar notion "
                                   "(top-label or class-wise)");
    const std::vector<double> grid = o.grid.empty() ? default_ce_grid(estimator, o.notion) : o.grid;
    check_options(estimator, o, grid);
    const CeSplit split = ce_split(data.size(), o.folds, o.test_fraction, o.seed);
    const std::vector<CeProblem> problems = ce_problems(data, o.notion);
    const double scale = o.notion == CeNotion::class_wise && o.aggregation == ClassAggregation::mean
                             ? 1.0 / static_cast<double>(problems.size())
                             : 1.0;

    SquaredCeResult result;
    result.grid = grid;
    result.cv_size = data.size() - split.test.size();
    result.test_size = split.test.size();
    result.fold_estimate.assign(o.folds, 0.0);
    result.fold_validation_risk.assign(o.folds, 0.0);
    for (const CeProblem& problem : problems) {
        const CeProblem test = take(problem, split.test);
        // The folds in parallel, each on one thread (the parallel loops inside run serially there, over
        // the same fixed strips): the KRR factorisations are serial, so this is what uses every core.
        // Bitwise the same for any thread count.
        std::vector<FoldScores> folds(o.folds);
        detail::parallel_for(o.folds, o.parallel, [&](std::size_t k) {
            const CeProblem validation = take(problem, split.validation[k]);
            folds[k] = score_fold(take(problem, split.train[k]), &validation, test, estimator, o, grid);
        });
        // Selection by the validation folds only.
        CeProblemResult& r = result.problems.emplace_back();
        detail::choose(r, folds, grid, o.selection);
        for (std::size_t k = 0; k < o.folds; ++k) {
            result.fold_validation_risk[k] += scale * folds[k].risk[r.chosen];
            result.fold_estimate[k] += scale * folds[k].estimate[r.chosen];
        }
        result.negative_diagonal += r.negative_diagonal;
    }
    // (21) with the fold ensemble: the test diagonal mean of the average of the K fold functions.
    std::vector<double> roots, risk_roots;
    for (std::size_t k = 0; k < o.folds; ++k) {
        result.estimate += result.fold_estimate[k] / static_cast<double>(o.folds);
        result.negative_fold_estimates += result.fold_estimate[k] < 0;
        roots.push_back(std::sqrt(std::max(result.fold_estimate[k], 0.0)));
        result.negative_fold_risks += result.fold_validation_risk[k] < 0;
        risk_roots.push_back(std::sqrt(std::max(result.fold_validation_risk[k], 0.0)));
    }
    const double root_k = std::sqrt(static_cast<double>(o.folds));
    std::tie(result.sqrt_mean, result.sqrt_std) = mean_std(roots);
    result.sqrt_se = result.sqrt_std / root_k;
    double risk_std = 0;
    std::tie(result.risk_sqrt_mean, risk_std) = mean_std(risk_roots);
    result.risk_sqrt_se = risk_std / root_k;
    if (o.notion == CeNotion::canonical) {
        // The bound check: CCE₂² ≥ TCE₂² for every model, so the same estimator's top-label estimate
        // on the same split bounds this one; with the top-label defaults of the grid and the KRR
        // tolerance (the canonical ones do not apply to a scalar input).
        SquaredCeOptions top_label = o;
        top_label.notion = CeNotion::top_label;
        top_label.grid.clear();
        top_label.krr_tolerance = -1;
        result.top_label_estimate = squared_ce(data, estimator, top_label).estimate;
    }
    return result;
}

FixedCeResult fixed_squared_ce(const CategoricalData& train, const CategoricalData& data, const CategoricalData* validation,
                               CeEstimator estimator, double hyperparameter, const SquaredCeOptions& o) {
    const char* function = "fixed_squared_ce";
    if (estimator == CeEstimator::bins && o.notion == CeNotion::canonical)
        detail::fail(function, "estimator = ce-bins, notion = canonical: binning needs a scalar notion "
                               "(top-label or class-wise)");
    if (estimator == CeEstimator::bins && !(hyperparameter >= 1 && hyperparameter <= 1e6 &&
                                            hyperparameter == std::floor(hyperparameter)))
        detail::fail(function, "bins = ", detail::format_value(hyperparameter), ", must be an integer in [1, 1e6]");
    if (estimator == CeEstimator::kde && !(std::isfinite(hyperparameter) && hyperparameter > 0))
        detail::fail(function, "bandwidth = ", detail::format_value(hyperparameter), ", must be finite and > 0");
    if (estimator == CeEstimator::kkr || estimator == CeEstimator::ukkr)
        detail::check_ridge(function, "ridge constant", hyperparameter);
    check_options(estimator, o, {hyperparameter});
    for (const CategoricalData* other : {&data, validation})
        if (other && other->num_classes() != train.num_classes())
            detail::fail(function, "train has ", train.num_classes(), " classes but ",
                         other == &data ? "data" : "validation", " has ", other->num_classes(), "; they must match");
    if (validation && validation->size() < 2)
        detail::fail(function, "validation has m = ", validation->size(), " observations, must have m >= 2 (pairs a != b)");
    const std::vector<CeProblem> train_problems = ce_problems(train, o.notion), problems = ce_problems(data, o.notion);
    std::vector<CeProblem> validation_problems;
    if (validation) validation_problems = ce_problems(*validation, o.notion);
    const double scale = o.notion == CeNotion::class_wise && o.aggregation == ClassAggregation::mean
                             ? 1.0 / static_cast<double>(problems.size())
                             : 1.0;
    FixedCeResult result;
    result.validation_risk = validation ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    for (std::size_t c = 0; c < problems.size(); ++c) {
        const FoldScores s = score_fold(train_problems[c], validation ? &validation_problems[c] : nullptr, problems[c],
                                        estimator, o, {hyperparameter});
        result.problem_estimates.push_back(s.estimate[0]);
        result.estimate += scale * s.estimate[0];
        result.validation_risk += scale * s.risk[0];
        result.negative_diagonal += s.negative[0];
        result.diagonal_size += static_cast<std::size_t>(problems[c].inputs.rows());
        result.rounding_sensitivity = std::max(result.rounding_sensitivity, s.sensitivity[0]);
    }
    return result;
}

}  // namespace calib


// The choice of a hyperparameter by its validation risk, and the warnings about it (selection.hpp).
#include "squared_ce/selection.hpp"

#include "core/check.hpp"
#include "core/compensated_sum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

namespace calib {

namespace detail {

void FoldScores::add(double r, const Vector& diagonal, double rounding_sensitivity, double truncation_indicator) {
    CompensatedSum s;
    std::size_t below = 0;
    for (Eigen::Index a = 0; a < diagonal.size(); ++a) {
        s.add(diagonal(a));
        below += diagonal(a) < 0;
    }
    risk.push_back(r);
    sensitivity.push_back(rounding_sensitivity);
    truncation.push_back(truncation_indicator);
    estimate.push_back(s.value() / static_cast<double>(diagonal.size()));
    negative.push_back(below);
}

std::pair<double, double> mean_std(const std::vector<double>& x) {
    double mean = 0, squares = 0;
    for (double v : x) mean += v;
    mean /= static_cast<double>(x.size());
    for (double v : x) squares += (v - mean) * (v - mean);
    return {mean, std::sqrt(squares / static_cast<double>(x.size() - 1))};
}

namespace {

// Mean and standard error (std with ddof 1 over √K) of a fold series.
std::pair<double, double> mean_se(const std::vector<double>& x) {
    const auto [mean, deviation] = mean_std(x);
    return {mean, deviation / std::sqrt(static_cast<double>(x.size()))};
}

// The neighbour of the chosen value whose risk is within noise of its risk while its estimate differs
// beyond noise and by more than unsettled_shift of the larger of the two.
std::optional<std::size_t> unsettled(const std::vector<FoldScores>& folds, std::size_t chosen,
                                     const std::vector<std::size_t>& neighbours, const std::vector<double>& estimate,
                                     double estimate_se) {
    std::optional<std::size_t> found;
    double largest = 0;
    for (std::size_t g : neighbours) {
        std::vector<double> differences;
        for (const FoldScores& f : folds) differences.push_back(f.risk[g] - f.risk[chosen]);
        const auto [mean, se] = mean_se(differences);
        const double shift = std::abs(estimate[g] - estimate[chosen]);
        const double material = unsettled_shift * std::max(std::abs(estimate[g]), std::abs(estimate[chosen]));
        if (mean <= 2 * se && shift > 2 * estimate_se && shift > material && shift > largest) found = g, largest = shift;
    }
    return found;
}

}  // namespace

void choose(CeProblemResult& r, const std::vector<FoldScores>& folds, const std::vector<double>& grid,
            CeSelection selection) {
    const std::size_t size = grid.size();
    const double count = static_cast<double>(folds.size());
    std::vector<double> criterion(size, 0.0);
    r.mean_validation_risk.assign(size, 0.0);
    r.grid_estimate.assign(size, 0.0);
    r.rounding_sensitivity.assign(size, 0.0);
    r.truncation_error_in_se.assign(size, 0.0);
    std::vector<double> truncation(size, 0.0);
    for (std::size_t g = 0; g < size; ++g)
        for (const FoldScores& f : folds) {
            r.mean_validation_risk[g] += f.risk[g] / count;
            r.grid_estimate[g] += f.estimate[g] / count;
            r.rounding_sensitivity[g] = std::max(r.rounding_sensitivity[g], f.sensitivity[g]);
            truncation[g] = std::max(truncation[g], f.truncation[g]);
            criterion[g] += selection == CeSelection::mean_risk ? f.risk[g] : std::sqrt(f.risk[g]);
        }
    r.grid_estimate_se.assign(size, 0.0);
    for (std::size_t g = 0; g < size; ++g) {
        std::vector<double> estimates;
        for (const FoldScores& f : folds) estimates.push_back(f.estimate[g]);
        const double se = r.grid_estimate_se[g] = mean_se(estimates).second;
        const double error = truncation_error_factor * truncation[g] * std::abs(r.grid_estimate[g]);
        r.truncation_error_in_se[g] = error == 0 ? 0.0 : se > 0 ? error / se : std::numeric_limits<double>::infinity();
    }
    // The candidates in increasing grid value (the grid's order on ties).
    std::vector<std::size_t> candidates;
    for (std::size_t g = 0; g < size; ++g)
        if (r.rounding_sensitivity[g] <= max_rounding_sensitivity && r.truncation_error_in_se[g] <= max_truncation_error_in_se)
            candidates.push_back(g);
    if (candidates.empty())
        fail("squared_ce", "no grid value is resolved by its fits: each lies below the rounding floor (rounding "
             "sensitivity above ", format_value(max_rounding_sensitivity), "; use larger ridge constants) or beyond the "
             "accuracy of the low-rank factor (a truncation error above ", format_value(max_truncation_error_in_se),
             " standard errors; use a smaller `krr_tolerance`, 0 for the exact path)");
    std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) { return grid[a] < grid[b]; });
    // The least criterion, the first in the grid's order on ties.
    r.chosen = candidates.front();
    for (std::size_t g : candidates)
        if (criterion[g] < criterion[r.chosen] || (criterion[g] == criterion[r.chosen] && g < r.chosen)) r.chosen = g;
    for (const FoldScores& f : folds) {
        r.fold_validation_risk.push_back(f.risk[r.chosen]);
        r.fold_estimate.push_back(f.estimate[r.chosen]);
        r.negative_diagonal += f.negative[r.chosen];
    }
    const auto at = static_cast<std::size_t>(std::find(candidates.begin(), candidates.end(), r.chosen) - candidates.begin());
    if (at == 0 && size > 1) r.edge = CeGridEdge::smallest;
    else if (at + 1 == candidates.size() && candidates.size() > 1) r.edge = CeGridEdge::largest;
    std::vector<std::size_t> neighbours;
    if (at > 0) neighbours.push_back(candidates[at - 1]);
    if (at + 1 < candidates.size()) neighbours.push_back(candidates[at + 1]);
    r.unsettled_neighbour = unsettled(folds, r.chosen, neighbours, r.grid_estimate, r.grid_estimate_se[r.chosen]);
}

}  // namespace detail

namespace {

std::string value(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", x);
    return text;
}

const char* hyperparameter_name(CeEstimator estimator) {
    return estimator == CeEstimator::bins ? "number of bins"
         : estimator == CeEstimator::kde  ? "bandwidth"
                                          : "ridge constant";
}

std::string classes(const SquaredCeResult& r, const std::vector<std::size_t>& problems);

// The chosen values of `problems`, distinct, in order ("1e-05" or "0.1, 1e-05"), and for classes
// which of them (" for 9 of 10 classes (0, 1, 3, 4, 5, 6, 7, 8, 9)").
std::string chosen_values(const SquaredCeResult& r, const std::vector<std::size_t>& problems) {
    std::vector<double> values;
    for (std::size_t c : problems) values.push_back(r.grid[r.problems[c].chosen]);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::string out;
    for (double v : values) out += (out.empty() ? "" : ", ") + value(v);
    return out + classes(r, problems);
}

std::string classes(const SquaredCeResult& r, const std::vector<std::size_t>& problems) {
    if (r.problems.size() == 1) return "";
    std::string list;
    for (std::size_t c : problems) list += (list.empty() ? "" : ", ") + std::to_string(c);
    return " for " + std::to_string(problems.size()) + " of " + std::to_string(r.problems.size()) + " classes (" + list +
           ")";
}

// Why the grid values beyond the chosen one (below it, or above) were not candidates: "" when they all
// were, else the reasons that apply.
std::string unresolved_beyond(const SquaredCeResult& r, const CeProblemResult& p, bool above) {
    bool rounding = false, truncation = false;
    for (std::size_t g = 0; g < r.grid.size(); ++g)
        if (above ? r.grid[g] > r.grid[p.chosen] : r.grid[g] < r.grid[p.chosen]) {
            const bool below_floor = p.rounding_sensitivity[g] > max_rounding_sensitivity;
            rounding = rounding || below_floor;
            truncation = truncation || (!below_floor && p.truncation_error_in_se[g] > max_truncation_error_in_se);
        }
    const std::string floor = "lie below the rounding floor of float64 (their estimates would be rounding noise)",
                      factor = "lie beyond the accuracy of the low-rank factor (a smaller `krr_tolerance` resolves "
                               "them, 0 the exact path)";
    return rounding && truncation ? floor + " or " + factor : rounding ? floor : truncation ? factor : "";
}

std::string negative_diagonal_warning(std::size_t negative, std::size_t size) {
    return "ce-kkr: h(p, p) < 0 at " + std::to_string(negative) + " of " + std::to_string(size) +
           " diagonal values: the Kronecker fit is not a squared error at most points, so its estimate is not to be "
           "trusted; ce-ukkr is non-negative by construction, or use a larger ridge constant";
}

}  // namespace

std::vector<std::string> squared_ce_warnings(const SquaredCeResult& r, CeEstimator estimator) {
    const std::string name = to_string(estimator), what = hyperparameter_name(estimator);
    // Edges, grouped by the message they get: (edge, why the values beyond it were left out).
    std::vector<std::pair<std::pair<CeGridEdge, std::string>, std::vector<std::size_t>>> edges;
    for (std::size_t c = 0; c < r.problems.size(); ++c) {
        const CeProblemResult& p = r.problems[c];
        if (p.edge == CeGridEdge::none) continue;
        const std::pair<CeGridEdge, std::string> key{p.edge, unresolved_beyond(r, p, p.edge == CeGridEdge::largest)};
        auto it = std::find_if(edges.begin(), edges.end(), [&](const auto& e) { return e.first == key; });
        if (it == edges.end()) it = edges.insert(edges.end(), {key, {}});
        it->second.push_back(c);
    }
    std::vector<std::string> out;
    for (const auto& [key, problems] : edges) {
        const bool small = key.first == CeGridEdge::smallest;
        const std::string side = small ? "smallest" : "largest", beyond = small ? "below" : "above";
        if (key.second.empty())
            out.push_back(name + " chose the " + what + " " + chosen_values(r, problems) + ", the " + side +
                          " value of the grid: the risk may still fall " + beyond + " it; extend `grid` to see");
        else
            out.push_back(name + " chose the " + what + " " + chosen_values(r, problems) + ", the " + side +
                          " that its fits resolve: the grid's values " + beyond + " it " + key.second +
                          ", and were not candidates; the risk may still fall toward them, so compare ce-ukkr and "
                          "ce-kde, or use more data");
    }
    std::vector<std::size_t> unsettled;
    double chosen_sum = 0, shift_sum = 0;
    for (std::size_t c = 0; c < r.problems.size(); ++c) {
        const CeProblemResult& p = r.problems[c];
        chosen_sum += p.grid_estimate[p.chosen];
        if (!p.unsettled_neighbour) continue;
        unsettled.push_back(c);
        shift_sum += p.grid_estimate[*p.unsettled_neighbour] - p.grid_estimate[p.chosen];
    }
    if (unsettled.size() == 1 && r.problems.size() == 1) {
        const CeProblemResult& p = r.problems[0];
        const std::size_t g = *p.unsettled_neighbour;
        out.push_back(name + ": the data do not settle the " + what + ": " + value(r.grid[g]) +
                      " fits the validation folds as well as the chosen " + value(r.grid[p.chosen]) +
                      " (risk difference within twice its standard error) but estimates " + value(p.grid_estimate[g]) +
                      " instead of " + value(p.grid_estimate[p.chosen]) +
                      "; the estimate is uncertain by about that much (more data would settle it)");
    } else if (!unsettled.empty()) {
        char change[32];
        if (chosen_sum != 0) std::snprintf(change, sizeof change, "%+.0f %%", 100 * shift_sum / chosen_sum);
        else std::snprintf(change, sizeof change, "%+.4g", shift_sum);
        out.push_back(name + ": the data do not settle the " + what + classes(r, unsettled) +
                      ": a neighbouring value fits the validation folds as well as the chosen one (risk difference "
                      "within twice its standard error) but changes the class-wise estimate by " + change +
                      " in all; the estimate is uncertain by about that much (more data would settle it)");
    }
    const std::size_t diagonal = r.test_size * r.problems.size() * (r.problems.empty() ? 0 : r.problems[0].fold_estimate.size());
    if (estimator == CeEstimator::kkr && 2 * r.negative_diagonal > diagonal)
        out.push_back(negative_diagonal_warning(r.negative_diagonal, diagonal));
    if (r.estimate < r.top_label_estimate)
        out.push_back(name + ": the canonical estimate " + value(r.estimate) + " is below the top-label estimate " +
                      value(r.top_label_estimate) + " of the same data, but CCE2^2 >= TCE2^2 for every model, so the "
                      "canonical estimate is too low (unless both are noise around 0): smoothing over the whole "
                      "probability vector flattens the miscalibration. Read it as a lower bound of CCE2^2 and prefer "
                      "the top-label error: on network-like outputs ce-ukkr's top-label estimates were on average "
                      "within 10 % of the truth, while the canonical estimators mostly ran low, by up to 93 % "
                      "(docs/squared_ce.md)");
    return out;
}

std::vector<std::string> fixed_squared_ce_warnings(const FixedCeResult& r, CeEstimator estimator) {
    std::vector<std::string> out;
    if (r.rounding_sensitivity > max_rounding_sensitivity)
        out.push_back(to_string(estimator) + ": the ridge constant lies below the rounding floor of the fit (rounding "
                      "sensitivity " + value(r.rounding_sensitivity) + ", above " + value(max_rounding_sensitivity) +
                      "): the estimate carries fewer than about five significant digits, and is rounding noise once "
                      "the sensitivity nears 1e-2; use a larger `ridge_constant`");
    if (estimator == CeEstimator::kkr && 2 * r.negative_diagonal > r.diagonal_size)
        out.push_back(negative_diagonal_warning(r.negative_diagonal, r.diagonal_size));
    return out;
}

}  // namespace calib

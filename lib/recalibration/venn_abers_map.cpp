// The inductive Venn–Abers map (Vovk & Petej 2014; Vovk, Petej & Fedorova 2015, §2 and §4): a new
// prediction's score is placed among the calibration scores, the table gives its two isotonic fits p0
// (its label taken as 0) and p1 (as 1), and the map's probability of class 1 is p1 / (1 − p0 + p1), the
// merge that minimises the worst-case regret of the log loss over the interval (their §4). The score is
// class 1's probability, or for a map on logits the log-odds z₁ − z₀, which orders the predictions as
// the probability does without rounding large logits to probabilities of exactly 0 or 1; the table is
// the same for any increasing function of the score.
#include "recalibration/venn_abers_map.hpp"

#include "core/check.hpp"
#include "recalibration/objective.hpp"
#include "recalibration/one_vs_rest.hpp"
#include "recalibration/venn_abers_table.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace calib::detail {

namespace {

// The scores of the rows: p₁ (checked in [0, 1]) or z₁ − z₀ of logits (checked finite, as the difference).
std::vector<double> scores_of(const Matrix& scores, bool logits, const char* function) {
    if (scores.cols() != 2) fail(function, "scores has ", scores.cols(), " columns; venn-abers maps m = 2 classes");
    std::vector<double> out(static_cast<std::size_t>(scores.rows()));
    for (Eigen::Index i = 0; i < scores.rows(); ++i) {
        for (Eigen::Index k = 0; k < 2; ++k) check_finite(function, "scores", i, k, scores(i, k));
        const double s = logits ? scores(i, 1) - scores(i, 0) : scores(i, 1);
        if (!logits && !(s >= 0 && s <= 1))
            fail_at(i, 1, function, "scores(", i, ", 1) = ", format_value(s), ", must be in [0, 1] (probabilities; give "
                    "logits as logits)");
        if (!std::isfinite(s)) fail_at(i, -1, function, "row ", i, ": z1 - z0 is not finite (logits of opposite signs near "
                                       "the largest double)");
        out[static_cast<std::size_t>(i)] = s;
    }
    return out;
}

// [p0, p1] at a score: tied with a calibration score, or between two (or beyond the ends).
std::pair<double, double> interval_at(const VennAbersTable& table, double s) {
    const std::vector<double>& x = table.scores;
    const auto g = static_cast<std::size_t>(std::lower_bound(x.begin(), x.end(), s) - x.begin());  // x[g-1] < s <= x[g]
    if (g < x.size() && x[g] == s) return {table.p0_at[g], table.p1_at[g]};
    return {table.p0_between[g], table.p1_between[g]};
}

const char* const names[] = {"scores", "p0_at", "p1_at", "p0_between", "p1_between"};

}  // namespace

FitSummary fit_venn_abers(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions&) {
    check_labelled_scores("fit_recalibration", data);
    map.venn_abers = venn_abers_table(scores_of(data.scores, data.logits, "fit_recalibration"), data.labels);
    FitSummary summary;
    Matrix identity(data.scores.rows(), 2);  // the predictions as they are: q₁ = p₁ (the softmax of logits)
    identity.col(1) = one_vs_rest_inputs(data.scores, data.logits, "fit_recalibration").col(1);
    identity.col(0) = (1.0 - identity.col(1).array()).matrix();
    summary.objective_before = floored_nll(identity, data.labels, map.probability_floor);
    summary.objective_after = floored_nll(apply_venn_abers(map, data.scores), data.labels, map.probability_floor);
    return summary;
}

Matrix venn_abers_interval_table(const RecalibrationMap& map, const Matrix& scores) {
    const std::vector<double> s = scores_of(scores, map.logits, "apply_recalibration");
    Matrix out(scores.rows(), 2);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto [p0, p1] = interval_at(map.venn_abers, s[i]);
        out(static_cast<Eigen::Index>(i), 0) = p0, out(static_cast<Eigen::Index>(i), 1) = p1;
    }
    return out;
}

Matrix apply_venn_abers(const RecalibrationMap& map, const Matrix& scores) {
    const Matrix interval = venn_abers_interval_table(map, scores);
    Matrix q(scores.rows(), 2);
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
        const double p0 = interval(i, 0), p1 = interval(i, 1);
        q(i, 1) = p1 / (1 - p0 + p1);  // 1 − p0 + p1 ≥ 1 since p0 ≤ p1
        q(i, 0) = (1 - p0) / (1 - p0 + p1);
    }
    return q;
}

std::vector<NamedParameter> venn_abers_parameters(const RecalibrationMap& map) {
    const VennAbersTable& t = map.venn_abers;
    const std::vector<double>* lists[] = {&t.scores, &t.p0_at, &t.p1_at, &t.p0_between, &t.p1_between};
    std::vector<NamedParameter> named;
    for (std::size_t k = 0; k < 5; ++k) named.push_back({names[k], *lists[k], true});
    return named;
}

std::vector<std::string> venn_abers_parameter_names(int) { return {std::begin(names), std::end(names)}; }

void set_venn_abers_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists) {
    VennAbersTable& t = map.venn_abers;
    std::vector<double>* out[] = {&t.scores, &t.p0_at, &t.p1_at, &t.p0_between, &t.p1_between};
    for (std::size_t k = 0; k < 5 && k < lists.size(); ++k) *out[k] = lists[k];
}

std::string venn_abers_problem(const RecalibrationMap& map) {
    const VennAbersTable& t = map.venn_abers;
    const std::size_t groups = t.scores.size();
    if (groups == 0) return "scores is empty, must hold the calibration set's distinct scores";
    for (std::size_t g = 0; g < groups; ++g) {
        const double s = t.scores[g];
        if (!std::isfinite(s) || (!map.logits && !(s >= 0 && s <= 1)))
            return concat("scores[", g, "] = ", format_value(s), map.logits ? ", must be finite" : ", must be in [0, 1]");
        if (g > 0 && !(s > t.scores[g - 1]))
            return concat("scores[", g, "] = ", format_value(s), ", must be larger than scores[", g - 1, "]");
    }
    const std::pair<const std::vector<double>*, const std::vector<double>*> pairs[] = {{&t.p0_at, &t.p1_at},
                                                                                        {&t.p0_between, &t.p1_between}};
    for (std::size_t k = 0; k < 2; ++k) {
        const auto [p0, p1] = pairs[k];
        const std::size_t length = groups + k;
        const std::string name0 = names[1 + 2 * k], name1 = names[2 + 2 * k];
        if (p0->size() != length || p1->size() != length)
            return concat(name0, " and ", name1, " have ", p0->size(), " and ", p1->size(), " values, must have ", length,
                          k == 0 ? " (one per score)" : " (one more than the scores)");
        for (std::size_t g = 0; g < length; ++g) {
            if (!((*p0)[g] >= 0 && (*p1)[g] <= 1 && (*p0)[g] <= (*p1)[g]))
                return concat(name0, "[", g, "] = ", format_value((*p0)[g]), " and ", name1, "[", g, "] = ",
                              format_value((*p1)[g]), ", must satisfy 0 <= p0 <= p1 <= 1");
        }
    }
    return "";
}

}  // namespace calib::detail

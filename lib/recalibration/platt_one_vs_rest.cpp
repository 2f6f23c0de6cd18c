// Platt scaling of m > 2 classes, one-vs-rest (platt_one_vs_rest.hpp): the binary map's fit per class on
// the class's log-odds, then rows renormalised.
#include "recalibration/platt_one_vs_rest.hpp"

#include "core/check.hpp"
#include "recalibration/objective.hpp"
#include "recalibration/one_vs_rest.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace calib::detail {

namespace {

double sigmoid(double t) { return t >= 0 ? 1 / (1 + std::exp(-t)) : std::exp(t) / (1 + std::exp(t)); }

// ln Σ_{j≠skip} e^{z_j} of row i (m ≥ 2 columns, so the sum has a term), by its largest term.
double log_sum_exp_without(const Matrix& z, Eigen::Index i, Eigen::Index skip) {
    double top = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < z.cols(); ++j)
        if (j != skip) top = std::max(top, z(i, j));
    double sum = 0;
    for (Eigen::Index j = 0; j < z.cols(); ++j)
        if (j != skip) sum += std::exp(z(i, j) - top);
    return top + std::log(sum);
}

// The renormalised σ(a_k s_k + b_k) of the log-odds s (n×m) at parameters [a, b].
Matrix probabilities(const Vector& parameters, const Matrix& s) {
    const Eigen::Index m = s.cols();
    Matrix q(s.rows(), m);
    for (Eigen::Index i = 0; i < s.rows(); ++i)
        for (Eigen::Index k = 0; k < m; ++k) q(i, k) = sigmoid(parameters[k] * s(i, k) + parameters[m + k]);
    renormalise_rows(q);
    return q;
}

int badness(FitTermination t) {
    return t == FitTermination::max_iterations ? 2 : t == FitTermination::line_search_failed ? 1 : 0;
}

}  // namespace

Matrix one_vs_rest_log_odds(const Matrix& scores, bool logits, double floor, const char* function) {
    const Matrix p = one_vs_rest_inputs(scores, logits, function);  // checks the scores
    Matrix s(scores.rows(), scores.cols());
    for (Eigen::Index i = 0; i < scores.rows(); ++i)
        for (Eigen::Index k = 0; k < scores.cols(); ++k)
            s(i, k) = logits ? scores(i, k) - log_sum_exp_without(scores, i, k)
                             : std::log(std::max(p(i, k), floor)) - std::log(std::max(1 - p(i, k), floor));
    return s;
}

FitSummary fit_platt_one_vs_rest(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options) {
    check_labelled_scores("fit_recalibration", data);
    const Matrix s = one_vs_rest_log_odds(data.scores, data.logits, map.probability_floor, "fit_recalibration");
    const Eigen::Index n = s.rows(), m = s.cols();
    FitSummary summary;
    summary.objective_before =
        floored_nll(one_vs_rest_inputs(data.scores, data.logits, "fit_recalibration"), data.labels, map.probability_floor);
    map.parameters = Vector::Zero(2 * m);
    // Class k against the rest: the binary map on logits (0, s_k), whose log-odds are s_k.
    CategoricalScores binary{Matrix::Zero(n, 2), std::vector<int>(static_cast<std::size_t>(n)), true};
    for (Eigen::Index k = 0; k < m; ++k) {
        binary.scores.col(1) = s.col(k);
        for (Eigen::Index i = 0; i < n; ++i) binary.labels[static_cast<std::size_t>(i)] = data.labels[static_cast<std::size_t>(i)] == k;
        const RecalibrationFit fit = fit_recalibration(binary, RecalibrationMethod::platt, options);
        map.parameters[k] = fit.map.parameters[0];
        map.parameters[m + k] = fit.map.parameters[1];
        summary.iterations += fit.summary.iterations;
        summary.evaluations += fit.summary.evaluations;
        if (badness(fit.summary.termination) > badness(summary.termination)) summary.termination = fit.summary.termination;
    }
    summary.objective_after = floored_nll(probabilities(map.parameters, s), data.labels, map.probability_floor);
    return summary;
}

Matrix apply_platt_one_vs_rest(const RecalibrationMap& map, const Matrix& scores) {
    return probabilities(map.parameters, one_vs_rest_log_odds(scores, map.logits, map.probability_floor, "apply_recalibration"));
}

std::vector<NamedParameter> platt_one_vs_rest_parameters(const RecalibrationMap& map) {
    const Eigen::Index m = map.parameters.size() / 2;
    const auto list = [&](Eigen::Index start) {
        return std::vector<double>(map.parameters.data() + start, map.parameters.data() + start + m);
    };
    return {{"a", list(0), true}, {"b", list(m), true}};
}

std::vector<std::string> platt_one_vs_rest_parameter_names(int) { return {"a", "b"}; }

void set_platt_one_vs_rest_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists) {
    map.parameters = Vector::Zero(static_cast<Eigen::Index>(lists[0].size() + lists[1].size()));
    std::copy(lists[0].begin(), lists[0].end(), map.parameters.data());
    std::copy(lists[1].begin(), lists[1].end(), map.parameters.data() + lists[0].size());
    // Lists of unequal lengths cannot be told apart once joined: keep a length that problem() refuses.
    if (lists[0].size() != lists[1].size() || lists[0].size() != static_cast<std::size_t>(map.num_classes))
        map.parameters.resize(0);
}

std::string platt_one_vs_rest_problem(const RecalibrationMap& map) {
    if (map.parameters.size() != 2 * static_cast<Eigen::Index>(map.num_classes))
        return concat("a and b: must have m = ", map.num_classes, " values each (one per class)");
    for (Eigen::Index j = 0; j < map.parameters.size(); ++j)
        if (!std::isfinite(map.parameters[j]))
            return concat(j < map.num_classes ? "a[" : "b[", j % map.num_classes, "] = ", format_value(map.parameters[j]),
                          ", must be finite");
    return "";
}

}  // namespace calib::detail

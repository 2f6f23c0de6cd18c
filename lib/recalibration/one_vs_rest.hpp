// Internal: what the one-vs-rest maps (isotonic, histogram) share — each calibrated class k has a
// function of its probability p_k; the row is renormalised (the uniform row when every function gives
// 0), or for m = 2 only class 1 is calibrated and class 0 gets 1 − q₁: scikit-learn's
// CalibratedClassifierCV conventions.
#pragma once

#include <calib/recalibration.hpp>

#include "core/check.hpp"
#include "recalibration/objective.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace calib::detail {

// The columns k with a function: {1} for m = 2, every column for m > 2.
std::vector<int> one_vs_rest_columns(int num_classes);

// A one-vs-rest map's two lists per calibrated column k in the map file, `first`_k and `second`_k: their
// names for a map of m classes; the lists of `functions` (first_of(f), second_of(f)); `functions` from
// the lists read in the names' order (make(first, second)).
std::vector<std::string> per_class_names(int num_classes, const std::string& first, const std::string& second);
template <class Function, class First, class Second>
std::vector<NamedParameter> per_class_parameters(const std::vector<Function>& functions, int num_classes,
                                                 const std::string& first, const std::string& second, First first_of,
                                                 Second second_of) {
    const std::vector<std::string> names = per_class_names(num_classes, first, second);
    std::vector<NamedParameter> named;
    for (std::size_t c = 0; c < std::min(names.size() / 2, functions.size()); ++c) {
        named.push_back({names[2 * c], first_of(functions[c]), true});
        named.push_back({names[2 * c + 1], second_of(functions[c]), true});
    }
    return named;
}
template <class Function, class Make>
std::vector<Function> per_class_functions(const std::vector<std::vector<double>>& lists, Make make) {
    std::vector<Function> functions;
    for (std::size_t c = 0; c + 1 < lists.size(); c += 2) functions.push_back(make(lists[c], lists[c + 1]));
    return functions;
}

// The identity: curves through (0, 0) and (1, 1) (isotonic.hpp's MonotoneCurve), one per column.
std::vector<MonotoneCurve> identity_curves(int num_classes);

// The probabilities the functions take: the scores (checked finite, and in [0, 1] unless logits), or the
// softmax of logits.
Matrix one_vs_rest_inputs(const Matrix& scores, bool logits, const char* function);

// The mean of −log max(q_{i,y_i}, floor).
double floored_nll(const Matrix& q, const std::vector<int>& labels, double floor);

// Each row of q (m > 2 columns, entries ≥ 0) divided by its sum; the uniform row for a row of zeros.
void renormalise_rows(Matrix& q);

// q from the functions (one per column of one_vs_rest_columns, evaluated by evaluate(f, p)), renormalised.
template <class Function>
Matrix one_vs_rest_probabilities(const std::vector<Function>& functions, const Matrix& p) {
    const Eigen::Index n = p.rows(), m = p.cols();
    const std::vector<int> columns = one_vs_rest_columns(static_cast<int>(m));
    Matrix q = Matrix::Zero(n, m);
    for (std::size_t c = 0; c < columns.size(); ++c)
        for (Eigen::Index i = 0; i < n; ++i) q(i, columns[c]) = evaluate(functions[c], p(i, columns[c]));
    if (m == 2) {
        q.col(0) = (1.0 - q.col(1).array()).matrix();
        return q;
    }
    renormalise_rows(q);
    return q;
}

// A map's functions applied to scores (its input: probabilities, or logits).
template <class Function>
Matrix apply_one_vs_rest(const RecalibrationMap& map, const std::vector<Function>& functions, const Matrix& scores) {
    return one_vs_rest_probabilities(functions, one_vs_rest_inputs(scores, map.logits, "apply_recalibration"));
}

// Fits one function per column by fit_column(x, y) (x the column's probabilities, y the indicators of
// its class) into `functions`, and says how it went (objective_before: the identity's floored NLL).
template <class Function, class FitColumn>
FitSummary fit_one_vs_rest(const RecalibrationMap& map, const CategoricalScores& data, std::vector<Function>& functions,
                           const FitColumn& fit_column) {
    check_labelled_scores("fit_recalibration", data);
    const Matrix p = one_vs_rest_inputs(data.scores, data.logits, "fit_recalibration");
    FitSummary summary;
    summary.objective_before =
        floored_nll(one_vs_rest_probabilities(identity_curves(map.num_classes), p), data.labels, map.probability_floor);
    const auto n = static_cast<std::size_t>(p.rows());
    functions.clear();
    std::vector<double> x(n), y(n);
    for (const int k : one_vs_rest_columns(map.num_classes)) {
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = p(static_cast<Eigen::Index>(i), k);
            y[i] = data.labels[i] == k ? 1.0 : 0.0;
        }
        functions.push_back(fit_column(x, y));
    }
    summary.objective_after = floored_nll(one_vs_rest_probabilities(functions, p), data.labels, map.probability_floor);
    return summary;
}

}  // namespace calib::detail

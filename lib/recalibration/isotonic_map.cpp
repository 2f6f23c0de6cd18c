// The isotonic recalibration map (Zadrozny & Elkan 2002): per class, the isotonic regression of the
// class's indicator on its predicted probability, joined linearly between the fit's blocks and clipped
// beyond them; one-vs-rest for m > 2 with the row renormalised (the uniform row when every curve gives
// 0), the last class alone for m = 2. The conventions are scikit-learn's CalibratedClassifierCV(method=
// "isotonic"), so that a map fitted here and there gives the same probabilities (tests/python).
#include "recalibration/isotonic_map.hpp"

#include <calib/isotonic.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "recalibration/objective.hpp"

#include <algorithm>
#include <cmath>

namespace calib {

double evaluate(const MonotoneCurve& curve, double x) {
    const std::vector<double>& xs = curve.x;
    if (!(x > xs.front())) return curve.y.front();
    if (!(x < xs.back())) return curve.y.back();
    // xs[j] ≤ x < xs[j + 1]
    const auto j = static_cast<std::size_t>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin()) - 1;
    if (x == xs[j]) return curve.y[j];
    const double slope = (curve.y[j + 1] - curve.y[j]) / (xs[j + 1] - xs[j]);
    return slope * (x - xs[j]) + curve.y[j];
}

namespace detail {

namespace {

// The probabilities the curves take: the scores themselves, or the softmax of logits.
Matrix probabilities_of(const Matrix& scores, bool logits, const char* function) {
    for (Eigen::Index i = 0; i < scores.rows(); ++i)
        for (Eigen::Index k = 0; k < scores.cols(); ++k) check_finite(function, "scores", i, k, scores(i, k));
    if (!logits) return scores;
    return mapped_probabilities(RecalibrationMethod::temperature, Vector::Zero(1), scores.transpose());
}

MonotoneCurve curve_of(const IsotonicFit& fit) {
    MonotoneCurve curve;
    for (const IsotonicBlock& block : fit.blocks) {
        curve.x.push_back(block.lower), curve.y.push_back(block.value);
        if (block.upper > block.lower) curve.x.push_back(block.upper), curve.y.push_back(block.value);
    }
    return curve;
}

Matrix curve_probabilities(const RecalibrationMap& map, const Matrix& p) {
    const Eigen::Index n = p.rows(), m = p.cols();
    const std::vector<int> columns = isotonic_columns(map.num_classes);
    Matrix q = Matrix::Zero(n, m);
    for (std::size_t c = 0; c < columns.size(); ++c)
        for (Eigen::Index i = 0; i < n; ++i) q(i, columns[c]) = evaluate(map.curves[c], p(i, columns[c]));
    if (m == 2) {
        q.col(0) = (1.0 - q.col(1).array()).matrix();
        return q;
    }
    for (Eigen::Index i = 0; i < n; ++i) {
        const double total = q.row(i).sum();
        if (total > 0) q.row(i) /= total;
        else q.row(i).setConstant(1.0 / static_cast<double>(m));
    }
    return q;
}

double mean_nll(const Matrix& q, const std::vector<int>& labels, double floor) {
    CompensatedSum sum;
    for (std::size_t i = 0; i < labels.size(); ++i)
        sum.add(-std::log(std::max(q(static_cast<Eigen::Index>(i), labels[i]), floor)));
    return sum.value() / static_cast<double>(labels.size());
}

}  // namespace

std::vector<int> isotonic_columns(int num_classes) {
    if (num_classes == 2) return {1};
    std::vector<int> out(static_cast<std::size_t>(std::max(num_classes, 0)));
    for (int k = 0; k < num_classes; ++k) out[static_cast<std::size_t>(k)] = k;
    return out;
}

std::vector<MonotoneCurve> identity_curves(int num_classes) {
    return std::vector<MonotoneCurve>(isotonic_columns(num_classes).size(), MonotoneCurve{{0.0, 1.0}, {0.0, 1.0}});
}

FitSummary fit_isotonic(RecalibrationMap& map, const CategoricalScores& data) {
    check_labelled_scores("fit_recalibration", data);
    const Matrix p = probabilities_of(data.scores, data.logits, "fit_recalibration");
    if (!data.logits)
        for (Eigen::Index i = 0; i < p.rows(); ++i)
            for (Eigen::Index k = 0; k < p.cols(); ++k)
                if (!(p(i, k) >= 0 && p(i, k) <= 1))
                    fail_at(i, k, "fit_recalibration", "scores(", i, ", ", k, ") = ", format_value(p(i, k)),
                            ", must be in [0, 1] (probabilities; give logits as logits)");
    FitSummary summary;
    map.curves = identity_curves(map.num_classes);
    summary.objective_before = mean_nll(curve_probabilities(map, p), data.labels, map.probability_floor);
    const auto n = static_cast<std::size_t>(p.rows());
    map.curves.clear();
    std::vector<double> x(n), y(n);
    for (const int k : isotonic_columns(map.num_classes)) {
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = p(static_cast<Eigen::Index>(i), k);
            y[i] = data.labels[i] == k ? 1.0 : 0.0;
        }
        map.curves.push_back(curve_of(isotonic_regression(x, y)));
    }
    summary.objective_after = mean_nll(curve_probabilities(map, p), data.labels, map.probability_floor);
    return summary;
}

Matrix apply_isotonic(const RecalibrationMap& map, const Matrix& scores) {
    return curve_probabilities(map, probabilities_of(scores, map.logits, "apply_recalibration"));
}

double isotonic_nll(const RecalibrationMap& map, const CategoricalScores& data) {
    check_labelled_scores("recalibrated_nll", data);
    if (data.scores.cols() != map.num_classes)
        fail("recalibrated_nll", "scores has ", data.scores.cols(), " columns, must have the map's m = ", map.num_classes);
    return mean_nll(apply_isotonic(map, data.scores), data.labels, map.probability_floor);
}

std::string curves_problem(const RecalibrationMap& map) {
    const std::vector<int> columns = isotonic_columns(map.num_classes);
    if (map.curves.size() != columns.size())
        return concat("curves: ", map.curves.size(), " curves, the map of m = ", map.num_classes, " classes has ",
                      columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const MonotoneCurve& curve = map.curves[c];
        const std::string k = std::to_string(columns[c]);
        if (curve.x.empty() || curve.x.size() != curve.y.size())
            return concat("x_", k, " and y_", k, " have ", curve.x.size(), " and ", curve.y.size(),
                          " values, must have the same number >= 1");
        for (std::size_t j = 0; j < curve.x.size(); ++j) {
            const double x = curve.x[j], y = curve.y[j];
            if (!(x >= 0 && x <= 1)) return concat("x_", k, "[", j, "] = ", format_value(x), ", must be in [0, 1]");
            if (!(y >= 0 && y <= 1)) return concat("y_", k, "[", j, "] = ", format_value(y), ", must be in [0, 1]");
            if (j > 0 && !(x > curve.x[j - 1]))
                return concat("x_", k, "[", j, "] = ", format_value(x), ", must be larger than x_", k, "[", j - 1, "]");
            if (j > 0 && !(y >= curve.y[j - 1]))
                return concat("y_", k, "[", j, "] = ", format_value(y), ", must be at least y_", k, "[", j - 1, "]");
        }
    }
    return "";
}

}  // namespace detail

}  // namespace calib

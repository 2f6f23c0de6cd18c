// The isotonic recalibration map (Zadrozny & Elkan 2002): per class, the isotonic regression of the
// class's indicator on its predicted probability, joined linearly between the fit's blocks and clipped
// beyond them, one-vs-rest (one_vs_rest.hpp). The conventions are scikit-learn's
// CalibratedClassifierCV(method="isotonic"), so that a map fitted here and there gives the same
// probabilities (tests/python).
#include "recalibration/isotonic_map.hpp"

#include <calib/isotonic.hpp>

#include "core/check.hpp"
#include "recalibration/one_vs_rest.hpp"

#include <algorithm>

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

MonotoneCurve curve_of(const IsotonicFit& fit) {
    MonotoneCurve curve;
    for (const IsotonicBlock& block : fit.blocks) {
        curve.x.push_back(block.lower), curve.y.push_back(block.value);
        if (block.upper > block.lower) curve.x.push_back(block.upper), curve.y.push_back(block.value);
    }
    return curve;
}

FitSummary fit_isotonic(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions&) {
    return fit_one_vs_rest(map, data, map.curves, [](const std::vector<double>& x, const std::vector<double>& y) {
                               return curve_of(isotonic_regression(x, y));
                           });
}

Matrix apply_isotonic(const RecalibrationMap& map, const Matrix& scores) { return apply_one_vs_rest(map, map.curves, scores); }

std::vector<NamedParameter> isotonic_parameters(const RecalibrationMap& map) {
    return per_class_parameters(map.curves, map.num_classes, "x", "y", [](const MonotoneCurve& f) { return f.x; },
                                [](const MonotoneCurve& f) { return f.y; });
}

std::vector<std::string> isotonic_parameter_names(int num_classes) { return per_class_names(num_classes, "x", "y"); }

void set_isotonic_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists) {
    map.curves = per_class_functions<MonotoneCurve>(
        lists, [](const std::vector<double>& x, const std::vector<double>& y) { return MonotoneCurve{x, y}; });
}

std::string curves_problem(const RecalibrationMap& map) { return curves_problem(map, one_vs_rest_columns(map.num_classes)); }

std::string curves_problem(const RecalibrationMap& map, const std::vector<int>& columns) {
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

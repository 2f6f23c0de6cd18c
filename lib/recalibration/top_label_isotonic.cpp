// The top-label isotonic map (top_label_isotonic.hpp): one PAV fit per predicted class, on the rows that
// predict it; applied, the top class's probability through its curve and the rest shared below it.
#include "recalibration/top_label_isotonic.hpp"

#include "core/check.hpp"
#include "recalibration/isotonic_map.hpp"
#include "recalibration/objective.hpp"
#include "recalibration/one_vs_rest.hpp"

#include <algorithm>
#include <cmath>

namespace calib::detail {

namespace {

// Every class's column, 0 … m − 1.
std::vector<int> all_columns(int num_classes) {
    std::vector<int> out;
    for (int k = 0; k < num_classes; ++k) out.push_back(k);
    return out;
}

// The top class of row i: the first of the largest probabilities.
Eigen::Index top_class(const Matrix& p, Eigen::Index i) {
    Eigen::Index top = 0;
    for (Eigen::Index k = 1; k < p.cols(); ++k)
        if (p(i, k) > p(i, top)) top = k;
    return top;
}

// Row i's other classes share 1 − top in proportion to their probabilities (water-filling), each
// below the top class: capped at the largest double below top when top > 1/m, so that the predicted
// class stays the row's only largest entry; at or below 1/m that cannot be, and the cap
// (1 − top)/(m − 1) makes the others equal. Classes of probability 0 take what the capped ones leave.
void share_the_rest(const Matrix& p, Eigen::Index i, Eigen::Index c, double top, Matrix& q) {
    const Eigen::Index m = p.cols();
    const double rest = 1 - top;
    const double even = rest / static_cast<double>(m - 1);
    const double cap = top > even ? std::max(even, std::nextafter(top, 0.0)) : even;
    std::vector<Eigen::Index> others;
    for (Eigen::Index k = 0; k < m; ++k)
        if (k != c) others.push_back(k);
    std::stable_sort(others.begin(), others.end(), [&](Eigen::Index a, Eigen::Index b) { return p(i, a) > p(i, b); });
    // The others' weight from the j-th largest on, summed from the smallest: exactly 0 over classes of
    // probability 0, and not 1 − p_c, which rounds to 0 for a confident row.
    std::vector<double> weight(others.size() + 1, 0.0);
    for (std::size_t j = others.size(); j-- > 0;) weight[j] = weight[j + 1] + p(i, others[j]);
    // The largest are capped one by one until the proportional share of the others fits.
    std::size_t capped = 0;
    while (capped < others.size() && weight[capped] > 0 &&
           p(i, others[capped]) * ((rest - static_cast<double>(capped) * cap) / weight[capped]) > cap)
        ++capped;
    const double left = std::max(0.0, rest - static_cast<double>(capped) * cap);
    q(i, c) = top;
    for (std::size_t j = 0; j < others.size(); ++j)
        q(i, others[j]) = j < capped             ? cap
                          : weight[capped] > 0   ? p(i, others[j]) * (left / weight[capped])
                                                 : std::min(cap, left / static_cast<double>(others.size() - capped));
}

Matrix top_label_probabilities(const std::vector<MonotoneCurve>& curves, const Matrix& p) {
    Matrix q(p.rows(), p.cols());
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const Eigen::Index c = top_class(p, i);
        share_the_rest(p, i, c, evaluate(curves[static_cast<std::size_t>(c)], p(i, c)), q);
    }
    return q;
}

}  // namespace

FitSummary fit_top_label_isotonic(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions&) {
    check_labelled_scores("fit_recalibration", data);
    const Matrix p = one_vs_rest_inputs(data.scores, data.logits, "fit_recalibration");
    const int m = map.num_classes;
    std::vector<std::vector<double>> x(static_cast<std::size_t>(m)), y(static_cast<std::size_t>(m));
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const Eigen::Index c = top_class(p, i);
        x[c].push_back(p(i, c));
        y[c].push_back(data.labels[static_cast<std::size_t>(i)] == c ? 1.0 : 0.0);
    }
    map.curves.clear();
    for (int c = 0; c < m; ++c)
        map.curves.push_back(x[c].empty() ? MonotoneCurve{{0.0, 1.0}, {0.0, 1.0}} : curve_of(isotonic_regression(x[c], y[c])));
    FitSummary summary;
    summary.objective_before = floored_nll(p, data.labels, map.probability_floor);
    summary.objective_after = floored_nll(top_label_probabilities(map.curves, p), data.labels, map.probability_floor);
    return summary;
}

Matrix apply_top_label_isotonic(const RecalibrationMap& map, const Matrix& scores) {
    return top_label_probabilities(map.curves, one_vs_rest_inputs(scores, map.logits, "apply_recalibration"));
}

std::vector<NamedParameter> top_label_isotonic_parameters(const RecalibrationMap& map) {
    std::vector<NamedParameter> named;
    const std::vector<std::string> names = top_label_isotonic_parameter_names(map.num_classes);
    for (std::size_t c = 0; c < std::min(names.size() / 2, map.curves.size()); ++c) {
        named.push_back({names[2 * c], map.curves[c].x, true});
        named.push_back({names[2 * c + 1], map.curves[c].y, true});
    }
    return named;
}

std::vector<std::string> top_label_isotonic_parameter_names(int num_classes) {
    std::vector<std::string> names;
    for (const int k : all_columns(num_classes))
        names.insert(names.end(), {"x_" + std::to_string(k), "y_" + std::to_string(k)});
    return names;
}

void set_top_label_isotonic_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists) {
    map.curves.clear();
    for (std::size_t c = 0; c + 1 < lists.size(); c += 2) map.curves.push_back(MonotoneCurve{lists[c], lists[c + 1]});
}

std::string top_label_curves_problem(const RecalibrationMap& map) { return curves_problem(map, all_columns(map.num_classes)); }

}  // namespace calib::detail

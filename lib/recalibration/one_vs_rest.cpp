// The one-vs-rest maps' shared pieces (one_vs_rest.hpp).
#include "recalibration/one_vs_rest.hpp"

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "recalibration/objective.hpp"

#include <algorithm>
#include <cmath>

namespace calib::detail {

std::vector<int> one_vs_rest_columns(int num_classes) {
    if (num_classes == 2) return {1};
    std::vector<int> out(static_cast<std::size_t>(std::max(num_classes, 0)));
    for (int k = 0; k < num_classes; ++k) out[static_cast<std::size_t>(k)] = k;
    return out;
}

std::vector<std::string> per_class_names(int num_classes, const std::string& first, const std::string& second) {
    std::vector<std::string> names;
    for (const int k : one_vs_rest_columns(num_classes))
        names.insert(names.end(), {first + "_" + std::to_string(k), second + "_" + std::to_string(k)});
    return names;
}

std::vector<MonotoneCurve> identity_curves(int num_classes) {
    return std::vector<MonotoneCurve>(one_vs_rest_columns(num_classes).size(), MonotoneCurve{{0.0, 1.0}, {0.0, 1.0}});
}

Matrix one_vs_rest_inputs(const Matrix& scores, bool logits, const char* function) {
    for (Eigen::Index i = 0; i < scores.rows(); ++i)
        for (Eigen::Index k = 0; k < scores.cols(); ++k) {
            check_finite(function, "scores", i, k, scores(i, k));
            if (!logits && !(scores(i, k) >= 0 && scores(i, k) <= 1))
                fail_at(i, k, function, "scores(", i, ", ", k, ") = ", format_value(scores(i, k)),
                        ", must be in [0, 1] (probabilities; give logits as logits)");
        }
    if (!logits) return scores;
    return mapped_probabilities(RecalibrationMethod::temperature, Vector::Zero(1), scores.transpose());
}

void renormalise_rows(Matrix& q) {
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
        const double total = q.row(i).sum();
        if (total > 0) q.row(i) /= total;
        else q.row(i).setConstant(1.0 / static_cast<double>(q.cols()));
    }
}

double floored_nll(const Matrix& q, const std::vector<int>& labels, double floor) {
    CompensatedSum sum;
    for (std::size_t i = 0; i < labels.size(); ++i)
        sum.add(-std::log(std::max(q(static_cast<Eigen::Index>(i), labels[i]), floor)));
    return sum.value() / static_cast<double>(labels.size());
}

}  // namespace calib::detail

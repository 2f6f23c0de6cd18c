// The conventions of class predictions: labels' base, logits, unnormalised scores (data.hpp).
#include <calib/data.hpp>

#include "core/check.hpp"

#include <algorithm>
#include <cmath>

namespace calib {

std::vector<int> class_labels(const std::string& name, std::size_t n, const std::function<double(std::size_t)>& value,
                              long m, bool one_based, bool advise) {
    const long offset = one_based ? 1 : 0, low = offset, high = m - 1 + offset;
    double smallest = INFINITY, largest = -INFINITY;
    for (std::size_t i = 0; i < n; ++i) {
        smallest = std::min(smallest, value(i));
        largest = std::max(largest, value(i));
    }
    std::string advice;
    if (advise && one_based)
        advice = std::string(" (1-based labels, as `one_based_labels` says") +
                 (smallest == 0 ? "; the labels include 0: are they 0-based?)" : ")");
    else if (advise && smallest >= 1 && largest == static_cast<double>(m))
        advice = " (0-based labels; the labels run from 1 to " + std::to_string(m) +
                 ": if they are 1-based, use `one_based_labels`)";
    else if (advise)
        advice = " (0-based labels)";
    std::vector<int> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = value(i);
        const long row = static_cast<long>(i);
        if (v != std::floor(v))
            throw invalid_argument(name + " = " + detail::format_value(v) + ", must be an integer" +
                                       (advise && smallest >= 0 && largest <= 1 && v > 0 && v < 1
                                            ? " (this column holds numbers in [0, 1]: probabilities, not labels? the "
                                              "labels are the input's last column, or a file given with `labels`)"
                                            : ""),
                                   row);
        if (!(v >= static_cast<double>(low) && v <= static_cast<double>(high)))
            throw invalid_argument(name + " = " + detail::format_value(v) + ", must be in [" + std::to_string(low) +
                                       ", " + std::to_string(high) + "]" + advice,
                                   row);
        labels[i] = static_cast<int>(v) - static_cast<int>(offset);
    }
    return labels;
}

std::string zero_label_warning(const std::vector<int>& labels, long num_classes, bool one_based) {
    const std::size_t m = static_cast<std::size_t>(num_classes);
    if (one_based || labels.size() < 20 * m) return "";
    if (std::find(labels.begin(), labels.end(), 0) != labels.end()) return "";
    return "label 0 never occurs among " + std::to_string(labels.size()) + " observations of " + std::to_string(m) +
           " classes; if the labels run 1.." + std::to_string(m) +
           ", pass `one_based_labels` (they are read as 0-based: class k is label k)";
}

std::string probability_advice(const invalid_argument& error, const MatrixView& scores, bool logits, bool for_map) {
    if (logits) return "";
    const long m = scores.cols();
    const std::string map_logits = "logits need a map fitted on logits";
    if (error.column() >= 0 && error.column() < m)
        return for_map ? "; the map was fitted on probabilities (" + map_logits + ")" : "; if the columns hold logits, use `logits`";
    if (error.column() == -1 && error.row() >= 0 && error.row() < scores.rows()) {
        if (std::abs(scores.row(error.row()).sum() - 1) > 0.01)
            return for_map ? "; for unnormalised scores use `renormalize` (" + map_logits + ")"
                           : "; if the columns hold logits use `logits`, for unnormalised scores `renormalize`";
        return "; to accept such rows use `renormalize` or a larger `simplex_tolerance`";
    }
    return "";
}

}  // namespace calib

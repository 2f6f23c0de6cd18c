// The predictions P(Y = 1) of binary data, for the tests of binary predictions (binary.cpp,
// cumulative.cpp) and the flexible calibration curve (compare/calibration_curve.cpp).
#pragma once

#include "core/check.hpp"

#include <calib/data.hpp>

namespace calib::detail {

// A copy (O(n), beside the tests' O(n) passes); refuses data with other than two classes and n = 0.
inline Vector event_probabilities(const char* function, const CategoricalData& data) {
    if (data.num_classes() != 2)
        fail(function, "the data have ", data.num_classes(),
             " classes; it applies to binary predictions (the binary family, or class predictions with two "
             "classes)");
    check_min_size(function, data.size(), 1);
    return data.probabilities().col(1);
}

}  // namespace calib::detail

// What the CORP decomposition and diagram (corp.hpp) share: the forecasts and outcomes of binary
// predictions, and the decomposition of a PAV fit of them.
#pragma once

#include <calib/corp.hpp>
#include <calib/isotonic.hpp>

#include <vector>

namespace calib::detail {

struct BinaryForecasts {
    std::vector<double> x, y;  // P(Y_i = 1), and 1{Y_i = 1}
};

// Throws invalid_argument naming `function` unless the data have two classes.
BinaryForecasts binary_forecasts(const CategoricalData& binary, const char* function);

// The decomposition of `score` with `fit` the isotonic regression of f.y on f.x.
CorpDecomposition decompose(const BinaryForecasts& f, const IsotonicFit& fit, CorpScore score);

}  // namespace calib::detail

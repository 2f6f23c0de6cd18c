// Predictions alone from and to arrays (predictions.hpp).
#include "predictions.hpp"

#include "arrays.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace py = pybind11;

namespace calib::python {

namespace {

// A table of finite numbers (the raw scores or forecasts a map takes).
Matrix finite_table(const py::handle& object, const std::string& name) {
    Matrix t = table_matrix(object, name);
    for (Eigen::Index j = 0; j < t.cols(); ++j)
        for (Eigen::Index i = 0; i < t.rows(); ++i)
            if (!std::isfinite(t(i, j)))
                throw invalid_argument(name + "[" + std::to_string(i) + (t.cols() > 1 ? ", " + std::to_string(j) : "") +
                                       "] = " + std::string(py::repr(py::float_(t(i, j)))) + ", must be finite");
    if (t.rows() == 0) throw invalid_argument(name + " is empty: no observations");
    return t;
}

bool of_classes(const PredictionReading& reading) { return reading.family->name == "categorical"; }

}  // namespace

Predictions prediction_arrays(const PredictionReading& reading, const py::dict& arrays) {
    const bool classes = of_classes(reading);
    const std::vector<std::string> names = classes ? std::vector<std::string>{"probs"}
                                                   : std::vector<std::string>{"mean", "std"};
    const std::string takes = classes ? "probs (its raw scores: logits or probabilities)" : "mean and std";
    for (const auto& item : arrays) {
        const std::string name = py::str(item.first);
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw invalid_argument(name + " does not apply to a map of family " + reading.family->name + ", which takes " + takes);
    }
    for (const std::string& name : names)
        if (!arrays.contains(name)) throw invalid_argument("missing " + name + " for a map of family " + reading.family->name);
    Predictions out;
    if (classes) {
        out.values = finite_table(arrays["probs"], "probs");
        if (out.values.cols() != reading.read.classes)
            throw invalid_argument("probs has " + std::to_string(out.values.cols()) + " columns, the map takes m = " +
                                   std::to_string(reading.read.classes) + " (its classes)");
        if (reading.read.logits) return out;
        // The probabilities checked as the arrays of every other function are (CategoricalData); no label
        // is given, so none is checked.
        try {
            out.values = Matrix(CategoricalData(out.values, std::vector<int>(static_cast<std::size_t>(out.values.rows()), 0),
                                                reading.read.simplex)
                                    .probabilities());
        } catch (const invalid_argument& e) {
            throw invalid_argument(e.what() + probability_advice(e, view_of(out.values), false, true), e.row(), e.column());
        }
        return out;
    }
    const Matrix mean = finite_table(arrays["mean"], "mean"), stddev = finite_table(arrays["std"], "std");
    if (mean.cols() != 1 || stddev.cols() != 1 || stddev.rows() != mean.rows())
        throw invalid_argument("mean and std must be 1-d arrays of the same length, got " + std::to_string(mean.rows()) +
                               " x " + std::to_string(mean.cols()) + " and " + std::to_string(stddev.rows()) + " x " +
                               std::to_string(stddev.cols()));
    out.values.resize(mean.rows(), 2);
    out.values.col(0) = mean.col(0);
    out.values.col(1) = stddev.col(0);
    return out;
}

namespace {

// An n x k array in C order, NumPy's default.
py::array_t<double> c_order_array(const Matrix& p) {
    py::array_t<double> out({p.rows(), p.cols()});
    auto w = out.mutable_unchecked<2>();
    for (Eigen::Index i = 0; i < p.rows(); ++i)
        for (Eigen::Index k = 0; k < p.cols(); ++k) w(i, k) = p(i, k);
    return out;
}

}  // namespace

py::dict prediction_dict(const PredictionReading& reading, const Predictions& predictions) {
    const Matrix& p = predictions.values;
    py::dict out;
    if (of_classes(reading)) {
        out["probs"] = c_order_array(p);
        if (predictions.intervals.size()) out["intervals"] = c_order_array(predictions.intervals);
        return out;
    }
    out["mean"] = py::array_t<double>(p.rows(), p.col(0).data());
    out["std"] = py::array_t<double>(p.rows(), p.col(1).data());
    return out;
}

}  // namespace calib::python

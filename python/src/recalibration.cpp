// calib.recalibrate_apply (recalibration.hpp): a map of `calib recalibrate fit` (the operation, run as
// every operation is: module.cpp) applied to arrays. A map travels as the text of the JSON map file, so
// that Python's dict of it has the file's fields and values, bitwise.
#include "recalibration.hpp"

#include "arrays.hpp"
#include "values.hpp"

#include <calib/recalibration.hpp>
#include <calib/tool/command.hpp>

#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
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

// The map applied to new predictions: {"probs": (n, m)} or {"mean": (n,), "std": (n,)}, the arrays of
// the family's predictions, so that they can be passed on as they are.
py::dict apply(const std::string& map_json, const py::dict& arrays, const py::object& features, py::dict options) {
    const RecalibrationMap map = recalibration_fit_from_json(map_json).map;
    // The reading options of recalibrate apply that arrays have (simplex_tolerance, renormalize: those of
    // class probabilities), checked against the map as the command line's.
    ReadingSetup reading(find_family("categorical"), false);
    set_options(reading, options);
    reject_unused(options, {&reading}, "recalibrate_apply");
    const bool categorical = is_categorical(map.method);
    const std::vector<std::string> names = categorical ? std::vector<std::string>{"probs"}
                                                       : std::vector<std::string>{"mean", "std"};
    for (const auto& item : arrays) {
        const std::string name = py::str(item.first);
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw invalid_argument(name + " does not apply to a map of method " + to_string(map.method) + ", which takes " +
                                   (categorical ? "probs (its raw scores: logits or probabilities)" : "mean and std"));
    }
    for (const std::string& name : names)
        if (!arrays.contains(name)) throw invalid_argument("missing " + name + " for a map of method " + to_string(map.method));
    check_apply_options(map, reading, !features.is_none());
    const Matrix x = features.is_none() ? Matrix() : finite_table(features, "features");
    py::dict out;
    if (categorical) {
        Matrix scores = finite_table(arrays["probs"], "probs");
        if (scores.cols() != map.num_classes)
            throw invalid_argument("probs has " + std::to_string(scores.cols()) + " columns, the map takes m = " +
                                   std::to_string(map.num_classes) + " (its classes)");
        // The probabilities checked as the arrays of every other function are (CategoricalData); no label
        // is given, so none is checked.
        if (!map.logits) {
            try {
                scores = Matrix(CategoricalData(scores, std::vector<int>(static_cast<std::size_t>(scores.rows()), 0),
                                                reading.read_options().simplex)
                                    .probabilities());
            } catch (const invalid_argument& e) {
                throw invalid_argument(e.what() + probability_advice(e, view_of(scores), false, true), e.row(), e.column());
            }
        }
        Matrix p;
        {
            py::gil_scoped_release release;
            p = apply_recalibration(map, scores);
        }
        py::array_t<double> probs({p.rows(), p.cols()});  // C order, as NumPy's default
        auto w = probs.mutable_unchecked<2>();
        for (Eigen::Index i = 0; i < p.rows(); ++i)
            for (Eigen::Index k = 0; k < p.cols(); ++k) w(i, k) = p(i, k);
        out["probs"] = probs;
        return out;
    }
    const Matrix mean = finite_table(arrays["mean"], "mean"), stddev = finite_table(arrays["std"], "std");
    if (mean.cols() != 1 || stddev.cols() != 1 || stddev.rows() != mean.rows())
        throw invalid_argument("mean and std must be 1-d arrays of the same length, got " + std::to_string(mean.rows()) +
                               " x " + std::to_string(mean.cols()) + " and " + std::to_string(stddev.rows()) + " x " +
                               std::to_string(stddev.cols()));
    Matrix r;
    {
        py::gil_scoped_release release;
        r = apply_recalibration(map, mean.col(0), stddev.col(0), x);
    }
    out["mean"] = py::array_t<double>(r.rows(), r.col(0).data());
    out["std"] = py::array_t<double>(r.rows(), r.col(1).data());
    return out;
}

}  // namespace

void add_recalibration(py::module_& m) {
    m.def("read_map_text", &read_map_text, py::arg("path"));
    m.def("recalibrate_apply", &apply, py::arg("map_json"), py::arg("arrays"), py::arg("features"), py::arg("options"));
}

}  // namespace calib::python

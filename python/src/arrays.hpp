// NumPy arrays (or anything numpy.asarray accepts, e.g. torch CPU tensors) as calib's data sets:
// each family's arrays by name, checked for shape with messages that name the argument.
#pragma once

#include <pybind11/pybind11.h>

#include <calib/families.hpp>

#include <string>
#include <vector>

namespace calib::python {

// The reading options given by keyword (the registry's ReadingSetup without the files' options: logits,
// one_based_labels, simplex_tolerance, renormalize); throws invalid_argument for one that does not apply
// to the family, in the command line's words.
ReadOptions read_options_of(const FamilyInfo& family, const pybind11::dict& reading);

// Throws invalid_argument unless the arrays named are the family's (check_arrays): "missing y: family
// normal needs mean, std, y", without reading them.
void check_array_names(const FamilyInfo& family, const pybind11::dict& given);

// The data set of `family` from the arrays in `arrays` (keyword → array; the names of FamilyInfo::arrays).
// Reads every array into calib's containers (one conversion; the GIL must be held), then builds and
// validates the data set. Throws calib::invalid_argument (ValueError) for a missing, extra or
// misshapen array, with the argument's name.
AnyData make_data(const FamilyInfo& family, const pybind11::dict& arrays, const ReadOptions& options);

// A table of numbers given for the option `name` (features x_i; group ids): an (n, d) array, or (n,) as
// (n, 1), of any numeric dtype and layout, as an n×d matrix (a copy). Throws for another shape or a
// dtype that does not hold numbers, naming `name`; NaN and the row count are checked by the method.
Matrix table_matrix(const pybind11::handle& object, const std::string& name = "features");

// Whether an option's value is arrays (a NumPy array, anything with __array__, a tuple, list or dict
// of them) rather than a number, text or a flag.
bool is_arrays(const pybind11::handle& value);

// The family the given arrays belong to (family_of_arrays of their names and dimensions).
const FamilyInfo& infer_family(const pybind11::dict& arrays);

// The names of a family's arrays in order (probs, labels; mean, std, y; …); array_names joins them.
std::vector<std::string> array_list(const FamilyInfo& family);

}  // namespace calib::python

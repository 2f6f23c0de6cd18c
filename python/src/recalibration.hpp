// Recalibration maps from Python (calib.recalibrate_apply; recalibrate_fit is an operation): the module's
// functions over calib/recalibration.hpp, added to the module by add_recalibration.
#pragma once

#include <pybind11/pybind11.h>

namespace calib::python {

void add_recalibration(pybind11::module_& m);

}  // namespace calib::python

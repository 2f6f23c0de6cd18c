// Runs the calibration test a TestPlan names, on data of any family, through calib/hypothesis.hpp.
#pragma once

#include "dataset.hpp"
#include "test_options.hpp"

#include <calib/hypothesis.hpp>
#include <calib/kernels.hpp>

namespace calib::cli {

// `kernel` is null exactly when the plan uses no kernel (consistency with the ECE); `locations`
// holds the test locations read for cme with a file, else is null. A calib::numerical_error is
// rethrown with what the user can do about it.
TestResult run_method(const TestPlan& plan, const Dataset& data, const Kernel* kernel,
                      const Dataset* locations, const ParallelOptions& parallel);

}  // namespace calib::cli

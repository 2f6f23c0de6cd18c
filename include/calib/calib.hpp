// The whole public API of calib.
#pragma once

#include <calib/data.hpp>
#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/kernels.hpp>
#include <calib/version.hpp>

// The whole public API of calib.
#pragma once

#include <calib/calibration_curve.hpp>
#include <calib/ckce.hpp>
#include <calib/compare.hpp>
#include <calib/corp.hpp>
#include <calib/data.hpp>
#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>
#include <calib/io.hpp>
#include <calib/isotonic.hpp>
#include <calib/kernels.hpp>
#include <calib/metrics.hpp>
#include <calib/mmd.hpp>
#include <calib/mmd_kinds.hpp>
#include <calib/prediction_bins.hpp>
#include <calib/recalibration.hpp>
#include <calib/reliability.hpp>
#include <calib/scores.hpp>
#include <calib/seed.hpp>
#include <calib/squared_ce.hpp>
#include <calib/version.hpp>
#include <calib/working_memory.hpp>

// The flexible calibration curve of binary predictions and its summaries: the outcomes regressed on
// the predictions by loess, and the integrated calibration index (ICI) with E50, E90 and Emax, the
// mean, median, 90th percentile and maximum of |curve(p_i) − p_i| over the observations [Austin &
// Steyerberg 2019], with percentile bootstrap intervals.
#pragma once

#include <calib/compare.hpp>
#include <calib/data.hpp>
#include <calib/parallel.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace calib {

// Local polynomial regression [Cleveland & Devlin 1988; Cleveland, Grosse & Shyu 1992] as R's
// loess(y ~ x, span, degree) with family "gaussian". A local fit at x0: the q = ⌊span·n + 1e-5⌋
// observations nearest x0 define the radius h (the q-th smallest |x_i − x0|), the observations with
// |x_i − x0| < h get the tricube weights (1 − (|x_i − x0|/h)³)³, and the weighted least-squares
// polynomial of `degree` in x − x0 gives the value (and slope) at x0. Where fewer than degree + 1
// distinct x have a weight the degree drops to their number − 1 (R uses a pseudo-inverse instead);
// where h = 0 (more than q observations tied at x0) the fit is the mean of the tied observations' y,
// and where every neighbour lies on the boundary (all at distance h, as at a vertex beside constant
// predictions) the mean of the y at distance h, each with slope 0 (R stops in both cases).
// surface interpolate (R's default): local fits at the vertices of R's k-d tree (cells of more than
// ⌊0.2·span·n⌋ observations split at their median; about 2/(0.2·span) vertices), cubic Hermite
// interpolation between them with the fits' values and slopes: O(n log n + q/(0.2·span)).
// surface direct: a local fit at each distinct x, O(n·q).
enum class LoessSurface { interpolate, direct };
struct LoessOptions {
    double span = 0.75;  // in (0, 1]
    int degree = 2;      // 1 or 2
    LoessSurface surface = LoessSurface::interpolate;
};
// Throws calib::invalid_argument unless span ∈ (0, 1], degree ∈ {1, 2} and q ≥ degree + 1.
void validate(const LoessOptions& options, std::size_t n);
// The loess of y on x evaluated at each point of `at` (e.g. at = x: the fitted values); with surface
// interpolate, NaN at a point outside the tree's range [min x − δ, max x + δ], δ = 0.5 % of the range
// (R's predict gives NA there). x and y of the same length, all finite.
Vector loess(const Vector& x, const Vector& y, const Vector& at, const LoessOptions& options = {},
             const ParallelOptions& parallel = {});

struct FlexibleCalibrationOptions {
    LoessOptions loess;
    Resampling resampling;  // the intervals (none by default)
    ParallelOptions parallel;
};

struct FlexibleCalibration {
    std::size_t n = 0;
    std::size_t neighbours = 0;  // q
    double ici = 0, e50 = 0, e90 = 0, emax = 0;
    Vector curve;  // the loess fit of the outcomes at each prediction, in the data's order (not clipped)
    // With resampling.replicates > 0, percentile intervals (type 7) of ici, e50, e90 and emax, each summary of a
    // resample's own curve (replicate r: the resample of stream r + 1 of the seed, as
    // resample_interval); empty otherwise.
    std::vector<BootstrapInterval> intervals;
};

std::string to_string(LoessSurface surface);  // "interpolate", "direct"

// The predictions P(Y = 1) of binary data (the binary family, or class predictions with two classes).
// Throws calib::invalid_argument for other numbers of classes, n too small for the loess options, or
// options out of range. Bitwise identical for any thread count.
FlexibleCalibration flexible_calibration(const CategoricalData& data, const FlexibleCalibrationOptions& options = {});

}  // namespace calib

// The smooth ECE of binary predictions and its smooth reliability curve [Błasiok & Nakkiran, "Smooth
// ECE: principled reliability diagrams via kernel smoothing", ICLR 2024] (docs/math.md §11).
//
// With the residuals r_i = p_i − y_i and the Gaussian kernel reflected at 0 and 1,
//   K_σ(t, x) = Σ_{k ∈ ℤ} φ_σ(t − x − 2k) + φ_σ(t + x − 2k)   (t, x ∈ [0, 1]; ∫₀¹ K_σ(t, x) dt = 1),
//   smECE_σ = ∫₀¹ | (1/n) Σ_i r_i K_σ(t, p_i) | dt,
// the density-weighted mean absolute value of the kernel-smoothed residual r̂_σ(t) = Σ_i r_i K_σ(t, p_i)
// / Σ_i K_σ(t, p_i). smECE_σ decreases in σ; the automatic bandwidth is the σ* with smECE_σ* = σ*, and
// smECE = smECE_σ*. The smooth reliability curve is the kernel-smoothed outcome frequency
// ŷ(t) = Σ_i y_i K_σ(t, p_i) / Σ_i K_σ(t, p_i), drawn with the prediction density
// δ̂(t) = (1/n) Σ_i K_σ(t, p_i); smECE_σ = ∫ |r̂_σ(t)| δ̂(t) dt, and r̂_σ(t) = p̂(t) − ŷ(t) with p̂ the
// smoothed predictions (t up to O(σ²) inside, pulled inwards near 0 and 1).
//
// Computed (not approximated as on a mesh of the data): the smoothed residual and its slope are exact
// kernel sums (images within 10σ, relative error below 1e-20) at the nodes of a uniform grid of spacing
// at most σ/16, |·| integrated exactly on the cubic Hermite interpolant between nodes (its zeros found
// in each interval): relative error below 3e-8 (tests/test_smooth_ece.cpp checks 1e-8 against a
// Simpson quadrature of the definition; docs/math.md §11 measures at most 1.9e-8 against another).
// O(n) per σ (about 320 n kernel terms); the automatic σ*: σ = 0.1 and σ = smECE_0.1 bracket it (smECE_σ
// decreases), then TOMS 748 to 1e-12 relative, about 8 values of σ in all.
#pragma once

#include <calib/compare.hpp>
#include <calib/data.hpp>
#include <calib/parallel.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace calib {

// The bandwidth's search range: σ* below it (a model calibrated to within 1e-4) gives σ = 1e-4.
inline constexpr double smooth_ece_min_bandwidth = 1e-4;

struct SmoothEceOptions {
    std::optional<double> bandwidth;  // σ in [smooth_ece_min_bandwidth, 1]; empty: the automatic σ*
    std::size_t curve_points = 0;     // the curve at t_j = j/(P − 1), j < P: 0 (none) or P ≥ 2
    Resampling resampling;            // intervals of smECE, each resample with its own σ* when automatic
    ParallelOptions parallel;
};

struct SmoothEce {
    std::size_t n = 0;
    double value = 0;      // smECE_σ
    double bandwidth = 0;  // σ
    // With resampling: one, of value: the basic bootstrap interval (basic_interval, compare.hpp, with
    // world = value; lower clamped at 0), as relplot's.
    std::vector<BootstrapInterval> intervals;
    // With curve_points: t_j, ŷ(t_j), r̂_σ(t_j) and δ̂(t_j), where some prediction lies within 10σ of t_j.
    std::vector<double> mesh, frequency, residual, density;
};

// smECE_σ of predictions p ∈ [0, 1] (finite) with outcomes y ∈ {0, 1}, of equal length ≥ 1.
double smooth_ece_at(const std::vector<double>& p, const std::vector<int>& y, double bandwidth);

// The predictions P(Y = 1) of binary data (the binary family, or class predictions with two classes).
// Throws calib::invalid_argument for other numbers of classes, n = 0, or options out of range. Bitwise
// identical for any thread count.
SmoothEce smooth_ece(const CategoricalData& data, const SmoothEceOptions& options = {});

}  // namespace calib

// Binning of predictions for the ECE estimator (internal; used by ece.cpp and the tests).
//
// A binning partitions the observations 0 … n−1 of an n×d matrix x of values in [0, 1] (d = m
// probability coordinates in canonical mode, d = 1 confidence in top-label mode). Each bin is the
// ascending list of its observation indices; the order of the bins is documented per scheme.
// [julia-reference §1.1; widmann-2019 §ECE]
#pragma once

#include "core/check.hpp"
#include "core/compensated_sum.hpp"

#include <calib/data.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace calib::detail {

using Bin = std::vector<std::size_t>;
using Bins = std::vector<Bin>;

// Bin edge convention of uniform binning: x ∈ [0, 1] falls in bin ⌈nbins·x⌉ (1-based), except
// x = 0 → 1, so the bins are [0, 1/B], (1/B, 2/B], …, ((B−1)/B, 1]: closed on the right, the first
// also closed on the left. The product nbins·x is rounded to double first, as in the reference.
// Throws calib::invalid_argument if x ∉ [0, 1] or nbins < 1.
// The 64-bit form takes up to 2^53 bins (T-Cal's finest grids), where nbins is still exactly a double.
inline std::uint64_t uniform_bin_index(double x, std::uint64_t nbins) {
    if (nbins < 1 || nbins > (std::uint64_t(1) << 53))
        fail("uniform_bin_index", "nbins = ", nbins, ", must be in [1, 2^53]");
    if (!(x >= 0 && x <= 1)) fail("uniform_bin_index", "x = ", format_value(x), ", must be in [0, 1]");
    // nbins·x ≤ nbins exactly for x ≤ 1 (rounding is monotone and nbins·1 is exact).
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(static_cast<double>(nbins) * x)));
}
inline int uniform_bin_index(double x, int nbins) {
    if (nbins < 1) fail("uniform_bin_index", "nbins = ", nbins, ", must be >= 1");
    return static_cast<int>(uniform_bin_index(x, static_cast<std::uint64_t>(nbins)));
}

// Uniform binning: an observation's bin is the tuple of its coordinates' bin indices (a cell of
// the d-dimensional grid); only non-empty cells are returned, in lexicographic order of the tuple.
// O(n·d + n log n · d) time, O(n·d) memory (no O(nbins^d) table); O(n·d + nbins^d) by counting
// when nbins^d ≤ max(n, 65 536). Needs nbins ≥ 1.
Bins uniform_binning(const Eigen::Ref<const Matrix>& x, int nbins);

// Median-variance binning [julia-reference §1.1]. Start with one set of all n observations; while
// fewer than maxbins bins exist, take the queued set with the largest variance (earliest queued on
// equal variance) and split it along its coordinate of largest unbiased sample variance (two-pass;
// variances equal within a relative 1e-9 count as tied and the first coordinate wins, so rounding
// does not choose between the mathematically equal coordinates of binary data). With v the
// (⌊k/2⌋+1)-th smallest of the set's k values, below = {x < v} and above = {x ≥ v}. If either part
// has < minsize points the whole set becomes a bin; otherwise each part with < 2·minsize points
// becomes a bin and the others are queued. When maxbins binds, the queued sets become bins in queue
// order. n < 2·minsize or maxbins = 1 gives one bin.
// Bins are returned in creation order (below before above), as the reference orders them.
// O(n·d·depth + n log n) time. Needs 1 ≤ minsize ≤ n and maxbins ≥ 1.
Bins median_variance_binning(const Eigen::Ref<const Matrix>& x, int minsize, int maxbins);

// What the ECE needs of one bin: its size, the mean of its prediction rows (compensated sums) and
// the frequencies of its labels (labels in [0, num_classes)). One object serves bin after bin
// without allocating.
class BinSummary {
public:
    BinSummary(Eigen::Index dimension, int num_classes);
    void summarize(const Eigen::Ref<const Matrix>& predictions, const std::vector<int>& labels, const Bin& bin);

    std::size_t size = 0;
    Vector mean_prediction;
    Vector label_frequency;

private:
    std::vector<CompensatedSum> sums_;
};

}  // namespace calib::detail

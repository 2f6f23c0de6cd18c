// Internal: the table of the inductive Venn–Abers predictor (recalibration.hpp's VennAbersTable) from a
// calibration set, by venn_abers_table.cpp's algorithm.
#pragma once

#include <calib/recalibration.hpp>

#include <cstddef>
#include <vector>

namespace calib::detail {

// The table of calibration scores (finite, any order, ties allowed, 1 <= n < max_venn_abers_rows) with
// labels 0 or 1; the bound keeps the exact orientation tests in 64 bits.
inline constexpr std::size_t max_venn_abers_rows = std::size_t{1} << 31;

VennAbersTable venn_abers_table(const std::vector<double>& scores, const std::vector<int>& labels);

}  // namespace calib::detail

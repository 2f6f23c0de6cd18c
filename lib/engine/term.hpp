// The pair-term contract between the pairwise engine and what it sums. A pair term describes h(i, j)
// for one bound kernel and data set:
//   std::size_t size() const;                                     // n
//   void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const;
//       // out[j - j0] = h(i, j) for j in [j0, j1), j1 - j0 <= chunk_width; j == i allowed
// row() must be safe to call concurrently and should vectorise over j. Kernels write terms against
// this header alone; the engine (pairwise.hpp) runs them.
#pragma once

#include <cstddef>

namespace calib::detail {

inline constexpr std::size_t chunk_width = 128;  // columns per row() call: buffers stay in L1

}  // namespace calib::detail

// The RBF kernel exp(−γ‖a_i − b_j‖²) between two point sets as a pair term (engine/term.hpp), for the
// Gram matrix and the cross-kernel matrix of the KRR estimation functions (digest §6.5).
#pragma once

#include "engine/term.hpp"

#include <calib/data.hpp>

#include <cmath>
#include <cstddef>

namespace calib::detail {

struct RbfTerm {
    const Matrix& a;  // q×n, one point per column (contiguous)
    const Matrix& b;  // q×m
    double gamma;
    std::size_t size() const { return static_cast<std::size_t>(a.cols()); }
    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const auto x = a.col(static_cast<Eigen::Index>(i));
        for (std::size_t j = j0; j < j1; ++j)
            out[j - j0] = std::exp(-gamma * (x - b.col(static_cast<Eigen::Index>(j))).squaredNorm());
    }
};

}  // namespace calib::detail

// The pair term of the conditional MMD (calib/mmd.hpp): h(i, j) = Σ_c k_Z,c(z_ci, z_cj) · a_ciᵀ b_cj
// over its conditioning blocks c (one; m for class-wise), with a_i the residuals of the target and b_j
// the residuals times K_T. Built by make_mmd_term (mmd_ops.cpp), run by the engine (term.hpp).
#pragma once

#include "engine/term.hpp"
#include "kernels/prediction_kernels.hpp"

#include <calib/data.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace calib::detail {

// One block: k_Z is an embedded kernel (kz), a delta on group ids (groups), or 1 (neither).
struct MmdComponent {
    std::optional<EmbeddedPredictionKernel> kz;
    std::vector<int> groups;
    Matrix left, right;  // n×k: a_i and b_j by rows
};

class MmdTerm {
public:
    MmdTerm(std::size_t n, std::vector<MmdComponent> components) : n_(n), components_(std::move(components)) {}
    std::size_t size() const { return n_; }

    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const std::size_t len = j1 - j0;
        alignas(64) double k[chunk_width], prod[chunk_width];
        std::fill(out, out + len, 0.0);
        const auto r = static_cast<Eigen::Index>(i);
        for (const MmdComponent& c : components_) {
            // a_iᵀ b_j with the target's classes outermost, so the columns j vectorise.
            std::fill(prod, prod + len, 0.0);
            for (Eigen::Index t = 0; t < c.left.cols(); ++t) {
                const double a = c.left(r, t);
                const double* b = c.right.col(t).data() + j0;
                for (std::size_t l = 0; l < len; ++l) prod[l] += a * b[l];
            }
            if (c.kz) {
                c.kz->values(i, j0, j1, k);
            } else if (!c.groups.empty()) {
                for (std::size_t l = 0; l < len; ++l) k[l] = c.groups[i] == c.groups[j0 + l] ? 1.0 : 0.0;
            } else {
                std::fill(k, k + len, 1.0);
            }
            for (std::size_t l = 0; l < len; ++l) out[l] += k[l] * prod[l];
        }
    }

private:
    std::size_t n_;
    std::vector<MmdComponent> components_;
};

}  // namespace calib::detail

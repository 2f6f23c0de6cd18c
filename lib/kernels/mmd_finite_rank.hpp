// The O(n r) path of the conditional MMD for a pair term of one block whose target part is a
// finite-rank product h_ij = a_iᵀ b_j (r columns) and whose k_Z is 1 or a δ on group ids (marginal,
// decision): the engine's sums from per-group totals instead of n² pairs [marx-2023 §5.5 (digest's
// rank-1 structure), extended to groups and rank r]:
//   Σ_{i≠j} h_ij  = Σ_g [(Σ_{i∈g} a_i)ᵀ(Σ_{j∈g} b_j)] − Σ_i a_iᵀ b_i,
//   Σ_{i≠j} h_ij² = Σ_g ⟨A_gᵀA_g, B_gᵀB_g⟩_F − Σ_i (a_iᵀ b_i)²       (A_g: the rows a_i of group g),
// both halved for the pairs i < j (h is symmetric). Compensated sums in the row order: serial, so the
// same for any thread count; O(n r²) time, O(#groups · r²) memory.
#pragma once

#include "core/compensated_sum.hpp"
#include "engine/quadratic_sums.hpp"
#include "kernels/mmd_term.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

namespace calib::detail {

// The sums, or nothing when the term is not of that form (another k_Z, a closed-form target, or
// several blocks).
inline std::optional<QuadraticSums> finite_rank_sums(const MmdTerm& term) {
    if (term.components().size() != 1) return std::nullopt;
    const MmdComponent& c = term.components()[0];
    if (c.kz || c.gaussian || c.pit || c.laplacian || c.min || c.sampled || c.left.cols() == 0) return std::nullopt;
    const std::size_t n = term.size(), r = static_cast<std::size_t>(c.left.cols());
    struct Totals {
        std::vector<CompensatedSum> a, b, aa, bb;  // Σ a_i, Σ b_i, Σ a_i a_iᵀ, Σ b_i b_iᵀ (r×r, row-major)
    };
    std::map<int, Totals> groups;
    CompensatedSum diagonal, diagonal_squares;
    for (std::size_t i = 0; i < n; ++i) {
        const auto row = static_cast<Eigen::Index>(i);
        Totals& t = groups[c.groups.empty() ? 0 : c.groups[i]];
        if (t.a.empty()) t.a.resize(r), t.b.resize(r), t.aa.resize(r * r), t.bb.resize(r * r);
        double ab = 0;
        for (std::size_t s = 0; s < r; ++s) {
            const double as = c.left(row, static_cast<Eigen::Index>(s)), bs = c.right(row, static_cast<Eigen::Index>(s));
            ab += as * bs;
            t.a[s].add(as);
            t.b[s].add(bs);
            for (std::size_t u = 0; u < r; ++u) {
                t.aa[s * r + u].add(as * c.left(row, static_cast<Eigen::Index>(u)));
                t.bb[s * r + u].add(bs * c.right(row, static_cast<Eigen::Index>(u)));
            }
        }
        diagonal.add(ab);
        diagonal_squares.add(ab * ab);
    }
    CompensatedSum all, squares;
    for (const auto& [id, t] : groups) {
        for (std::size_t s = 0; s < r; ++s) all.add(t.a[s].value() * t.b[s].value());
        for (std::size_t k = 0; k < r * r; ++k) squares.add(t.aa[k].value() * t.bb[k].value());
    }
    all.add(-diagonal.value());
    squares.add(-diagonal_squares.value());
    return QuadraticSums{n, 0.5 * all.value(), 0.5 * squares.value(), diagonal.value()};
}

}  // namespace calib::detail

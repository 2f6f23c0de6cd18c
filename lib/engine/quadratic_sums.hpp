// The sums over H of one engine pass that the quadratic estimators and tests share.
#pragma once

#include "engine/pairwise.hpp"

#include <cstddef>
#include <vector>

namespace calib::detail {

struct QuadraticSums {
    std::size_t n = 0;
    double off_diagonal = 0;          // Σ_{i<j} h_ij
    double off_diagonal_squares = 0;  // Σ_{i<j} h_ij²
    double diagonal = 0;              // Σ_i h_ii

    double biased() const { return (2 * off_diagonal + diagonal) / (double(n) * double(n)); }
    double unbiased() const { return off_diagonal / (0.5 * double(n) * double(n - 1)); }
};

template <class Term>
QuadraticSums quadratic_sums(const Term& term, const ParallelOptions& parallel) {
    const PairSums s = block_pair_sums(term, term.size(), parallel)[0];
    return {term.size(), s.sum.value(), s.sum_squares.value(), diagonal_sum(term)};
}

// The unbiased estimate of every part of a term with parts (part_pair_sums), from one pass.
template <class Term>
std::vector<double> part_unbiased(const Term& term, const ParallelOptions& parallel) {
    std::vector<double> estimates;
    for (double sum : part_pair_sums(term, parallel)) estimates.push_back(QuadraticSums{term.size(), sum}.unbiased());
    return estimates;
}

}  // namespace calib::detail

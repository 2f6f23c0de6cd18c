// The pair-term contract between the pairwise engine and what it sums. A pair term describes h(i, j)
// for one bound kernel and data set:
//   std::size_t size() const;                                     // n
//   void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const;
//       // out[j - j0] = h(i, j) for j in [j0, j1), j1 - j0 <= chunk_width; j == i allowed
// row() must be safe to call concurrently and should vectorise over j. Kernels write terms against
// this header alone; the engine (pairwise.hpp) runs them. A term whose h is a sum of parts may also
// offer parts() and part_row() (pairwise.hpp, part_pair_sums).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace calib::detail {

inline constexpr std::size_t chunk_width = 128;  // columns per row() call: buffers stay in L1

// Whether T keeps the contract: checked where the engine takes a term, so that a term that breaks it
// fails with one readable message instead of a page of template errors.
template <class T, class = void>
struct is_pair_term : std::false_type {};
template <class T>
struct is_pair_term<T, std::void_t<decltype(std::size_t{std::declval<const T&>().size()}),
                                   decltype(std::declval<const T&>().row(std::size_t{}, std::size_t{}, std::size_t{},
                                                                         static_cast<double*>(nullptr)))>>
    : std::true_type {};
template <class T>
inline constexpr bool is_pair_term_v = is_pair_term<T>::value;
#define CALIB_CHECK_PAIR_TERM(Term)                                                                          \
    static_assert(::calib::detail::is_pair_term_v<Term>,                                                     \
                  "not a pair term: the engine needs std::size_t size() const and void row(std::size_t i, "  \
                  "std::size_t j0, std::size_t j1, double* out) const (lib/engine/term.hpp)")

}  // namespace calib::detail

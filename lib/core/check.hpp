// Internal argument checks: each throws calib::invalid_argument with a message that names the
// function, the argument, the index and value at fault, and the rule that was broken.
#pragma once

#include <calib/errors.hpp>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

namespace calib::detail {

// Formats a double with enough digits to find it in the input.
std::string format_value(double x);

template <class... Parts>
std::string concat(const Parts&... parts) {
    std::ostringstream os;
    (os << ... << parts);
    return os.str();
}

template <class... Parts>
[[noreturn]] void fail(const char* function, const Parts&... parts) {
    throw invalid_argument(concat("calib::", function, ": ", parts...));
}

// As fail, for an error about entry (row, column) of a data container (column -1: the whole row).
template <class... Parts>
[[noreturn]] void fail_at(long row, long column, const char* function, const Parts&... parts) {
    throw invalid_argument(concat("calib::", function, ": ", parts...), row, column);
}

inline void check_finite(const char* function, const char* argument, long row, long column,
                         double value) {
    if (!std::isfinite(value))
        fail_at(row, column, function, argument, "(", row, ", ", column, ") = ", format_value(value),
                ", must be finite");
}

inline void check_positive(const char* function, const char* argument, long row, long column,
                           double value) {
    if (!(std::isfinite(value) && value > 0))
        fail_at(row, column, function, argument, "(", row, ", ", column, ") = ", format_value(value),
                ", must be finite and > 0");
}

inline void check_same_rows(const char* function, const char* a, long na, const char* b, long nb) {
    if (na != nb) fail(function, a, " has ", na, " rows but ", b, " has ", nb, "; they must match");
}

// At least `minimum` observations: "n = 1, needs at least 2 observations[ for PURPOSE]", the one wording
// of this limit everywhere.
inline void check_min_size(const char* function, std::size_t n, std::size_t minimum, const char* purpose = nullptr) {
    if (n < minimum)
        fail(function, "n = ", n, ", needs at least ", minimum, " observations",
             purpose ? std::string(" for ") + purpose : std::string());
}

// The most bins of a histogram of the PIT or of probabilities (the PIT histogram, the QCE, the LCE's
// levels, calib metrics' bins, histogram recalibration's): one bound for every such option, in the
// library and in the registry.
inline constexpr std::size_t max_histogram_bins = 100000;

inline void check_bins(const char* function, const char* argument, std::size_t bins) {
    if (bins < 1 || bins > max_histogram_bins)
        fail(function, argument, " = ", bins, ", must be in [1, ", max_histogram_bins, "]");
}

inline void check_nonempty(const char* function, const char* argument, long n) {
    if (n < 1) fail(function, argument, " is empty; at least one observation is needed");
}

// A computed result must be finite: a NaN or infinity means a kernel evaluation failed
// numerically, which is reported, never returned.
inline double check_result(const char* function, double value) {
    if (!std::isfinite(value))
        throw numerical_error(concat("calib::", function, ": the result is ", format_value(value),
                                     ": a kernel evaluation failed numerically (extreme inputs?)"));
    return value;
}

}  // namespace calib::detail

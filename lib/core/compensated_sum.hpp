// Compensated summation: the exact rounding error of each addition (Knuth's branch-free TwoSum)
// is accumulated beside the sum, as in Neumaier's method (whose |sum| ≥ |x| branch selects the
// same exact error), so the error is O(ε) independent of the number of terms. A fixed order of
// additions gives reproducible results.
#pragma once

#include <cmath>

namespace calib::detail {

class CompensatedSum {
public:
    void add(double x) {
        const double t = sum_ + x;
        const double x_part = t - sum_;  // the part of t that came from x
        compensation_ += (sum_ - (t - x_part)) + (x - x_part);
        sum_ = t;
    }
    // An infinite sum stays infinite (its compensation is inf − inf = NaN, not an error term).
    double value() const { return std::isfinite(sum_) ? sum_ + compensation_ : sum_; }

private:
    double sum_ = 0, compensation_ = 0;
};

}  // namespace calib::detail

// Neumaier-compensated summation: error O(ε) independent of the number of terms, in a fixed
// order (so results are reproducible).
#pragma once

#include <cmath>

namespace calib::detail {

class CompensatedSum {
public:
    void add(double x) {
        const double t = sum_ + x;
        if (std::abs(sum_) >= std::abs(x))
            compensation_ += (sum_ - t) + x;
        else
            compensation_ += (x - t) + sum_;
        sum_ = t;
    }
    double value() const { return sum_ + compensation_; }

private:
    double sum_ = 0, compensation_ = 0;
};

}  // namespace calib::detail

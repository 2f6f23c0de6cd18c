// Class-wise calibration by a test of binary predictions (hypothesis.hpp, class_wise_test): the test on
// each class against the rest, combined by Bonferroni.
#include <calib/hypothesis.hpp>

#include "core/check.hpp"
#include "hypothesis/p_values.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace calib {

TestResult class_wise_test(const CategoricalData& data, const std::function<TestResult(const CategoricalData&)>& test) {
    const int m = data.num_classes();
    std::vector<TestResult> each;
    for (int k = 0; k < m; ++k) {
        try {
            each.push_back(test(data.class_event(k)));
        } catch (const invalid_argument& e) {
            throw invalid_argument("class " + std::to_string(k) + " against the rest: " + e.what());
        }
    }
    ClassWiseDetails details;
    for (const TestResult& r : each) {
        details.p_values.push_back(r.p_value);
        details.statistics.push_back(r.statistic);
        details.estimates.push_back(r.estimate);
    }
    details.smallest = std::size_t(std::min_element(details.p_values.begin(), details.p_values.end()) -
                                   details.p_values.begin());
    const TestResult& smallest = each[details.smallest];
    TestResult out;
    out.method = smallest.method;
    out.null_approximation = "bonferroni:" + smallest.null_approximation;
    out.estimator = smallest.estimator;
    out.estimate = smallest.estimate;
    const double p = smallest.p_value;
    out.statistic = -std::log10(std::max(p, std::numeric_limits<double>::denorm_min()));
    out.p_value = std::min(1.0, double(m) * p);
    out.n = smallest.n;
    out.details = std::move(details);
    return detail::checked_test_result("class_wise_test", std::move(out));
}

}  // namespace calib

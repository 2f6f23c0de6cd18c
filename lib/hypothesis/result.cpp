// TestResult accessors and JSON (hypothesis.hpp).
#include <calib/hypothesis.hpp>
#include <calib/tool/json.hpp>

#include "core/check.hpp"

namespace calib {

double TestResult::detail(const std::string& name) const {
    for (const auto& [key, value] : details)
        if (key == name) return value;
    detail::fail("TestResult::detail", "no detail named '", name, "' in a ", method, " test result");
}

std::string TestResult::to_json() const {
    JsonObject json;
    json.set("method", method).set("null", null_approximation).set("estimator", estimator);
    json.set("estimate", estimate).set("statistic", statistic).set("p_value", p_value).set("n", n);
    for (const auto& [key, value] : details) json.set(key, value);
    return json.dump();
}

std::string to_string(PValueRule rule) { return rule == PValueRule::count ? "count" : "plus-one"; }

}  // namespace calib

// The operation `test` (operation.hpp): a calibration test of the registry with its kernel's and a
// preset's options, and its verdict at the level `alpha`.
#include "registry/method_operation.hpp"

#include <algorithm>

namespace calib::detail {

namespace {

void test_record(OperationRecord& out, const MethodRun<TestResult>& done, const ConfiguredMethod<TestSetup>& configured,
                 const OwnValues& own) {
    const TestResult& r = done.result;
    const double alpha = own.alpha;
    out.title = configured.method.info().title;
    out.result = {{"method", r.method},       {"null", r.null_approximation}, {"estimator", r.estimator},
                  {"estimate", r.estimate},   {"statistic", r.statistic},     {"p_value", r.p_value},
                  {"alpha", alpha},           {"reject", r.p_value < alpha}};
    const std::string low_power = low_power_note(r);
    if (!low_power.empty()) out.result.push_back({"low_power", low_power});
    out.n = r.n;
    const Record details = std::visit([](const auto& d) { return d.record(); }, r.details);
    out.details = details;
    out.details.insert(out.details.end(), r.estimator_details.begin(), r.estimator_details.end());  // the MMD's notion, kernel

    if (done.kernel) out.words.emplace_back("kernel", describe_kernel(*configured.kernel, *done.kernel));
    if (!r.estimator_details.empty()) out.words.emplace_back("kernel", describe_record(r.estimator_details));
    Record options;  // those the details do not report already
    for (const Field& f : done.options)
        if (std::none_of(details.begin(), details.end(), [&](const Field& d) { return d.name == f.name; }))
            options.push_back(f);
    if (!options.empty()) out.words.emplace_back("options", describe_record(options));
    out.words.emplace_back("estimate", r.estimator + " = " + readable(r.estimate));
    out.words.emplace_back("statistic", readable(r.statistic));
    out.words.emplace_back("details", describe_record(details));
    out.words.emplace_back("p-value", describe_p_value(r));
    out.words.emplace_back("verdict", describe_verdict(r, alpha, own.alpha_given));
}

}  // namespace

const Operation& test_operation() {
    static const MethodOperation<TestSetup> operation(
        {{"test", "test whether predictions are calibrated", "method"},
         test_methods,
         make_test,
         "the level of the verdict, in (0, 1): the output's alpha and reject (p_value < A)",
         test_record});
    return operation;
}

}  // namespace calib::detail

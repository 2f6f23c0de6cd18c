// The operation `estimate` (operation.hpp): one calibration-error estimate by an estimator of the
// registry, with its kernel's and a preset's options.
#include "registry/method_operation.hpp"

#include <cmath>
#include <stdexcept>

namespace calib::detail {

namespace {

void estimate_record(OperationRecord& out, const MethodRun<EstimateResult>& done,
                     const ConfiguredMethod<EstimatorSetup>& configured, const OwnValues&) {
    const EstimateResult& r = done.result;
    const EstimatorSetup& setup = configured.method;
    // A non-finite estimate is a failure of the library, never a result to print as null.
    if (!std::isfinite(r.estimate))
        throw std::runtime_error(r.estimator + " returned a non-finite estimate (" + std::to_string(r.estimate) + ")");
    out.title = setup.info().title;
    out.result = {{"estimator", r.estimator}, {"estimate", r.estimate}};
    out.n = r.n;
    out.details = r.details;
    out.warnings = r.warnings;
    if (done.kernel) out.words.emplace_back("kernel", describe_kernel(*configured.kernel, *done.kernel));
    if (!setup.options().empty()) out.words.emplace_back("options", describe_record(done.options));
    if (!r.details.empty()) out.words.emplace_back("details", describe_record(r.details));
    out.words.emplace_back("estimate", readable(r.estimate));
}

}  // namespace

const Operation& estimate_operation() {
    static const MethodOperation<EstimatorSetup> operation({{"estimate", "estimate a calibration error", "estimator"},
                                                            estimator_methods,
                                                            make_estimator,
                                                            std::nullopt,
                                                            estimate_record});
    return operation;
}

}  // namespace calib::detail

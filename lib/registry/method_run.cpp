// The last steps of a run of an estimator or a test (registry.hpp, run_method): validate, resolve the
// kernel, run, record — the same for the command line and the Python module.
#include <calib/registry.hpp>

#include "core/stopwatch.hpp"

namespace calib {

namespace {

template <class Setup, class Run>
auto run_with(const Setup& setup, const KernelSetup* kernel_setup, const AnyData& data, const AnyData* locations,
              const ParallelOptions& parallel, const Run& run) {
    const std::size_t n = data_size(data);
    setup.validate(n, locations ? data_size(*locations) : 0);
    MethodRun<decltype(run(nullptr))> out;
    const detail::Stopwatch stopwatch;
    if (kernel_setup) {
        out.kernel = kernel_setup->resolve(data, parallel);
        out.kernel_record = kernel_setup->record(*out.kernel);
    }
    out.result = run(out.kernel ? &*out.kernel : nullptr);
    out.compute_seconds = stopwatch.seconds();
    out.options = setup.record(n);
    return out;
}

}  // namespace

MethodRun<EstimateResult> run_method(const EstimatorSetup& setup, const KernelSetup* kernel, const AnyData& data,
                                     const AnyData* locations, const DataSets& data_sets,
                                     const ParallelOptions& parallel) {
    return run_with(setup, kernel, data, locations, parallel,
                    [&](const Kernel* k) { return setup.run(data, k, locations, parallel, data_sets); });
}

MethodRun<TestResult> run_method(const TestSetup& setup, const KernelSetup* kernel, const AnyData& data,
                                 const AnyData* locations, const ParallelOptions& parallel) {
    return run_with(setup, kernel, data, locations, parallel,
                    [&](const Kernel* k) { return setup.run(data, k, locations, parallel); });
}

}  // namespace calib

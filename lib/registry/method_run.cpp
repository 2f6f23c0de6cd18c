// The steps of a run of an estimator or a test, the same for the command line and the Python module
// (registry.hpp): configure (the options, the kernel's, a preset's, before the data are read), then
// run_method (validate, resolve the kernel, run, record).
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

template <class MethodSetup>
ConfiguredMethod<MethodSetup> configure_method(MethodSetup method, const std::string& kind, const FamilyInfo& family,
                                               const Preset* preset, GivenOptions& given) {
    const std::string what = "`" + kind + "` " + method.info().name;
    if (method.info().classes_only || method.info().binary_only) check_classes(what, family, method.info().binary_only);
    if (method.info().univariate_only) check_univariate(what, family);
    if (preset) check_preset_family(*preset, family);
    ConfiguredMethod<MethodSetup> out{std::move(method), std::nullopt, preset};
    set_given_options(out.method, given);
    if (out.method.kernel_use() == KernelUse::skce) set_given_options(out.kernel.emplace(family), given);
    if (preset) {
        apply_preset(*preset, out.method);
        if (out.kernel) apply_preset(*preset, *out.kernel);
    }
    reject_unused(given, {&out.method, out.kernel_setup()}, message_context(out.method));
    // A linear-time method takes its median lengthscale on a subsample unless told otherwise: the
    // exact median over all pairs would cost O(n^2), more than the method. The published presets and
    // median-full stay exact; the subsample is recorded (median_subsample, median_seed) as if given.
    if (out.method.info().linear_time && !preset)
        for (Setup* setup : {static_cast<Setup*>(&out.method), static_cast<Setup*>(out.kernel ? &*out.kernel : nullptr)})
            if (setup && setup->option("median_subsample") && setup->applies("median_subsample") &&
                !setup->given("median_subsample") && to_text(setup->get("lengthscale")) == "median")
                setup->set("median_subsample", Value(std::to_string(linear_median_subsample)));
    return out;
}

}  // namespace

ConfiguredMethod<EstimatorSetup> configure(EstimatorSetup method, const FamilyInfo& family, const Preset* preset,
                                           GivenOptions& given) {
    return configure_method(std::move(method), "estimator", family, preset, given);
}

ConfiguredMethod<TestSetup> configure(TestSetup method, const FamilyInfo& family, const Preset* preset,
                                      GivenOptions& given) {
    return configure_method(std::move(method), "method", family, preset, given);
}

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

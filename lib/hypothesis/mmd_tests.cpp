// The tests of the conditional MMD (calib/mmd.hpp): the SKCE's quadratic and block tests on the MMD's
// h, which is degenerate under H0 as the SKCE's is [marx-2023 §3.6 (digest's derivation)].
#include <calib/mmd.hpp>

#include "core/check.hpp"
#include "hypothesis/statistic_tests.hpp"
#include "kernels/mmd_ops.hpp"

namespace calib {

namespace {

// Each test once for class predictions (MmdSpec) and normal forecasts (GaussianMmdSpec).
template <class Data, class Spec>
TestResult bootstrap(const Data& data, const Spec& spec, const BootstrapOptions& options) {
    validate_mmd(data, spec, "bootstrap_test");
    return detail::bootstrap_from(
        data.size(), options,
        [&](std::size_t R, const detail::CountSource& counts, bool cache) {
            return detail::MmdOps::count_forms(data, spec, R, counts, cache, options.parallel);
        },
        "mmd-unbiased");
}

template <class Data, class Spec>
TestResult gamma(const Data& data, const Spec& spec, const ParallelOptions& parallel) {
    const char* fn = "gamma_test";
    validate_mmd(data, spec, fn);
    const std::size_t n = data.size();
    detail::check_min_size(fn, n, 2);
    return detail::gamma_from(detail::MmdOps::quadratic_sums(data, spec, parallel), "mmd-biased");
}

template <class Data, class Spec>
TestResult block(const Data& data, const Spec& spec, const BlockTestOptions& options) {
    const std::size_t n = data.size();
    validate(options, n);
    return detail::block_from(n, mmd_block(data, spec, options.block_size.resolve(n), options.parallel), options,
                              "mmd-block");
}

}  // namespace

TestResult mmd_bootstrap_test(const CategoricalData& data, const MmdSpec& spec, const BootstrapOptions& options) {
    return bootstrap(data, spec, options);
}
TestResult mmd_gamma_test(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel) {
    return gamma(data, spec, parallel);
}
TestResult mmd_block_test(const CategoricalData& data, const MmdSpec& spec, const BlockTestOptions& options) {
    return block(data, spec, options);
}
TestResult mmd_bootstrap_test(const NormalData& data, const GaussianMmdSpec& spec, const BootstrapOptions& options) {
    return bootstrap(data, spec, options);
}
TestResult mmd_gamma_test(const NormalData& data, const GaussianMmdSpec& spec, const ParallelOptions& parallel) {
    return gamma(data, spec, parallel);
}
TestResult mmd_block_test(const NormalData& data, const GaussianMmdSpec& spec, const BlockTestOptions& options) {
    return block(data, spec, options);
}

}  // namespace calib

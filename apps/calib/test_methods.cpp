// One library call per method of `calib test` (test_methods.hpp).
#include "test_methods.hpp"

#include <calib/errors.hpp>
#include <calib/estimators.hpp>

#include <stdexcept>
#include <type_traits>

namespace calib::cli {

namespace {

// The consistency test recomputes the estimator on every replicate; replicates run in parallel,
// so the estimator runs serially inside them.
CategoricalEstimator consistency_estimator(const TestPlan& plan, const Kernel* kernel,
                                           std::size_t n) {
    const ParallelOptions serial{1};
    if (plan.estimator == "ece")
        return [options = plan.ece.options](const CategoricalData& d) { return ece(d, options); };
    const Kernel k = *kernel;
    if (plan.estimator == "skce-biased")
        return [k, serial](const CategoricalData& d) { return skce_biased(d, k, serial); };
    if (plan.estimator == "skce-unbiased")
        return [k, serial](const CategoricalData& d) { return skce_unbiased(d, k, serial); };
    const std::size_t b = plan.block_size.resolve(n);  // resamples have n observations too
    return [k, serial, b](const CategoricalData& d) { return skce_block(d, k, b, serial).estimate; };
}

template <class Data>
TestResult run_on(const TestPlan& plan, const Data& data, const Kernel* kernel,
                  const Dataset* locations, const ParallelOptions& parallel) {
    const DistributionFreeOptions dfree{0, parallel};  // 0: the kernel's bound sup |h|
    const std::size_t n = data.size();
    switch (plan.method) {
        case Method::block: {
            BlockTestOptions o;
            o.block_size = plan.block_size.resolve(n);
            o.divisor = plan.divisor;
            o.null_variance = plan.null_variance;
            o.parallel = parallel;
            return block_test(data, *kernel, o);
        }
        case Method::bootstrap: {
            BootstrapOptions o;
            o.replicates = plan.replicates;
            o.seed = *plan.seed;
            o.rule = plan.rule;
            o.memory_budget = plan.memory_budget;
            o.parallel = parallel;
            return bootstrap_test(data, *kernel, o);
        }
        case Method::gamma: return gamma_test(data, *kernel, parallel);
        case Method::spectral: {
            SpectralOptions o;
            o.replicates = plan.replicates;
            o.seed = *plan.seed;
            o.rule = plan.rule;
            o.parallel = parallel;
            return spectral_test(data, *kernel, o);
        }
        case Method::dfree_biased: return dfree_biased_test(data, *kernel, dfree);
        case Method::dfree_unbiased: return dfree_unbiased_test(data, *kernel, dfree);
        case Method::dfree_block:
            return dfree_block_test(data, *kernel, plan.block_size.resolve(n), dfree);
        case Method::consistency:
            if constexpr (std::is_same_v<Data, CategoricalData>) {
                ConsistencyOptions o;
                o.replicates = plan.replicates;
                o.seed = *plan.seed;
                o.rule = plan.rule;
                o.parallel = parallel;
                return consistency_test(data, consistency_estimator(plan, kernel, n), plan.estimator,
                                        o);
            } else {
                throw std::logic_error("consistency test on non-categorical data");
            }
        case Method::cme: {
            CmeOptions o;
            o.reference = plan.reference;
            o.ridge = plan.ridge;
            o.parallel = parallel;
            if (locations) return cme_test(data, std::get<Data>(*locations), *kernel, o);
            return cme_test(data, plan.num_locations, *plan.seed, *kernel, o);
        }
    }
    throw std::logic_error("unhandled test method");
}

// What the user can change when a test fails numerically on their data.
const char* remedy(Method method) {
    switch (method) {
        case Method::cme:
            return "add a small --ridge (e.g. 1e-8), use fewer or more distinct test locations, or "
                   "another --lengthscale";
        case Method::spectral:
            return "the Gram spectrum could not be computed: use --method gamma or bootstrap";
        default:
            return "the data may be degenerate (e.g. nearly identical predictions): try another "
                   "--lengthscale or another --method";
    }
}

}  // namespace

TestResult run_method(const TestPlan& plan, const Dataset& data, const Kernel* kernel,
                      const Dataset* locations, const ParallelOptions& parallel) {
    try {
        return std::visit([&](const auto& d) { return run_on(plan, d, kernel, locations, parallel); }, data);
    } catch (const numerical_error& e) {
        // Messages that already name a command-line option say what to do; others get our remedy.
        const std::string message = e.what();
        if (message.find("--") != std::string::npos) throw;
        throw numerical_error(message + "; " + remedy(plan.method));
    }
}

}  // namespace calib::cli

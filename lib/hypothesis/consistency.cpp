// Consistency resampling of any estimator on categorical data (hypothesis.hpp).
#include <calib/hypothesis.hpp>
#include <calib/tool/random.hpp>

#include "core/check.hpp"
#include "core/memory_guard.hpp"
#include "hypothesis/p_values.hpp"
#include "core/parallel.hpp"

#include <boost/random/uniform_01.hpp>

namespace calib {

namespace {

// A label drawn from the probabilities p (inverse CDF; the last class takes any rounding slack).
int draw_label(const Eigen::Ref<const Eigen::RowVectorXd>& p, Rng& rng) {
    const double u = boost::random::uniform_01<double>()(rng);
    double cumulative = 0;
    for (Eigen::Index k = 0; k + 1 < p.size(); ++k)
        if (u < (cumulative += p(k))) return static_cast<int>(k);
    return static_cast<int>(p.size() - 1);
}

}  // namespace

void validate(const ConsistencyOptions& options, std::size_t) {
    detail::check_replicates("consistency_test", options.replicates);
}

TestResult consistency_test(const CategoricalData& data, const CategoricalEstimator& estimator,
                            const std::string& estimator_name, const ConsistencyOptions& options) {
    const char* fn = "consistency_test";
    validate(options, data.size());
    if (!estimator) detail::fail(fn, "the estimator is empty");
    const std::size_t n = data.size();
    const double observed = estimator(data);
    std::vector<double> replicates(options.replicates);
    detail::parallel_for(options.replicates, options.parallel, [&](std::size_t r) {
        // Resample predictions with replacement and draw each label from its prediction: the
        // resampled model is calibrated by construction (widmann-2019 test C).
        Rng rng = make_stream(options.seed, r);
        Matrix p(data.probabilities().rows(), data.probabilities().cols());
        std::vector<int> labels(n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto row = static_cast<Eigen::Index>(i);
            p.row(row) = data.probabilities().row(static_cast<Eigen::Index>(uniform_index(rng, n)));
            labels[i] = draw_label(p.row(row), rng);
        }
        replicates[r] = estimator(CategoricalData(std::move(p), std::move(labels), {data.simplex_tolerance(), false}));
    }, "replicates");
    // The estimator is the caller's: say which value failed rather than "a kernel evaluation".
    const auto estimator_failed = [&](const std::string& where, double value) {
        throw numerical_error(detail::concat("calib::", fn, ": the estimator returned ", detail::format_value(value),
                                             " on ", where, ", so no p-value can be given"));
    };
    if (!std::isfinite(observed)) estimator_failed("the data", observed);
    for (std::size_t r = 0; r < replicates.size(); ++r)
        if (!std::isfinite(replicates[r])) estimator_failed(detail::concat("resample ", r), replicates[r]);
    TestResult result;
    result.method = "consistency";
    result.null_approximation = "consistency-resampling";
    result.estimator = estimator_name;
    result.estimate = observed;
    result.statistic = observed;
    result.p_value = detail::resampling_p_value(fn, replicates, observed, options.rule);
    result.n = n;
    ConsistencyDetails details;
    details.replicates = options.replicates;
    details.seed = options.seed;
    details.pvalue_rule = options.rule;
    result.details = details;
    return detail::checked_test_result(fn, std::move(result));
}

}  // namespace calib

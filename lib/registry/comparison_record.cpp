// What a model comparison says, in words and fields (registry.hpp, ComparisonRun): the one source of
// `calib rank`'s JSON and table, the report's ranking and calib.rank's result.
#include "registry/models.hpp"
#include "registry/common_options.hpp"

#include "core/check.hpp"

#include <algorithm>

namespace calib {

namespace {

std::string lengthscale_rule(const Record& options) {
    return to_text(find(options, "lengthscale_rule")) == "median" ? "median" : "given";
}

bool listed(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The options of the ECE and those of the kernel estimators (the CKCE's, whose kernel the JKCE shares).
bool ece_option(const std::string& name) {
    static const detail::OptionList<EceOptions> options = detail::ece_options();
    return std::any_of(options.begin(), options.end(),
                       [&](const detail::Option<EceOptions>& o) { return o.info.name == name; });
}
bool comparison_option(const std::string& name) {
    return name == "estimators" || name == "replicates" || name == "level" || name == "seed";
}

}  // namespace

namespace detail {

std::string comparison_description(const Record& options, const std::string& estimator) {
    if (estimator == "ece")
        return "binned ECE, " + to_text(find(options, "binning")) + ", " + to_text(find(options, "distance")) + ", " +
               to_text(find(options, "mode"));
    if (estimator == "jkce") return "JKCE: the unbiased SKCE with the simplex kernel, lengthscale " + lengthscale_rule(options);
    return "CKCE, simplex kernel, lengthscale " + lengthscale_rule(options) + ", lambda " +
           to_text(find(options, "lambda_rule")) + ", " + to_text(find(options, "ckce_method"));
}

}  // namespace detail

std::string verdict_text(const PairComparison& pair, const std::vector<std::string>& names) {
    if (pair.verdict < 0) return names.at(pair.first) + " is better calibrated";
    if (pair.verdict > 0) return names.at(pair.second) + " is better calibrated";
    return "no clear difference";
}

std::vector<RankedModel> ranked_models(const Record& comparison, const std::string& estimator) {
    const auto& names = std::get<std::vector<std::string>>(find(comparison, "models"));
    const Record& r = std::get<Record>(find(std::get<Record>(find(comparison, "results")), estimator));
    const auto& estimates = std::get<std::vector<double>>(find(r, "estimates"));
    const auto& std_errors = std::get<std::vector<double>>(find(r, "std_errors"));
    std::vector<bool> taken(names.size(), false);
    std::vector<RankedModel> out;
    for (const std::string& name : std::get<std::vector<std::string>>(find(r, "ranking"))) {
        std::size_t k = 0;
        while (k < names.size() && (taken[k] || names[k] != name)) ++k;
        if (k == names.size()) detail::fail("ranked_models", "the ranking names '", name, "', not a model");
        taken[k] = true;
        out.push_back({k, estimates[k], std_errors[k]});
    }
    return out;
}

Record ComparisonRun::record(const std::vector<std::string>& names) const {
    const std::size_t models = comparison.results.empty() ? 0 : comparison.results.front().estimates.size();
    if (names.size() != models)
        detail::fail("ComparisonRun::record", names.size(), " names for ", models, " models");
    Record results;
    for (std::size_t e = 0; e < estimators.size(); ++e) {
        const EstimatorComparison& c = comparison.results[e];
        Record r{{"description", descriptions[e]}, {"estimates", c.estimates}, {"std_errors", c.std_errors}};
        std::vector<std::string> order;
        for (const std::size_t k : c.ranking) order.push_back(names[k]);
        r.push_back({"ranking", order});
        if (estimators[e] != "ece") {
            std::vector<double> used;
            for (const CkceOptions& m : ckce) used.push_back(m.kernel.lengthscale);
            r.push_back({"lengthscales", used});
        }
        if (!c.replicate_ranks.empty())
            r.push_back({"replicate_factor_ranks", std::vector<double>(c.replicate_ranks.begin(), c.replicate_ranks.end())});
        std::vector<Record> pairs;
        for (const PairComparison& p : c.pairs)
            pairs.push_back({{"first", names[p.first]},
                             {"second", names[p.second]},
                             {"difference", p.difference},
                             {"lower", p.lower},
                             {"upper", p.upper},
                             {"bootstrap_mean", p.bootstrap_mean},
                             {"probability_first_lower", p.probability_first_lower},
                             {"verdict", verdict_text(p, names)}});
        r.push_back({"comparisons", pairs});
        results.push_back({estimators[e], r});
    }
    Record out{{"n", static_cast<std::uint64_t>(comparison.n)},
               {"models", names},
               {"estimators", estimators},
               {"replicates", find(options, "replicates")},
               {"seed", find(options, "seed")},
               {"level", find(options, "level")},
               {"interval", std::string("percentile")},
               {"results", results}};
    Record kernel, ece;
    for (const Field& f : options) {
        if (ece_option(f.name))
            ece.push_back(f);
        else if (!comparison_option(f.name))
            kernel.push_back(f);
    }
    if (listed(estimators, "ckce") || listed(estimators, "jkce")) out.push_back({"kernel", kernel});
    if (listed(estimators, "ece")) out.push_back({"ece", ece});
    return out;
}

}  // namespace calib

// The model comparison with its options (registry.hpp, ComparisonSetup): which estimators, the
// paired bootstrap's replicates, level and seed, the CKCE's options (its lengthscale chosen per model)
// and the ECE's (calib estimate's defaults: one name, one quantity).
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include <calib/compare.hpp>

#include <algorithm>

namespace calib {

namespace detail {

namespace {

// ComparisonOptions with the front-ends' ECE (default_ece_options).
ComparisonOptions with_default_ece() {
    ComparisonOptions o;
    o.ece = default_ece_options();
    return o;
}

struct ComparisonSpec {
    ComparisonOptions options = with_default_ece();
    std::string estimators = "ckce,jkce,ece";
    CkceSpec ckce;
};

std::vector<ComparedEstimator> parse_estimators(const std::string& text) {
    std::vector<ComparedEstimator> out;
    for (const std::string& name : split(text, ',')) {
        ComparedEstimator e{};
        try {
            e = parse_compared_estimator(name);
        } catch (const invalid_argument&) {
            throw option_error("estimators", "'" + text + "'",
                               "a comma-separated list of ckce, jkce and ece (unknown: '" + name + "')");
        }
        if (std::find(out.begin(), out.end(), e) != out.end())
            throw option_error("estimators", "'" + text + "'", "a list without repeats ('" + name + "' is listed twice)");
        out.push_back(e);
    }
    return out;
}

OptionList<ComparisonSpec> comparison_options() {
    OptionList<ComparisonSpec> list = {
        custom_option<ComparisonSpec>(
            info("estimators", "LIST", "ckce,jkce,ece",
                 "comma-separated, from ckce (the conditional kernel calibration error), jkce (the unbiased SKCE "
                 "with the CKCE's simplex kernel, the CKCE paper's JKCE) and ece (binned, as calib estimate's)"),
            [](ComparisonSpec& s, const Value& v) {
                s.options.estimators = parse_estimators(text_value(v));
                s.estimators = text_value(v);
            },
            [](const ComparisonSpec& s) { return Value(s.estimators); }),
    };
    list = list + nested(&ComparisonSpec::options,
                         OptionList<ComparisonOptions>{
                             integer_option(&ComparisonOptions::replicates,
                                            info("replicates", "R", "200", "the paired bootstrap replicates, at most 1e8"),
                                            1, max_replicates),
                             level_option(&ComparisonOptions::level, "the intervals of the differences"),
                         });
    // One seed for the bootstrap (replicate r draws from stream r + 1) and the random features (stream 0).
    list.push_back(custom_option<ComparisonSpec>(
        info("seed", "S", std::to_string(default_seed), "the seed of the bootstrap and of the random features"),
        [](ComparisonSpec& s, const Value& v) {
            s.options.seed = s.ckce.options.seed = unsigned_value("seed", v, 0, UINT64_MAX);
        },
        [](const ComparisonSpec& s) { return Value(s.options.seed); }));
    for (Option<ComparisonSpec> o : nested(&ComparisonSpec::ckce, ckce_options(false))) {
        // The CKCE's kernel also serves the SKCE (the JKCE); its other options only the CKCE.
        const bool kernel = o.info.name == "lengthscale";
        if (o.info.condition.option.empty())
            o.info.condition = {"estimators", kernel ? std::vector<std::string>{"ckce", "jkce"}
                                                     : std::vector<std::string>{"ckce"}};
        list.push_back(std::move(o));
    }
    for (Option<ComparisonSpec> o :
         nested(&ComparisonSpec::options, nested(&ComparisonOptions::ece, ece_options()))) {
        o.info.condition = {"estimators", {"ece"}};
        list.push_back(std::move(o));
    }
    return list;
}

class ComparisonEntry final : public WithOptions<ComparisonModel, ComparisonSpec> {
public:
    ComparisonEntry()
        : WithOptions<ComparisonModel, ComparisonSpec>(
              {"rank", "rank models evaluated on the same labelled data by calibration errors",
               "paired bootstrap comparison of models", true},
              comparison_options(), {}, [](const ComparisonSpec& s) { check_ckce_spec(s.ckce); }) {}

    std::vector<std::string> estimators() const override {
        std::vector<std::string> names;
        for (const ComparedEstimator e : values().options.estimators) names.push_back(to_string(e));
        return names;
    }

    ComparisonRun run(const std::vector<CategoricalData>& models, const ParallelOptions& parallel) const override {
        check();
        const ComparisonSpec& spec = values();
        ComparisonRun out;
        ComparisonOptions options = spec.options;
        options.parallel = parallel;
        // The kernel estimators' lengthscales (and the exact CKCE's memory check): not for the ECE alone.
        const bool kernel = std::any_of(options.estimators.begin(), options.estimators.end(),
                                        [](ComparedEstimator e) { return e != ComparedEstimator::ece; });
        for (const CategoricalData& d : models) {
            if (!kernel) continue;
            const ResolvedCkce r = resolve_ckce(spec.ckce, d, parallel);
            options.ckce.push_back(r.options);
            out.lengthscales.push_back(r.lengthscale);
        }
        out.ckce = options.ckce;
        out.comparison = compare_models(models, options);
        return out;
    }

    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<ComparisonEntry>(*this); }
};

}  // namespace

std::shared_ptr<ComparisonModel> make_comparison_model() { return std::make_shared<ComparisonEntry>(); }

}  // namespace detail

void check_same_labels(const std::vector<CategoricalData>& models, const std::vector<std::string>& names,
                       const std::string& command) {
    const CategoricalData& first = models.front();
    const std::string same = "; " + command + " compares models evaluated on the same labelled data";
    for (std::size_t k = 1; k < models.size(); ++k) {
        const CategoricalData& d = models[k];
        if (d.size() != first.size())
            throw invalid_argument(names[k] + " has " + std::to_string(d.size()) + " observations but " + names[0] +
                                   " has " + std::to_string(first.size()) + same);
        if (d.num_classes() != first.num_classes())
            throw invalid_argument(names[k] + " has " + std::to_string(d.num_classes()) + " classes but " + names[0] +
                                   " has " + std::to_string(first.num_classes()) + same);
        for (std::size_t i = 0; i < d.size(); ++i)
            if (d.labels()[i] != first.labels()[i])
                throw invalid_argument(names[k] + ": observation " + std::to_string(i + 1) + " has label " +
                                           std::to_string(d.labels()[i]) + " but " + names[0] + " has label " +
                                           std::to_string(first.labels()[i]) + same,
                                       static_cast<long>(i));
    }
}

}  // namespace calib

// The operation `recalibrate fit` (operation.hpp): a recalibration map fitted on one model's scores as
// given (ModelKind::scores: logits or probabilities with labels; normal forecasts) with the options of
// RecalibrationSetup, the normal maps' features a table of the front-end's. The map is the record's
// product (a RecalibrationFit), which each front-end writes as the JSON map file; the record's fields
// are how the fit went.
#include "recalibration/map_kinds.hpp"
#include "registry/setup_operation.hpp"

#include <calib/operation.hpp>

#include <calib/recalibration.hpp>

#include <memory>

namespace calib::detail {

namespace {

// The map's parameters by name, as the map file holds them (a list for the vectors, else one number).
Record parameter_record(const RecalibrationMap& map) {
    Record out;
    for (const NamedParameter& p : named_parameters(map))
        out.push_back({p.name, p.array ? Value(p.values) : Value(p.values.front())});
    return out;
}

// What the fit fixed besides the parameters: the MMD's block size and lengthscales, the normal maps'
// target kernel with its lengthscale or threshold and Monte-Carlo samples.
Record mmd_record(const RecalibrationMap& map) {
    Record out{{"mmd_block_size", static_cast<std::uint64_t>(map.mmd_block_size)},
               {"mmd_lengthscale", map.mmd_lengthscale}};
    if (is_categorical(map.method)) return out;
    out.push_back({"kernel_y", to_string(map.mmd_target)});
    if (map.mmd_target_lengthscale > 0) out.push_back({"mmd_target_lengthscale", map.mmd_target_lengthscale});
    if (map.mmd_target == GaussianTarget::sign) out.push_back({"mmd_threshold", map.mmd_threshold});
    if (map.mmd_marginalisation != MmdMarginalisation::analytic) {
        out.push_back({"mmd_samples", static_cast<std::uint64_t>(map.mmd_samples)});
        out.push_back({"mmd_seed", map.mmd_seed});
    }
    return out;
}

class ConfiguredFit final : public ConfiguredSetup<RecalibrationSetup> {
public:
    using ConfiguredSetup::ConfiguredSetup;

    OperationRecord run(const std::vector<ModelData>& models, const DataSets&, const ParallelOptions& parallel) const override {
        const ModelData& model = models.front();
        RecalibrationData data;
        if (const auto* scores = std::get_if<CategoricalScores>(&model.value))
            data.data = *scores;
        else
            data.data = std::get<NormalData>(model.data());
        data.features = setup_.features();
        RecalibrationRun fitted = setup_.run(data, parallel);
        const RecalibrationMap& map = fitted.fit.map;
        const FitSummary& summary = fitted.fit.summary;
        const RecalibrationOptions options = setup_.fit_options();
        const bool mmd = options.objective == RecalibrationObjective::nll_mmd;

        OperationRecord out;
        out.title = "a recalibration map " + to_string(map.method) + " by " + to_string(options.objective);
        out.result = {{"command", std::string("recalibrate fit")},
                      {"method", to_string(map.method)},
                      {"objective", to_string(options.objective)}};
        if (mmd) {
            out.result.push_back({"lambda", options.lambda});
            out.result.push_back({"notion", to_string(options.notion)});
        }
        out.n = data.size();
        if (!fitted.selection.empty()) out.details.push_back({"selection", fitted.selection});
        if (!fitted.holdout.empty()) out.details.push_back({"holdout", fitted.holdout});
        const MapKind* kind = map_kind(map.method, map.num_classes);
        if (kind && kind->record_count_name)  // a table as long as the data: the map file's alone
            out.details.push_back({kind->record_count_name, static_cast<std::uint64_t>(kind->record_count(map))});
        else
            out.details.push_back({"parameters", parameter_record(map)});
        out.details.push_back({"objective_before", summary.objective_before});
        out.details.push_back({"objective_after", summary.objective_after});
        if (mmd)
            for (Field& f : mmd_record(map)) out.details.push_back(std::move(f));
        out.details.push_back({"iterations", static_cast<std::uint64_t>(summary.iterations)});
        out.details.push_back({"evaluations", static_cast<std::uint64_t>(summary.evaluations)});
        out.details.push_back({"status", to_string(summary.termination)});
        out.options = std::move(fitted.options);
        out.warnings = std::move(fitted.warnings);
        out.compute_seconds = fitted.compute_seconds;
        out.product = std::make_shared<const RecalibrationFit>(std::move(fitted.fit));
        return out;
    }
};

class FitOperation final : public Operation {
public:
    const OperationInfo& info() const override { return info_; }
    std::vector<OptionInfo> options() const override {
        std::vector<OptionInfo> out;
        for (const OptionGroup& group : option_groups("recalibrate fit"))
            out.insert(out.end(), group.options.begin(), group.options.end());
        return out;
    }
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const override {
        RecalibrationSetup setup = with_given_options(RecalibrationSetup(family), given);
        setup.check_features(setup.given("features"));
        return std::make_unique<ConfiguredFit>(std::move(setup));
    }

private:
    OperationInfo info_ = [] {
        OperationInfo i{"recalibrate fit", "fit a recalibration map by NLL (or NLL + lambda MMD^2)", "method", false};
        i.reads = ModelKind::scores;
        return i;
    }();
};

}  // namespace

const Operation& recalibrate_fit_operation() {
    static const FitOperation operation;
    return operation;
}

}  // namespace calib::detail

// The operation `metrics` (operation.hpp): the evaluation metrics of Marx et al. (metrics.hpp) with the
// options of the data's family (MetricsSetup), the features a table of the front-end's.
#include "registry/option_table.hpp"
#include "registry/setup_operation.hpp"

#include <calib/operation.hpp>

namespace calib::detail {

namespace {

class ConfiguredMetrics final : public ConfiguredSetup<MetricsSetup> {
public:
    using ConfiguredSetup::ConfiguredSetup;

    OperationRecord run(const std::vector<ModelData>& models, const DataSets&, const ParallelOptions& parallel) const override {
        const AnyData& data = models.front().data();
        auto [metrics, seconds] = setup_.run(data, parallel);
        OperationRecord out;
        out.title = "the evaluation metrics of Marx et al. (2023)";
        out.result = {{"command", std::string("metrics")}};
        out.n = data_size(data);
        for (const Field& f : metrics)
            out.words.emplace_back(f.name, std::holds_alternative<double>(f.value) ? readable(std::get<double>(f.value))
                                                                                    : to_text(f.value));
        out.details = std::move(metrics);
        if (setup_.given("features")) out.options.push_back({"features", setup_.get("features")});
        out.compute_seconds = seconds;
        return out;
    }
};

class MetricsOperation final : public Operation {
public:
    const OperationInfo& info() const override { return info_; }
    std::vector<OptionInfo> options() const override {
        std::vector<OptionInfo> out;
        for (const OptionGroup& group : option_groups("metrics")) append_new_options(out, group.options);
        return out;
    }
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const override {
        return std::make_unique<ConfiguredMetrics>(with_given_options(MetricsSetup(family), given));
    }

private:
    OperationInfo info_{"metrics", "the evaluation metrics of Marx et al. (2023)", "", false};
};

}  // namespace

const Operation& metrics_operation() {
    static const MetricsOperation operation;
    return operation;
}

}  // namespace calib::detail

// The operation `rank` (operation.hpp): two or more models' class predictions of the same labelled
// observations compared by calibration errors with paired bootstrap intervals (ComparisonSetup,
// compare.hpp). Its record's result is ComparisonRun::record (the models by their names); a front-end
// with a layout of its own for it draws it from those fields (the command line's table).
#include "registry/setup_operation.hpp"

#include <calib/operation.hpp>

#include <limits>

namespace calib::detail {

namespace {

class ConfiguredRank final : public ConfiguredOperation {
public:
    explicit ConfiguredRank(ComparisonSetup setup) : setup_(std::move(setup)) {}

    OperationRecord run(const std::vector<ModelData>& models, const DataSets&, const ParallelOptions& parallel) const override {
        std::vector<CategoricalData> data;
        std::vector<std::string> names;
        for (const ModelData& m : models) {
            data.push_back(std::get<CategoricalData>(m.data()));
            names.push_back(m.name);
        }
        check_same_labels(data, names, "calib rank");
        const ComparisonRun compared = setup_.run(data, parallel);
        OperationRecord out;
        out.title = std::to_string(models.size()) + " models compared by paired bootstrap replicates";
        out.result = {{"command", std::string("rank")}};
        for (Field& f : compared.record(names))
            if (f.name != "n") out.result.push_back(std::move(f));
        out.n = compared.comparison.n;
        out.options = compared.options;
        out.compute_seconds = compared.compute_seconds;
        return out;
    }

private:
    ComparisonSetup setup_;
};

class RankOperation final : public Operation {
public:
    const OperationInfo& info() const override { return info_; }
    std::vector<OptionInfo> options() const override { return ComparisonSetup().options(); }
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const override {
        check_family(info_, family, info_.min_models);  // as a front-end has, for a caller that did not
        return std::make_unique<ConfiguredRank>(with_given_options(ComparisonSetup(), given));
    }

private:
    OperationInfo info_{"rank", "rank models evaluated on the same labelled data by calibration errors", "", false, 2,
                        std::numeric_limits<std::size_t>::max(), true};
};

}  // namespace

const Operation& rank_operation() {
    static const RankOperation operation;
    return operation;
}

}  // namespace calib::detail

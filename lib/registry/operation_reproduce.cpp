// The operation `reproduce` (operation.hpp): one row of a published table (a preset of the registry,
// run_preset) from one model's outputs, with the paper's column names.
#include <calib/operation.hpp>

#include "registry/option_table.hpp"

namespace calib::detail {

namespace {

class ConfiguredReproduce final : public ConfiguredOperation {
public:
    explicit ConfiguredReproduce(const Preset& preset) : preset_(preset) {}
    const std::string& method_name() const override { return preset_.name; }

    OperationRecord run(const std::vector<ModelData>& models, const DataSets&, const ParallelOptions& parallel) const override {
        const AnyData& data = models.front().data();
        auto [row, seconds] = run_preset(preset_, data, parallel);
        OperationRecord out;
        out.title = preset_.name + ", " + preset_.source;
        out.result = {{"command", std::string("reproduce")}, {"preset", preset_.name}, {"source", preset_.source}};
        out.n = data_size(data);
        for (const Field& table : row) {
            if (const Record* columns = std::get_if<Record>(&table.value))
                for (const Field& c : *columns) out.words.emplace_back(table.name + " " + c.name, readable(to_double(c.value)));
            else
                out.words.emplace_back(table.name, readable(to_double(table.value)));
        }
        out.details = std::move(row);
        out.compute_seconds = seconds;
        return out;
    }

private:
    const Preset& preset_;
};

class ReproduceOperation final : public Operation {
public:
    ReproduceOperation() {
        std::string names;
        for (const Preset& p : presets()) names += (names.empty() ? "" : "|") + p.name;
        OptionInfo preset = detail::info("preset", names, "", "the published table (required)");
        preset.required = true;
        own_.push_back(std::move(preset));
    }
    const OperationInfo& info() const override { return info_; }
    const std::vector<OptionInfo>& own_options() const override { return own_; }
    std::vector<OptionInfo> options() const override { return own_; }
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const override {
        const std::optional<Value> name = given.take(own_.front());
        if (!name) throw invalid_argument(missing_option_message(own_.front()));
        const Preset& preset = find_preset(to_text(*name));
        check_preset_family(preset, family);
        reject_unused(given, {}, "reproduce " + preset.name);
        return std::make_unique<ConfiguredReproduce>(preset);
    }

private:
    OperationInfo info_{"reproduce", "one row of a published table from one model's outputs", "preset", false};
    std::vector<OptionInfo> own_;
};

}  // namespace

const Operation& reproduce_operation() {
    static const ReproduceOperation operation;
    return operation;
}

}  // namespace calib::detail

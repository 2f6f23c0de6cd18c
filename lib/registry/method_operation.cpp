// The operations that run one method chosen by name (method_operation.hpp): their own options, the
// order of configure, the inputs, the record's common fields.
#include "registry/method_operation.hpp"

#include "registry/models.hpp"

#include <algorithm>
#include <utility>

namespace calib::detail {

namespace {

class OwnEntry final : public WithOptions<SetupModel, OwnValues> {
public:
    OwnEntry(const OperationInfo& info, OptionList<OwnValues> options, OwnValues defaults)
        : WithOptions<SetupModel, OwnValues>({info.name, info.summary, info.name}, std::move(options),
                                             std::move(defaults)) {}
    using WithOptions<SetupModel, OwnValues>::values;
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<OwnEntry>(*this); }
};

// The operation's own options as a setup, so that they are given, checked and refused as every other.
class OwnSetup final : public Setup {
public:
    OwnSetup(const OperationInfo& info, OptionList<OwnValues> options, OwnValues defaults)
        : Setup(std::make_shared<OwnEntry>(info, std::move(options), std::move(defaults))) {}
    const OwnValues& values() const { return static_cast<const OwnEntry&>(*model_).values(); }
};

template <class MethodSetup>
OptionList<OwnValues> own_option_list(const MethodOperationSpec<MethodSetup>& spec) {
    std::string metavar, presets;
    for (const MethodInfo& m : spec.methods()) metavar += (metavar.empty() ? "" : "|") + m.name;
    for (const Preset& p : calib::presets()) presets += (presets.empty() ? "" : "|") + p.name;
    OptionInfo method = info(spec.info.method, metavar, "", "the " + spec.info.method + " (required)");
    method.required = true;
    OptionList<OwnValues> out{
        custom_option<OwnValues>(std::move(method), [](OwnValues& o, const Value& v) { o.method = text_value(v); },
                                 [](const OwnValues& o) { return Value(o.method); }),
        custom_option<OwnValues>(info("preset", presets, "",
                                      "the conventions of a published experiment, set where the method has the option "
                                      "and it was not given"),
                                 [](OwnValues& o, const Value& v) { o.preset = find_preset(text_value(v)).name; },
                                 [](const OwnValues& o) { return Value(o.preset); })};
    if (spec.alpha_help)
        out.push_back(custom_option<OwnValues>(
            info("alpha", "A", "0.05", *spec.alpha_help),
            [](OwnValues& o, const Value& v) {
                o.alpha = real_value("alpha", v, [](double a) { return a > 0 && a < 1; }, "in (0, 1)");
                o.alpha_given = true;
            },
            [](const OwnValues& o) { return o.alpha ? Value(*o.alpha) : Value(std::string()); }));
    return out;
}

template <class MethodSetup>
class ConfiguredMethodOperation final : public ConfiguredOperation {
public:
    ConfiguredMethodOperation(const MethodOperationSpec<MethodSetup>& spec, OwnValues own,
                              ConfiguredMethod<MethodSetup> configured)
        : spec_(spec), own_(std::move(own)), configured_(std::move(configured)) {}

    const std::string& method_name() const override { return configured_.method.info().name; }

    std::vector<InputRequest> inputs() const override {
        const MethodSetup& m = configured_.method;
        std::vector<InputRequest> out;
        if (m.locations_use() == LocationsUse::required)
            out.push_back({"test_locations", to_text(m.get("test_locations"))});
        if constexpr (std::is_same_v<MethodSetup, EstimatorSetup>)
            for (const std::string& option : m.data_set_options()) out.push_back({option, to_text(m.get(option))});
        return out;
    }

    bool takes_table(const std::string& option) const override { return configured_.method.takes_table(option); }
    void set_table(const std::string& option, Matrix table) override {
        configured_.method.set_table(option, std::move(table));
    }

    OperationRecord run(const std::vector<ModelData>& models, const DataSets& inputs,
                        const ParallelOptions& parallel) const override {
        const AnyData& data = models.front().data;
        const MethodSetup& m = configured_.method;
        const auto locations = inputs.find("test_locations");
        const AnyData* at = locations == inputs.end() ? nullptr : &locations->second;
        MethodRun<ResultOf<MethodSetup>> done;
        if constexpr (std::is_same_v<MethodSetup, EstimatorSetup>) {
            DataSets data_sets;
            for (const std::string& option : m.data_set_options()) data_sets.emplace(option, inputs.at(option));
            done = run_method(m, configured_.kernel_setup(), data, at, data_sets, parallel);
        } else {
            done = run_method(m, configured_.kernel_setup(), data, at, parallel);
        }
        OperationRecord out;
        spec_.record(out, done, configured_, own_);
        out.kernel = done.kernel_record;
        out.options = done.options;
        if (configured_.preset) out.options.push_back({"preset", configured_.preset->name});
        out.compute_seconds = done.compute_seconds;
        return out;
    }

private:
    const MethodOperationSpec<MethodSetup>& spec_;
    OwnValues own_;
    ConfiguredMethod<MethodSetup> configured_;
};

}  // namespace

template <class MethodSetup>
MethodOperation<MethodSetup>::MethodOperation(MethodOperationSpec<MethodSetup> spec) : spec_(std::move(spec)) {
    for (const Option<OwnValues>& o : own_option_list(spec_)) own_.push_back(o.info);
}

template <class MethodSetup>
std::vector<OptionInfo> MethodOperation<MethodSetup>::options() const {
    std::vector<OptionInfo> out = own_;
    const auto add = [&](const std::vector<OptionInfo>& options) {
        for (const OptionInfo& o : options)
            if (std::none_of(out.begin(), out.end(), [&](const OptionInfo& known) { return known.name == o.name; }))
                out.push_back(o);
    };
    for (const MethodInfo& m : spec_.methods()) add(spec_.make(m.name).options());
    add(KernelSetup(families().front()).options());
    return out;
}

template <class MethodSetup>
std::unique_ptr<ConfiguredOperation> MethodOperation<MethodSetup>::configure(const FamilyInfo& family,
                                                                           GivenOptions& given) const {
    OwnValues defaults;
    if (spec_.alpha_help) defaults.alpha = 0.05;
    OwnSetup own(spec_.info, own_option_list(spec_), defaults);
    set_given_options(own, given);
    const OwnValues values = own.values();
    const Preset* preset = values.preset.empty() ? nullptr : &find_preset(values.preset);
    return std::make_unique<ConfiguredMethodOperation<MethodSetup>>(
        spec_, values, calib::configure(spec_.make(values.method), family, preset, given));
}

template class MethodOperation<EstimatorSetup>;
template class MethodOperation<TestSetup>;

}  // namespace calib::detail

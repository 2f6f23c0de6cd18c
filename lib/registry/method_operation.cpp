// The operations that run one method chosen by name (method_operation.hpp): their own options, the
// order of configure, the inputs, the record's common fields.
#include "registry/method_operation.hpp"

#include "registry/models.hpp"

#include <algorithm>
#include <utility>

namespace calib::detail {

namespace {

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
    if (spec.alpha_help) out.push_back(alpha_option(&OwnValues::alpha, *spec.alpha_help));
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
        const AnyData& data = models.front().data();
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
    const auto add = [&](const std::vector<OptionInfo>& options) { append_new_options(out, options); };
    for (const MethodInfo& m : spec_.methods()) add(spec_.make(m.name).options());
    add(KernelSetup(families().front()).options());
    return out;
}

template <class MethodSetup>
std::unique_ptr<ConfiguredOperation> MethodOperation<MethodSetup>::configure(const FamilyInfo& family,
                                                                           GivenOptions& given) const {
    OptionsSetup<OwnValues> own({spec_.info.name, spec_.info.summary, spec_.info.name}, own_option_list(spec_), {});
    set_given_options(own, given);
    OwnValues values = own.values();
    values.alpha_given = spec_.alpha_help && own.given("alpha");
    const Preset* preset = values.preset.empty() ? nullptr : &find_preset(values.preset);
    return std::make_unique<ConfiguredMethodOperation<MethodSetup>>(
        spec_, values, calib::configure(spec_.make(values.method), family, preset, given));
}

template class MethodOperation<EstimatorSetup>;
template class MethodOperation<TestSetup>;

}  // namespace calib::detail

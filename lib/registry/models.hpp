// The models behind the registry's setups (registry.hpp): a method's options with values (an
// OptionTable over its options struct) and what the method does with them. One class template per
// kind of method, instantiated per options struct by the entries (estimators.cpp, tests.cpp, …).
#pragma once

#include "registry/option_table.hpp"

#include <calib/registry.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace calib::detail {

class SetupModel {
public:
    explicit SetupModel(MethodInfo info) : info_(std::move(info)) {}
    virtual ~SetupModel() = default;
    const MethodInfo& info() const { return info_; }
    virtual const std::vector<OptionInfo>& options() const = 0;
    virtual bool applies(const std::string& name) const = 0;
    virtual void set(const std::string& name, const Value& value) = 0;
    virtual Value get(const std::string& name) const = 0;
    virtual bool given(const std::string& name) const = 0;
    virtual bool takes_table(const std::string& name) const = 0;
    virtual void set_table(const std::string& name, std::shared_ptr<const Matrix> table) = 0;
    virtual void check() const = 0;
    virtual Record record(std::size_t n) const = 0;
    virtual std::shared_ptr<SetupModel> clone() const = 0;

private:
    MethodInfo info_;
};

class KernelModel : public SetupModel {
public:
    using SetupModel::SetupModel;
    virtual Kernel resolve(const AnyData& data, const ParallelOptions& parallel) const = 0;
    virtual Record record_with(const Kernel& resolved) const = 0;
};

// An estimator (Result = EstimateResult) or a test (TestResult).
template <class Result>
class MethodModel : public SetupModel {
public:
    using SetupModel::SetupModel;
    virtual KernelUse kernel_use() const = 0;
    virtual LocationsUse locations_use() const = 0;
    virtual void validate(std::size_t n, std::size_t num_locations) const = 0;
    virtual std::vector<std::string> data_set_options() const = 0;
    virtual Result run(const AnyData& data, const Kernel* kernel, const AnyData* locations, const DataSets& data_sets,
                       const ParallelOptions& parallel) const = 0;
};

class ComparisonModel : public SetupModel {
public:
    using SetupModel::SetupModel;
    virtual std::vector<std::string> estimators() const = 0;
    virtual ComparisonRun run(const std::vector<CategoricalData>& models, const ParallelOptions& parallel) const = 0;
};
// Which quantity a compared estimator is, from the comparison's options as recorded
// ("binned ECE, uniform:10, tv, canonical").
std::string comparison_description(const Record& options, const std::string& estimator);

// The options part of a model over the options struct S; `check` adds the method's own rules
// between options (required options are checked here).
template <class Base, class S>
class WithOptions : public Base {
public:
    WithOptions(MethodInfo info, OptionList<S> options, S defaults, std::function<void(const S&)> check = {})
        : Base(std::move(info)), table_(std::move(options), std::move(defaults)), check_(std::move(check)) {}

    const std::vector<OptionInfo>& options() const override { return table_.infos(); }
    bool applies(const std::string& name) const override { return table_.applies(name); }
    void set(const std::string& name, const Value& value) override { table_.set(this->info().name, name, value); }
    Value get(const std::string& name) const override { return table_.get(this->info().name, name); }
    bool given(const std::string& name) const override { return table_.given(name); }
    bool takes_table(const std::string& name) const override { return table_.takes_table(name); }
    void set_table(const std::string& name, std::shared_ptr<const Matrix> table) override {
        table_.set_table(this->info().name, name, std::move(table));
    }
    void check() const override {
        table_.check_required(this->info().name);
        if (check_) check_(table_.values());
    }
    Record record(std::size_t n) const override { return table_.record(n); }

protected:
    const S& values() const { return table_.values(); }

private:
    OptionTable<S> table_;
    std::function<void(const S&)> check_;
};

// A setup of options only (an operation's own, a command's): given, checked, recorded and refused as a
// method's are.
template <class S>
class OptionsEntry final : public WithOptions<SetupModel, S> {
public:
    using WithOptions<SetupModel, S>::WithOptions;
    using WithOptions<SetupModel, S>::values;
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<OptionsEntry>(*this); }
};

template <class S>
class OptionsSetup final : public Setup {
public:
    OptionsSetup(MethodInfo info, OptionList<S> options, S defaults)
        : Setup(std::make_shared<OptionsEntry<S>>(std::move(info), std::move(options), std::move(defaults))) {}
    const S& values() const { return static_cast<const OptionsEntry<S>&>(*model_).values(); }
};

// What a method does with its options S: the kernel and test locations it uses (empty: the SKCE
// kernel, no locations), its limits on n (and J locations), and the library call.
template <class S, class Result>
struct MethodCalls {
    std::function<KernelUse(const S&)> kernel_use;
    std::function<LocationsUse(const S&)> locations_use;
    std::function<void(const S&, std::size_t n, std::size_t num_locations)> validate;
    std::function<Result(const AnyData&, const Kernel*, const AnyData*, const S&, const ParallelOptions&)> run;
};

// A method that can also use further labelled data sets (ce-*: --train, --validation): the given options
// that name one, and the call that replaces MethodCalls::run when `names` is not empty.
template <class S, class Result>
struct DataSetCalls {
    std::function<std::vector<std::string>(const S&)> names;
    std::function<Result(const AnyData&, const DataSets&, const S&, const ParallelOptions&)> run;
};

// An estimator (Base = MethodModel<EstimateResult>, Result = EstimateResult) or a test (MethodModel<TestResult>, TestResult).
template <class Base, class S, class Result>
class MethodEntry final : public WithOptions<Base, S> {
public:
    MethodEntry(MethodInfo info, OptionList<S> options, S defaults, MethodCalls<S, Result> calls,
                std::function<void(const S&)> check, DataSetCalls<S, Result> data_set_calls = {})
        : WithOptions<Base, S>(std::move(info), std::move(options), std::move(defaults), std::move(check)),
          calls_(std::move(calls)), data_set_calls_(std::move(data_set_calls)) {}
    KernelUse kernel_use() const override {
        return calls_.kernel_use ? calls_.kernel_use(this->values()) : KernelUse::skce;
    }
    LocationsUse locations_use() const override {
        return calls_.locations_use ? calls_.locations_use(this->values()) : LocationsUse::none;
    }
    void validate(std::size_t n, std::size_t num_locations) const override {
        this->check();
        if (calls_.validate) calls_.validate(this->values(), n, num_locations);
    }
    std::vector<std::string> data_set_options() const override {
        return data_set_calls_.names ? data_set_calls_.names(this->values()) : std::vector<std::string>{};
    }
    Result run(const AnyData& data, const Kernel* kernel, const AnyData* locations, const DataSets& data_sets,
               const ParallelOptions& parallel) const override {
        if (!data_set_options().empty()) return data_set_calls_.run(data, data_sets, this->values(), parallel);
        return calls_.run(data, kernel, locations, this->values(), parallel);
    }
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<MethodEntry>(*this); }

private:
    MethodCalls<S, Result> calls_;
    DataSetCalls<S, Result> data_set_calls_;
};

// The registered methods: their descriptions and a factory each (estimators.cpp, tests.cpp).
template <class Model>
struct Registered {
    MethodInfo info;
    std::function<std::shared_ptr<Model>()> make;
};
const std::vector<Registered<MethodModel<EstimateResult>>>& registered_estimators();
const std::vector<Registered<MethodModel<TestResult>>>& registered_tests();

inline MethodInfo method(std::string name, std::string summary, std::string title, bool classes_only = false) {
    return {std::move(name), std::move(summary), std::move(title), classes_only};
}
// A method whose own cost is at most linear in n (MethodInfo::linear_time).
inline MethodInfo linear_method(std::string name, std::string summary, std::string title) {
    MethodInfo info = method(std::move(name), std::move(summary), std::move(title));
    info.linear_time = true;
    return info;
}
// A method of univariate distributions (normal, laplace, mixture-normal), at most linear in n.
inline MethodInfo univariate_method(std::string name, std::string summary, std::string title) {
    MethodInfo info = linear_method(std::move(name), std::move(summary), std::move(title));
    info.univariate_only = true;
    return info;
}
// A method of binary predictions (the binary family, or categorical with two classes: the library
// checks the number of classes on the data).
inline MethodInfo binary_method(std::string name, std::string summary, std::string title) {
    return {std::move(name), std::move(summary), std::move(title), true, true};
}

// A registered method: its description, options with their defaults, calls and checks between options.
template <class Model, class S, class Result>
Registered<Model> entry(MethodInfo info, OptionList<S> options, S defaults, MethodCalls<S, Result> calls,
                        std::function<void(const S&)> check = {}) {
    return {info, [=] { return std::make_shared<MethodEntry<Model, S, Result>>(info, options, defaults, calls, check); }};
}
template <class S>
Registered<MethodModel<EstimateResult>> estimator_entry(MethodInfo info, OptionList<S> options, S defaults,
                                           MethodCalls<S, EstimateResult> calls,
                                           std::function<void(const S&)> check = {}) {
    return entry<MethodModel<EstimateResult>>(std::move(info), std::move(options), std::move(defaults), std::move(calls),
                                 std::move(check));
}
// An estimator that can also run on further labelled data sets (DataSetCalls).
template <class S>
Registered<MethodModel<EstimateResult>> estimator_entry(MethodInfo info, OptionList<S> options, S defaults,
                                                        MethodCalls<S, EstimateResult> calls,
                                                        std::function<void(const S&)> check,
                                                        DataSetCalls<S, EstimateResult> data_set_calls) {
    using Entry = MethodEntry<MethodModel<EstimateResult>, S, EstimateResult>;
    return {info, [=] { return std::make_shared<Entry>(info, options, defaults, calls, check, data_set_calls); }};
}
template <class S>
Registered<MethodModel<TestResult>> test_entry(MethodInfo info, OptionList<S> options, S defaults, MethodCalls<S, TestResult> calls,
                                 std::function<void(const S&)> check = {}) {
    return entry<MethodModel<TestResult>>(std::move(info), std::move(options), std::move(defaults), std::move(calls), std::move(check));
}

// A kernel or locations use that does not depend on the options.
template <class S, class Use>
std::function<Use(const S&)> always(Use use) {
    return [use](const S&) { return use; };
}

// The class predictions of a method that applies only to them; throws invalid_argument otherwise.
inline const CategoricalData& classes_of(const std::string& method, const AnyData& data) {
    if (const auto* d = std::get_if<CategoricalData>(&data)) return *d;
    throw invalid_argument(method + " applies only to class predictions (categorical or binary data)");
}

}  // namespace calib::detail

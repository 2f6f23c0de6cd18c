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

class EstimatorModel : public SetupModel {
public:
    using SetupModel::SetupModel;
    virtual KernelUse kernel_use() const = 0;
    virtual LocationsUse locations_use() const = 0;
    virtual void validate(std::size_t n, std::size_t num_locations) const = 0;
    virtual EstimateResult run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                               const ParallelOptions& parallel) const = 0;
};

class TestModel : public SetupModel {
public:
    using SetupModel::SetupModel;
    virtual KernelUse kernel_use() const = 0;
    virtual LocationsUse locations_use() const = 0;
    virtual void validate(std::size_t n, std::size_t num_locations) const = 0;
    virtual TestResult run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                           const ParallelOptions& parallel) const = 0;
};

class ComparisonModel : public SetupModel {
public:
    using SetupModel::SetupModel;
    virtual std::vector<std::string> estimators() const = 0;
    virtual ComparisonRun run(const std::vector<CategoricalData>& models, const ParallelOptions& parallel) const = 0;
};

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

// An estimator: its options struct S and the call.
template <class S>
struct EstimatorCalls {
    KernelUse kernel_use = KernelUse::skce;
    LocationsUse locations_use = LocationsUse::none;
    std::function<void(const S&, std::size_t n, std::size_t num_locations)> validate;
    std::function<EstimateResult(const AnyData&, const Kernel*, const AnyData*, const S&, const ParallelOptions&)> run;
};

template <class S>
class EstimatorEntry final : public WithOptions<EstimatorModel, S> {
public:
    EstimatorEntry(MethodInfo info, OptionList<S> options, S defaults, EstimatorCalls<S> calls,
                   std::function<void(const S&)> check = {})
        : WithOptions<EstimatorModel, S>(std::move(info), std::move(options), std::move(defaults), std::move(check)),
          calls_(std::move(calls)) {}
    KernelUse kernel_use() const override { return calls_.kernel_use; }
    LocationsUse locations_use() const override { return calls_.locations_use; }
    void validate(std::size_t n, std::size_t num_locations) const override {
        this->check();
        if (calls_.validate) calls_.validate(this->values(), n, num_locations);
    }
    EstimateResult run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                       const ParallelOptions& parallel) const override {
        return calls_.run(data, kernel, locations, this->values(), parallel);
    }
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<EstimatorEntry>(*this); }

private:
    EstimatorCalls<S> calls_;
};

// A test: its options struct S and the call; the kernel and the locations may depend on the options.
template <class S>
struct TestCalls {
    std::function<KernelUse(const S&)> kernel_use;           // empty: skce
    std::function<LocationsUse(const S&)> locations_use;     // empty: none
    std::function<void(const S&, std::size_t n, std::size_t num_locations)> validate;
    std::function<TestResult(const AnyData&, const Kernel*, const AnyData*, const S&, const ParallelOptions&)> run;
};

template <class S>
class TestEntry final : public WithOptions<TestModel, S> {
public:
    TestEntry(MethodInfo info, OptionList<S> options, S defaults, TestCalls<S> calls,
              std::function<void(const S&)> check = {})
        : WithOptions<TestModel, S>(std::move(info), std::move(options), std::move(defaults), std::move(check)),
          calls_(std::move(calls)) {}
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
    TestResult run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                   const ParallelOptions& parallel) const override {
        return calls_.run(data, kernel, locations, this->values(), parallel);
    }
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<TestEntry>(*this); }

private:
    TestCalls<S> calls_;
};

// The registered methods: their descriptions and a factory each (estimators.cpp, tests.cpp).
template <class Model>
struct Registered {
    MethodInfo info;
    std::function<std::shared_ptr<Model>()> make;
};
const std::vector<Registered<EstimatorModel>>& registered_estimators();
const std::vector<Registered<TestModel>>& registered_tests();

// The class predictions of a method that applies only to them; throws invalid_argument otherwise.
inline const CategoricalData& classes_of(const std::string& method, const AnyData& data) {
    if (const auto* d = std::get_if<CategoricalData>(&data)) return *d;
    throw invalid_argument(method + " applies only to class predictions (categorical or binary data)");
}

}  // namespace calib::detail

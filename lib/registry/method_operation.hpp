// The operations that run one method of the registry chosen by name, with its kernel and a preset
// (operation.hpp): estimate (an EstimatorSetup) and test (a TestSetup). What they share is here — their
// own options, the order of configure, the inputs the method names, the record's common fields; each
// operation's file gives its description and its record's own fields and words.
#pragma once

#include "registry/option_table.hpp"

#include <calib/operation.hpp>

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace calib::detail {

// The operation's own options as given: the method's name, the preset's, the verdict's level.
struct OwnValues {
    std::string method;
    std::string preset;
    double alpha = default_alpha;  // only an operation with a verdict has the option
    bool alpha_given = false;
};

template <class MethodSetup>
using ResultOf = std::conditional_t<std::is_same_v<MethodSetup, EstimatorSetup>, EstimateResult, TestResult>;

template <class MethodSetup>
struct MethodOperationSpec {
    OperationInfo info;
    std::function<const std::vector<MethodInfo>&()> methods;
    std::function<MethodSetup(const std::string&)> make;
    std::optional<std::string> alpha_help;  // given: the operation takes the verdict's level `alpha` (0.05)
    // The record's own part: title, result, n, details, warnings, words (the rest — kernel, options,
    // preset, compute_seconds — is common).
    std::function<void(OperationRecord&, const MethodRun<ResultOf<MethodSetup>>&, const ConfiguredMethod<MethodSetup>&,
                       const OwnValues&)>
        record;
};

template <class MethodSetup>
class MethodOperation final : public Operation {
public:
    explicit MethodOperation(MethodOperationSpec<MethodSetup> spec);
    const OperationInfo& info() const override { return spec_.info; }
    const std::vector<OptionInfo>& own_options() const override { return own_; }
    std::vector<OptionInfo> options() const override;
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const override;

private:
    MethodOperationSpec<MethodSetup> spec_;
    std::vector<OptionInfo> own_;
};

extern template class MethodOperation<EstimatorSetup>;
extern template class MethodOperation<TestSetup>;

}  // namespace calib::detail

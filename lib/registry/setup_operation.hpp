// What the operations over one setup of their own share (metrics, recalibrate fit, recalibrate apply:
// operation.hpp): the setup's options taken from the given ones, the rest refused; and the configured
// operation holding the setup, whose table options (features) a front-end sets in memory.
#pragma once

#include <calib/operation.hpp>
#include <calib/registry.hpp>

#include <string>
#include <utility>

namespace calib::detail {

// `setup` with the given options set (set_given_options), every other given option refused in the
// words of its message_context (reject_unused: "recalibrate fit `method` temperature", as set).
template <class S>
S with_given_options(S setup, GivenOptions& given) {
    set_given_options(setup, given);
    reject_unused(given, {&setup}, message_context(setup));
    return setup;
}

template <class S>
class ConfiguredSetup : public ConfiguredOperation {
public:
    explicit ConfiguredSetup(S setup) : setup_(std::move(setup)) {}
    bool takes_table(const std::string& option) const override { return setup_.takes_table(option); }
    void set_table(const std::string& option, Matrix table) override { setup_.set_table(option, std::move(table)); }

protected:
    S setup_;
};

}  // namespace calib::detail

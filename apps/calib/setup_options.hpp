// The command line of the registry's setups (calib/registry.hpp): every option of a setup is
// --name-with-dashes, read from the arguments, checked by the library, and reported in the
// library's words with the command line's spelling of option names.
#pragma once

#include "args.hpp"

#include <calib/registry.hpp>

#include <string>
#include <vector>

namespace calib::cli {

// Adds the command-line specs of the options (a flag takes no value), once per name.
void add_option_specs(std::vector<OptionSpec>& specs, const std::vector<OptionInfo>& options);

// The arguments as the registry's GivenOptions (calib/registry.hpp): `block_size` is --block-size, a
// flag is true when given. What the registry throws is printed with the command line's spelling of
// option names (main.cpp).
class ArgumentOptions : public GivenOptions {
public:
    explicit ArgumentOptions(Args& args) : args_(args) {}
    std::optional<Value> take(const OptionInfo& option) override;
    std::vector<std::string> left() const override;

private:
    Args& args_;
};

// set_given_options and reject_unused (calib/registry.hpp) on the arguments: a bad value is "option
// --x = 'v', must be ...", a missing required option "missing option --x FORM", a given option that
// was not taken names the condition under which it applies, else "does not apply to <context>".
void take_setup_options(Args& args, Setup& setup);
void reject_unused(Args& args, const std::vector<const Setup*>& setups, const std::string& context);

// "a|b|c": the names of the methods, for messages.
std::string method_names(const std::vector<MethodInfo>& methods);

// The method named by the required option `option` (--estimator, --method), made by `make`, which throws
// for an unknown name, listing the known ones.
template <class Make>
auto take_method(Args& args, const std::string& option, const std::vector<MethodInfo>& methods, Make make) {
    return make(args.take_required(option, method_names(methods)));
}

// --preset NAME (calib/registry.hpp's presets), or nullptr when not given. Throws invalid_argument for
// an unknown name.
const Preset* take_preset(Args& args);

// A message of the library with its option names (`block_size`) written as the command line's.
std::string command_line_message(const std::string& message);

}  // namespace calib::cli

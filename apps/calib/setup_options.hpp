// The command line of the registry's setups (calib/registry.hpp): every option of a setup is
// --name-with-dashes, read from the arguments, checked by the library, and reported in the
// library's words with the command line's spelling of option names.
#pragma once

#include "args.hpp"
#include "usage_error.hpp"

#include <calib/registry.hpp>

#include <string>
#include <vector>

namespace calib::cli {

// Adds the command-line specs of the options (a flag takes no value), once per name.
void add_option_specs(std::vector<OptionSpec>& specs, const std::vector<OptionInfo>& options);

// Sets every option of `setup` that was given and applies, in the setup's order (so that a condition
// sees the options before it); a bad value is a usage_error "option --x = 'v', must be ...". Then
// a required option that is missing is a usage_error "missing option --x FORM", and setup.check()
// runs (its message rendered for the command line).
void take_setup_options(Args& args, Setup& setup);

// Throws usage_error naming the first given option that was not taken: with the condition under which
// it applies when one of `setups` has it, else "does not apply to <context>".
void reject_unused(const Args& args, const std::vector<const Setup*>& setups, const std::string& context);

// "a|b|c": the names of the methods, for messages.
std::string method_names(const std::vector<MethodInfo>& methods);

// The method named by the required option `option` (--estimator, --method), made by `make`, which throws
// for an unknown name, listing the known ones; a method of class predictions on another family throws
// check_classes's message.
template <class Make>
auto take_method(Args& args, const std::string& option, const std::vector<MethodInfo>& methods,
                 const FamilyInfo& family, Make make) {
    const std::string name = args.take_required(option, method_names(methods));
    for (const MethodInfo& m : methods)
        if (m.name == name && m.classes_only) check_classes("`" + option + "` " + name, family);
    return make(name);
}

// --preset NAME (calib/registry.hpp's presets), or nullptr when not given. Throws usage_error for an
// unknown name or a family its table was not computed for.
const Preset* take_preset(Args& args, const FamilyInfo& family);

// A message of the library with its option names (`block_size`) written as the command line's.
std::string command_line_message(const std::string& message);

}  // namespace calib::cli

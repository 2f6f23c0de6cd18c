// The registry's options on the command line (setup_options.hpp).
#include "setup_options.hpp"

#include <algorithm>

namespace calib::cli {

void add_option_specs(std::vector<OptionSpec>& specs, const std::vector<OptionInfo>& options) {
    for (const OptionInfo& o : options) {
        const std::string name = option_name(o.name, NameStyle::command_line).substr(2);
        if (std::none_of(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; }))
            specs.push_back({name, !o.metavar.empty(), "", o.metavar == "FILE"});
    }
}

std::string method_names(const std::vector<MethodInfo>& methods) {
    std::string names;
    for (const MethodInfo& m : methods) names += (names.empty() ? "" : "|") + m.name;
    return names;
}

std::string command_line_message(const std::string& message) {
    return render_message(message, NameStyle::command_line);
}

std::optional<Value> ArgumentOptions::take(const OptionInfo& option) {
    const std::string name = option_name(option.name, NameStyle::command_line).substr(2);
    if (!args_.has(name)) return std::nullopt;
    return option.metavar.empty() ? Value(args_.take_flag(name)) : Value(*args_.take(name));
}

std::vector<std::string> ArgumentOptions::left() const {
    std::vector<std::string> names = args_.unused();
    for (std::string& name : names) std::replace(name.begin(), name.end(), '-', '_');
    return names;
}

void take_setup_options(Args& args, Setup& setup) {
    ArgumentOptions given(args);
    set_given_options(setup, given);
}

void reject_unused(Args& args, const std::vector<const Setup*>& setups, const std::string& context) {
    calib::reject_unused(ArgumentOptions(args), setups, context);
}

const Preset* take_preset(Args& args) {
    const std::optional<std::string> name = args.take("preset");
    return name ? &find_preset(*name) : nullptr;
}

}  // namespace calib::cli

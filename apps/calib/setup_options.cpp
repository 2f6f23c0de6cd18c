// The registry's options on the command line (setup_options.hpp).
#include "setup_options.hpp"

#include "usage_error.hpp"

#include <algorithm>

namespace calib::cli {

void add_option_specs(std::vector<OptionSpec>& specs, const std::vector<OptionInfo>& options) {
    for (const OptionInfo& o : options) {
        const std::string name = option_name(o.name, NameStyle::command_line).substr(2);
        if (std::none_of(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; }))
            specs.push_back({name, !o.metavar.empty()});
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

void take_setup_options(Args& args, Setup& setup) {
    try {
        setup.set_given([&](const OptionInfo& o) -> std::optional<Value> {
            const std::string name = option_name(o.name, NameStyle::command_line).substr(2);
            if (!args.has(name)) return std::nullopt;
            return o.metavar.empty() ? Value(args.take_flag(name)) : Value(*args.take(name));
        });
    } catch (const option_error& e) {
        throw usage_error(command_line_message(e.what()));
    }
    if (const OptionInfo* o = setup.missing()) throw usage_error(command_line_message(missing_option_message(*o)));
    try {
        setup.check();
    } catch (const invalid_argument& e) {
        throw usage_error(command_line_message(e.what()));
    }
}

const Preset* take_preset(Args& args, const FamilyInfo& family) {
    const std::optional<std::string> name = args.take("preset");
    if (!name) return nullptr;
    const Preset& preset = find_preset(*name);
    check_preset_family(preset, family);
    return &preset;
}

void reject_unused(const Args& args, const std::vector<const Setup*>& setups, const std::string& context) {
    for (std::string name : args.unused()) {
        std::replace(name.begin(), name.end(), '-', '_');
        throw usage_error(command_line_message(unused_option_message(name, setups, context)));
    }
}

}  // namespace calib::cli

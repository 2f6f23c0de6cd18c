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
    for (const OptionInfo& o : setup.options()) {
        const std::string name = option_name(o.name, NameStyle::command_line).substr(2);
        if (!args.has(name) || !setup.applies(o.name)) continue;
        const Value value = o.metavar.empty() ? Value(args.take_flag(name)) : Value(*args.take(name));
        try {
            setup.set(o.name, value);
        } catch (const option_error& e) {
            throw usage_error("option --" + name + " = " + e.value() + ", must be " + e.rule());
        }
    }
    for (const OptionInfo& o : setup.options())
        if (o.required && setup.applies(o.name) && !setup.given(o.name))
            throw usage_error("missing option " + option_name(o.name, NameStyle::command_line) + " " + o.metavar +
                              " (see 'calib " + args.command() + " --help')");
    try {
        setup.check();
    } catch (const invalid_argument& e) {
        throw usage_error(command_line_message(e.what()));
    }
}

void reject_unused(const Args& args, const std::vector<const Setup*>& setups, const std::string& context) {
    for (const std::string& name : args.unused()) {
        std::string snake = name;
        std::replace(snake.begin(), snake.end(), '-', '_');
        for (const Setup* s : setups)
            if (const OptionInfo* o = s ? s->option(snake) : nullptr) {
                const Condition& c = o->condition;
                std::string now;  // the value that fails the condition
                if (!c.values.empty() && c.values != std::vector<std::string>{"false"} && s->applies(c.option)) now = ", not " + to_text(s->get(c.option));
                throw usage_error("option --" + name + " " + command_line_message(describe_condition(c)) + now +
                                  " (" + context + ")");
            }
        throw usage_error("option --" + name + " does not apply to " + context);
    }
}

}  // namespace calib::cli

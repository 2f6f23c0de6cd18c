// Tokenising and checking the options of a subcommand (args.hpp).
#include "args.hpp"

#include "usage_error.hpp"

namespace calib::cli {

namespace {
const OptionSpec* spec_of(const std::vector<OptionSpec>& known, const std::string& name) {
    for (const OptionSpec& spec : known)
        if (spec.name == name) return &spec;
    return nullptr;
}
}  // namespace

Args::Args(const std::vector<std::string>& arguments, const std::vector<OptionSpec>& known,
           const std::string& command)
    : command_(command) {
    const std::string see = " (see 'calib " + command + " --help')";
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& argument = arguments[i];
        if (argument.size() < 3 || argument.compare(0, 2, "--") != 0)
            throw usage_error("unexpected argument '" + argument + "'" + see);
        const std::size_t equals = argument.find('=');
        const std::string typed = argument.substr(2, equals == std::string::npos ? equals : equals - 2);
        const OptionSpec* spec = spec_of(known, typed);
        if (!spec) throw usage_error("unknown option --" + typed + see);
        const std::string name = spec->alias_of.empty() ? typed : spec->alias_of;
        if (find(name))
            throw usage_error("option --" + typed + " given twice" +
                              (name == typed ? "" : " (--" + typed + " is another name for --" + name + ")"));
        std::string value;
        if (!spec->takes_value) {
            if (equals != std::string::npos)
                throw usage_error("option --" + typed + " is a flag and takes no value");
        } else if (equals != std::string::npos) {
            value = argument.substr(equals + 1);
        } else {
            // A following option is never taken as a value: "--input --family x" lacks a file.
            if (i + 1 == arguments.size() || arguments[i + 1].compare(0, 2, "--") == 0)
                throw usage_error("option --" + typed + " needs a value" + see);
            value = arguments[++i];
        }
        if (spec->takes_value && value.empty())
            throw usage_error("option --" + typed + " has an empty value");
        given_.push_back(Given{name, value, false});
    }
}

Args::Given* Args::find(const std::string& name) {
    for (Given& g : given_)
        if (g.name == name) return &g;
    return nullptr;
}

const Args::Given* Args::find(const std::string& name) const {
    for (const Given& g : given_)
        if (g.name == name) return &g;
    return nullptr;
}

bool Args::has(const std::string& name) const { return find(name) != nullptr; }

std::optional<std::string> Args::take(const std::string& name) {
    Given* g = find(name);
    if (!g) return std::nullopt;
    g->used = true;
    return g->value;
}

std::string Args::take(const std::string& name, const std::string& fallback) {
    return take(name).value_or(fallback);
}

bool Args::take_flag(const std::string& name) { return take(name).has_value(); }

std::string Args::take_required(const std::string& name, const std::string& choices) {
    if (auto value = take(name)) return *value;
    throw usage_error("missing option --" + name + " " + choices + " (see 'calib " + command_ +
                      " --help')");
}

std::vector<std::string> Args::unused() const {
    std::vector<std::string> names;
    for (const Given& g : given_)
        if (!g.used) names.push_back(g.name);
    return names;
}

bool wants_help(const std::vector<std::string>& arguments) {
    for (const std::string& argument : arguments)
        if (argument == "--help" || argument == "-h") return true;
    return false;
}

}  // namespace calib::cli

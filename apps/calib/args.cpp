// Tokenising and checking the options of a subcommand (args.hpp).
#include "args.hpp"

#include "usage_error.hpp"

#include <algorithm>

namespace calib::cli {

namespace {
const OptionSpec* spec_of(const std::vector<OptionSpec>& known, const std::string& name) {
    for (const OptionSpec& spec : known)
        if (spec.name == name) return &spec;
    return nullptr;
}

// The edit distance (insertions, deletions, substitutions) between two option names.
std::size_t distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// " (did you mean --out?)" for a mistyped or another command's name of an option: the known option
// nearest by edit distance (at most 2, or a prefix of the other: --output for --out), else "".
std::string suggestion(const std::vector<OptionSpec>& known, const std::string& typed) {
    const std::string* best = nullptr;
    std::size_t best_distance = 3;
    for (const OptionSpec& spec : known) {
        const bool prefix = spec.name.size() >= 3 && typed.size() >= 3 &&
                            (typed.rfind(spec.name, 0) == 0 || spec.name.rfind(typed, 0) == 0);
        const std::size_t d = prefix ? 1 : distance(typed, spec.name);
        if (d < best_distance) best = &spec.name, best_distance = d;
    }
    return best ? " (did you mean --" + *best + "?)" : "";
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
        if (!spec) throw usage_error("unknown option --" + typed + suggestion(known, typed) + see);
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
        given_.push_back(Given{name, value, false, spec->names_file});
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

std::vector<FileOption> Args::given_files() const {
    std::vector<FileOption> files;
    for (const Given& g : given_) {
        if (!g.names_file) continue;
        std::string option = g.name;
        std::replace(option.begin(), option.end(), '-', '_');
        files.push_back({option, g.value});
    }
    return files;
}

bool wants_help(const std::vector<std::string>& arguments) {
    for (const std::string& argument : arguments)
        if (argument == "--help" || argument == "-h") return true;
    return false;
}

}  // namespace calib::cli

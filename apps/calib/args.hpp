// Command-line options of one subcommand: `--name value`, `--name=value` or a flag `--name`.
// Commands take the options they use; whatever is left was given but does not apply, which is an
// error rather than something silently ignored.
#pragma once

#include <calib/io.hpp>

#include <optional>
#include <string>
#include <vector>

namespace calib::cli {

struct OptionSpec {
    std::string name;  // without the leading "--"
    bool takes_value;
    std::string alias_of = {};  // another name of that option (--targets of --labels)
    bool names_file = false;    // its value is a FILE (read, or written by the command's output option)
};

class Args {
public:
    // Throws usage_error on an unknown option, a missing value, a value given to a flag, an
    // option given twice, or a positional argument. `command` names the subcommand in messages.
    Args(const std::vector<std::string>& arguments, const std::vector<OptionSpec>& known,
         const std::string& command);

    bool has(const std::string& name) const;
    // The value of an option and marks it used; nullopt when it was not given.
    std::optional<std::string> take(const std::string& name);
    std::string take(const std::string& name, const std::string& fallback);
    // Whether a flag was given; marks it used.
    bool take_flag(const std::string& name);
    // Throws usage_error unless `name` was given.
    std::string take_required(const std::string& name, const std::string& choices);

    // The given options that were not taken, in the order given.
    std::vector<std::string> unused() const;
    // The given options whose value names a file (OptionSpec::names_file), taken or not, in the order
    // given, by their names in snake_case (`labels`), as the library's messages name options.
    std::vector<FileOption> given_files() const;

    const std::string& command() const { return command_; }

private:
    struct Given {
        std::string name, value;
        bool used = false, names_file = false;
    };
    Given* find(const std::string& name);
    const Given* find(const std::string& name) const;

    std::vector<Given> given_;
    std::string command_;
};

// Whether the arguments ask for help (--help or -h anywhere), checked before full parsing so
// that help works even next to a mistake.
bool wants_help(const std::vector<std::string>& arguments);

}  // namespace calib::cli

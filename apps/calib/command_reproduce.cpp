// `calib reproduce PRESET`: the command line's grammar of the operation `reproduce` (calib/operation.hpp):
// the preset comes first, and the family is categorical unless --family says binary.
#include "commands.hpp"

#include "args.hpp"
#include "usage_error.hpp"

#include <calib/operation.hpp>

#include <algorithm>

namespace calib::cli {

int run_reproduce(const std::vector<std::string>& arguments, Stage stage) {
    const Operation& reproduce = find_operation("reproduce");
    if (wants_help(arguments)) return run_operation(reproduce, arguments, stage);
    if (arguments.empty() || arguments.front().rfind("--", 0) == 0)
        throw usage_error("calib reproduce needs a preset first: calib reproduce NAME --input FILE (see 'calib reproduce --help')");
    std::vector<std::string> rest{"--preset", arguments.front()};
    rest.insert(rest.end(), arguments.begin() + 1, arguments.end());
    if (std::none_of(rest.begin(), rest.end(), [](const std::string& a) { return a == "--family" || a.rfind("--family=", 0) == 0; }))
        rest.insert(rest.begin(), {"--family", "categorical"});
    return run_operation(reproduce, rest, stage);
}

}  // namespace calib::cli

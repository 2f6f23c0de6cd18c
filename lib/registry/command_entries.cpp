// The options of each command beside its method's (calib/tool/command.hpp, CommandSetup): threads, the output
// format, the verdict's level, the report's and the recalibration files' options. Front-ends take them
// through the registry, so that their rules and messages are the library's, as for the methods' options.
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include <calib/operation.hpp>
#include <calib/parallel.hpp>
#include <calib/tool/command.hpp>

#include <cmath>

namespace calib {

namespace detail {

namespace {

using O = CommandOptions;

Option<O> file_option(std::string O::*member, const std::string& name, const std::string& help, bool required = false) {
    OptionInfo i = info(name, "FILE", "", help);
    i.required = required;
    return custom_option<O>(std::move(i), [member](O& o, const Value& v) { o.*member = text_value(v); },
                            [member](const O& o) { return Value(o.*member); });
}

Option<O> format_option(const std::vector<std::string>& formats, const std::string& help) {
    std::string metavar;
    for (const std::string& f : formats) metavar += (metavar.empty() ? "" : "|") + f;
    return custom_option<O>(info("format", metavar, formats.front(), help),
                            [formats](O& o, const Value& v) {
                                const std::string text = text_value(v);
                                if (std::find(formats.begin(), formats.end(), text) == formats.end())
                                    throw option_error("format", text, "one of " + one_of(formats));
                                o.format = text;
                            },
                            [](const O& o) { return Value(o.format); });
}

Option<O> threads_option(const std::string& help) {
    return integer_option(&O::threads,
                          info("threads", "N", "0",
                               "OpenMP threads, 0 = OMP_NUM_THREADS or all cores, at most 4 per processor (at least "
                               "64); " + help),
                          0, static_cast<std::uint64_t>(max_num_threads()));
}

Option<O> quiet_option() {
    return flag_option(&O::quiet, info("quiet", "", "", "no progress bar (it is drawn only on a terminal's stderr anyway)"));
}

// The options of one command, and its defaults.
std::pair<OptionList<O>, O> command_options(const std::string& command) {
    O defaults;
    const std::string same = "the result does not depend on it";
    const Option<O> json_or_table = format_option({"json", "table"}, "one JSON object or a readable table");
    if (command == "report") {
        defaults.format = "html";
        return {{threads_option(same), format_option({"html", "json"}, "the HTML page or the same numbers as one JSON object"),
                 quiet_option(),
                 file_option(&O::output, "output",
                             "the report (default report.html; with format json: standard output); written to a "
                             "temporary file and renamed, so an existing file is replaced whole or not at all")},
                defaults};
    }
    if (command == "recalibrate fit") {
        return {{threads_option("threads of the held-out bootstrap test (the fit is serial)"),
                 file_option(&O::out, "out", "where the map is written (JSON)", true)},
                defaults};
    }
    if (command == "recalibrate apply")  // the map, the features and the reading options are the operation's
        return {{file_option(&O::output, "output", ".npy (float64) or else CSV with a header line", true),
                 file_option(&O::intervals, "intervals",
                             "venn-abers maps: where each row's interval [lower, upper] of p_2 is written (.npy or "
                             "CSV, as --output)")},
                defaults};
    // Every operation (operation.hpp) has these; its own, such as test's `alpha`, are the operation's.
    if (is_operation(command)) {
        defaults.format = "json";
        return {{threads_option(same), json_or_table, quiet_option()}, defaults};
    }
    throw invalid_argument("unknown command '" + command +
                           "', expected estimate, test, rank, metrics, reproduce, report, recalibrate fit or "
                           "recalibrate apply");
}

}  // namespace

}  // namespace detail

CommandSetup::CommandSetup(const std::string& command)
    : Setup([&] {
          auto [options, defaults] = detail::command_options(command);
          return std::make_shared<detail::OptionsEntry<CommandOptions>>(
              MethodInfo{command, "the options of calib " + command, command, false}, std::move(options), std::move(defaults));
      }()) {}

const CommandOptions& CommandSetup::values() const {
    return static_cast<const detail::OptionsEntry<CommandOptions>&>(*model_).values();
}

}  // namespace calib

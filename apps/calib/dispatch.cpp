// The subcommand named by the first argument, or the program's own --help and --version.
#include "commands.hpp"
#include "processes.hpp"
#include "usage_error.hpp"

#include <calib/operation.hpp>
#include <calib/version.hpp>

#include <iostream>

namespace calib::cli {

int run_command(const std::vector<std::string>& arguments, Stage stage) {
    if (arguments.empty()) {  // a usage summary rather than an error line: nothing was asked yet
        std::cerr << main_usage << "Run 'calib --help' for the commands, or 'calib COMMAND --help' for its options.\n";
        return 2;
    }
    const std::string& command = arguments.front();
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << main_help();
        return 0;
    }
    if (command == "--version") {
        std::cout << "calib " << calib::version << '\n';
        return 0;
    }
    // Only the operations whose work is split over MPI processes run on several; the other commands
    // would run alike on every rank, and each would write the same output files at once.
    const Processes* processes = run_processes();
    const bool several = processes && processes->size() > 1;
    const bool operation = is_operation(command);
    if (several && (operation ? !find_operation(command).info().spread_over_processes
                              : command == "recalibrate"))
        throw usage_error("calib " + command + " does not run on several MPI processes (only estimate and test are "
                          "spread over them); run it without mpirun, or with -np 1");
    if (command == "reproduce") return run_reproduce(rest, stage);  // its grammar: the preset first
    if (command == "report") return run_report(rest, stage);        // its page
    if (operation) return run_operation(find_operation(command), rest, stage);
    if (command == "recalibrate") return run_recalibrate(rest, stage);
    throw usage_error("unknown command '" + command + "' (see 'calib --help')");
}

}  // namespace calib::cli

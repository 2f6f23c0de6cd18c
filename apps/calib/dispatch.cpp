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
    // The operations are spread over MPI processes; the other commands are not: run alike on every rank,
    // each would write the same output files at once.
    if (is_operation(command)) return run_operation(find_operation(command), rest, stage);
    const Processes* processes = run_processes();
    if (processes && processes->size() > 1 && (command == "rank" || command == "report" || command == "recalibrate" ||
                                                command == "metrics" || command == "reproduce"))
        throw usage_error("calib " + command + " does not run on several MPI processes (only estimate and test are "
                          "spread over them); run it without mpirun, or with -np 1");
    if (command == "rank") return run_rank(rest, stage);
    if (command == "report") return run_report(rest, stage);
    if (command == "recalibrate") return run_recalibrate(rest, stage);
    if (command == "metrics") return run_metrics(rest, stage);
    if (command == "reproduce") return run_reproduce(rest, stage);
    throw usage_error("unknown command '" + command + "' (see 'calib --help')");
}

}  // namespace calib::cli

// Entry point of `calib`: dispatches to a subcommand and turns every exception into one line on
// stderr with exit code 2 (usage or input error, an output that cannot be written, or a numerical
// failure on the user's data) or 1 (internal failure).
#include "commands.hpp"
#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/options.hpp>

#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace {

int report(const char* message, int code) {
    std::cerr << "calib: " << message << '\n';
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const int code = calib::cli::run_command(std::vector<std::string>(argv + 1, argv + argc));
        // A result that did not reach its reader (full disk, closed pipe) is not a success.
        if (!std::cout.flush()) return report("standard output: cannot be written (a full disk or a closed pipe)", 2);
        return code;
    } catch (const calib::cli::usage_error& e) {
        return report(e.what(), 2);
    } catch (const calib::invalid_argument& e) {
        return report(calib::render_message(e.what(), calib::NameStyle::command_line).c_str(), 2);
    } catch (const calib::numerical_error& e) {
        // A property of the user's data (e.g. a singular covariance), not a failure of calib.
        return report(calib::render_message(e.what(), calib::NameStyle::command_line).c_str(), 2);
    } catch (const std::bad_alloc&) {
        return report("out of memory", 1);
    } catch (const std::exception& e) {
        return report((std::string("internal error: ") + e.what()).c_str(), 1);
    } catch (...) {
        return report("internal error: unknown exception", 1);
    }
}

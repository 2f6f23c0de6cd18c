// The options of calib's commands beside their methods' and the reading options (threads, the output
// format, the progress bar, the report's and the recalibration files' options): the front-ends' own
// state, described once so that the command line and the Python module take them with the library's
// rules and words. Not installed (calib/tool/ is not): a program using the library has its own.
#pragma once

#include <calib/registry.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace calib {

// The options of a command beside its method's and the reading options, described once for every
// front-end (the command line's subcommands; Python's functions take threads). The options of an
// operation (calib/operation.hpp) are its own, not these.
struct CommandOptions {
    int threads = 0;                     // every command but recalibrate apply; 0: OMP_NUM_THREADS or all cores
    std::string format;                  // json|table; report: html|json
    bool quiet = false;                  // no progress bar
    std::string output;                  // report: its file; recalibrate apply: the output file
    std::string out;                     // recalibrate fit: the map file
    std::string intervals;               // recalibrate apply: a venn-abers map's intervals file (optional)
};
class CommandSetup : public Setup {
public:
    // "estimate", "test", "rank", "metrics", "reproduce", "report", "recalibrate fit", "recalibrate apply";
    // another name throws invalid_argument.
    explicit CommandSetup(const std::string& command);
    const CommandOptions& values() const;
};

}  // namespace calib

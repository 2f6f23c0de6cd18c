// Options shared by the analysis subcommands (`calib estimate`, and `calib test` to come): the
// input file and its family, the reading flags, and the thread count.
#pragma once

#include "args.hpp"
#include "dataset.hpp"

#include <calib/io.hpp>

#include <string>
#include <vector>

namespace calib::cli {

struct InputOptions {
    Family family = Family::categorical;
    std::string path;
    CsvReadOptions csv;
};

// --family, --input, --one-based-labels, --logits, --threads, --help.
extern const std::vector<OptionSpec> shared_option_specs;

// Takes --family and --input (both required) and the reading flags, which apply only to
// categorical data. Throws usage_error.
InputOptions take_input_options(Args& args);

// --threads N (default 0: OpenMP's default, OMP_NUM_THREADS or all cores).
int take_threads(Args& args);
// The number of threads a library call will use for a request of `requested` (0: the default).
int resolved_threads(int requested);

}  // namespace calib::cli

// Options shared by the analysis subcommands (`calib estimate`, `calib test`, `calib rank`): the
// input files and how to read them, the thread count and the block size.
#pragma once

#include "args.hpp"
#include "dataset.hpp"

#include <calib/io.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace calib::cli {

struct InputOptions {
    Family family = Family::categorical;
    std::string path;
    ReadOptions read;
};

// --family, --input, the reading options (reading_option_specs), --threads, --quiet, --help.
extern const std::vector<OptionSpec> shared_option_specs;
// --labels/--targets, --header, --delimiter, --one-based-labels, --logits, --simplex-tolerance,
// --renormalize.
extern const std::vector<OptionSpec> reading_option_specs;

// Takes --family and --input (both required) and the reading options. Throws usage_error.
InputOptions take_input_options(Args& args);
// Takes the reading options for data of `family`; the categorical and simplex options are rejected
// for families they do not apply to.
ReadOptions take_reading_options(Args& args, Family family);

// --threads N in [0, calib::max_num_threads()] (default 0: OpenMP's default, OMP_NUM_THREADS or
// all cores).
int take_threads(Args& args);

// --block-size B|sqrt: a given B >= 2, or sqrt = max(2, floor(sqrt(n))) once n is known.
struct BlockSizeChoice {
    std::optional<std::size_t> given;  // empty: sqrt
    std::size_t resolve(std::size_t n) const;
    const char* rule() const { return given ? "given" : "sqrt"; }
};
// Takes --block-size, or uses `fallback` when it is absent (nullptr: the option is required).
BlockSizeChoice take_block_size(Args& args, const char* fallback);

}  // namespace calib::cli

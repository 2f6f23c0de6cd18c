// The replicate runner of repro-ckce: tasks (cell, replicate) in parallel (OpenMP, dynamic), each on
// its own random stream calib::make_stream(seed, stream id of (experiment, cell, replicate)), the
// library called serially inside. Finished tasks are appended to `<name>-raw.csv` and listed in
// `<name>-raw.csv.done` as they complete, so that an interrupted run continues with --resume; the
// final raw file is rewritten sorted by (cell, replicate), hence the same for any thread count.
#pragma once

#include "report.hpp"

#include <calib/random.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace repro {

// One number of one task: its key (comma-separated key columns) and value.
struct RawRow {
    std::string key;
    double value = 0;
};

struct RawEntry {
    std::size_t cell = 0, rep = 0;
    std::string key;
    double value = 0;
};

struct Experiment {
    std::string name;        // file prefix, e.g. "ckce-comparison"
    int id = 0;              // part of the stream id
    std::string key_header;  // the key columns, e.g. "model,metric"
    std::size_t cells = 0, reps = 0;
    std::string signature;   // the parameters; --resume refuses a different one
};

using Task = std::function<std::vector<RawRow>(std::size_t cell, std::size_t rep, calib::Rng& rng)>;

// Runs every task not yet done and returns all entries sorted by (cell, replicate, row). Throws
// std::runtime_error on unreadable or mismatching resume files.
std::vector<RawEntry> run_tasks(const RunContext& ctx, const Experiment& experiment, const Task& task);

}  // namespace repro

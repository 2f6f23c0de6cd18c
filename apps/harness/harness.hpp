// The shared harness of the reproduction apps (build/bin/repro-*): command-line options (the common
// ones and an app's own), seeded per-(cell, replicate) random streams, parallel replicates, a
// progress bar, long-format CSV output with a JSON sidecar, resumable cells, and resumable task
// grids (tasks.cpp) for experiments too long to lose to an interruption. Uses the public calib API
// only.
//
// Under MPI (make mpi, docs/scaling.md) the apps' loops over replicates are spread over the ranks
// by distribute (cluster.hpp); rank 0 alone decides --resume and writes the files.
//
// Determinism: replicate r of cell c draws only from calib::make_stream(seed, stream_id(c, r)) (or
// stream_id(e, c, r) in an app of several experiments), and writes its own row; rows are written in
// replicate order after the cell is complete. The CSVs therefore do not depend on the thread count
// or on scheduling (timings, which do, go to separate *_times.csv files and to the sidecars).
#pragma once

#include <calib/calib.hpp>
#include <calib/tool/json.hpp>
#include <calib/tool/random.hpp>

#include "cluster.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace repro {

// An option of the app's own, with a value (e.g. repro-ckce's --only LIST). The app checks the
// value and throws UsageError when it is bad.
struct AppOption {
    std::string name;           // "--only"
    std::string value_name;     // "LIST", for --help
    std::string default_value;  // the value when the option is not given
    std::string help;           // one line for --help
};

// What an app tells the harness about itself.
struct AppInfo {
    std::string name;              // "repro-neurips2019"
    std::string summary;           // one line for --help
    std::string experiment;        // the paper's experiment, for the sidecar
    std::size_t paper_reps = 0;    // default --reps; 0: each experiment of the app has its own
    std::size_t quick_reps = 0;    // --reps under --quick
    std::uint64_t paper_seed = 0;  // default --seed
    std::string extra_help;        // more lines for --help (what the cells are, the outputs)
    std::vector<AppOption> options = {};  // the app's own options
};

struct Options {
    std::uint64_t seed = 0;
    std::size_t reps = 0;
    bool reps_given = false;
    bool quick = false;
    std::string out;      // output directory (created)
    int threads = 1;      // OpenMP threads over replicates (of the one process; under MPI with
                          // more than one rank, each rank runs one task at a time)
    bool resume = false;  // skip cells whose output exists with the same parameters
    bool progress = false;
    std::vector<std::string> command_line;
    std::map<std::string, std::string> app_options;  // AppInfo::options by name: given or default
};

// A usage error: main prints "NAME: message" and exits 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses --seed S, --reps N, --quick, --out DIR, --threads N, --resume, --quiet, --help and the
// app's own options. Without --reps, reps is paper_reps or quick_reps (0 when the app has none).
Options parse_options(int argc, char** argv, const AppInfo& info);

// Runs body(options) on every rank with the common error policy: a usage error or
// calib::invalid_argument prints one line (on rank 0) and returns 2, any other exception one line
// and returns 1. --help prints the usage and returns 0.
int run_app(int argc, char** argv, const AppInfo& info, const std::function<void(const Options&)>& body);

// The stream id of replicate `replicate` of cell `cell` (cell < 2^24, replicate < 2^40).
std::uint64_t stream_id(std::uint64_t cell, std::uint64_t replicate);
inline calib::Rng cell_stream(const Options& options, std::uint64_t cell, std::uint64_t replicate) {
    return calib::make_stream(options.seed, stream_id(cell, replicate));
}
// In an app of several experiments (repro-ckce): experiment << 48 | cell << 24 | replicate
// (experiment < 2^16, cell and replicate < 2^24).
std::uint64_t stream_id(std::uint64_t experiment, std::uint64_t cell, std::uint64_t replicate);

// A progress bar with an ETA on stderr, drawn only when enabled (stderr is a terminal and not
// --quiet). advance() is thread-safe and redraws at most every 0.2 s.
class Progress {
public:
    Progress(const Options& options, std::string label, std::size_t total);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    void advance(std::size_t count = 1);

private:
    void draw(bool final);
    bool enabled_;
    std::string label_;
    std::size_t total_;
    std::atomic<std::size_t> done_{0};
    std::mutex mutex_;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

// body(r) for r = 0 … count − 1 on options.threads OpenMP threads of this process (dynamic
// schedule). The library is to be called serially inside (ParallelOptions{1}). The exception of
// the lowest failing replicate is rethrown after the loop.
void for_each_replicate(std::size_t count, const Options& options, Progress* progress,
                        const std::function<void(std::size_t)>& body);

// Who receives the results of distribute: rank 0 (it writes them), or every rank (a later step
// of every rank needs them, e.g. repro-iclr2021-friedman's trained networks).
enum class Gather { root, all };
// The collective loop of the apps: compute(r, result) for r = 0 … count − 1, each task on one
// rank (assigned dynamically: a free rank asks for the next task), then store(r, result) with the
// bytes compute put, on rank 0 (Gather::root) or on every rank (Gather::all), one call at a time,
// in any order of r. In one process, tasks run on options.threads threads and the progress bar
// advances per task. A task that throws is not stored; after the loop, the failure of the lowest
// failing task is raised on every rank (as cluster::RemoteFailure when it came from another rank).
// Defined by cluster_local.cpp and cluster_mpi.cpp.
void distribute(std::size_t count, const Options& options, Progress* progress,
                const std::function<void(std::size_t, Packet&)>& compute,
                const std::function<void(std::size_t, Packet&)>& store, Gather gather = Gather::root);

// distribute within this process alone, on options.threads threads (the one-rank case of both builds).
void distribute_locally(std::size_t count, const Options& options, Progress* progress,
                        const std::function<void(std::size_t, Packet&)>& compute,
                        const std::function<void(std::size_t, Packet&)>& store);

// What run_app prints for an exception, and the exit code (UsageError, calib::invalid_argument: 2).
cluster::Failure failure_of(std::exception_ptr error);

// Wall time of f() in seconds.
template <class F>
double time_call(F&& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CSV cells: numbers with %.10g (NaN as "nan"), strings as given (they must not contain commas).
std::string fmt(double value);
std::string fmt(std::size_t value);
std::string fmt(int value);
inline const std::string& fmt(const std::string& value) { return value; }
inline std::string fmt(const char* value) { return value; }
// A number with %.17g: it reads back bitwise (raw values that a resumed run reloads).
std::string fmt_exact(double value);

// A long-format table: a header and rows of cells.
class Table {
public:
    explicit Table(std::vector<std::string> columns);
    template <class... Cells>
    void add(const Cells&... cells) {
        add_row({std::string(fmt(cells))...});
    }
    void add_row(std::vector<std::string> row);
    std::size_t rows() const { return rows_.size(); }
    const std::vector<std::string>& columns() const { return columns_; }
    // Reserve n rows; set(i, row) then fills them in any order (from parallel replicates).
    void resize(std::size_t n);
    void set(std::size_t i, std::vector<std::string> row);
    template <class... Cells>
    static std::vector<std::string> row(const Cells&... cells) {
        return {std::string(fmt(cells))...};
    }
    std::string text() const;

private:
    std::vector<std::string> columns_;
    std::vector<std::vector<std::string>> rows_;
};

// A CSV read back (for summaries of cells skipped by --resume): columns by name.
class CsvFile {
public:
    explicit CsvFile(const std::string& path);
    std::size_t rows() const { return rows_.size(); }
    const std::string& cell(std::size_t row, const std::string& column) const;
    double number(std::size_t row, const std::string& column) const;
    std::vector<double> numbers(const std::string& column) const;

private:
    std::size_t index(const std::string& column) const;
    std::string path_;
    std::vector<std::string> columns_;
    std::vector<std::vector<std::string>> rows_;
};

// The JSON sidecar of an output file: the app, the experiment, the cell, the options (seed,
// replicates, quick, threads, ranks), the app's parameters, calib's version, the git revision, compiler,
// Eigen and Boost versions, the command line, the wall time, and the resume fingerprint.
calib::JsonObject sidecar(const Options& options, const AppInfo& info, const std::string& cell,
                          const calib::JsonObject& parameters, double wall_seconds);

// Output files: <out>/<name>.csv and <out>/<name>.meta.json, each written atomically (a temporary
// file renamed into place, the CSV last but one and the sidecar last), by rank 0 only.
class Output {
public:
    Output(const Options& options, const AppInfo& info);
    const Options& options() const { return options_; }
    std::string csv_path(const std::string& name) const;
    // The fingerprint of a cell: what must match for --resume to skip it.
    std::string fingerprint(const std::string& name, const calib::JsonObject& parameters) const;
    // With --resume: whether <name>.csv exists and its sidecar carries the same fingerprint, as
    // rank 0 sees it, on every rank (collective).
    bool done(const std::string& name, const calib::JsonObject& parameters) const;
    void write(const std::string& name, const Table& table, const calib::JsonObject& parameters,
               double wall_seconds) const;
    // Whether this rank writes the files and may read them back (rank 0): summaries of finished
    // cells run there only.
    bool writer() const { return cluster::root(); }
    // One line on stderr ("name: message") from rank 0, e.g. a cell skipped by --resume.
    void note(const std::string& message) const;

private:
    const Options& options_;
    const AppInfo& info_;
};

// ---- resumable task grids (tasks.cpp) ------------------------------------------------------------
// For an experiment whose replicates are long: cells × options.reps tasks, task (c, r) drawing from
// calib::make_stream(seed, stream_id(experiment, c, r)) and returning numbers by key. The result is
// <out>/<name>-raw.csv (cell,rep,<key columns>,value; values with fmt_exact) with its sidecar.
// While the grid runs, each finished task is appended to the journal <out>/<name>-raw.journal, so
// that --resume after an interruption runs only the unfinished tasks; the journal is removed once
// the raw CSV is written, and --resume then reads that CSV back instead of running any task. A
// journal written with other parameters stops --resume with an error rather than being discarded.
struct TaskGrid {
    std::string name;              // "ckce-comparison"
    std::uint64_t experiment = 0;  // the experiment part of the stream ids
    std::string key_columns;       // the columns of a key, e.g. "model,metric"
    std::size_t cells = 0;
};
struct TaskValue {  // one number of a task
    std::string key;  // comma-separated, one cell per key column
    double value = 0;
};
struct TaskRow {  // one row of the raw CSV
    std::size_t cell = 0, replicate = 0;
    std::string key;
    double value = 0;
};
using Task = std::function<std::vector<TaskValue>(std::size_t cell, std::size_t replicate, calib::Rng& rng)>;

// Runs the grid's unfinished tasks (distribute; task is called concurrently) and returns every row,
// ordered by (cell, replicate, the task's order), on every rank.
std::vector<TaskRow> run_tasks(const Output& output, const TaskGrid& grid, const calib::JsonObject& parameters,
                               const Task& task);

// Small statistics over a vector (NaNs are skipped by the counting helpers only where stated).
double mean(const std::vector<double>& x);
double variance(const std::vector<double>& x);  // divisor n − 1
double minimum(const std::vector<double>& x);
double maximum(const std::vector<double>& x);
double median(std::vector<double> x);

}  // namespace repro

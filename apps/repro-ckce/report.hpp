// Output pieces of repro-ckce: the run context, CSV files, the Wilson interval and the JSON sidecar
// (parameters, seed, calib version, git revision, compiler, threads, wall time).
#pragma once

#include <calib/json.hpp>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace repro {

struct RunContext {
    std::string out = "results/ckce";
    std::uint64_t seed = 0;
    int reps = 0;        // 0: each experiment's default
    bool quick = false;  // small grids and few replicates (for make test)
    int threads = 0;     // 0: OpenMP's default
    bool resume = false;
    bool progress = false;  // a progress bar on stderr (only when stderr is a terminal)

    int reps_or(int fallback) const { return reps > 0 ? reps : fallback; }
    int resolved_threads() const;
    std::string path(const std::string& file) const { return out + "/" + file; }
};

// Writes a CSV file (header line then rows); throws std::runtime_error when it cannot be written.
class CsvFile {
public:
    CsvFile(const std::string& path, const std::string& header);
    void row(const std::vector<std::string>& cells);
    void close();

private:
    std::string path_;
    std::ofstream out_;
};

// Numbers for the CSV files: %.17g (reads back bitwise); NaN (an empty bin) as "NaN".
std::string num(double x);

// Wilson score interval of a proportion s/N at the normal quantile z.
struct Interval {
    double lower = 0, upper = 0;
};
Interval wilson(double successes, double trials, double z = 1.959963984540054);

// The output of `git rev-parse HEAD` in the current directory, or "unknown".
std::string git_revision();

// Writes `<out>/<name>.json`: experiment, paper, description, parameters, seed, reps, quick,
// outputs, calib_version, git_revision, compiler, threads, wall_time_seconds.
void write_sidecar(const RunContext& ctx, const std::string& name, const std::string& description,
                   const calib::JsonObject& parameters, int reps, const std::vector<std::string>& outputs,
                   double seconds);

}  // namespace repro

// The replicate runner (runner.hpp).
#include "runner.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace repro {

namespace {

using TaskId = std::pair<std::size_t, std::size_t>;

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) out.push_back(cell);
    return out;
}

// The rows of finished tasks from an earlier run: those listed in the .done file.
std::map<TaskId, std::vector<RawRow>> load(const std::string& raw, const std::string& done, const std::string& signature) {
    std::map<TaskId, std::vector<RawRow>> out;
    std::ifstream d(done);
    if (!d) return out;
    std::string line;
    if (!std::getline(d, line) || line != "parameters: " + signature)
        throw std::runtime_error(done + " was written with other parameters (" + line.substr(0, 200) +
                                 "); rerun without --resume, or with the same options");
    std::set<TaskId> finished;
    while (std::getline(d, line)) {
        const auto cells = split(line);
        if (cells.size() == 2) finished.insert({std::stoul(cells[0]), std::stoul(cells[1])});
    }
    std::ifstream r(raw);
    std::getline(r, line);  // header
    while (std::getline(r, line)) {
        const auto cells = split(line);
        if (cells.size() < 3) continue;
        const TaskId id{std::stoul(cells[0]), std::stoul(cells[1])};
        if (!finished.count(id)) continue;  // a task that was interrupted: run again
        std::string key;
        for (std::size_t i = 2; i + 1 < cells.size(); ++i) key += (i > 2 ? "," : "") + cells[i];
        out[id].push_back({key, std::strtod(cells.back().c_str(), nullptr)});
    }
    for (const TaskId& id : finished)
        if (!out.count(id)) out[id];  // a finished task without rows
    return out;
}

void draw_progress(const std::string& name, std::size_t done, std::size_t total) {
    const std::size_t width = 30, filled = total ? width * done / total : width;
    std::fprintf(stderr, "\r%-18s [%s%s] %zu/%zu", name.c_str(), std::string(filled, '#').c_str(),
                 std::string(width - filled, ' ').c_str(), done, total);
    if (done == total) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

}  // namespace

std::vector<RawEntry> run_tasks(const RunContext& ctx, const Experiment& e, const Task& task) {
    const std::string raw = ctx.path(e.name + "-raw.csv"), done = raw + ".done";
    std::map<TaskId, std::vector<RawRow>> results;
    if (ctx.resume) results = load(raw, done, e.signature);
    std::vector<TaskId> pending;
    for (std::size_t c = 0; c < e.cells; ++c)
        for (std::size_t r = 0; r < e.reps; ++r)
            if (!results.count({c, r})) pending.push_back({c, r});

    // Rewrite the files with what is kept, then append as tasks finish.
    std::ofstream raw_out(raw), done_out(done);
    raw_out << "cell,rep," << e.key_header << ",value\n";
    done_out << "parameters: " << e.signature << '\n';
    for (const auto& [id, rows] : results) {
        for (const RawRow& row : rows) raw_out << id.first << ',' << id.second << ',' << row.key << ',' << num(row.value) << '\n';
        done_out << id.first << ',' << id.second << '\n';
    }
    raw_out.flush(), done_out.flush();
    if (!raw_out || !done_out) throw std::runtime_error("cannot write " + raw);

    const std::size_t total = e.cells * e.reps;
    std::size_t finished = results.size();
    if (ctx.progress) draw_progress(e.name, finished, total);
    std::mutex mutex;
    std::exception_ptr error;
    const int threads = ctx.resolved_threads();
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (std::size_t t = 0; t < pending.size(); ++t) {
        const auto [cell, rep] = pending[t];
        try {
            // Stream id: experiment in the top bits, then cell and replicate.
            calib::Rng rng = calib::make_stream(ctx.seed, (std::uint64_t(e.id) << 48) | (std::uint64_t(cell) << 24) | rep);
            std::vector<RawRow> rows = task(cell, rep, rng);
            const std::lock_guard<std::mutex> lock(mutex);
            for (const RawRow& row : rows) raw_out << cell << ',' << rep << ',' << row.key << ',' << num(row.value) << '\n';
            raw_out.flush();
            done_out << cell << ',' << rep << '\n';
            done_out.flush();
            results[{cell, rep}] = std::move(rows);
            if (ctx.progress) draw_progress(e.name, ++finished, total);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(mutex);
            if (!error) error = std::current_exception();
        }
    }
    if (error) std::rethrow_exception(error);

    raw_out.close();
    done_out.close();
    std::vector<RawEntry> entries;
    std::ofstream sorted(raw);
    sorted << "cell,rep," << e.key_header << ",value\n";
    for (const auto& [id, rows] : results)  // std::map: ordered by (cell, replicate)
        for (const RawRow& row : rows) {
            entries.push_back({id.first, id.second, row.key, row.value});
            sorted << id.first << ',' << id.second << ',' << row.key << ',' << num(row.value) << '\n';
        }
    if (!sorted) throw std::runtime_error("cannot write " + raw);
    return entries;
}

}  // namespace repro

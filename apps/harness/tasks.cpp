// Resumable task grids of the harness (harness.hpp, run_tasks).
#include "harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace repro {

namespace {

// The rows of one finished task, or of none yet.
struct Slot {
    bool finished = false;
    std::vector<TaskValue> values;
};

// The task (cell, replicate) that `line` begins with, in `format` ("%zu,%zu…%n"); false when the
// line does not parse or names no task of the grid. `used`: the characters read.
bool task_of(const char* format, const std::string& line, std::size_t cells, std::size_t reps, std::size_t& index,
             int& used) {
    std::size_t cell = 0, replicate = 0;
    used = 0;
    if (std::sscanf(line.c_str(), format, &cell, &replicate, &used) != 2 || used == 0) return false;
    if (cell >= cells || replicate >= reps) return false;
    index = cell * reps + replicate;
    return true;
}

// The journal of an interrupted run: "fingerprint: F", then per finished task its rows
// (cell,replicate,key…,value) followed by "done cell,replicate". A task without its "done" line,
// or a last line without its newline (both cut by the interruption), runs again.
void load_journal(const std::string& path, const std::string& fingerprint, std::size_t reps, std::vector<Slot>& slots) {
    std::ifstream in(path);
    if (!in) return;
    std::string line;
    if (!std::getline(in, line) || line != "fingerprint: " + fingerprint)
        throw std::runtime_error(path + " was written with other parameters; rerun with the same options, or "
                                        "without --resume (which discards it)");
    const std::size_t cells = slots.size() / reps;
    std::vector<std::vector<TaskValue>> rows(slots.size());
    std::size_t index = 0;
    int used = 0;
    while (std::getline(in, line) && !in.eof()) {
        if (task_of("done %zu,%zu%n", line, cells, reps, index, used)) {
            if (static_cast<std::size_t>(used) == line.size()) slots[index] = {true, std::move(rows[index])};
        } else if (task_of("%zu,%zu,%n", line, cells, reps, index, used)) {
            const std::size_t key = static_cast<std::size_t>(used), comma = line.rfind(',');
            if (comma < key) continue;
            char* end = nullptr;
            const double value = std::strtod(line.c_str() + comma + 1, &end);
            if (*end == '\0' && end != line.c_str() + comma + 1) rows[index].push_back({line.substr(key, comma - key), value});
        }
    }
}

std::string journal_rows(std::size_t cell, std::size_t replicate, const std::vector<TaskValue>& values) {
    std::ostringstream s;
    for (const TaskValue& v : values) s << cell << ',' << replicate << ',' << v.key << ',' << fmt_exact(v.value) << '\n';
    s << "done " << cell << ',' << replicate << '\n';
    return s.str();
}

// The rows on every rank: rank 0's, broadcast.
std::vector<TaskRow> share(std::vector<TaskRow> rows) {
    if (cluster::size() == 1) return rows;
    Packet packet;
    packet.put(static_cast<std::uint64_t>(rows.size()));
    for (const TaskRow& r : rows) {
        packet.put(static_cast<std::uint64_t>(r.cell));
        packet.put(static_cast<std::uint64_t>(r.replicate));
        packet.put(r.key);
        packet.put(r.value);
    }
    Packet shared(cluster::broadcast(packet.bytes()));
    rows.resize(shared.get_size());
    for (TaskRow& r : rows) {
        r.cell = shared.get_size();
        r.replicate = shared.get_size();
        r.key = shared.get_string();
        r.value = shared.get_double();
    }
    return rows;
}

}  // namespace

std::vector<TaskRow> run_tasks(const Output& output, const TaskGrid& grid, const calib::JsonObject& parameters,
                               const Task& task) {
    const Options& options = output.options();
    const std::string name = grid.name + "-raw";
    const std::size_t reps = options.reps, total = grid.cells * reps;
    if (reps == 0) throw std::logic_error("run_tasks: options.reps is 0");
    std::vector<TaskRow> rows;
    if (output.done(name, parameters)) {
        if (!output.writer()) return share(std::move(rows));
        const CsvFile raw(output.csv_path(name));
        for (std::size_t i = 0; i < raw.rows(); ++i) {
            TaskRow row{std::stoul(raw.cell(i, "cell")), std::stoul(raw.cell(i, "rep")), {}, raw.number(i, "value")};
            std::istringstream columns(grid.key_columns);
            for (std::string column; std::getline(columns, column, ',');)
                row.key += (row.key.empty() ? "" : ",") + raw.cell(i, column);
            rows.push_back(std::move(row));
        }
        return share(std::move(rows));
    }

    // Rank 0 keeps the journal: it rewrites it with what is kept, then appends tasks as they finish.
    const std::string journal = options.out + "/" + name + ".journal";
    const std::string fingerprint = output.fingerprint(name, parameters);
    std::vector<Slot> slots(total);
    std::ofstream log;
    Packet pending_tasks;
    if (output.writer()) {
        if (options.resume) load_journal(journal, fingerprint, reps, slots);
        // The kept tasks replace the journal whole (a kill here loses none of them), then new ones are appended.
        std::string kept = "fingerprint: " + fingerprint + "\n";
        for (std::size_t t = 0; t < total; ++t)
            if (slots[t].finished)
                kept += journal_rows(t / reps, t % reps, slots[t].values);
            else
                pending_tasks.put(static_cast<std::uint64_t>(t));
        calib::write_file(journal, kept);
        log.open(journal, std::ios::app);
        if (!log) throw std::runtime_error("cannot write " + journal);
    }
    // The unfinished tasks, as rank 0 found them, on every rank.
    Packet shared_tasks(cluster::broadcast(pending_tasks.bytes()));
    std::vector<std::size_t> pending(shared_tasks.bytes().size() / sizeof(std::uint64_t));
    for (std::size_t& t : pending) t = static_cast<std::size_t>(shared_tasks.get_size());

    const double wall = time_call([&] {
        Progress progress(options, grid.name, total);
        progress.advance(total - pending.size());
        distribute(
            pending.size(), options, &progress,
            [&](std::size_t p, Packet& result) {
                const std::size_t t = pending[p];
                calib::Rng rng = calib::make_stream(options.seed, stream_id(grid.experiment, t / reps, t % reps));
                const std::vector<TaskValue> values = task(t / reps, t % reps, rng);
                result.put(static_cast<std::uint64_t>(values.size()));
                for (const TaskValue& v : values) result.put(v.key), result.put(v.value);
            },
            [&](std::size_t p, Packet& result) {
                const std::size_t t = pending[p];
                std::vector<TaskValue> values(result.get_size());
                for (TaskValue& v : values) v.key = result.get_string(), v.value = result.get_double();
                log << journal_rows(t / reps, t % reps, values) << std::flush;
                if (!log) throw std::runtime_error("cannot write " + journal);
                slots[t] = {true, std::move(values)};
            });
    });
    if (!output.writer()) return share(std::move(rows));
    log.close();

    Table raw({"cell", "rep", grid.key_columns, "value"});  // the key columns as one cell, commas included
    for (std::size_t t = 0; t < total; ++t)
        for (TaskValue& v : slots[t].values) {
            raw.add(t / reps, t % reps, v.key, fmt_exact(v.value));
            rows.push_back({t / reps, t % reps, std::move(v.key), v.value});
        }
    output.write(name, raw, parameters, wall);
    std::remove(journal.c_str());
    return share(std::move(rows));
}

}  // namespace repro

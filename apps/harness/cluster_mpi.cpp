// The MPI build of cluster.hpp (make mpi): the ranks of MPI_COMM_WORLD. distribute is a task farm:
// rank 0 hands out task indices one at a time to the rank that returns a result, keeps every
// other rank supplied with `depth` tasks, computes tasks itself between serving messages, and
// stores the results; where a task runs does not change its bytes (it draws from its own stream).
// Only the main thread calls MPI (MPI_THREAD_FUNNELED).
#include "harness.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>

namespace repro {
namespace cluster {
namespace {

int world_rank = 0, world_size = 1;
constexpr int tag_task = 1, tag_stop = 2, tag_result = 3;
// Tasks a worker holds at once: the one it computes and the next, so that it does not wait for
// rank 0, which may be inside a task of its own, between two tasks.
constexpr int depth = 2;

int message_size(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX)) throw std::length_error("a task's result exceeds 2 GiB");
    return static_cast<int>(bytes);
}

}  // namespace

Session::Session(int& argc, char**& argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
}
Session::~Session() { MPI_Finalize(); }
int rank() { return world_rank; }
int size() { return world_size; }

bool broadcast(bool value) {
    int v = value ? 1 : 0;
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v != 0;
}

std::string broadcast(const std::string& bytes) {
    std::uint64_t size = bytes.size();
    MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    std::string out = world_rank == 0 ? bytes : std::string(size, '\0');
    for (std::uint64_t at = 0; at < size; at += INT_MAX) {  // in pieces an int can count
        const int piece = static_cast<int>(std::min<std::uint64_t>(INT_MAX, size - at));
        MPI_Bcast(out.data() + at, piece, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    return out;
}

void abort_job(int exit_code) {
    if (world_size > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
}

}  // namespace cluster

namespace {

// A result message: the task index, 0 (done: the task's bytes follow) or 1 (failed: the exit
// code and the line follow).
std::string run_task(std::uint64_t index, const std::function<void(std::size_t, Packet&)>& compute) {
    Packet head;
    head.put(index);
    Packet result;
    try {
        compute(static_cast<std::size_t>(index), result);
        head.put(std::uint64_t{0});
    } catch (...) {
        const cluster::Failure f = failure_of(std::current_exception());
        result = Packet();
        result.put(static_cast<std::uint64_t>(f.exit_code));
        result.put(f.line);
        head.put(std::uint64_t{1});
    }
    return head.bytes() + result.bytes();
}

void work(const std::function<void(std::size_t, Packet&)>& compute) {
    for (;;) {
        MPI_Status status;
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        if (status.MPI_TAG == cluster::tag_stop) {
            MPI_Recv(nullptr, 0, MPI_BYTE, 0, cluster::tag_stop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return;
        }
        std::uint64_t index = 0;
        MPI_Recv(&index, 1, MPI_UINT64_T, 0, cluster::tag_task, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const std::string message = run_task(index, compute);
        MPI_Send(message.data(), cluster::message_size(message.size()), MPI_BYTE, 0, cluster::tag_result, MPI_COMM_WORLD);
    }
}

// Rank 0's side: returns the failure of the lowest failing task (exit code 0: none).
cluster::Failure serve(std::size_t count, Progress* progress, const std::function<void(std::size_t, Packet&)>& compute,
                       const std::function<void(std::size_t, Packet&)>& store, std::vector<std::string>* kept) {
    std::size_t next = 0, finished = 0, lowest = count;
    cluster::Failure failure{0, {}, true};
    auto fail = [&](std::size_t index, cluster::Failure f) {
        if (index < lowest) lowest = index, failure = std::move(f);
    };
    auto handle = [&](const std::string& message) {
        Packet head(message.substr(0, 16));
        const std::size_t index = static_cast<std::size_t>(head.get_size());
        Packet result(message.substr(16));
        if (head.get_size() == 0) {
            if (kept) (*kept)[index] = result.bytes();
            try {
                store(index, result);
            } catch (...) {
                fail(index, failure_of(std::current_exception()));
            }
        } else {
            const int code = static_cast<int>(result.get_size());
            fail(index, {code, result.get_string(), true});
        }
        ++finished;
        if (progress) progress->advance();
    };
    auto give = [&](int worker) {
        const std::uint64_t index = next++;
        MPI_Send(&index, 1, MPI_UINT64_T, worker, cluster::tag_task, MPI_COMM_WORLD);
    };
    // One result from any worker (waiting for it, or only when one is there); false: none there.
    auto receive = [&](bool wait) {
        MPI_Status status;
        int there = 1;
        if (wait)
            MPI_Probe(MPI_ANY_SOURCE, cluster::tag_result, MPI_COMM_WORLD, &status);
        else
            MPI_Iprobe(MPI_ANY_SOURCE, cluster::tag_result, MPI_COMM_WORLD, &there, &status);
        if (!there) return false;
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        std::string message(static_cast<std::size_t>(bytes), '\0');
        MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, cluster::tag_result, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (next < count) give(status.MPI_SOURCE);  // the worker's next task first, then the bookkeeping
        handle(message);
        return true;
    };

    for (int k = 0; k < cluster::depth; ++k)
        for (int worker = 1; worker < cluster::size() && next < count; ++worker) give(worker);
    while (finished < count) {
        while (receive(false)) {
        }
        if (next < count)
            handle(run_task(next++, compute));
        else if (finished < count)
            receive(true);
    }
    for (int worker = 1; worker < cluster::size(); ++worker)
        MPI_Send(nullptr, 0, MPI_BYTE, worker, cluster::tag_stop, MPI_COMM_WORLD);
    return failure;
}

}  // namespace

void distribute(std::size_t count, const Options& options, Progress* progress,
                const std::function<void(std::size_t, Packet&)>& compute,
                const std::function<void(std::size_t, Packet&)>& store, Gather gather) {
    if (cluster::size() == 1) return distribute_locally(count, options, progress, compute, store);
    std::vector<std::string> kept(gather == Gather::all && cluster::root() ? count : 0);
    Packet outcome;
    if (cluster::root()) {
        const cluster::Failure f = serve(count, progress, compute, store, gather == Gather::all ? &kept : nullptr);
        outcome.put(static_cast<std::uint64_t>(f.exit_code));
        outcome.put(f.line);
    } else {
        work(compute);
    }
    // Every rank leaves the loop alike: with the lowest failing task's failure, or with the results.
    Packet shared(cluster::broadcast(outcome.bytes()));
    const int code = static_cast<int>(shared.get_size());
    if (code != 0) throw cluster::RemoteFailure({code, shared.get_string(), true});
    if (gather == Gather::all) {
        Packet all;
        if (cluster::root()) all.put(kept);
        Packet received(cluster::broadcast(all.bytes()));
        if (!cluster::root()) {
            const std::vector<std::string> results = received.get_strings();
            for (std::size_t r = 0; r < count; ++r) {
                Packet result(results[r]);
                store(r, result);
            }
        }
    }
}

}  // namespace repro

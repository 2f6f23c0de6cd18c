// How the reproduction apps spread their tasks over processes: the one process of the plain build
// (cluster_local.cpp) or the ranks of an MPI job (cluster_mpi.cpp, linked by `make mpi`). Nothing
// here names MPI, so the apps and the rest of the harness compile once for both builds.
//
// The model (docs/scaling.md): every rank runs the app's code from the start (SPMD), so every rank
// holds what a task needs; a loop over tasks (distribute) is collective, hands its tasks out one at
// a time to whichever rank is free (rank 0 serves the requests between tasks of its own), and
// brings each task's result to rank 0 as bytes (Packet). Rank 0 alone decides --resume, reads
// results back and writes files. A task draws only from its own stream, so where it runs does not
// change a byte of its result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace repro {

// A task's result in bytes: what is put is got back in the same order, bitwise.
class Packet {
public:
    Packet() = default;
    explicit Packet(std::string bytes) : bytes_(std::move(bytes)) {}
    void put(double value);
    void put(std::uint64_t value);
    void put(const std::string& value);
    void put(const std::vector<std::string>& values);
    void put(const std::vector<double>& values);
    double get_double();
    std::uint64_t get_size();
    std::string get_string();
    std::vector<std::string> get_strings();
    std::vector<double> get_doubles();
    const std::string& bytes() const { return bytes_; }

private:
    void read(void* to, std::size_t size);
    std::string bytes_;
    std::size_t read_ = 0;
};

namespace cluster {

// The process group for the lifetime of the app (MPI_Init_thread … MPI_Finalize under MPI).
class Session {
public:
    Session(int& argc, char**& argv);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
};

int rank();
int size();
inline bool root() { return rank() == 0; }

// Rank 0's value, on every rank.
bool broadcast(bool value);
std::string broadcast(const std::string& bytes);

// How the run ends: one line for stderr (without the app's name) and the exit code.
struct Failure {
    int exit_code = 1;
    std::string line;
    bool everywhere = false;  // raised on every rank (by distribute)
};
// A failure that happened on another rank, raised again on every rank.
struct RemoteFailure : std::exception {
    explicit RemoteFailure(Failure f) : failure(std::move(f)) {}
    const char* what() const noexcept override { return failure.line.c_str(); }
    Failure failure;
};
// Ends the whole job after an internal failure (exit code 1) that other ranks may not share and
// would wait for (MPI_Abort); nothing in the one-process build.
void abort_job(int exit_code);

}  // namespace cluster
}  // namespace repro

// The processes `calib` runs on: this one (processes_local.cpp, the plain build) or the ranks of an
// MPI job (processes_mpi.cpp, `make mpi`; docs/scaling.md). Under MPI every rank runs the command
// alike on the same bytes of input, which rank 0 alone reads; the engine's pairwise sums are split
// over the ranks (calib::Processes), and only rank 0's output and messages are shown.
#pragma once

#include <calib/parallel.hpp>

#include <string>

namespace calib::cli {

// The processes for ParallelOptions::processes: none in the plain build.
const Processes* run_processes();

// A file (or "-", stdin) to read that rank 0 alone may see: rank 0 reads its bytes and sends them
// to every other rank, which reads them from a private copy (removed with this object). path() is
// what this rank's reader opens: the given path on rank 0 and in the plain build.
class SharedInput {
public:
    explicit SharedInput(const std::string& path);
    ~SharedInput();
    SharedInput(const SharedInput&) = delete;
    SharedInput& operator=(const SharedInput&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_, copy_;
};

}  // namespace calib::cli

// calib on MPI (optional: only programs built against MPI include this, e.g. `make mpi`'s calib).
// MpiProcesses is the calib::Processes of an MPI communicator: pass it in ParallelOptions::processes
// and every rank of the communicator, making the same call on the same data, computes its share of
// the engine's pairwise sums and receives the result of one process, bitwise (calib/parallel.hpp).
// Its definition (lib/core/processes_mpi.cpp) is compiled only by the MPI build; link it from there.
#pragma once

#include <calib/parallel.hpp>

#include <mpi.h>

namespace calib {

class MpiProcesses final : public Processes {
public:
    // The caller has initialised MPI and keeps `communicator` alive while this object is in use.
    explicit MpiProcesses(MPI_Comm communicator = MPI_COMM_WORLD);
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    // MPI_Allgatherv; throws std::runtime_error when it fails.
    std::vector<double> all_gather(const std::vector<double>& values,
                                   const std::vector<std::size_t>& counts) const override;

private:
    MPI_Comm communicator_;
    int rank_ = 0, size_ = 1;
};

}  // namespace calib

// calib::MpiProcesses (calib/mpi.hpp): compiled only by the MPI build (make mpi), never into
// libcalib.a, so that the library itself does not depend on MPI.
#include <calib/mpi.hpp>

#include <climits>
#include <stdexcept>
#include <string>

namespace calib {

MpiProcesses::MpiProcesses(MPI_Comm communicator) : communicator_(communicator) {
    MPI_Comm_rank(communicator_, &rank_);
    MPI_Comm_size(communicator_, &size_);
}

std::vector<double> MpiProcesses::all_gather(const std::vector<double>& values,
                                             const std::vector<std::size_t>& counts) const {
    std::vector<int> sizes(counts.size()), offsets(counts.size());
    std::size_t total = 0;
    for (std::size_t p = 0; p < counts.size(); ++p) {
        if (total + counts[p] > static_cast<std::size_t>(INT_MAX))
            throw std::runtime_error("calib::MpiProcesses::all_gather: " + std::to_string(total + counts[p]) +
                                  " values exceed MPI's int counts");
        sizes[p] = static_cast<int>(counts[p]);
        offsets[p] = static_cast<int>(total);
        total += counts[p];
    }
    std::vector<double> all(total);
    const int code = MPI_Allgatherv(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, all.data(), sizes.data(),
                                    offsets.data(), MPI_DOUBLE, communicator_);
    if (code != MPI_SUCCESS)
        throw std::runtime_error("calib::MpiProcesses::all_gather: MPI_Allgatherv failed (" + std::to_string(code) + ")");
    return all;
}

}  // namespace calib

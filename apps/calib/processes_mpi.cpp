// The MPI build of processes.hpp (make mpi): MPI is initialised before main() and finalised after
// it, every rank but 0 writes its stdout and stderr to /dev/null (each rank meets the same errors,
// so rank 0's line and exit code are the job's), and input files travel from rank 0 as bytes.
#include "processes.hpp"

#include <calib/io.hpp>
#include <calib/mpi.hpp>

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace calib::cli {
namespace {

struct Session {
    Session() {
        int provided = 0;
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);  // OpenMP inside a rank, MPI on its main thread
        processes.emplace(MPI_COMM_WORLD);
        if (processes->rank() != 0) {
            if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) std::abort();
        }
    }
    ~Session() {
        std::fflush(stdout);
        MPI_Finalize();
    }
    std::optional<MpiProcesses> processes;
};
const Session session;

// Rank 0's bytes (and whether it could read them) on every rank.
std::string broadcast(std::string bytes, bool& readable) {
    std::uint64_t size = bytes.size();
    int ok = readable ? 1 : 0;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    readable = ok != 0;
    bytes.resize(size);
    for (std::uint64_t at = 0; at < size; at += INT_MAX) {
        const int piece = static_cast<int>(std::min<std::uint64_t>(INT_MAX, size - at));
        MPI_Bcast(bytes.data() + at, piece, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    return bytes;
}

std::string private_copy(const std::string& bytes) {
    char name[] = "/tmp/calib-input-XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for the input");
    ::close(fd);
    write_file(name, bytes);
    return name;
}

}  // namespace

const Processes* run_processes() { return &*session.processes; }

SharedInput::SharedInput(const std::string& path) : path_(path) {
    if (path.empty() || session.processes->size() == 1) return;
    std::string bytes;
    bool readable = true;
    if (session.processes->rank() == 0) {
        if (path == "-") {  // stdin reaches rank 0 only: kept in a file that becomes rank 0's stdin again
            bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
            copy_ = private_copy(bytes);
            if (!std::freopen(copy_.c_str(), "r", stdin)) throw std::runtime_error("cannot reopen stdin");
            std::cin.clear();
        } else {
            std::ifstream in(path, std::ios::binary);
            readable = static_cast<bool>(in);
            if (readable) bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
    }
    bytes = broadcast(std::move(bytes), readable);
    if (session.processes->rank() == 0) return;
    // A file rank 0 could not read: an empty copy, which fails here as the file fails on rank 0.
    copy_ = private_copy(readable ? bytes : std::string());
    path_ = copy_;
}

SharedInput::~SharedInput() {
    if (!copy_.empty()) std::remove(copy_.c_str());
}

}  // namespace calib::cli

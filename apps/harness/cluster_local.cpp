// The one-process build of cluster.hpp: no MPI; distribute runs its tasks on the process's threads.
#include "harness.hpp"

namespace repro {
namespace cluster {

Session::Session(int&, char**&) {}
Session::~Session() = default;
int rank() { return 0; }
int size() { return 1; }
bool broadcast(bool value) { return value; }
std::string broadcast(const std::string& bytes) { return bytes; }
void abort_job(int) {}

}  // namespace cluster

void distribute(std::size_t count, const Options& options, Progress* progress,
                const std::function<void(std::size_t, Packet&)>& compute,
                const std::function<void(std::size_t, Packet&)>& store, Gather) {
    distribute_locally(count, options, progress, compute, store);
}

}  // namespace repro

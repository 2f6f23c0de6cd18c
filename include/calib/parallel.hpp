// Parallelism and progress reporting of a library call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace calib {

// Progress of a long computation, for a progress bar. The library calls start() when a stage of the
// computation begins (from the calling thread) and advance() as its work items complete (from any
// thread, concurrently), in the stage's own units (pairs, rows, replicates). An implementation must
// be thread-safe and cheap: it is called once per work item of thousands of pairs, never per pair.
// Progress never changes a result.
//
// stop_requested() lets the caller stop a call early (Python's Ctrl-C): the long stages ask it
// before each work item (from any thread, concurrently; it must be cheap), skip the items left once it
// is true, and at the end of the stage the call throws calib::cancelled. A call that finishes is
// never changed by it. Across ParallelOptions::processes every process must be asked alike (one
// process stopping alone would leave the others waiting in a collective).
class Progress {
public:
    virtual ~Progress() = default;
    virtual void start(const char* stage, std::uint64_t total) = 0;
    virtual void advance(std::uint64_t amount) = 0;
    virtual bool stop_requested() const { return false; }
};

// The processes one call is spread over (the ranks of an MPI job: calib/mpi.hpp, `make mpi`). Every
// process makes the same call on the same data. The engine's pairwise sums (the SKCE estimates,
// the Gamma and block tests, the sums of the spectral and bootstrap tests) split their fixed work
// items over the processes, item k on process k mod size (items late in the triangle are smaller,
// so neighbours go to different processes), gather every item's partial sums on every process and
// combine them in item order; the bootstrap's passes of 256 replicates are split the same way and
// each replicate's forms gathered; the exact median heuristic's passes over the pairs sum their
// histograms over the processes. Every process gets the bits of a one-process call. Other work of
// the call (the spectral test's matrix, a cached Gram matrix) is done by every process alike.
class Processes {
public:
    virtual ~Processes() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // The concatenation, in process order, of every process's `values` (process p gives counts[p]
    // of them), on every process. Collective: every process calls it with the same counts.
    virtual std::vector<double> all_gather(const std::vector<double>& values,
                                           const std::vector<std::size_t>& counts) const = 0;
};

// num_threads = 0 uses OpenMP's default (OMP_NUM_THREADS or all cores); inside an enclosing parallel
// region the call runs serially. Results never depend on it. `progress` (not owned) receives the
// progress of the call's long stages.
// `processes` (not owned): the processes the call is spread over, or none (this process alone).
struct ParallelOptions {
    int num_threads = 0;
    Progress* progress = nullptr;
    const Processes* processes = nullptr;
};

// The largest num_threads accepted: 4 per processor OpenMP sees, at least 64, and never above
// OpenMP's thread limit (OMP_THREAD_LIMIT). A larger team cannot run faster and can exhaust OpenMP's
// stack or memory, so larger requests are refused rather than attempted.
int max_num_threads();

// The number of threads a call with `num_threads` uses: num_threads itself, or for 0 OpenMP's
// default (OMP_NUM_THREADS or all cores) capped at max_num_threads(). Throws calib::invalid_argument
// if num_threads < 0 or > max_num_threads(). Every library call resolves its options through here.
int resolve_num_threads(int num_threads);

}  // namespace calib

// ParallelOptions::processes (calib/parallel.hpp): the engine's pair sums, the bootstrap's passes and
// the exact median's selection split over processes give every process the bits of a one-process call. The processes here are threads of this test, each
// making the same call with its own rank; their all_gather meets at a barrier (what MPI_Allgatherv
// does between the ranks of `make mpi`, whose own checks are tests/mpi/run.sh).
#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace calib;

namespace {

// The meeting point of `size` simulated processes: all_gather returns when every one has given
// its values, concatenated in rank order.
class Board {
public:
    explicit Board(int size) : slots_(static_cast<std::size_t>(size)) {}
    std::vector<double> gather(int rank, const std::vector<double>& values) {
        std::unique_lock<std::mutex> lock(mutex_);
        const std::size_t round = round_;
        slots_[static_cast<std::size_t>(rank)] = values;
        if (++arrived_ == slots_.size()) {
            result_.clear();
            for (const auto& s : slots_) result_.insert(result_.end(), s.begin(), s.end());
            arrived_ = 0;
            ++round_;
            changed_.notify_all();
        } else {
            changed_.wait(lock, [&] { return round_ != round; });
        }
        return result_;  // read before anyone can start the next round: it needs this lock and all ranks
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::vector<double>> slots_;
    std::vector<double> result_;
    std::size_t arrived_ = 0, round_ = 0;
};

class ThreadProcesses final : public Processes {
public:
    ThreadProcesses(Board& board, int rank, int size) : board_(board), rank_(rank), size_(size) {}
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    std::vector<double> all_gather(const std::vector<double>& values, const std::vector<std::size_t>& counts) const override {
        REQUIRE(counts.size() == static_cast<std::size_t>(size_));
        REQUIRE(values.size() == counts[static_cast<std::size_t>(rank_)]);
        mine += values.size();
        return board_.gather(rank_, values);
    }
    mutable std::size_t mine = 0;  // the values this process computed and gave

private:
    Board& board_;
    int rank_, size_;
};

// f(parallel) on `size` simulated processes at once; each one's result.
std::vector<double> on_processes(int size, const std::function<double(const ParallelOptions&)>& f,
                                 std::vector<std::size_t>* given = nullptr) {
    Board board(size);
    std::vector<ThreadProcesses> processes;
    for (int r = 0; r < size; ++r) processes.emplace_back(board, r, size);
    std::vector<double> results(static_cast<std::size_t>(size));
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r)
        threads.emplace_back([&, r] {
            const ParallelOptions parallel{1, nullptr, &processes[static_cast<std::size_t>(r)]};
            results[static_cast<std::size_t>(r)] = f(parallel);
        });
    for (auto& t : threads) t.join();
    if (given)
        for (const auto& p : processes) given->push_back(p.mine);
    return results;
}

}  // namespace

TEST_CASE("pair sums and the exact median split over processes are bitwise those of one process") {
    test::Rng rng(14);
    const CategoricalData data = synthetic::dirichlet_data(700, 4, 0.5, rng);  // 11 strips of 64 rows
    const Kernel kernel = default_kernel<CategoricalData>();
    const NormalData normal = test::normal_data(300, rng);
    std::vector<std::pair<std::string, std::function<double(const ParallelOptions&)>>> calls = {
        {"unbiased", [&](const ParallelOptions& p) { return skce_unbiased(data, kernel, p); }},
        {"biased", [&](const ParallelOptions& p) { return skce_biased(data, kernel, p); }},
        {"block 2", [&](const ParallelOptions& p) { return skce_block(data, kernel, 2, p).estimate; }},
        {"block 100", [&](const ParallelOptions& p) { return skce_block(data, kernel, 100, p).estimate; }},
        {"gamma", [&](const ParallelOptions& p) { return gamma_test(data, kernel, p).p_value; }},
        {"normal unbiased", [&](const ParallelOptions& p) { return skce_unbiased(normal, default_kernel<NormalData>(), p); }},
    };
    // The exact median heuristic: at n = 3000 (4.5·10⁶ pairs, above the 2²² it collects at once) a
    // histogram pass, then a collecting pass; the median over all n² ordered pairs too.
    const CategoricalData large = synthetic::dirichlet_data(3000, 4, 0.5, rng);
    for (const MedianVariant variant : {MedianVariant::pairs, MedianVariant::full})
        calls.emplace_back(std::string("median ") + (variant == MedianVariant::pairs ? "pairs" : "full"),
                           [&large, variant](const ParallelOptions& p) {
                               MedianOptions o = test::median_options(variant);
                               o.parallel = p;
                               return median_distance(large, Metric::tv, o);
                           });
    // The bootstrap: 600 replicates are 3 passes of 256, spread over the processes; Hᵤ cached or not.
    for (const auto& [budget, bytes] : {std::pair{"cached", std::size_t{1} << 30}, std::pair{"recomputed", std::size_t{4} << 20}}) {
        BootstrapOptions options;
        options.replicates = 600;
        options.seed = 5;
        options.memory_budget = bytes;
        calls.emplace_back(std::string("bootstrap p, H ") + budget, [&data, &kernel, options](const ParallelOptions& p) {
            BootstrapOptions o = options;
            o.parallel = p;
            return bootstrap_test(data, kernel, o).p_value;
        });
        calls.emplace_back(std::string("bootstrap statistic, H ") + budget, [&data, &kernel, options](const ParallelOptions& p) {
            BootstrapOptions o = options;
            o.parallel = p;
            return bootstrap_test(data, kernel, o).statistic;
        });
    }
    for (const auto& [name, call] : calls)
        for (int size : {1, 2, 3, 5}) {
            CAPTURE(name);
            CAPTURE(size);
            const double alone = call(ParallelOptions{1});
            std::vector<std::size_t> given;
            for (double r : on_processes(size, call, &given)) CHECK(r == alone);
            // The work was split: more than one process computed and gave a share (block 2 has
            // only 3 items, groups of 128 blocks, for 5 processes).
            if (size > 1) CHECK(std::count_if(given.begin(), given.end(), [](std::size_t g) { return g > 0; }) >= 2);
        }
}

TEST_CASE("inside a parallel region the engine does not split over processes") {
    // Another thread's call might be in another engine pass; each call then computes every item.
    test::Rng rng(15);
    const CategoricalData data = synthetic::dirichlet_data(300, 3, 0.5, rng);
    const Kernel kernel = default_kernel<CategoricalData>();
    Board board(2);
    const ThreadProcesses half(board, 0, 2);  // would wait forever for rank 1 if it were used
    double inside = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        inside = skce_unbiased(data, kernel, ParallelOptions{1, nullptr, &half});
    }
    CHECK(inside == skce_unbiased(data, kernel, ParallelOptions{1}));
    CHECK(half.mine == 0);
}

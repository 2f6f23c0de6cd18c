// Tests of the caller's request to stop a call (calib/parallel.hpp, Progress::stop_requested): a long
// stage stops at its next work item and the call throws calib::cancelled, in the pairwise engine and in
// the parallel tasks; a Progress that never asks changes no bit of the result and sees every item.
// tests/python/test_interrupt.py checks Ctrl-C on a Python call.
#include <calib/corp.hpp>
#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/parallel.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstdint>

using namespace calib;

namespace {

// Asks to stop once `after` units have been reported (never when after = 0), and counts them.
class StopAfter final : public Progress {
public:
    explicit StopAfter(std::uint64_t after) : after_(after) {}
    void start(const char*, std::uint64_t total) override { total_ += total; }
    void advance(std::uint64_t amount) override { done_ += amount; }
    bool stop_requested() const override { return after_ > 0 && done_.load() >= after_; }
    std::uint64_t done() const { return done_.load(); }
    std::uint64_t total() const { return total_.load(); }

private:
    std::uint64_t after_;
    std::atomic<std::uint64_t> done_{0}, total_{0};
};

CategoricalData binary_sample(std::size_t n) {
    Matrix p(static_cast<Eigen::Index>(n), 2);
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = 0.5 + 0.45 * std::sin(0.37 * static_cast<double>(i));  // deterministic, spread over (0, 1)
        p(static_cast<Eigen::Index>(i), 0) = 1 - x;
        p(static_cast<Eigen::Index>(i), 1) = x;
        y[i] = (i * 7919) % 10 < static_cast<std::size_t>(10 * x) ? 1 : 0;
    }
    return CategoricalData(p, y);
}

const Kernel kernel{{PredictionKernelShape::sqexp, Metric::euclidean, 0.5}, {TargetKernelType::white, 1.0, {}}};

}  // namespace

TEST_CASE("stop requests: the pairwise engine stops and throws cancelled; never asking changes nothing") {
    const CategoricalData data = binary_sample(3000);
    for (const int threads : {1, 2}) {
        CAPTURE(threads);
        StopAfter stop(1);
        CHECK_THROWS_AS(skce_unbiased(data, kernel, ParallelOptions{threads, &stop}), cancelled);
        CHECK(stop.done() < stop.total());  // the items left were skipped
        StopAfter never(0);
        CHECK(skce_unbiased(data, kernel, ParallelOptions{threads, &never}) == skce_unbiased(data, kernel));
        CHECK(never.done() == never.total());
        CHECK(never.total() == 3000u * 2999u / 2);
    }
}

TEST_CASE("stop requests: parallel tasks (the CORP bands' replicates) stop and throw cancelled") {
    const CategoricalData data = binary_sample(500);
    CorpDiagramOptions options;
    options.replicates = 200;
    StopAfter stop(1);
    options.parallel = ParallelOptions{2, &stop};
    CHECK_THROWS_AS(corp_diagram(data, options), cancelled);
    StopAfter never(0);
    options.parallel = ParallelOptions{2, &never};
    const CorpDiagram with = corp_diagram(data, options);
    options.parallel = ParallelOptions{2, nullptr};
    const CorpDiagram without = corp_diagram(data, options);
    CHECK(with.consistency_lower == without.consistency_lower);
    CHECK(with.confidence_upper == without.confidence_upper);
}

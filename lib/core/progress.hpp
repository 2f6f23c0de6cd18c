// The progress of one stage of a library call, reported to ParallelOptions::progress when the caller
// gave one (calib/parallel.hpp), and the caller's request to stop.
#pragma once

#include <calib/errors.hpp>
#include <calib/parallel.hpp>

#include <cstdint>
#include <string>

namespace calib::detail {

// One stage of a computation. `stage` nullptr: the stage is not reported, but still stops on request.
// A stage's loop skips its work items once stopped() and calls finish() after its parallel region
// (an exception must not leave an OpenMP region), which throws calib::cancelled if it was stopped.
class StageProgress {
public:
    StageProgress(const ParallelOptions& parallel, const char* stage, std::uint64_t total)
        : progress_(parallel.progress), stage_(stage) {
        if (progress_ && stage_) progress_->start(stage_, total);
    }
    void advance(std::uint64_t amount) const {
        if (progress_ && stage_) progress_->advance(amount);
    }
    bool stopped() const { return progress_ && progress_->stop_requested(); }
    void finish() const {
        if (stopped())
            throw cancelled(std::string("calib: stopped at the caller's request (in the stage ") +
                            (stage_ ? stage_ : "of parallel tasks") + ")");
    }

private:
    Progress* progress_;
    const char* stage_;
};

}  // namespace calib::detail

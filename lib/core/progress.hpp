// The progress of one stage of a library call, reported to ParallelOptions::progress when the caller
// gave one (calib/parallel.hpp).
#pragma once

#include <calib/parallel.hpp>

#include <cstdint>

namespace calib::detail {

// One stage of a computation reported to ParallelOptions::progress, when there is one.
class StageProgress {
public:
    StageProgress(const ParallelOptions& parallel, const char* stage, std::uint64_t total)
        : progress_(parallel.progress) {
        if (progress_) progress_->start(stage, total);
    }
    void advance(std::uint64_t amount) const {
        if (progress_) progress_->advance(amount);
    }

private:
    Progress* progress_;
};

}  // namespace calib::detail

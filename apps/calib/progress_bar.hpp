// A progress bar with an ETA on stderr for the library's long stages (calib::Progress). It draws only
// when stderr is a terminal and the command has run for half a second, so that scripts, logs and
// short runs see nothing; `calib ... --quiet` turns it off.
#pragma once

#include <calib/parallel.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace calib::cli {

class ProgressBar : public Progress {
public:
    // `label` starts the line (e.g. "calib test bootstrap"); `enabled` false: never draws.
    ProgressBar(std::string label, bool enabled);
    ~ProgressBar() override;  // finish()

    // Clears the line it drew and draws no more: call it before printing the result.
    void finish();
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    void start(const char* stage, std::uint64_t total) override;
    void advance(std::uint64_t amount) override;

private:
    using Clock = std::chrono::steady_clock;
    void draw();

    std::string label_;
    bool enabled_;
    std::mutex mutex_;  // held while drawing and while a stage starts
    std::string stage_;
    std::uint64_t total_ = 0;
    std::atomic<std::uint64_t> done_{0};
    std::atomic<Clock::rep> last_draw_{0};  // time_since_epoch().count() of the last drawing
    Clock::time_point stage_start_;
    bool drawn_ = false;
};

}  // namespace calib::cli

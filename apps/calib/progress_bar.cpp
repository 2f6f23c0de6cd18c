// The terminal progress bar (progress_bar.hpp).
#include "progress_bar.hpp"

#include "run_output.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace calib::cli {

namespace {
constexpr double first_draw_after = 0.5;  // seconds since the command started
constexpr double redraw_every = 0.1;      // seconds
constexpr int bar_width = 30;

std::string duration(double seconds) {
    char text[32];
    if (seconds < 60)
        std::snprintf(text, sizeof text, "%.0f s", std::ceil(seconds));
    else if (seconds < 3600)
        std::snprintf(text, sizeof text, "%d min %02d s", int(seconds) / 60, int(seconds) % 60);
    else
        std::snprintf(text, sizeof text, "%d h %02d min", int(seconds) / 3600, int(seconds) / 60 % 60);
    return text;
}
}  // namespace

ProgressBar::ProgressBar(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled && ::isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::finish() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
    enabled_ = false;
}

void ProgressBar::start(const char* stage, std::uint64_t total) {
    if (!enabled_) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    stage_ = stage;
    total_ = total;
    done_ = 0;
    stage_start_ = Clock::now();
}

void ProgressBar::advance(std::uint64_t amount) {
    if (!enabled_) return;
    done_ += amount;
    const auto now = Clock::now().time_since_epoch();
    const auto every = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(redraw_every));
    if (seconds_since_start() < first_draw_after || now.count() - last_draw_.load() < every.count()) return;
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);  // one thread draws, the others go on
    if (!lock.owns_lock()) return;
    last_draw_ = now.count();
    draw();
}

void ProgressBar::draw() {
    const double fraction = total_ ? std::min(1.0, double(done_.load()) / double(total_)) : 0.0;
    const int filled = static_cast<int>(fraction * bar_width);
    std::string bar(static_cast<std::size_t>(filled), '=');
    if (filled < bar_width) bar += '>' + std::string(static_cast<std::size_t>(bar_width - filled - 1), ' ');
    const double elapsed = std::chrono::duration<double>(Clock::now() - stage_start_).count();
    const std::string eta = fraction > 0.01 ? "  ETA " + duration(elapsed * (1 - fraction) / fraction) : "";
    std::fprintf(stderr, "\r\033[K%s: %s [%s] %3.0f%%%s", label_.c_str(), stage_.c_str(), bar.c_str(), 100 * fraction,
                 eta.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

}  // namespace calib::cli

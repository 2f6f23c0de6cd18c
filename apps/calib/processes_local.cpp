// The plain build of processes.hpp: calib runs in this process alone.
#include "processes.hpp"

namespace calib::cli {

const Processes* run_processes() { return nullptr; }

SharedInput::SharedInput(const std::string& path) : path_(path) {}
SharedInput::~SharedInput() = default;

}  // namespace calib::cli

// libFuzzer harness: the command line of `calib` up to the point where files would be read. The
// input is split at NUL bytes into arguments; every refusal must be a usage or input error (exit 2)
// with one clean line, never another exception or a crash.
#include "message_check.hpp"

#include "../apps/calib/commands.hpp"
#include "../apps/calib/usage_error.hpp"

#include <calib/errors.hpp>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    std::cout.rdbuf(nullptr);  // --help texts
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> arguments(1);
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0) arguments.emplace_back();
        else arguments.back() += static_cast<char>(data[i]);
    }
    try {
        calib::cli::run_command(arguments, calib::cli::Stage::options);
    } catch (const calib::cli::usage_error& e) {
        calib::fuzz::check_message(e.what());
    } catch (const calib::invalid_argument& e) {
        calib::fuzz::check_message(e.what());
    } catch (const calib::numerical_error& e) {
        calib::fuzz::check_message(e.what());
    }
    return 0;
}

// libFuzzer harness: the NumPy .npy parser on arbitrary bytes. A parsed array must be consistent
// (1 or 2 dimensions, rows × columns values); a refused one must say why in one clean line.
#include "message_check.hpp"

#include <calib/npy.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const calib::NpyArray array =
            calib::parse_npy(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.npy");
        if (array.shape.empty() || array.shape.size() > 2 || array.values.size() != array.rows() * array.columns()) {
            std::fprintf(stderr, "inconsistent array: %zu dimensions, %zu values\n", array.shape.size(),
                         array.values.size());
            std::abort();
        }
    } catch (const calib::invalid_argument& e) {
        calib::fuzz::check_message(e.what());
    }
    return 0;
}

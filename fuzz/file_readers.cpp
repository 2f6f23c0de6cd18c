// libFuzzer harness: the family readers of calib/io.hpp (delimited text or .npy, then the family's
// checks) on arbitrary file contents. Byte 0 chooses the family and the header mode, byte 1 the
// delimiter and the flags; with the labels flag the rest is split at the first 0x1E byte into the
// input file and a labels (targets) file. A file read must give data of consistent size; a refused
// one must say why in one clean line.
#include "message_check.hpp"

#include <calib/io.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unistd.h>

namespace {

std::string directory;

void write_file(const std::string& path, std::string_view bytes) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file || std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size() || std::fclose(file) != 0) {
        std::perror(path.c_str());
        std::abort();
    }
}

template <class Data>
void check_size(const Data& data) {
    if (data.size() == 0) {
        std::fprintf(stderr, "a reader returned an empty data set\n");
        std::abort();
    }
}

void read(unsigned family, const std::string& path, const calib::ReadOptions& options) {
    switch (family) {
        case 0: check_size(calib::read_categorical(path, options)); break;
        case 1: check_size(calib::read_binary(path, options)); break;
        case 2: check_size(calib::read_normal(path, options)); break;
        case 3: check_size(calib::read_laplace(path, options)); break;
        case 4: check_size(calib::read_mvnormal_diag(path, options)); break;
        case 5: check_size(calib::read_mvnormal(path, options)); break;
        default: check_size(calib::read_mixture_normal(path, options)); break;
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    char pattern[] = "/tmp/calib-fuzz-XXXXXX";
    if (!mkdtemp(pattern)) {
        std::perror("mkdtemp");
        std::abort();
    }
    directory = pattern;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const unsigned family = data[0] % 7, header = data[0] / 7 % 3, delimiter = data[1] % 5, flags = data[1] / 5;
    calib::ReadOptions options;
    options.text.header = static_cast<calib::HeaderMode>(header);
    options.text.delimiter = static_cast<calib::Delimiter>(delimiter);
    options.logits = flags & 1;
    options.one_based_labels = flags & 2;
    options.simplex.renormalize = flags & 4;
    std::string_view content(reinterpret_cast<const char*>(data) + 2, size - 2);
    const std::string input = directory + "/input", labels = directory + "/labels";
    if (flags & 8) {
        const std::size_t split = content.find('\x1e');
        write_file(labels, split == std::string_view::npos ? std::string_view() : content.substr(split + 1));
        content = content.substr(0, split);
        options.labels = labels;
    }
    write_file(input, content);
    try {
        read(family, input, options);
    } catch (const calib::invalid_argument& e) {
        calib::fuzz::check_message(e.what());
    } catch (const calib::numerical_error& e) {
        calib::fuzz::check_message(e.what());
    }
    return 0;
}

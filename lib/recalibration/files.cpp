// Reading the raw predictions that recalibration maps take and writing what they give (the formats of
// io.hpp and of NumPy's .npy format, version 1.0: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html).
#include <calib/recalibration.hpp>
#include <calib/tool/json.hpp>

#include "data/column_major.hpp"
#include "core/check.hpp"
#include "io/numeric_table.hpp"

#include <cstdint>
#include <cstring>

namespace calib {

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string npy_bytes(const Matrix& values) {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(values.rows()) + ", " +
                         std::to_string(values.cols()) + "), }";
    // magic (6) + version (2) + header length (2) + header + '\\n' is a multiple of 64.
    header.append(63 - (10 + header.size()) % 64, ' ');
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    for (Eigen::Index i = 0; i < values.rows(); ++i)
        for (Eigen::Index k = 0; k < values.cols(); ++k) {
            const double x = values(i, k);
            std::uint64_t bits;
            std::memcpy(&bits, &x, sizeof bits);
            for (int b = 0; b < 8; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xff);  // little-endian
        }
    return out;
}

std::string csv_text(const Matrix& values, const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t k = 0; k < names.size(); ++k) out += (k ? "," : "") + names[k];
    out += '\n';
    for (Eigen::Index i = 0; i < values.rows(); ++i) {
        for (Eigen::Index k = 0; k < values.cols(); ++k) out += (k ? "," : "") + json_number(values(i, k));
        out += '\n';
    }
    return out;
}

}  // namespace

CategoricalScores read_categorical_scores(const std::string& path, const ReadOptions& options,
                                          std::vector<FileSummary>* files) {
    if (options.logits && path == "-")
        detail::fail("read_categorical_scores", "logits cannot be read from standard input ('-'): give a file");
    const CategoricalData data = read_categorical(path, options, files);
    CategoricalScores out{detail::column_major_copy(data.probabilities()), data.labels(), options.logits};
    if (options.logits) {
        const detail::NumericTable table = detail::read_numeric_table(path, options.text);
        for (long i = 0; i < table.rows; ++i)
            for (long k = 0; k < out.scores.cols(); ++k) out.scores(i, k) = table.at(i, k);
    }
    return out;
}

void write_table(const std::string& path, const Matrix& values, const std::vector<std::string>& names) {
    const std::string bytes = ends_with(path, ".npy") ? npy_bytes(values) : csv_text(values, names);
    write_file(path, bytes);
}

}  // namespace calib

// Internal: the numeric table of a CSV file with a header row, the common layer of the readers in
// io.hpp, and the one place that formats their error messages.
#pragma once

#include <calib/errors.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// All cells of a file's data rows as finite doubles; every row has the header's column count.
struct CsvTable {
    std::string path;
    long columns = 0;
    long rows = 0;
    std::vector<double> values;  // row-major: values[row · columns + column]

    double at(long row, long column) const {
        return values[static_cast<std::size_t>(row * columns + column)];
    }
    // Data rows follow the header (line 1) without gaps: blank lines are allowed only at the end.
    static long line_of(long row) { return row + 2; }
};

// Reads and checks the file (exists, has a header and ≥ 1 data row, rectangular, every cell a
// finite number). Throws calib::invalid_argument through fail_in_file.
CsvTable read_csv_table(const std::string& path);

// Throws calib::invalid_argument "<path>: line L, column C: <what>" (line and column 1-based; 0
// leaves them out). Its row() is the 0-based observation L − 2 and column() is C − 1 (-1 if none).
[[noreturn]] void fail_in_file(const std::string& path, long line, long column,
                               const std::string& what);

}  // namespace calib::detail

// Internal: the numbers of an input file as one table — a delimited text file (CSV, TSV,
// whitespace-separated) or a NumPy .npy array — with the position of every cell in its file, so
// that the family readers of io.hpp can point every message at a file, line and column.
#pragma once

#include <calib/io.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// One file a table's columns come from.
struct TableFile {
    std::string path;         // as given; "-" is standard input
    FileSummary summary;      // format, header, delimiter, dtype, shape
    long first_line = 1;      // text: the line of data row 0 (the header, if any, is line 1)
    int dimensions = 2;       // npy: 1 or 2
    bool integer_header_like = false;  // text: line 1 was read as data but looks like column numbers
};

struct NumericTable {
    long rows = 0, columns = 0;
    std::vector<double> values;  // row-major: values[row · columns + column]
    std::vector<TableFile> files;
    std::vector<int> column_file;     // the file of each column
    std::vector<long> file_column;    // the column of each column in its file

    double at(long row, long column) const {
        return values[static_cast<std::size_t>(row) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(column)];
    }
    // "preds.csv: line 5, column 2", "preds.npy: element [3, 1]"; column -1: the row in the first file
    // ("preds.csv: line 5", "preds.npy: row 3").
    std::string where(long row, long column) const;
    // Throws calib::invalid_argument "<where>: <what>" with row() = row and column() = column.
    [[noreturn]] void fail_at(long row, long column, const std::string& what) const;
};

// Reads a table from a file ("-": standard input), as .npy when it starts with the NumPy magic, else
// as delimited text. Throws calib::invalid_argument with the file, line and column.
NumericTable read_numeric_table(const std::string& path, const TextFormat& format);

// `right`'s columns appended to `left`'s; the row counts must match (else an error naming both files).
NumericTable join_columns(NumericTable left, const NumericTable& right);

// "stdin" for "-", else the path with control and non-ASCII bytes escaped and a very long path
// shortened: safe to put into a one-line message.
std::string display_path(const std::string& path);

}  // namespace calib::detail

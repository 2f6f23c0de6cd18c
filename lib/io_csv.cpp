// The family readers of io.hpp: column layout per family on top of the generic CsvTable. Rules on
// values (simplex, label range, positive scales, positive definite covariances) stay with the data
// constructors; their errors are rethrown pointing at the file line and column.
#include <calib/io.hpp>

#include "csv_table.hpp"

#include <climits>
#include <cstdio>
#include <cmath>
#include <string>
#include <utility>

namespace calib {

using detail::CsvTable;
using detail::fail_in_file;

namespace {

std::string format_number(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}

// A wrong column count is an error of the header: it fixes the count of every row.
[[noreturn]] void fail_columns(const CsvTable& table, const std::string& expected) {
    fail_in_file(table.path, 1, 0,
                 "the header has " + std::to_string(table.columns) + " columns, expected " + expected);
}

void require_columns(const CsvTable& table, long expected, const std::string& layout) {
    if (table.columns != expected) fail_columns(table, std::to_string(expected) + " (" + layout + ")");
}

int integer_cell(const CsvTable& table, long row, long column, const char* name) {
    const double value = table.at(row, column);
    if (!(value == std::floor(value) && std::abs(value) <= INT_MAX))
        fail_in_file(table.path, CsvTable::line_of(row), column + 1,
                     std::string(name) + " = " + format_number(value) + ", must be an integer");
    return static_cast<int>(value);
}

// Rethrows a data constructor's error at the file line of its row() and at file column
// file_column (0-based, -1 for a whole-row rule), keeping the constructor's message.
[[noreturn]] void rethrow_in_file(const CsvTable& table, const invalid_argument& error,
                                  long file_column, const std::string& note = "") {
    if (error.row() < 0 || error.row() >= table.rows)
        fail_in_file(table.path, 0, 0, error.what() + note);
    fail_in_file(table.path, CsvTable::line_of(error.row()), file_column + 1, error.what() + note);
}

// Columns [first, first + count) of the table as an n × count matrix.
Matrix columns_of(const CsvTable& table, long first, long count) {
    Matrix x(table.rows, count);
    for (long i = 0; i < table.rows; ++i)
        for (long k = 0; k < count; ++k) x(i, k) = table.at(i, first + k);
    return x;
}

}  // namespace

CategoricalData read_categorical_csv(const std::string& path, const CsvReadOptions& options) {
    const CsvTable table = detail::read_csv_table(path);
    const long m = table.columns - 1;
    if (m < 2)
        fail_columns(table, "at least 3 (m >= 2 probability columns, then the label); for a single "
                            "probability column use --family binary");
    std::vector<int> labels(static_cast<std::size_t>(table.rows));
    const int offset = options.one_based_labels ? 1 : 0;
    for (long i = 0; i < table.rows; ++i)
        labels[static_cast<std::size_t>(i)] = integer_cell(table, i, m, "label") - offset;
    Matrix values = columns_of(table, 0, m);
    try {
        return options.logits ? CategoricalData::from_logits(values, std::move(labels))
                              : CategoricalData(std::move(values), std::move(labels));
    } catch (const invalid_argument& e) {
        // CategoricalData's columns are the file's: 0 … m − 1 the classes, m the label.
        const bool label = e.column() == m;
        rethrow_in_file(table, e, e.column(),
                        label && options.one_based_labels
                            ? " (the file's labels are 1-based: 1 was subtracted)"
                            : "");
    }
}

CategoricalData read_binary_csv(const std::string& path) {
    const CsvTable table = detail::read_csv_table(path);
    require_columns(table, 2, "p, y");
    std::vector<int> y(static_cast<std::size_t>(table.rows));
    for (long i = 0; i < table.rows; ++i) y[static_cast<std::size_t>(i)] = integer_cell(table, i, 1, "y");
    try {
        return CategoricalData::from_binary(columns_of(table, 0, 1).col(0), y);
    } catch (const invalid_argument& e) {
        // from_binary reports p as column 0 and y as column 1, as in the file.
        rethrow_in_file(table, e, e.column() <= 1 ? e.column() : -1);
    }
}

NormalData read_normal_csv(const std::string& path) {
    const CsvTable table = detail::read_csv_table(path);
    require_columns(table, 3, "mu, sigma, y");
    try {
        return NormalData(columns_of(table, 0, 1).col(0), columns_of(table, 1, 1).col(0),
                          columns_of(table, 2, 1).col(0));
    } catch (const invalid_argument& e) {
        // NormalData's vectors all report column 0; every cell is already finite, so the one
        // entry rule it can still break is sigma > 0: file column 1.
        rethrow_in_file(table, e, e.column() < 0 ? -1 : 1);
    }
}

LaplaceData read_laplace_csv(const std::string& path) {
    const CsvTable table = detail::read_csv_table(path);
    require_columns(table, 3, "mu, beta, y");
    try {
        return LaplaceData(columns_of(table, 0, 1).col(0), columns_of(table, 1, 1).col(0),
                           columns_of(table, 2, 1).col(0));
    } catch (const invalid_argument& e) {
        // As for normal data: the one entry rule left is beta > 0, file column 1.
        rethrow_in_file(table, e, e.column() < 0 ? -1 : 1);
    }
}

MvNormalData read_mvnormal_diag_csv(const std::string& path) {
    const CsvTable table = detail::read_csv_table(path);
    if (table.columns % 3 != 0)
        fail_columns(table, "a multiple of 3 (mu_1..mu_d, sigma_1..sigma_d, y_1..y_d)");
    const long d = table.columns / 3;
    try {
        return MvNormalData::diagonal(columns_of(table, 0, d), columns_of(table, d, d),
                                      columns_of(table, 2 * d, d));
    } catch (const invalid_argument& e) {
        // Every cell is already finite, so an entry error is about sigma_k > 0: file column d + k.
        rethrow_in_file(table, e, e.column() < 0 ? -1 : d + e.column());
    }
}

MvNormalData read_mvnormal_csv(const std::string& path) {
    const CsvTable table = detail::read_csv_table(path);
    long d = 1;
    while (d * (d + 5) / 2 < table.columns) ++d;
    if (d * (d + 5) / 2 != table.columns)
        fail_columns(table, "d(d+5)/2 for some dimension d (3, 7, 12, 18, 25, ...: mu_1..mu_d, "
                            "the d(d+1)/2 lower-triangular covariance entries row by row, "
                            "y_1..y_d)");
    std::vector<Matrix> covariances(static_cast<std::size_t>(table.rows), Matrix(d, d));
    for (long i = 0; i < table.rows; ++i) {
        Matrix& s = covariances[static_cast<std::size_t>(i)];
        long column = d;
        for (long a = 0; a < d; ++a)
            for (long b = 0; b <= a; ++b) s(a, b) = s(b, a) = table.at(i, column++);
    }
    try {
        return MvNormalData::full(columns_of(table, 0, d), std::move(covariances),
                                  columns_of(table, table.columns - d, d));
    } catch (const invalid_argument& e) {
        // The covariance rule (positive definite) is about a whole row of the file.
        rethrow_in_file(table, e, -1);
    }
}

MixtureNormalData read_mixture_normal_csv(const std::string& path) {
    const CsvTable table = detail::read_csv_table(path);
    if (table.columns < 4 || (table.columns - 1) % 3 != 0)
        fail_columns(table, "3K + 1 for some number of components K >= 1 (4, 7, 10, ...: w_1..w_K, "
                            "mu_1..mu_K, sigma_1..sigma_K, y)");
    const long K = (table.columns - 1) / 3;
    try {
        return MixtureNormalData(columns_of(table, 0, K), columns_of(table, K, K), columns_of(table, 2 * K, K),
                                 columns_of(table, 3 * K, 1).col(0));
    } catch (const invalid_argument& e) {
        // MixtureNormalData reports columns in the file's layout (-1 for the weights' sum).
        rethrow_in_file(table, e, e.column());
    }
}

}  // namespace calib

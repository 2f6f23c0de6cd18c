// Readers of plain tables (io.hpp): any table of finite numbers (features, predictions to recalibrate)
// and group ids, in the input formats of the family readers, one row per observation.
#include <calib/io.hpp>

#include "core/check.hpp"
#include "io/numeric_table.hpp"

#include <climits>
#include <cmath>

namespace calib {

Matrix read_table(const std::string& path, const TextFormat& text, FileSummary* summary) {
    const detail::NumericTable table = detail::read_numeric_table(path, text);
    if (summary) *summary = table.files[0].summary;
    Matrix x(table.rows, table.columns);
    for (long i = 0; i < table.rows; ++i)
        for (long j = 0; j < table.columns; ++j) x(i, j) = table.at(i, j);
    return x;
}

std::vector<int> read_groups(const std::string& path, const TextFormat& text, FileSummary* summary) {
    const detail::NumericTable table = detail::read_numeric_table(path, text);
    if (summary) *summary = table.files[0].summary;
    if (table.columns != 1)
        throw invalid_argument(detail::display_path(path) + ": found " + std::to_string(table.columns) +
                               " columns, expected 1 (one group id per row)");
    std::vector<int> groups;
    for (long i = 0; i < table.rows; ++i) {
        const double g = table.at(i, 0);
        if (g != std::floor(g) || !(g >= INT_MIN && g <= INT_MAX))
            table.fail_at(i, 0, "group = " + detail::format_value(g) + ", must be an integer in [" +
                                    std::to_string(INT_MIN) + ", " + std::to_string(INT_MAX) + "]");
        groups.push_back(static_cast<int>(g));
    }
    return groups;
}

}  // namespace calib

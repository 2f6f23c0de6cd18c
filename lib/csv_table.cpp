// Reading a CSV file into a CsvTable (csv_table.hpp): line splitting, trimming and number parsing.
#include "csv_table.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace calib::detail {

void fail_in_file(const std::string& path, long line, long column, const std::string& what) {
    std::string message = path;
    if (line > 0) message += ": line " + std::to_string(line);
    if (line > 0 && column > 0) message += ", column " + std::to_string(column);
    message += ": " + what;
    throw invalid_argument(message, line >= 2 ? line - 2 : -1, column > 0 ? column - 1 : -1);
}

namespace {

std::string_view trim(std::string_view s) {
    const char* space = " \t\r\f\v";
    const auto first = s.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(space) - first + 1);
}

long count_cells(std::string_view line) {
    long cells = 1;
    for (char c : line) cells += (c == ',');
    return cells;
}

// A cell quoted for an error message, shortened so that the message stays one readable line.
std::string quote(std::string_view cell) {
    constexpr std::size_t max_length = 40;
    std::string shown(cell.substr(0, max_length));
    if (cell.size() > max_length) shown += "...";
    return "\"" + shown + "\"";
}

double parse_cell(const std::string& path, long line, long column, std::string_view cell) {
    if (cell.empty()) fail_in_file(path, line, column, "cell is empty, expected a number");
    // strtod needs a terminated string; the program never calls setlocale, so the decimal point
    // is '.' whatever the user's environment says.
    const std::string text(cell);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size())
        fail_in_file(path, line, column, "cell " + quote(cell) + " is not a number");
    // Overflow returns ±HUGE_VAL = ±inf; underflow returns a tiny value, which is accepted.
    if (!std::isfinite(value))
        fail_in_file(path, line, column,
                     "cell " + quote(cell) + " is not a finite number (NaN, inf and overflow are "
                     "rejected)");
    return value;
}

}  // namespace

CsvTable read_csv_table(const std::string& path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        fail_in_file(path, 0, 0, "is a directory, expected a CSV file");
    std::ifstream in(path, std::ios::binary);
    if (!in) fail_in_file(path, 0, 0, std::string("cannot open file: ") + std::strerror(errno));

    CsvTable table;
    table.path = path;
    std::string line;
    long line_number = 0;
    long first_blank = 0;  // the first blank line seen, an error if data follows it
    bool have_header = false;
    while (std::getline(in, line)) {
        ++line_number;
        const std::string_view content = trim(line);
        if (content.empty()) {
            if (first_blank == 0) first_blank = line_number;
            continue;
        }
        if (first_blank != 0)
            fail_in_file(path, first_blank, 0,
                         "line is blank; blank lines are allowed only at the end of the file");
        if (!have_header) {
            table.columns = count_cells(content);
            have_header = true;
            continue;
        }
        const long found = count_cells(content);
        if (found != table.columns)
            fail_in_file(path, line_number, 0,
                         "found " + std::to_string(found) + " columns, expected " +
                             std::to_string(table.columns) + " (as in the header on line 1)");
        std::size_t start = 0;
        for (long column = 1; column <= table.columns; ++column) {
            const std::size_t comma = content.find(',', start);
            const std::string_view cell =
                trim(content.substr(start, comma == std::string_view::npos ? comma : comma - start));
            table.values.push_back(parse_cell(path, line_number, column, cell));
            start = comma + 1;
        }
        ++table.rows;
    }
    if (in.bad()) fail_in_file(path, 0, 0, std::string("cannot read file: ") + std::strerror(errno));
    if (!have_header)
        fail_in_file(path, 0, 0, "file is empty, expected a header row followed by data rows");
    if (table.rows == 0)
        fail_in_file(path, 0, 0, "file has a header row but no data rows");
    return table;
}

}  // namespace calib::detail

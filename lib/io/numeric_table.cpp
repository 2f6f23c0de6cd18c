// Reading a file into a NumericTable (numeric_table.hpp): bytes, then .npy or delimited text.
#include "io/numeric_table.hpp"

#include "core/memory_guard.hpp"
#include "core/printable.hpp"

#include <calib/npy.hpp>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>
#include <system_error>

namespace calib::detail {

namespace {

// A text line longer than this is refused before it is held in memory (a file without line ends,
// such as /dev/zero, would otherwise be read until memory runs out). 64 MiB holds a row of 10⁶
// classes written with full precision.
constexpr std::size_t max_line_bytes = std::size_t{1} << 26;

[[noreturn]] void fail_file(const std::string& path, const std::string& what) {
    throw invalid_argument(display_path(path) + ": " + what);
}

[[noreturn]] void fail_line(const std::string& path, long line, long column, const std::string& what, long row = -1) {
    std::string message = display_path(path) + ": line " + std::to_string(line);
    if (column > 0) message += ", column " + std::to_string(column);
    throw invalid_argument(message + ": " + what, row, column > 0 ? column - 1 : -1);
}

bool starts_with(std::string_view bytes, std::string_view prefix) {
    return bytes.size() >= prefix.size() && bytes.compare(0, prefix.size(), prefix) == 0;
}

// The whole content of a file or of standard input. Text lines are checked against max_line_bytes
// while reading.
std::string read_bytes(const std::string& path) {
    std::FILE* file = stdin;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(nullptr, std::fclose);
    if (path != "-") {
        std::error_code error;
        if (std::filesystem::is_directory(path, error)) fail_file(path, "is a directory, expected a data file");
        // A file larger than the machine's memory cannot be held; say so before reading any of it.
        const auto size = std::filesystem::file_size(path, error);
        if (!error && double(size) > physical_memory_bytes())
            fail_file(path, "is " + format_bytes(double(size)) + ", more than this machine's memory (" +
                                format_bytes(physical_memory_bytes()) + ")");
        owned.reset(std::fopen(path.c_str(), "rb"));
        if (!owned) fail_file(path, std::string("cannot open file: ") + std::strerror(errno));
        file = owned.get();
    }
    std::string bytes;
    std::size_t line_start = 0;  // offset of the current line's first byte
    bool text = true;
    char chunk[1 << 16];
    for (;;) {
        const std::size_t got = std::fread(chunk, 1, sizeof chunk, file);
        if (got == 0) break;
        const std::size_t old_size = bytes.size();
        bytes.append(chunk, got);
        if (old_size == 0) text = !is_npy(bytes);
        if (!text) continue;
        for (const char* p = bytes.data() + old_size; (p = static_cast<const char*>(
                                                            std::memchr(p, '\n', bytes.data() + bytes.size() - p)));
             ++p)
            line_start = static_cast<std::size_t>(p - bytes.data()) + 1;
        if (bytes.size() - line_start > max_line_bytes)
            fail_file(path, "line " + std::to_string(std::count(bytes.begin(), bytes.begin() + static_cast<long>(line_start), '\n') + 1) +
                                " is longer than " + std::to_string(max_line_bytes >> 20) +
                                " MiB; is this a text file of numbers?");
    }
    if (std::ferror(file)) fail_file(path, std::string("cannot read file: ") + std::strerror(errno));
    return bytes;
}

const char* delimiter_name(char c) {
    switch (c) {
        case ',': return "comma";
        case '\t': return "tab";
        case ';': return "semicolon";
        default: return "whitespace";
    }
}

char delimiter_char(Delimiter d, std::string_view first_line) {
    switch (d) {
        case Delimiter::comma: return ',';
        case Delimiter::tab: return '\t';
        case Delimiter::semicolon: return ';';
        case Delimiter::whitespace: return ' ';
        case Delimiter::automatic: break;
    }
    for (const char c : {',', '\t', ';'})
        if (first_line.find(c) != std::string_view::npos) return c;
    return ' ';
}

std::string_view trim(std::string_view s) {
    const char* space = " \t\r\f\v";
    const auto first = s.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    s = s.substr(first, s.find_last_not_of(space) - first + 1);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
}

// The cells of a line (already without its line end).
void split(std::string_view line, char delimiter, std::vector<std::string_view>& cells) {
    cells.clear();
    if (delimiter == ' ') {
        for (std::size_t i = 0; i < line.size();) {
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
            if (i == line.size()) break;
            std::size_t j = i;
            while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
            cells.push_back(trim(line.substr(i, j - i)));
            i = j;
        }
        return;
    }
    for (std::size_t start = 0;;) {
        const std::size_t end = line.find(delimiter, start);
        cells.push_back(trim(line.substr(start, end == std::string_view::npos ? end : end - start)));
        if (end == std::string_view::npos) return;
        start = end + 1;
    }
}

enum class CellKind { number, non_finite, not_a_number };

// Parses a whole cell as a number in C syntax (a leading '+' allowed), correctly rounded.
CellKind parse_number(std::string_view cell, double& value) {
    if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
    if (cell.empty() || cell.front() == '+' || (cell.front() == '-' && cell.size() > 1 && cell[1] == '+'))
        return CellKind::not_a_number;
    const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (end != cell.data() + cell.size()) return CellKind::not_a_number;
    if (error == std::errc::result_out_of_range) {
        // Overflow is refused; an underflow reads as 0 or a subnormal, as strtod gives it.
        value = std::strtod(std::string(cell).c_str(), nullptr);
        return std::isfinite(value) ? CellKind::number : CellKind::non_finite;
    }
    if (error != std::errc()) return CellKind::not_a_number;
    return std::isfinite(value) ? CellKind::number : CellKind::non_finite;
}

// What a cell that is not a number may mean, as advice appended to the message.
std::string not_a_number_hint(std::string_view cell, char delimiter) {
    if (delimiter != '\t' && cell.find('\t') != std::string_view::npos)
        return " (the file seems to be tab-separated: use --delimiter tab)";
    if (delimiter != ';' && cell.find(';') != std::string_view::npos)
        return " (the file seems to be semicolon-separated: use --delimiter semicolon; decimal commas are not read)";
    if (delimiter != ' ' && cell.find(' ') != std::string_view::npos)
        return " (the file seems to be whitespace-separated: use --delimiter whitespace)";
    if (delimiter != ',' && cell.find(',') != std::string_view::npos)
        return " (decimal commas are not read: numbers need a '.' as decimal mark)";
    return "";
}

// Cells 0, 1, …, c − 1 or 1, …, c: the header pandas writes for unnamed columns.
bool looks_like_column_numbers(const std::vector<double>& first) {
    if (first.size() < 2) return false;
    for (const double start : {0.0, 1.0}) {
        bool all = true;
        for (std::size_t k = 0; k < first.size() && all; ++k) all = first[k] == start + static_cast<double>(k);
        if (all) return true;
    }
    return false;
}

// Whether a first line is a header (--header auto): it has a cell that is not a number, and every cell
// that is a number is written as its column's number, all 0-based or all 1-based ("0,1,2,label": the
// header pandas writes for unnamed columns beside a named one). Any other number makes the line data,
// so that a malformed cell in a headerless file's first row ("0.1x,0.3,0.6,2") is an error, not a
// header that silently drops that row. An empty cell is neither (pandas leaves the index column's
// name empty).
bool looks_like_header(const std::vector<std::string_view>& cells) {
    bool named = false, zero_based = true, one_based = true;
    for (std::size_t k = 0; k < cells.size(); ++k) {
        double value = 0;
        if (cells[k].empty()) continue;
        if (parse_number(cells[k], value) == CellKind::not_a_number) {
            named = true;
            continue;
        }
        zero_based = zero_based && cells[k] == std::to_string(k);
        one_based = one_based && cells[k] == std::to_string(k + 1);
    }
    return named && (zero_based || one_based);
}

NumericTable text_table(const std::string& path, std::string_view bytes, const TextFormat& format) {
    if (starts_with(bytes, "\xEF\xBB\xBF")) bytes.remove_prefix(3);  // a UTF-8 byte-order mark (Excel)
    if (starts_with(bytes, "\xFF\xFE") || starts_with(bytes, "\xFE\xFF"))
        fail_file(path, "is UTF-16 text; save it as UTF-8 or ASCII text");
    if (starts_with(bytes, "PK\x03\x04") || starts_with(bytes, "\x1F\x8B")) parse_npy(bytes, display_path(path));

    NumericTable table;
    TableFile file;
    file.path = path;
    file.summary.path = path;
    file.summary.format = "text";
    std::vector<std::string_view> cells;
    char delimiter = 0;
    long line_number = 0, first_blank = 0;
    bool first_line = true;
    std::size_t position = 0;
    while (position < bytes.size()) {
        const std::size_t end = bytes.find('\n', position);
        std::string_view line = bytes.substr(position, end == std::string_view::npos ? end : end - position);
        position = end == std::string_view::npos ? bytes.size() : end + 1;
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        // A NUL byte anywhere (the header too) means a binary or damaged file, never a table.
        if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos)
            fail_line(path, line_number, 0,
                      "byte " + std::to_string(nul + 1) + " is a NUL byte: not a text file (a damaged file, or a binary "
                      "format other than .npy)");
        if (trim(line).empty() && line.find('"') == std::string_view::npos) {
            if (first_blank == 0) first_blank = line_number;
            continue;
        }
        if (first_blank != 0)
            fail_line(path, first_blank, 0, "line is blank; blank lines are allowed only at the end of the file");
        if (first_line) {
            delimiter = delimiter_char(format.delimiter, line);
            file.summary.delimiter = delimiter_name(delimiter);
        }
        split(line, delimiter, cells);
        const long found = static_cast<long>(cells.size());
        if (first_line) {
            first_line = false;
            table.columns = found;
            bool header = format.header == HeaderMode::yes;
            if (format.header == HeaderMode::automatic) header = looks_like_header(cells);
            if (header) {
                file.summary.header = true;
                file.first_line = 2;
                continue;
            }
        } else if (found != table.columns) {
            fail_line(path, line_number, 0,
                      "found " + std::to_string(found) + " columns, expected " + std::to_string(table.columns) +
                          (file.summary.header ? " (as in the header on line 1)" : " (as on line 1)"),
                      table.rows);
        }
        for (long column = 0; column < found; ++column) {
            const std::string_view cell = cells[static_cast<std::size_t>(column)];
            double value = 0;
            const auto fail_cell = [&](const std::string& what) {
                fail_line(path, line_number, column + 1, what, table.rows);
            };
            if (cell.empty()) fail_cell("cell is empty, expected a number");
            const CellKind kind = parse_number(cell, value);
            if (kind == CellKind::non_finite)
                fail_cell("cell \"" + printable(cell, 40) + "\" is not a finite number (NaN, inf and overflow are rejected)");
            if (kind == CellKind::not_a_number)
                fail_cell("cell \"" + printable(cell, 40) + "\" is not a number" + not_a_number_hint(cell, delimiter) +
                          (line_number != 1                        ? ""
                           : format.header == HeaderMode::no ? " (line 1 is read as data because of --header no)"
                                                             : " (line 1 is read as data, as other cells of it are "
                                                               "numbers; a header has names only: else use --header yes)"));
            table.values.push_back(value);
        }
        ++table.rows;
    }
    if (table.rows == 0)
        fail_file(path, file.summary.header ? "has a header line but no data rows" : "is empty, expected rows of numbers");
    if (!file.summary.header && table.columns >= 2)
        file.integer_header_like = looks_like_column_numbers(
            std::vector<double>(table.values.begin(), table.values.begin() + table.columns));
    file.summary.rows = static_cast<std::size_t>(table.rows);
    file.summary.columns = static_cast<std::size_t>(table.columns);
    table.files.push_back(std::move(file));
    return table;
}

NumericTable npy_table(const std::string& path, std::string_view bytes) {
    NpyArray array = parse_npy(bytes, display_path(path));
    NumericTable table;
    table.rows = static_cast<long>(array.rows());
    table.columns = static_cast<long>(array.columns());
    table.values = std::move(array.values);
    TableFile file;
    file.path = path;
    file.summary.path = path;
    file.summary.format = "npy";
    file.summary.rows = array.rows();
    file.summary.columns = array.columns();
    file.summary.dtype = array.dtype;
    file.dimensions = static_cast<int>(array.shape.size());
    table.files.push_back(std::move(file));
    return table;
}

}  // namespace

std::string display_path(const std::string& path) { return path == "-" ? "stdin" : printable(path, 200); }

std::string NumericTable::where(long row, long column) const {
    const TableFile& file = files[column < 0 ? 0 : static_cast<std::size_t>(column_file[static_cast<std::size_t>(column)])];
    const long file_col = column < 0 ? -1 : file_column[static_cast<std::size_t>(column)];
    std::string out = display_path(file.path) + ": ";
    if (file.summary.format == "npy") {
        if (file_col < 0) return out + "row " + std::to_string(row);
        out += "element [" + std::to_string(row);
        if (file.dimensions == 2) out += ", " + std::to_string(file_col);
        return out + "]";
    }
    out += "line " + std::to_string(file.first_line + row);
    if (file_col >= 0) out += ", column " + std::to_string(file_col + 1);
    return out;
}

void NumericTable::fail_at(long row, long column, const std::string& what) const {
    std::string message = where(row, column) + ": " + what;
    const TableFile& file = files[column < 0 ? 0 : static_cast<std::size_t>(column_file[static_cast<std::size_t>(column)])];
    if (row == 0 && file.integer_header_like)
        message += " (line 1 looks like a header of column numbers: use --header yes)";
    throw invalid_argument(message, row, column);
}

NumericTable read_numeric_table(const std::string& path, const TextFormat& format) {
    const std::string bytes = read_bytes(path);
    NumericTable table = is_npy(bytes) ? npy_table(path, bytes) : text_table(path, bytes, format);
    table.column_file.assign(static_cast<std::size_t>(table.columns), 0);
    table.file_column.resize(static_cast<std::size_t>(table.columns));
    for (long k = 0; k < table.columns; ++k) table.file_column[static_cast<std::size_t>(k)] = k;
    return table;
}

NumericTable join_columns(NumericTable left, const NumericTable& right) {
    if (left.rows != right.rows) {
        const bool text = left.files[0].summary.format == "text" || right.files[0].summary.format == "text";
        throw invalid_argument(display_path(right.files[0].path) + " has " + std::to_string(right.rows) + " rows but " +
                               display_path(left.files[0].path) + " has " + std::to_string(left.rows) +
                               "; they must have one row per observation" +
                               (text && std::abs(left.rows - right.rows) == 1
                                    ? " (a header line read as data, or a missing one? see --header)"
                                    : ""));
    }
    NumericTable joined;
    joined.rows = left.rows;
    joined.columns = left.columns + right.columns;
    joined.values.resize(static_cast<std::size_t>(joined.rows) * static_cast<std::size_t>(joined.columns));
    for (long i = 0; i < joined.rows; ++i) {
        for (long k = 0; k < left.columns; ++k)
            joined.values[static_cast<std::size_t>(i * joined.columns + k)] = left.at(i, k);
        for (long k = 0; k < right.columns; ++k)
            joined.values[static_cast<std::size_t>(i * joined.columns + left.columns + k)] = right.at(i, k);
    }
    joined.files = std::move(left.files);
    joined.column_file = std::move(left.column_file);
    joined.file_column = std::move(left.file_column);
    const int offset = static_cast<int>(joined.files.size());
    for (const TableFile& f : right.files) joined.files.push_back(f);
    for (long k = 0; k < right.columns; ++k) {
        joined.column_file.push_back(offset + right.column_file[static_cast<std::size_t>(k)]);
        joined.file_column.push_back(right.file_column[static_cast<std::size_t>(k)]);
    }
    return joined;
}

}  // namespace calib::detail

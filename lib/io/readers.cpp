// The family readers of io.hpp: column layout per family on top of NumericTable. Rules on values
// (simplex, label range, positive scales, positive definite covariances) stay with the data
// constructors; their errors are rethrown pointing at the file, line and column, with advice where a
// convention mistake is likely (1-based labels, logits, unnormalised scores).
#include <calib/io.hpp>

#include "core/check.hpp"
#include "io/numeric_table.hpp"

#include <cmath>
#include <string>
#include <utility>

namespace calib {

using detail::display_path;
using detail::NumericTable;

namespace {

// The input table with the labels file's columns appended when there is one. `separate` tells the
// family how to split the columns.
struct Input {
    NumericTable table;
    bool separate = false;
    long input_columns = 0;  // columns of the input file
};

Input read_input(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    if (path == "-" && options.labels == "-")
        throw invalid_argument("the input and the labels cannot both be read from standard input ('-')");
    Input input;
    input.table = detail::read_numeric_table(path, options.text);
    input.input_columns = input.table.columns;
    if (!options.labels.empty()) {
        input.table = detail::join_columns(std::move(input.table), detail::read_numeric_table(options.labels, options.text));
        input.separate = true;
    }
    if (files)
        for (const detail::TableFile& f : input.table.files) files->push_back(f.summary);
    return input;
}

[[noreturn]] void fail_columns(const Input& input, bool labels_file, long found, const std::string& expected) {
    const detail::TableFile& file = input.table.files[labels_file ? 1 : 0];
    throw invalid_argument(display_path(file.path) + ": found " + std::to_string(found) + " columns, expected " +
                           expected);
}

// The number of prediction columns when the last `target_columns` columns of the table are the
// targets; with a labels file, checks that it has exactly that many columns.
long prediction_columns(const Input& input, long target_columns) {
    if (!input.separate) return input.table.columns - target_columns;
    const long labels = input.table.columns - input.input_columns;
    if (labels != target_columns)
        fail_columns(input, true, labels,
                     std::to_string(target_columns) + (target_columns == 1 ? " (one target per row)" : " (the targets)") +
                         " for the predictions in " + display_path(input.table.files[0].path));
    return input.input_columns;
}

// Rethrows a data constructor's error at the file position of its row() and of `column` (in the
// combined table; -1 for a whole-row rule), keeping the constructor's message.
[[noreturn]] void rethrow(const NumericTable& table, const invalid_argument& error, long column,
                          const std::string& advice = "") {
    if (error.row() < 0 || error.row() >= table.rows)
        throw invalid_argument(display_path(table.files[0].path) + ": " + error.what() + advice);
    table.fail_at(error.row(), column, error.what() + advice);
}

// Columns [first, first + count) of the table as an n × count matrix.
Matrix columns_of(const NumericTable& table, long first, long count) {
    Matrix x(table.rows, count);
    for (long i = 0; i < table.rows; ++i)
        for (long k = 0; k < count; ++k) x(i, k) = table.at(i, first + k);
    return x;
}

// Labels of m classes in column `column` (class_labels, data.hpp: with the remedy of a likely
// convention mistake), at their file position when one is out of range.
std::vector<int> labels_in(const NumericTable& table, long column, long m, bool one_based, const char* name,
                           bool advise) {
    try {
        return class_labels(name, static_cast<std::size_t>(table.rows),
                            [&](std::size_t i) { return table.at(static_cast<long>(i), column); }, m, one_based,
                            advise);
    } catch (const invalid_argument& e) {
        table.fail_at(e.row(), column, e.what());
    }
}

}  // namespace

CategoricalData read_categorical(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    const Input input = read_input(path, options, files);
    const NumericTable& table = input.table;
    const long m = prediction_columns(input, 1);
    if (m < 2)
        fail_columns(input, false, input.input_columns,
                     input.separate ? "at least 2 (the m >= 2 class probabilities); for one probability column use "
                                      "--family binary"
                                    : "at least 3 (m >= 2 class probabilities, then the label); for one probability "
                                      "column use --family binary");
    if (options.classes > 0 && m != options.classes)
        fail_columns(input, false, input.input_columns,
                     std::to_string(options.classes + (input.separate ? 0 : 1)) + " (the m = " +
                         std::to_string(options.classes) + " class " + (options.logits ? "scores" : "probabilities") +
                         (input.separate ? ")" : ", then the label)"));
    std::vector<int> labels = labels_in(table, m, m, options.one_based_labels, "label", true);
    Matrix values = columns_of(table, 0, m);
    try {
        return options.logits ? CategoricalData::from_logits(values, std::move(labels))
                              : CategoricalData(std::move(values), std::move(labels), options.simplex);
    } catch (const invalid_argument& e) {
        // CategoricalData's columns are the table's: 0 … m − 1 the classes, m the label.
        rethrow(table, e, e.column(), probability_advice(e, view_of(columns_of(table, 0, m)), options.logits));
    }
}

Matrix read_class_predictions(const std::string& path, const ReadOptions& options, FileSummary* summary) {
    if (options.classes < 2) throw invalid_argument("read_class_predictions: the number of classes must be given, >= 2");
    if (!options.labels.empty()) throw invalid_argument("read_class_predictions: predictions without labels take no labels file");
    std::vector<FileSummary> files;
    const Input input = read_input(path, options, &files);
    if (summary) *summary = files.front();
    const NumericTable& table = input.table;
    const long m = options.classes;
    if (table.columns != m)
        fail_columns(input, false, table.columns,
                     std::to_string(m) + " (the map's m = " + std::to_string(m) + " class " +
                         (options.logits ? "scores" : "probabilities") +
                         "; if the last column holds the labels, give `labelled`)");
    Matrix values = columns_of(table, 0, m);
    if (options.logits) return values;
    try {  // the checks of read_categorical's probabilities; no label is read, so none is checked
        const CategoricalData checked(values, std::vector<int>(static_cast<std::size_t>(table.rows), 0), options.simplex);
        return Matrix(checked.probabilities());
    } catch (const invalid_argument& e) {
        rethrow(table, e, e.column(), probability_advice(e, view_of(values), false, true));
    }
}

CategoricalData read_binary(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    const Input input = read_input(path, options, files);
    const NumericTable& table = input.table;
    const long predictions = prediction_columns(input, 1);
    if (predictions != 1)
        fail_columns(input, false, input.input_columns,
                     std::string(input.separate ? "1 (p = P(Y = 1))" : "2 (p, y)") +
                         (predictions == 2 ? "; for two columns of probabilities (P(Y = 0), P(Y = 1): scikit-learn's "
                                             "predict_proba) use `family` categorical"
                                           : ""));
    // Two columns that sum to 1 where the labels should be are a predict_proba without its labels.
    for (long i = 0; i < table.rows && !input.separate; ++i) {
        const double p0 = table.at(i, 0), y = table.at(i, 1);
        if (y == std::floor(y)) continue;
        if (std::abs(p0 + y - 1) <= 1e-6)
            table.fail_at(i, 1, "y = " + detail::format_value(y) +
                                    ", must be an integer (0 or 1); the row's two columns sum to 1, as scikit-learn's "
                                    "predict_proba (P(Y = 0), P(Y = 1)) does: `family` binary takes P(Y = 1) and the "
                                    "label; for both probabilities use `family` categorical with the labels in a "
                                    "file given with `labels`");
        break;
    }
    const std::vector<int> y = labels_in(table, 1, 2, false, "y", false);
    try {
        return CategoricalData::from_binary(columns_of(table, 0, 1).col(0), y);
    } catch (const invalid_argument& e) {
        // from_binary reports p as column 0 and y as column 1, as in the table.
        rethrow(table, e, e.column() <= 1 ? e.column() : -1);
    }
}

namespace {

// normal and laplace: mu, scale, y.
template <class Data>
Data read_location_scale(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files,
                         const char* scale) {
    const Input input = read_input(path, options, files);
    const NumericTable& table = input.table;
    if (prediction_columns(input, 1) != 2)
        fail_columns(input, false, input.input_columns,
                     input.separate ? std::string("2 (mu, ") + scale + ")" : std::string("3 (mu, ") + scale + ", y)");
    try {
        return Data(columns_of(table, 0, 1).col(0), columns_of(table, 1, 1).col(0), columns_of(table, 2, 1).col(0));
    } catch (const invalid_argument& e) {
        // The vectors all report column 0; every cell is already finite, so the one entry rule left is
        // scale > 0: column 1.
        rethrow(table, e, e.column() < 0 ? -1 : 1);
    }
}

}  // namespace

NormalData read_normal(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    return read_location_scale<NormalData>(path, options, files, "sigma");
}

LaplaceData read_laplace(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    return read_location_scale<LaplaceData>(path, options, files, "beta");
}

MvNormalData read_mvnormal_diag(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    const Input input = read_input(path, options, files);
    const NumericTable& table = input.table;
    // mu_1..mu_d, sigma_1..sigma_d (2d columns) before the d targets.
    const long d = input.separate ? input.input_columns / 2 : input.table.columns / 3;
    if (input.separate ? input.input_columns % 2 != 0 || d < 1 : input.table.columns % 3 != 0 || d < 1)
        fail_columns(input, false, input.input_columns,
                     input.separate ? "an even number 2d (mu_1..mu_d, sigma_1..sigma_d)"
                                    : "a multiple of 3 (mu_1..mu_d, sigma_1..sigma_d, y_1..y_d)");
    prediction_columns(input, d);
    try {
        return MvNormalData::diagonal(columns_of(table, 0, d), columns_of(table, d, d), columns_of(table, 2 * d, d));
    } catch (const invalid_argument& e) {
        // Every cell is already finite, so an entry error is about sigma_k > 0: column d + k.
        rethrow(table, e, e.column() < 0 ? -1 : d + e.column());
    }
}

MvNormalData read_mvnormal(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    const Input input = read_input(path, options, files);
    const NumericTable& table = input.table;
    // d means and d(d+1)/2 covariance entries: d(d+3)/2 prediction columns, then d targets.
    const long columns = input.separate ? input.input_columns : input.table.columns;
    const auto width = [&](long d) { return input.separate ? d * (d + 3) / 2 : d * (d + 5) / 2; };
    long d = 1;
    while (width(d) < columns) ++d;
    if (width(d) != columns)
        fail_columns(input, false, input.input_columns,
                     input.separate ? "d(d+3)/2 for some dimension d (2, 5, 9, 14, ...: mu_1..mu_d, the d(d+1)/2 "
                                      "lower-triangular covariance entries row by row)"
                                    : "d(d+5)/2 for some dimension d (3, 7, 12, 18, 25, ...: mu_1..mu_d, the d(d+1)/2 "
                                      "lower-triangular covariance entries row by row, y_1..y_d)");
    prediction_columns(input, d);
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
        // The covariance rule (positive definite) is about a whole row.
        rethrow(table, e, -1);
    }
}

MixtureNormalData read_mixture_normal(const std::string& path, const ReadOptions& options,
                                      std::vector<FileSummary>* files) {
    const Input input = read_input(path, options, files);
    const NumericTable& table = input.table;
    const long predictions = prediction_columns(input, 1);
    if (predictions < 3 || predictions % 3 != 0)
        fail_columns(input, false, input.input_columns,
                     input.separate ? "3K for some number of components K >= 1 (3, 6, 9, ...: w_1..w_K, mu_1..mu_K, "
                                      "sigma_1..sigma_K)"
                                    : "3K + 1 for some number of components K >= 1 (4, 7, 10, ...: w_1..w_K, "
                                      "mu_1..mu_K, sigma_1..sigma_K, y)");
    const long K = predictions / 3;
    try {
        return MixtureNormalData(columns_of(table, 0, K), columns_of(table, K, K), columns_of(table, 2 * K, K),
                                 columns_of(table, 3 * K, 1).col(0), options.simplex);
    } catch (const invalid_argument& e) {
        // MixtureNormalData reports columns in the table's layout (-1 for the weights' sum).
        rethrow(table, e, e.column(),
                e.column() == -1 ? "; to accept such rows use --renormalize or a larger --simplex-tolerance" : "");
    }
}

std::string to_string(HeaderMode mode) {
    switch (mode) {
        case HeaderMode::automatic: return "auto";
        case HeaderMode::yes: return "yes";
        case HeaderMode::no: return "no";
    }
    return "unknown";
}

std::string to_string(Delimiter delimiter) {
    switch (delimiter) {
        case Delimiter::automatic: return "auto";
        case Delimiter::comma: return "comma";
        case Delimiter::tab: return "tab";
        case Delimiter::semicolon: return "semicolon";
        case Delimiter::whitespace: return "whitespace";
    }
    return "unknown";
}

HeaderMode parse_header_mode(const std::string& name) {
    for (const HeaderMode mode : {HeaderMode::automatic, HeaderMode::yes, HeaderMode::no})
        if (name == to_string(mode)) return mode;
    detail::fail("parse_header_mode", "unknown header mode '", name, "', expected auto, yes or no");
}

Delimiter parse_delimiter(const std::string& name) {
    for (const Delimiter d : {Delimiter::automatic, Delimiter::comma, Delimiter::tab, Delimiter::semicolon,
                              Delimiter::whitespace})
        if (name == to_string(d)) return d;
    detail::fail("parse_delimiter", "unknown delimiter '", name, "', expected auto, comma, tab, semicolon or whitespace");
}

}  // namespace calib

// Readers of predictions and targets from files: the input formats of the `calib` command-line tool
// (docs/cli.md, "Input files").
//
// A data set is one table of numbers with one observation per row: the prediction columns, then the
// target columns (the label, or the observed value(s)); or the prediction columns in one file and the
// targets in another (ReadOptions::labels), row i of both belonging to observation i.
// Columns are taken by position:
//
//   family          prediction columns                                   target columns
//   categorical     p_1 … p_m (m ≥ 2)                                    label (0-based, or 1-based on request)
//   binary          p = P(Y = 1)                                         y ∈ {0, 1}
//   normal          mu, sigma                                            y
//   laplace         mu, beta                                             y
//   mvnormal-diag   mu_1 … mu_d, sigma_1 … sigma_d                       y_1 … y_d
//   mvnormal        mu_1 … mu_d, the d(d+1)/2 lower-triangular covariance
//                   entries row by row (Σ_11, Σ_21, Σ_22, Σ_31, …)         y_1 … y_d
//   mixture-normal  w_1 … w_K, mu_1 … mu_K, sigma_1 … sigma_K             y
//
// File formats, recognised by their content:
//   - NumPy .npy (versions 1–3; float16/32/64, integer and bool dtypes, either byte order, C or
//     Fortran order; 1-d arrays are one column). Floating values are widened to double exactly.
//   - Delimited text: comma-, tab-, semicolon- or whitespace-separated (TextFormat::delimiter; by
//     default the first of ',', tab, ';' found on the first line, else runs of spaces/tabs), one row
//     per line, an optional header line (TextFormat::header; by default a first line is a header
//     exactly when one of its cells is not a number), CRLF line ends, a UTF-8 byte-order mark, cells
//     trimmed of spaces and of one pair of double quotes; blank lines only at the end. Every cell must
//     be a finite number ("nan", "inf", overflow, empty cells and text such as "1.5abc" are
//     rejected; an underflow reads as 0 or a subnormal).
//   .npz archives and compressed files are refused with a message saying so.
//
// Every problem throws calib::invalid_argument with a one-line message naming the file and the
// position: "preds.csv: line 4, column 2: …" for text (lines 1-based, the header is line 1),
// "preds.npy: element [3, 1]: …" for arrays (0-based, as NumPy indexes). Its row() is the 0-based
// observation and column() the 0-based column of the combined table (predictions, then targets), or -1.
// Reading is O(file size) time and memory.
#pragma once

#include <calib/data.hpp>
#include <calib/errors.hpp>
#include <calib/npy.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace calib {

// Whether the first line of a text file is a header: `automatic` decides by its cells (all numbers:
// data), `yes` always skips it, `no` always reads it as data.
enum class HeaderMode { automatic, yes, no };
enum class Delimiter { automatic, comma, tab, semicolon, whitespace };

struct TextFormat {
    HeaderMode header = HeaderMode::automatic;
    Delimiter delimiter = Delimiter::automatic;
};

// How a file was read, for the record (the CLI prints it).
struct FileSummary {
    std::string path;
    std::string format;       // "text" or "npy"
    std::size_t rows = 0, columns = 0;
    bool header = false;      // text: the first line was a header (and skipped)
    std::string delimiter;    // text: "comma", "tab", "semicolon" or "whitespace"
    std::string dtype;        // npy: the array's dtype, e.g. "<f4"
};

struct ReadOptions {
    // A separate file of targets (labels for categorical and binary data), one row per observation
    // (d columns for the mvnormal families, else one); empty: the last column(s) of the input.
    std::string labels;
    TextFormat text;
    bool one_based_labels = false;  // categorical: labels are 1 … m instead of 0 … m − 1
    bool logits = false;            // categorical: the m prediction columns are logits (row-wise softmax)
    SimplexOptions simplex;         // categorical probabilities and mixture weights
    long classes = 0;               // categorical: the m the file must have (0: from its columns)
};

// The readers; "-" reads standard input (only one of the input and the labels file can be "-").
// `files`, when given, receives a summary of each file read (input, then labels).
CategoricalData read_categorical(const std::string& path, const ReadOptions& options = {},
                                 std::vector<FileSummary>* files = nullptr);
// Class predictions without labels (the input of `calib recalibrate apply`): exactly options.classes
// (>= 2) columns, probabilities checked as read_categorical checks them and returned as read (with
// options.simplex.renormalize, divided by their row sums), or with options.logits any finite scores.
Matrix read_class_predictions(const std::string& path, const ReadOptions& options, FileSummary* summary = nullptr);
// Binary p, y as the 2-class model [1 − p, p] (CategoricalData::from_binary).
CategoricalData read_binary(const std::string& path, const ReadOptions& options = {},
                            std::vector<FileSummary>* files = nullptr);
NormalData read_normal(const std::string& path, const ReadOptions& options = {},
                       std::vector<FileSummary>* files = nullptr);
LaplaceData read_laplace(const std::string& path, const ReadOptions& options = {},
                         std::vector<FileSummary>* files = nullptr);
MvNormalData read_mvnormal_diag(const std::string& path, const ReadOptions& options = {},
                                std::vector<FileSummary>* files = nullptr);
// Infers d from the column count, which must be d(d+5)/2 (d(d+3)/2 with a separate targets file).
MvNormalData read_mvnormal(const std::string& path, const ReadOptions& options = {},
                           std::vector<FileSummary>* files = nullptr);
// Infers K from the column count, which must be 3K + 1 (3K with a separate targets file).
MixtureNormalData read_mixture_normal(const std::string& path, const ReadOptions& options = {},
                                      std::vector<FileSummary>* files = nullptr);

// Any table of finite numbers in the formats above: the features of the conditional MMD (mmd.hpp) and
// of the LCE (metrics.hpp), one row per observation, and the predictions `calib recalibrate apply` maps.
// Group ids: one column of integers. `summary`, when given, receives how the file was read.
Matrix read_table(const std::string& path, const TextFormat& text = {}, FileSummary* summary = nullptr);
std::vector<int> read_groups(const std::string& path, const TextFormat& text = {}, FileSummary* summary = nullptr);

// Writing files. Every file calib writes (maps, recalibrated predictions, reports, the apps' tables)
// goes through write_file, which replaces the file whole or not at all: the bytes go to a temporary
// file beside the target ("<name>.calib-partial-<pid>-<k>"), every write is checked, the file is
// fsync'ed and renamed over the target. On a failure (full disk, I/O error, a kill) the previous file
// is unchanged and no temporary file is kept; after a kill -9 the partial file stays until the next
// write to the same target removes it (a user may delete such files at any time). A symbolic link's
// target is the file updated (the link stays); a device or a FIFO (/dev/null, a pipe) is written
// through, never replaced; a regular file without write permission is refused, even for root; the
// replaced file's permissions are kept. Failures throw calib::invalid_argument "<path>: cannot be
// written: <reason>".
void write_file(const std::string& path, std::string_view bytes);
// The checks of write_file without writing (the folder exists and takes a new file, the target is not
// read-only): the CLI calls it before a long computation whose result goes to `path`.
void check_writable(const std::string& path);

// A file named by an option of an operation: `input`, `labels`, `map`, `out`, ...
struct FileOption {
    std::string option;  // the option's name, snake_case
    std::string path;    // as given; "-" is standard input
};
// Refuses to write `output` over a file the same operation reads, before anything is read or
// written: throws calib::invalid_argument "`out` preds.csv is the same file as `input` preds.csv: ...".
// Files are compared by device and inode after following symbolic links, so a link or a hard link to
// an input is refused too; "-" stands for whatever standard input is (a file redirected with <). Only
// regular files are compared: an output that does not exist yet, a device or a FIFO is no input's.
void check_not_an_input(const FileOption& output, const std::vector<FileOption>& inputs);

// Names used by the CLI ("auto", "yes", "no"; "auto", "comma", "tab", "semicolon", "whitespace") and
// their parsers, which throw calib::invalid_argument on an unknown name.
std::string to_string(HeaderMode mode);
std::string to_string(Delimiter delimiter);
HeaderMode parse_header_mode(const std::string& name);
Delimiter parse_delimiter(const std::string& name);

}  // namespace calib

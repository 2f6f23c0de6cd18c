// CSV readers for the input formats of the `calib` command-line tool (docs/cli.md).
//
// Format: a header row (required, skipped), then one observation per line; columns are taken by
// position; comma-separated; whitespace around a cell is trimmed; CRLF line ends are accepted;
// blank lines are allowed only at the end. Every cell must be a finite number (std::strtod, fully
// consumed: "1.5abc", "nan", "inf" and empty cells are rejected).
//
//   family          columns (d: dimension)
//   categorical     p_1 … p_m, label          (m ≥ 2; label 0-based, or 1-based on request)
//   binary          p, y                      (p = P(Y = 1), y ∈ {0, 1})
//   normal          mu, sigma, y
//   laplace         mu, beta, y
//   mvnormal-diag   mu_1 … mu_d, sigma_1 … sigma_d, y_1 … y_d            (3d columns)
//   mvnormal        mu_1 … mu_d, the d(d+1)/2 lower-triangular covariance entries row by row
//                   (Σ_11, Σ_21, Σ_22, Σ_31, …), y_1 … y_d                (d(d+5)/2 columns)
//   mixture-normal  w_1 … w_K, mu_1 … mu_K, sigma_1 … sigma_K, y           (3K + 1 columns)
//
// Every problem with a file throws calib::invalid_argument with a one-line message that names the
// file, the 1-based line (the header is line 1) and the 1-based column where one applies, e.g.
//   "preds.csv: line 4, column 2: cell \"0.3x\" is not a number".
// Its row() is the 0-based observation (line − 2) and column() the 0-based file column, or -1.
// Reading is O(file size) time and memory.
#pragma once

#include <calib/data.hpp>
#include <calib/errors.hpp>

#include <string>

namespace calib {

struct CsvReadOptions {
    bool one_based_labels = false;  // categorical: labels are 1 … m instead of 0 … m − 1
    bool logits = false;            // categorical: the m columns are logits (row-wise softmax)
};

CategoricalData read_categorical_csv(const std::string& path, const CsvReadOptions& options = {});
// Binary p,y as the 2-class model [1 − p, p] (CategoricalData::from_binary).
CategoricalData read_binary_csv(const std::string& path);
NormalData read_normal_csv(const std::string& path);
LaplaceData read_laplace_csv(const std::string& path);
MvNormalData read_mvnormal_diag_csv(const std::string& path);
// Infers d from the column count; a count that is d(d+5)/2 for no d ≥ 1 throws.
MvNormalData read_mvnormal_csv(const std::string& path);
// Mixtures of K normals (weights on the simplex within 1e-8); infers K from the column count, which
// must be 3K + 1 for some K ≥ 1.
MixtureNormalData read_mixture_normal_csv(const std::string& path);

}  // namespace calib

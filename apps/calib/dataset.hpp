// The prediction families of the CLI and the data set of one run, read from its files.
#pragma once

#include <calib/data.hpp>
#include <calib/io.hpp>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace calib::cli {

enum class Family { categorical, binary, normal, laplace, mvnormal_diag, mvnormal, mixture_normal };

// Binary data is held as 2-class categorical data; both mvnormal layouts as MvNormalData.
using Dataset = std::variant<CategoricalData, NormalData, LaplaceData, MvNormalData, MixtureNormalData>;

// "categorical|binary|normal|laplace|mvnormal-diag|mvnormal|mixture-normal", for messages.
extern const char* const family_choices;

std::string to_string(Family family);
// Throws usage_error on an unknown name.
Family parse_family(const std::string& name);
bool is_categorical(Family family);  // categorical or binary

// Reads a file (and a labels file) in the family's format (io.hpp); throws calib::invalid_argument on a
// bad file. `files` receives a summary of each file read.
Dataset read_dataset(Family family, const std::string& path, const ReadOptions& options,
                     std::vector<FileSummary>* files = nullptr);

std::size_t size_of(const Dataset& data);

// The largest deviation of a row of probabilities or mixture weights from the simplex (as read), or
// nothing for the families without simplex rows.
std::optional<double> max_simplex_deviation(const Dataset& data);

// Reads test locations (one file with the predictions and targets of each location, in the family's
// format, whatever --labels says for the input) and checks that they live in the space of the
// predictions `data` (same number of classes, same dimension); throws calib::invalid_argument naming
// both files.
Dataset read_locations(Family family, const std::string& path, const ReadOptions& options,
                       const Dataset& data, const std::string& data_path);

}  // namespace calib::cli

// The families of predictions as files and programs give them: one entry per family with its name,
// its columns, the reader of its files, and the kernels it supports (the command line's --family, the
// Python module's family=). A data set of any family is an AnyData (data.hpp).
#pragma once

#include <calib/data.hpp>
#include <calib/io.hpp>
#include <calib/kernels.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace calib {

// One array of a family's data set as keyword arrays give it (the Python module): its name and its number
// of dimensions (1: (n,), 2: (n, k), 3: (n, d, d)).
struct ArrayInfo {
    std::string name;
    int ndim = 1;
};
// An array given for an ArrayInfo: a view of its values ((n,) as n×1, (n, k) as n×k), or for a 3-d array
// its n matrices d×d.
struct ArrayInput {
    MatrixView values = MatrixView(nullptr, 0, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(0, 0));
    std::vector<Matrix> matrices;
};

struct FamilyInfo {
    std::string name;                       // "categorical", "binary", "normal", "laplace", "mvnormal-diag", …
    std::string prediction_columns;         // for help texts: "p_1,...,p_m (m >= 2)"
    std::string target_columns;             // "label (0-based)"
    std::string summary;                    // what the predictions are, in a few words
    bool classes = false;                   // class predictions (CategoricalData): class-only methods apply
    bool univariate = false;                // univariate distributions (is_univariate_v): the PIT, NLL and metrics apply
    bool labels_options = false;            // --one-based-labels and --logits apply (categorical files)
    bool simplex_rows = false;              // rows of probabilities or weights: the simplex options apply
    std::vector<Metric> metrics;            // supported, the default first
    std::vector<TargetKernelType> targets;  // supported, the default first
    // Reads a file (and a labels file) in the family's format (io.hpp).
    AnyData (*read)(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) = nullptr;
    // The keyword arrays of its data, in the order of the file's columns (probs, labels; mean, std, y; …),
    // and the data set built from them (one ArrayInput per array, with the same n; the views' memory kept
    // alive by `owner`; the reading options of ReadingSetup without the files' ones). Throws
    // invalid_argument as the data set's constructor does, a label's error prefixed with its array and
    // row ("labels[3]: …").
    std::vector<ArrayInfo> arrays;
    AnyData (*from_arrays)(const std::vector<ArrayInput>& arrays, Owner owner, const ReadOptions& options) = nullptr;
};

// Every family, in the order of the documentation.
const std::vector<FamilyInfo>& families();
// The family of that name; throws option_error ("option `family` = gamma, must be one of categorical, …").
const FamilyInfo& find_family(const std::string& name);
// "categorical|binary|normal|...": the names, for messages and help texts.
std::string family_names();

// The family that given keyword arrays (names, numbers of dimensions) belong to: the one with most of
// their names, then the one whose first array has the dimensions given, then the first in the table.
// Throws invalid_argument when no family has any of the names. Missing and extra arrays are for
// from_arrays' caller to report (check_arrays).
const FamilyInfo& family_of_arrays(const std::vector<ArrayInfo>& given);
// Throws invalid_argument unless `given` names exactly the family's arrays: "y does not apply to family
// categorical, whose arrays are probs, labels", "missing std: family normal needs mean, std, y".
void check_arrays(const FamilyInfo& family, const std::vector<ArrayInfo>& given);
// "probs, labels": the names of the family's arrays.
std::string array_names(const FamilyInfo& family);

// The predictions of a data set of `family` in words, for readable outputs: "10 classes (categorical)",
// "binary predictions", "diagonal multivariate normal predictions of dimension 2", "mixtures of 3
// normals", "normal predictions".
std::string describe_predictions(const AnyData& data, const FamilyInfo& family);

std::size_t data_size(const AnyData& data);
bool has_classes(const AnyData& data);  // CategoricalData
Kernel default_kernel(const AnyData& data);
// The largest deviation of a row of probabilities or mixture weights from the simplex (as given),
// or nothing for the families without such rows.
std::optional<double> max_simplex_deviation(const AnyData& data);
// The observations at the given indices (data.hpp's subset for any family).
AnyData subset(const AnyData& data, const std::vector<std::size_t>& indices);

}  // namespace calib

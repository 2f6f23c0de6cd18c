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

struct FamilyInfo {
    std::string name;                       // "categorical", "binary", "normal", "laplace", "mvnormal-diag", …
    std::string prediction_columns;         // for help texts: "p_1,...,p_m (m >= 2)"
    std::string target_columns;             // "label (0-based)"
    std::string summary;                    // what the predictions are, in a few words
    bool classes = false;                   // class predictions (CategoricalData): class-only methods apply
    bool labels_options = false;            // --one-based-labels and --logits apply (categorical files)
    bool simplex_rows = false;              // rows of probabilities or weights: the simplex options apply
    std::vector<Metric> metrics;            // supported, the default first
    std::vector<TargetKernelType> targets;  // supported, the default first
    // Reads a file (and a labels file) in the family's format (io.hpp).
    AnyData (*read)(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) = nullptr;
};

// Every family, in the order of the documentation.
const std::vector<FamilyInfo>& families();
// The family of that name; throws option_error ("option `family` = gamma, must be one of categorical, …").
const FamilyInfo& find_family(const std::string& name);
// "categorical|binary|normal|...": the names, for messages and help texts.
std::string family_names();

std::size_t data_size(const AnyData& data);
bool has_classes(const AnyData& data);  // CategoricalData
Kernel default_kernel(const AnyData& data);
// The largest deviation of a row of probabilities or mixture weights from the simplex (as given),
// or nothing for the families without such rows.
std::optional<double> max_simplex_deviation(const AnyData& data);
// The observations at the given indices (data.hpp's subset for any family).
AnyData subset(const AnyData& data, const std::vector<std::size_t>& indices);

}  // namespace calib

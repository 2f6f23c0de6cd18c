// Family names and reading a data set of the chosen family (dataset.hpp).
#include "dataset.hpp"

#include "usage_error.hpp"

#include <utility>

namespace calib::cli {

namespace {
const std::pair<Family, const char*> family_names[] = {
    {Family::categorical, "categorical"}, {Family::binary, "binary"},
    {Family::normal, "normal"},           {Family::laplace, "laplace"},
    {Family::mvnormal_diag, "mvnormal-diag"}, {Family::mvnormal, "mvnormal"},
};
}  // namespace

const char* const family_choices = "categorical|binary|normal|laplace|mvnormal-diag|mvnormal";

std::string to_string(Family family) {
    for (const auto& [f, name] : family_names)
        if (f == family) return name;
    return "unknown";
}

Family parse_family(const std::string& name) {
    for (const auto& [f, known] : family_names)
        if (name == known) return f;
    throw usage_error("unknown family '" + name + "', expected one of " + family_choices);
}

bool is_categorical(Family family) {
    return family == Family::categorical || family == Family::binary;
}

Dataset read_dataset(Family family, const std::string& path, const CsvReadOptions& options) {
    switch (family) {
        case Family::categorical: return read_categorical_csv(path, options);
        case Family::binary: return read_binary_csv(path);
        case Family::normal: return read_normal_csv(path);
        case Family::laplace: return read_laplace_csv(path);
        case Family::mvnormal_diag: return read_mvnormal_diag_csv(path);
        case Family::mvnormal: return read_mvnormal_csv(path);
    }
    throw usage_error("unknown family");
}

std::size_t size_of(const Dataset& data) {
    return std::visit([](const auto& d) { return d.size(); }, data);
}

}  // namespace calib::cli

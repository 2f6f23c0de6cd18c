// Family names and reading a data set of the chosen family (dataset.hpp).
#include "dataset.hpp"

#include "usage_error.hpp"

#include <calib/errors.hpp>

#include <iostream>
#include <utility>

namespace calib::cli {

namespace {
const std::pair<Family, const char*> family_names[] = {
    {Family::categorical, "categorical"}, {Family::binary, "binary"},
    {Family::normal, "normal"},           {Family::laplace, "laplace"},
    {Family::mvnormal_diag, "mvnormal-diag"}, {Family::mvnormal, "mvnormal"},
    {Family::mixture_normal, "mixture-normal"},
};
}  // namespace

const char* const family_choices = "categorical|binary|normal|laplace|mvnormal-diag|mvnormal|mixture-normal";

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

namespace {

// A likely 1-based file read as 0-based: label 0 never occurs although n ≥ 20m observations make its
// absence unlikely for any model worth evaluating (under uniform labels, (1 − 1/m)^n < e^{−20}).
void warn_if_one_based(const CategoricalData& data, const std::string& path, const ReadOptions& options) {
    const std::size_t m = static_cast<std::size_t>(data.num_classes());
    if (options.one_based_labels || data.size() < 20 * m) return;
    for (const int label : data.labels())
        if (label == 0) return;
    const std::string file = options.labels.empty() ? path : options.labels;
    std::cerr << "calib: warning: " << (file == "-" ? "stdin" : file) << ": label 0 never occurs among "
              << data.size() << " observations of " << m << " classes; if the labels run 1.." << m
              << ", pass --one-based-labels (they are read as 0-based: class k is label k)\n";
}

}  // namespace

Dataset read_dataset(Family family, const std::string& path, const ReadOptions& options,
                     std::vector<FileSummary>* files) {
    switch (family) {
        case Family::categorical: {
            CategoricalData data = read_categorical(path, options, files);
            warn_if_one_based(data, path, options);
            return data;
        }
        case Family::binary: return read_binary(path, options, files);
        case Family::normal: return read_normal(path, options, files);
        case Family::laplace: return read_laplace(path, options, files);
        case Family::mvnormal_diag: return read_mvnormal_diag(path, options, files);
        case Family::mvnormal: return read_mvnormal(path, options, files);
        case Family::mixture_normal: return read_mixture_normal(path, options, files);
    }
    throw usage_error("unknown family");
}

std::optional<double> max_simplex_deviation(const Dataset& data) {
    if (const auto* c = std::get_if<CategoricalData>(&data)) return c->max_simplex_deviation();
    if (const auto* m = std::get_if<MixtureNormalData>(&data)) return m->max_simplex_deviation();
    return std::nullopt;
}

std::size_t size_of(const Dataset& data) {
    return std::visit([](const auto& d) { return d.size(); }, data);
}

// Said here so that the message names the two files rather than the arguments of the library call.
Dataset read_locations(Family family, const std::string& path, const ReadOptions& options,
                       const Dataset& data, const std::string& data_path) {
    ReadOptions own = options;
    own.labels.clear();
    Dataset locations = read_dataset(family, path, own);
    const auto fail = [&](const std::string& what, long of_locations, long of_data) {
        throw invalid_argument(path + ": the test locations have " + what + " " +
                               std::to_string(of_locations) + " but " + data_path + " has " +
                               std::to_string(of_data));
    };
    if (const auto* c = std::get_if<CategoricalData>(&data)) {
        const int m = std::get<CategoricalData>(locations).num_classes();
        if (m != c->num_classes()) fail("number of classes", m, c->num_classes());
    } else if (const auto* mv = std::get_if<MvNormalData>(&data)) {
        const int dim = std::get<MvNormalData>(locations).dimension();
        if (dim != mv->dimension()) fail("dimension", dim, mv->dimension());
    }
    return locations;
}

}  // namespace calib::cli

// The families' data sets from keyword arrays (family_arrays.hpp): views of the caller's memory where the
// data set keeps its values as given, copies where it transforms them (logits, binary probabilities).
#include "registry/family_arrays.hpp"

#include "core/check.hpp"

#include <algorithm>

namespace calib::detail {

namespace {

VectorView column(const ArrayInput& a) {
    return VectorView(a.values.data(), a.values.rows(), Eigen::InnerStride<Eigen::Dynamic>(a.values.innerStride()));
}

// Labels of m classes from an (n,) array of numbers (class_labels), 0-based; an error names the array's
// element ("labels[3]: label = 10, must be in [0, 9] …").
std::vector<int> labels_of(const ArrayInput& a, const std::string& array, long m, bool one_based, bool binary) {
    try {
        return class_labels(binary ? "y" : "label", static_cast<std::size_t>(a.values.rows()),
                            [&](std::size_t i) { return a.values(static_cast<Eigen::Index>(i), 0); }, m, one_based,
                            !binary);
    } catch (const invalid_argument& e) {
        throw invalid_argument(array + "[" + std::to_string(e.row()) + "]: " + e.what(), e.row());
    }
}

}  // namespace

AnyData categorical_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& o) {
    std::vector<int> labels = labels_of(a[1], "labels", a[0].values.cols(), o.one_based_labels, false);
    const Matrix logits = o.logits ? Matrix(a[0].values) : Matrix();  // the softmax replaces them
    const MatrixView p = o.logits ? view_of(logits) : a[0].values;
    try {
        return o.logits ? CategoricalData::from_logits(logits, std::move(labels))
                        : CategoricalData(p, std::move(owner), std::move(labels), o.simplex);
    } catch (const invalid_argument& e) {
        throw invalid_argument(e.what() + probability_advice(e, p, o.logits), e.row(), e.column());
    }
}

AnyData binary_from_arrays(const std::vector<ArrayInput>& a, Owner, const ReadOptions&) {
    const std::vector<int> labels = labels_of(a[1], "labels", 2, false, true);
    return CategoricalData::from_binary(Vector(column(a[0])), labels);  // a copy: the data set holds [1 - p, p]
}

AnyData normal_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions&) {
    return NormalData(column(a[0]), column(a[1]), column(a[2]), std::move(owner));
}

AnyData laplace_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions&) {
    return LaplaceData(column(a[0]), column(a[1]), column(a[2]), std::move(owner));
}

AnyData mvnormal_diag_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions&) {
    return MvNormalData::diagonal(a[0].values, a[1].values, a[2].values, std::move(owner));
}

AnyData mvnormal_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions&) {
    return MvNormalData::full(a[0].values, a[1].matrices, a[2].values, std::move(owner));
}

AnyData mixture_normal_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& o) {
    return MixtureNormalData(a[0].values, a[1].values, a[2].values, column(a[3]), std::move(owner), o.simplex);
}

}  // namespace calib::detail

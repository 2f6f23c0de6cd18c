// The families of predictions (families.hpp): names, columns, readers, supported kernels (from each data
// type's description, kernels/family_traits.hpp), and the data sets built from keyword arrays.
#include <calib/families.hpp>

#include "core/check.hpp"
#include "kernels/family_traits.hpp"
#include "registry/option_table.hpp"

#include <algorithm>
#include <iterator>

namespace calib {

namespace {

// ---- each family's data set from keyword arrays (FamilyInfo::from_arrays): views of the caller's memory
// where the data set keeps its values as given, copies where it transforms them (logits, binary
// probabilities).

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

// ---- the table --------------------------------------------------------------------------------------

template <class Data>
std::vector<Metric> metrics_of() {
    return {std::begin(detail::FamilyTraits<Data>::metrics), std::end(detail::FamilyTraits<Data>::metrics)};
}
template <class Data>
std::vector<TargetKernelType> targets_of() {
    return {std::begin(detail::FamilyTraits<Data>::targets), std::end(detail::FamilyTraits<Data>::targets)};
}

template <class Data, Data (*Reader)(const std::string&, const ReadOptions&, std::vector<FileSummary>*)>
AnyData read_as(const std::string& path, const ReadOptions& options, std::vector<FileSummary>* files) {
    return Reader(path, options, files);
}

template <class Data>
FamilyInfo family(std::string name, std::string predictions, std::string targets, std::string summary,
                  AnyData (*read)(const std::string&, const ReadOptions&, std::vector<FileSummary>*),
                  std::vector<ArrayInfo> arrays, AnyData (*from_arrays)(const std::vector<ArrayInput>&, Owner, const ReadOptions&)) {
    FamilyInfo f;
    f.name = std::move(name);
    f.prediction_columns = std::move(predictions);
    f.target_columns = std::move(targets);
    f.summary = std::move(summary);
    f.classes = std::is_same_v<Data, CategoricalData>;
    f.univariate = is_univariate_v<Data>;
    f.metrics = metrics_of<Data>();
    f.targets = targets_of<Data>();
    f.read = read;
    f.arrays = std::move(arrays);
    f.from_arrays = from_arrays;
    return f;
}

std::vector<FamilyInfo> make_families() {
    std::vector<FamilyInfo> all;
    all.push_back(family<CategoricalData>("categorical", "p_1,...,p_m", "label",
                                          "class probabilities (m >= 2, rows summing to 1) and 0-based labels",
                                          read_as<CategoricalData, read_categorical>, {{"probs", 2}, {"labels", 1}},
                                          categorical_from_arrays));
    all.back().labels_options = all.back().simplex_rows = true;
    all.push_back(family<CategoricalData>("binary", "p", "y", "P(Y = 1) and labels y in {0, 1}",
                                          read_as<CategoricalData, read_binary>, {{"probs", 1}, {"labels", 1}},
                                          binary_from_arrays));
    all.push_back(family<NormalData>("normal", "mu,sigma", "y", "normal predictions N(mu, sigma^2) of real targets",
                                     read_as<NormalData, read_normal>, {{"mean", 1}, {"std", 1}, {"y", 1}},
                                     normal_from_arrays));
    all.push_back(family<LaplaceData>("laplace", "mu,beta", "y", "Laplace predictions L(mu, beta) of real targets",
                                      read_as<LaplaceData, read_laplace>, {{"mean", 1}, {"scale", 1}, {"y", 1}},
                                      laplace_from_arrays));
    all.push_back(family<MvNormalData>("mvnormal-diag", "mu_1..mu_d,sigma_1..sigma_d", "y_1..y_d",
                                       "d-variate normal predictions with diagonal covariances",
                                       read_as<MvNormalData, read_mvnormal_diag>, {{"mean", 2}, {"std", 2}, {"y", 2}},
                                       mvnormal_diag_from_arrays));
    all.push_back(family<MvNormalData>("mvnormal", "mu_1..mu_d, the d(d+1)/2 lower-triangular covariance entries row "
                                       "by row (S11,S21,S22,S31,...)",
                                       "y_1..y_d", "d-variate normal predictions with full covariances",
                                       read_as<MvNormalData, read_mvnormal>, {{"mean", 2}, {"cov", 3}, {"y", 2}},
                                       mvnormal_from_arrays));
    all.push_back(family<MixtureNormalData>("mixture-normal", "w_1..w_K,mu_1..mu_K,sigma_1..sigma_K", "y",
                                            "mixtures of K normals with weights w summing to 1 (metric w2 is then "
                                            "MW2)",
                                            read_as<MixtureNormalData, read_mixture_normal>,
                                            {{"weights", 2}, {"means", 2}, {"stds", 2}, {"y", 1}},
                                            mixture_normal_from_arrays));
    all.back().simplex_rows = true;
    return all;
}

}  // namespace

const std::vector<FamilyInfo>& families() {
    static const std::vector<FamilyInfo> all = make_families();
    return all;
}

std::string family_names() {
    std::string names;
    for (const FamilyInfo& f : families()) names += (names.empty() ? "" : "|") + f.name;
    return names;
}

const FamilyInfo& find_family(const std::string& name) {
    for (const FamilyInfo& f : families())
        if (f.name == name) return f;
    std::vector<std::string> names;
    for (const FamilyInfo& f : families()) names.push_back(f.name);
    throw option_error("family", name, "one of " + detail::one_of(names));
}

std::string array_names(const FamilyInfo& family) {
    std::string names;
    for (const ArrayInfo& a : family.arrays) names += (names.empty() ? "" : ", ") + a.name;
    return names;
}

const FamilyInfo& family_of_arrays(const std::vector<ArrayInfo>& given) {
    const auto has = [](const FamilyInfo& f, const std::string& name) {
        return std::any_of(f.arrays.begin(), f.arrays.end(), [&](const ArrayInfo& a) { return a.name == name; });
    };
    const FamilyInfo* best = nullptr;
    std::size_t best_count = 0;
    bool best_shape = false;
    for (const FamilyInfo& f : families()) {
        const auto count = static_cast<std::size_t>(
            std::count_if(given.begin(), given.end(), [&](const ArrayInfo& g) { return has(f, g.name); }));
        // The first array given that the family has, with the dimensions the family gives it.
        bool shape = false;
        for (const ArrayInfo& g : given)
            if (has(f, g.name)) {
                for (const ArrayInfo& a : f.arrays)
                    if (a.name == g.name) shape = a.ndim == g.ndim;
                break;
            }
        if (count > best_count || (count == best_count && count > 0 && shape && !best_shape)) {
            best = &f;
            best_count = count;
            best_shape = shape;
        }
    }
    if (!best) {
        std::string forms;
        for (const FamilyInfo& f : families()) forms += (forms.empty() ? "" : "; ") + array_names(f) + " (" + f.name + ")";
        throw invalid_argument("no predictions given: pass the arrays of a family: " + forms);
    }
    return *best;
}

void check_arrays(const FamilyInfo& family, const std::vector<ArrayInfo>& given) {
    for (const ArrayInfo& g : given)
        if (std::none_of(family.arrays.begin(), family.arrays.end(), [&](const ArrayInfo& a) { return a.name == g.name; }))
            throw invalid_argument(g.name + " does not apply to family " + family.name + ", whose arrays are " +
                                   array_names(family));
    for (const ArrayInfo& a : family.arrays)
        if (std::none_of(given.begin(), given.end(), [&](const ArrayInfo& g) { return g.name == a.name; }))
            throw invalid_argument("missing " + a.name + ": family " + family.name + " needs " + array_names(family));
}

std::string describe_predictions(const AnyData& data, const FamilyInfo& family) {
    if (const auto* c = std::get_if<CategoricalData>(&data))
        return family.name == "binary" ? "binary predictions" : std::to_string(c->num_classes()) + " classes (categorical)";
    if (const auto* mv = std::get_if<MvNormalData>(&data))
        return std::string(mv->is_diagonal() ? "diagonal " : "") + "multivariate normal predictions of dimension " +
               std::to_string(mv->dimension());
    if (const auto* mix = std::get_if<MixtureNormalData>(&data))
        return "mixtures of " + std::to_string(mix->num_components()) + " normals";
    return family.name + " predictions";
}

std::size_t data_size(const AnyData& data) {
    return std::visit([](const auto& d) { return d.size(); }, data);
}

bool has_classes(const AnyData& data) { return std::holds_alternative<CategoricalData>(data); }

Kernel default_kernel(const AnyData& data) {
    return std::visit([](const auto& d) { return default_kernel(d); }, data);
}

std::optional<double> max_simplex_deviation(const AnyData& data) {
    if (const auto* c = std::get_if<CategoricalData>(&data)) return c->max_simplex_deviation();
    if (const auto* m = std::get_if<MixtureNormalData>(&data)) return m->max_simplex_deviation();
    return std::nullopt;
}

AnyData subset(const AnyData& data, const std::vector<std::size_t>& indices) {
    return std::visit([&](const auto& d) { return AnyData(subset(d, indices)); }, data);
}

}  // namespace calib

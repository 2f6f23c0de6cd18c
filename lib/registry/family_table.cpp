// The families of predictions: names, columns, readers and supported kernels (families.hpp). The
// kernels come from each data type's description (kernels/family_traits.hpp).
#include <calib/families.hpp>

#include "core/check.hpp"
#include "kernels/family_traits.hpp"
#include "registry/family_arrays.hpp"
#include "registry/option_table.hpp"

#include <algorithm>
#include <iterator>

namespace calib {

namespace {

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
                  std::vector<ArrayInfo> arrays, detail::ArrayConstructor from_arrays) {
    FamilyInfo f;
    f.name = std::move(name);
    f.prediction_columns = std::move(predictions);
    f.target_columns = std::move(targets);
    f.summary = std::move(summary);
    f.classes = std::is_same_v<Data, CategoricalData>;
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
                                          detail::categorical_from_arrays));
    all.back().labels_options = all.back().simplex_rows = true;
    all.push_back(family<CategoricalData>("binary", "p", "y", "P(Y = 1) and labels y in {0, 1}",
                                          read_as<CategoricalData, read_binary>, {{"probs", 1}, {"labels", 1}},
                                          detail::binary_from_arrays));
    all.push_back(family<NormalData>("normal", "mu,sigma", "y", "normal predictions N(mu, sigma^2) of real targets",
                                     read_as<NormalData, read_normal>, {{"mean", 1}, {"std", 1}, {"y", 1}},
                                     detail::normal_from_arrays));
    all.push_back(family<LaplaceData>("laplace", "mu,beta", "y", "Laplace predictions L(mu, beta) of real targets",
                                      read_as<LaplaceData, read_laplace>, {{"mean", 1}, {"scale", 1}, {"y", 1}},
                                      detail::laplace_from_arrays));
    all.push_back(family<MvNormalData>("mvnormal-diag", "mu_1..mu_d,sigma_1..sigma_d", "y_1..y_d",
                                       "d-variate normal predictions with diagonal covariances",
                                       read_as<MvNormalData, read_mvnormal_diag>, {{"mean", 2}, {"std", 2}, {"y", 2}},
                                       detail::mvnormal_diag_from_arrays));
    all.push_back(family<MvNormalData>("mvnormal", "mu_1..mu_d, the d(d+1)/2 lower-triangular covariance entries row "
                                       "by row (S11,S21,S22,S31,...)",
                                       "y_1..y_d", "d-variate normal predictions with full covariances",
                                       read_as<MvNormalData, read_mvnormal>, {{"mean", 2}, {"cov", 3}, {"y", 2}},
                                       detail::mvnormal_from_arrays));
    all.push_back(family<MixtureNormalData>("mixture-normal", "w_1..w_K,mu_1..mu_K,sigma_1..sigma_K", "y",
                                            "mixtures of K normals with weights w summing to 1 (metric w2 is then "
                                            "MW2)",
                                            read_as<MixtureNormalData, read_mixture_normal>,
                                            {{"weights", 2}, {"means", 2}, {"stds", 2}, {"y", 1}},
                                            detail::mixture_normal_from_arrays));
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

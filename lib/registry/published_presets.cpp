// The presets of published experiments (registry.hpp): each paper's conventions as option values, and
// its table's columns as the registry's estimators and tests, run on one data set.
#include <calib/registry.hpp>

#include "core/stopwatch.hpp"

#include <algorithm>
#include <optional>

namespace calib {

namespace {

// Widmann, Lindsten & Zachariah (NeurIPS 2019), the CIFAR-10 experiment of the authors' repository
// CalibrationPaper (experiments/scripts/nn.jl, data/PyTorch-CIFAR10/errors.csv and pvalues.csv): the
// exponential TV kernel with the median of all n^2 pairwise distances (zero diagonal included), the
// linear test's variance with divisor s, the canonical ECE over 10 uniform bins per class or
// median-variance bins of at least 100 predictions, 1000 resamples, seed 1234 (calib's defaults where
// not listed).
Preset neurips2019() {
    const std::vector<std::pair<std::string, std::string>> dynamic = {{"binning", "median-variance:100"}};
    return {"neurips2019",
            "Widmann et al., NeurIPS 2019: the CIFAR-10 table of the authors' repository CalibrationPaper "
            "(errors.csv, pvalues.csv)",
            true,
            {{"lengthscale", "median-full"}, {"variance_divisor", "s"}, {"mode", "canonical"}},
            {{"errors", "ECE_uniform", false, "ece", {}},
             {"errors", "ECE_dynamic", false, "ece", dynamic},
             {"errors", "SKCEb_median", false, "skce-biased", {}},
             {"errors", "SKCEuq_median", false, "skce-unbiased", {}},
             {"errors", "SKCEul_median", false, "skce-block", {{"block_size", "2"}}},
             {"pvalues", "ECE_uniform", true, "consistency", {{"estimator", "ece"}}},
             {"pvalues", "ECE_dynamic", true, "consistency", {{"estimator", "ece"}, dynamic.front()}},
             {"pvalues", "SKCEb_median_distribution_free", true, "dfree-biased", {}},
             {"pvalues", "SKCEuq_median_distribution_free", true, "dfree-unbiased", {}},
             {"pvalues", "SKCEul_median_distribution_free", true, "dfree-block", {{"block_size", "2"}}},
             {"pvalues", "SKCEuq_median_asymptotic", true, "bootstrap", {}},
             {"pvalues", "SKCEul_median_asymptotic", true, "block", {{"block_size", "2"}}}}};
}

template <class MethodSetup>
MethodSetup column_setup(const Preset& preset, const PresetColumn& column, MethodSetup setup) {
    for (const auto& [name, value] : column.options) setup.set(name, value);
    apply_preset(preset, setup);
    setup.check();
    return setup;
}

}  // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> all = {neurips2019()};
    return all;
}

const Preset& find_preset(const std::string& name) {
    std::string names;
    for (const Preset& p : presets()) {
        if (p.name == name) return p;
        names += (names.empty() ? "" : "|") + p.name;
    }
    throw invalid_argument("unknown preset '" + name + "', expected one of " + names);
}

void check_preset_family(const Preset& preset, const FamilyInfo& family) {
    if (preset.classes_only && !family.classes)
        throw invalid_argument("the preset " + preset.name +
                               " is a table of class predictions (categorical or binary), not of family " + family.name);
}

std::vector<std::string> apply_preset(const Preset& preset, Setup& setup) {
    std::vector<std::string> set;
    for (const auto& [name, value] : preset.conventions)
        if (setup.option(name) && setup.applies(name) && !setup.given(name)) {
            // A convention is keyed by its option's name; another method's option of that name that
            // refuses the value (debiased-l2's `mode` of marginal|top-label) is not the convention's.
            try {
                setup.set(name, value);
            } catch (const option_error&) {
                continue;
            }
            set.push_back(name);
        }
    return set;
}

Timed<Record> run_preset(const Preset& preset, const AnyData& data, const ParallelOptions& parallel) {
    const detail::Stopwatch stopwatch;
    if (preset.classes_only && !has_classes(data))
        throw invalid_argument("the preset " + preset.name + " is a table of class predictions (categorical or binary)");
    const std::size_t n = data_size(data);
    KernelSetup kernel_setup(find_family("categorical"));
    apply_preset(preset, kernel_setup);
    // Every column's setup, checked against n before any column is computed.
    struct Column {
        const PresetColumn* spec;
        std::optional<EstimatorSetup> estimator;
        std::optional<TestSetup> test;
    };
    std::vector<Column> columns;
    for (const PresetColumn& c : preset.columns) {
        Column column{&c, std::nullopt, std::nullopt};
        if (c.test)
            column.test.emplace(column_setup(preset, c, make_test(c.method))).validate(n);
        else
            column.estimator.emplace(column_setup(preset, c, make_estimator(c.method))).validate(n);
        columns.push_back(std::move(column));
    }
    std::optional<Kernel> kernel;  // resolved once, for the first column that uses it
    const auto with_kernel = [&](KernelUse use) -> const Kernel* {
        if (use != KernelUse::skce) return nullptr;
        if (!kernel) kernel = kernel_setup.resolve(data, parallel);
        return &*kernel;
    };
    Record tables;
    for (const Column& c : columns) {
        const double value =
            c.test ? c.test->run(data, with_kernel(c.test->kernel_use()), nullptr, parallel).p_value
                   : c.estimator->run(data, with_kernel(c.estimator->kernel_use()), nullptr, parallel).estimate;
        auto table = std::find_if(tables.begin(), tables.end(), [&](const Field& f) { return f.name == c.spec->table; });
        if (table == tables.end()) table = tables.insert(tables.end(), {c.spec->table, Record()});
        std::get<Record>(table->value).push_back({c.spec->name, value});
    }
    if (kernel) tables.push_back({"lengthscale", find(kernel_setup.record(*kernel), "lengthscale")});
    return {std::move(tables), stopwatch.seconds()};
}

}  // namespace calib

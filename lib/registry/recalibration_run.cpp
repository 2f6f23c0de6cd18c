// The data of a recalibration fit, the fit on it and its held-out judgement (registry.hpp,
// RecalibrationData, RecalibrationSetup::run): one way from the command line's files and Python's
// arrays to the library.
#include <calib/registry.hpp>

#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>

#include "core/check.hpp"
#include "core/stopwatch.hpp"
#include "registry/recalibration_selection.hpp"

namespace calib {

namespace {

CategoricalScores rows_of(const CategoricalScores& data, const std::vector<std::size_t>& index) {
    CategoricalScores out{Matrix(static_cast<Eigen::Index>(index.size()), data.scores.cols()), {}, data.logits};
    for (std::size_t r = 0; r < index.size(); ++r) {
        out.scores.row(static_cast<Eigen::Index>(r)) = data.scores.row(static_cast<Eigen::Index>(index.at(r)));
        out.labels.push_back(data.labels.at(index[r]));
    }
    return out;
}

NormalData rows_of(const NormalData& data, const std::vector<std::size_t>& index) { return subset(data, index); }

// The held-out split: a seeded choice of floor(F n) held-out rows, the rest for fitting.
struct Split {
    std::vector<std::size_t> fit, held_out;
};

Split split(std::size_t n, double fraction, std::uint64_t seed) {
    Split out;
    const auto k = static_cast<std::size_t>(fraction * static_cast<double>(n));
    Rng rng = make_stream(seed, 0);
    out.held_out = sample_without_replacement(n, k, rng);
    for (std::size_t i = 0, j = 0; i < n; ++i)
        if (j < k && out.held_out[j] == i) ++j;
        else out.fit.push_back(i);
    return out;
}

// The features a normal map takes when applied: affine-features' x; none for affine (whose features,
// if any, were the individual notion's Z of the fit).
Matrix map_features(const RecalibrationMap& map, const Matrix& features) {
    return map.method == RecalibrationMethod::affine_features ? features : Matrix();
}

// The held-out predictions before the map (none) or after it, as a data set the tests take.
AnyData as_data(const RecalibrationData& held_out, const RecalibrationMap* map) {
    if (const auto* scores = std::get_if<CategoricalScores>(&held_out.data)) {
        if (map) return CategoricalData(apply_recalibration(*map, scores->scores), scores->labels);
        if (scores->logits) return CategoricalData::from_logits(scores->scores, scores->labels);
        return CategoricalData(scores->scores, scores->labels);
    }
    const NormalData& normal = std::get<NormalData>(held_out.data);
    if (!map) return normal;
    const Matrix out = apply_recalibration(*map, normal.mean(), normal.stddev(), map_features(*map, held_out.features));
    return NormalData(out.col(0), out.col(1), normal.targets());
}

double nll_of(const RecalibrationMap& map, const RecalibrationData& data) {
    if (const auto* scores = std::get_if<CategoricalScores>(&data.data)) return recalibrated_nll(map, *scores);
    return recalibrated_nll(map, std::get<NormalData>(data.data), map_features(map, data.features));
}

// The p-value of the SKCE bootstrap test with the registry's defaults and the kernel's median rule.
double skce_p_value(const AnyData& data, std::uint64_t seed, const ParallelOptions& parallel) {
    TestSetup test = make_test("bootstrap");
    test.set("seed", std::to_string(seed));
    test.check();
    test.validate(data_size(data));
    const FamilyInfo& family = find_family(std::holds_alternative<NormalData>(data) ? "normal" : "categorical");
    const Kernel kernel = KernelSetup(family).resolve(data, parallel);
    return test.run(data, &kernel, nullptr, parallel).p_value;
}

// The held-out conditional MMD² before and after the map (the registry's estimator mmd, unbiased): for
// categorical maps in the objective's notion (canonical unless `notion` says otherwise), for normal ones
// in the distribution notion with the PIT target. k_Z's lengthscale is the median heuristic's on the
// predictions before the map and is kept for after, so that both numbers use one kernel (as the fit's
// nll+mmd objective fixes it at the start).
void judge_mmd(const AnyData& before, const AnyData& after, MmdNotion notion, const ParallelOptions& parallel,
               Record& judged) {
    EstimatorSetup mmd = make_estimator("mmd");
    const bool normal = std::holds_alternative<NormalData>(before);
    mmd.set("notion", normal ? std::string("distribution") : to_string(notion));
    if (normal) mmd.set("kernel_y", "pit");
    mmd.check();
    const EstimateResult unmapped = mmd.run(before, nullptr, nullptr, parallel);
    judged.push_back({"mmd_notion", to_text(find(unmapped.details, "notion"))});
    if (notion != MmdNotion::marginal || normal) {  // marginal: no k_Z, so no lengthscale
        const auto& kernel = std::get<Record>(find(unmapped.details, "kernel"));
        const auto& conditioning = std::get<Record>(find(kernel, "conditioning"));
        // Class-wise records one lengthscale per class, all the same (docs/mmd.md).
        const double lengthscale =
            to_double(notion == MmdNotion::class_wise && !normal
                          ? std::get<Record>(find(conditioning, "lengthscales")).front().value
                          : find(conditioning, "lengthscale"));
        mmd.set("lengthscale", lengthscale);
        judged.push_back({"mmd_lengthscale", lengthscale});
    }
    const EstimateResult mapped = mmd.run(after, nullptr, nullptr, parallel);
    judged.push_back({"mmd_before", unmapped.estimate});
    judged.push_back({"mmd_after", mapped.estimate});
}

// The warnings of a fit: stopped by its iteration limit (its map may be far from the optimum), or
// worse than the identity on the held-out rows (it over-fitted the fitted ones: fewer parameters, a
// larger `ridge`, or more data).
std::vector<std::string> fit_warnings(const RecalibrationFit& fit, const Record* judged) {
    std::vector<std::string> warnings;
    if (fit.summary.termination == FitTermination::max_iterations)
        warnings.push_back("the fit stopped at `max_iterations` (" + std::to_string(fit.summary.iterations) +
                           ") before converging: the map may be far from the NLL's minimum (status max_iterations)");
    if (judged) {
        const double before = std::get<double>(find(*judged, "nll_before"));
        const double after = std::get<double>(find(*judged, "nll_after"));
        if (after > before)
            warnings.push_back("the map is worse than the identity on the held-out rows (NLL " + detail::format_value(after) +
                               " after against " + detail::format_value(before) +
                               " before): it over-fits the fitted rows; try a method with fewer parameters, a larger "
                               "`ridge` for matrix, or more data");
    }
    return warnings;
}

}  // namespace

std::size_t RecalibrationData::size() const {
    if (const auto* scores = std::get_if<CategoricalScores>(&data)) return scores->labels.size();
    return std::get<NormalData>(data).size();
}

RecalibrationData RecalibrationData::rows(const std::vector<std::size_t>& index) const {
    if (features.size() > 0 && static_cast<std::size_t>(features.rows()) != size())
        throw invalid_argument("`features` has " + std::to_string(features.rows()) + " rows, the data " +
                               std::to_string(size()));
    RecalibrationData out;
    out.data = std::visit([&](const auto& d) -> decltype(data) { return rows_of(d, index); }, data);
    if (features.size() > 0) {
        out.features.resize(static_cast<Eigen::Index>(index.size()), features.cols());
        for (std::size_t r = 0; r < index.size(); ++r)
            out.features.row(static_cast<Eigen::Index>(r)) = features.row(static_cast<Eigen::Index>(index[r]));
    }
    return out;
}

RecalibrationRun RecalibrationSetup::run(const RecalibrationData& input, const ParallelOptions& parallel) const {
    const detail::Stopwatch stopwatch;
    validate(input.size());
    const bool given = input.features.size() > 0;
    check_features(given);
    if (given) check_features(input.features, input.size());
    RecalibrationRun out;
    RecalibrationMethod chosen = method();
    const auto fit_on = [&](const RecalibrationData& data) {
        if (const auto* scores = std::get_if<CategoricalScores>(&data.data)) {
            if (const std::optional<MethodSelection> selection = this->selection()) {
                detail::SelectedMethod selected = detail::select_method(*scores, fit_options(), *selection);
                chosen = selected.method;
                out.selection = std::move(selected.record);
                out.warnings = std::move(selected.warnings);
            }
            return fit_recalibration(*scores, chosen, fit_options());
        }
        const NormalData& normal = std::get<NormalData>(data.data);
        return given ? fit_recalibration(normal, data.features, method(), fit_options())
                     : fit_recalibration(normal, method(), fit_options());
    };
    const auto add_warnings = [&](const Record* judged) {
        for (std::string& w : fit_warnings(out.fit, judged)) out.warnings.push_back(std::move(w));
    };
    out.options = record(input.size());
    if (!holdout()) {
        out.fit = fit_on(input);
        add_warnings(nullptr);
        out.compute_seconds = stopwatch.seconds();
        return out;
    }
    const Split parts = split(input.size(), *holdout(), seed());
    const RecalibrationData held_out = input.rows(parts.held_out);
    out.fit = fit_on(input.rows(parts.fit));
    const RecalibrationMap& map = out.fit.map;
    // The predictions as given: every categorical identity is softmax(z) (histogram has none).
    const RecalibrationMap identity = identity_map(is_categorical(chosen) ? RecalibrationMethod::temperature : chosen,
                                                   map.num_classes, map.logits, fit_options());
    Record& judged = out.holdout;
    judged = {{"fraction", *holdout()},
              {"seed", seed()},
              {"n_fit", static_cast<std::uint64_t>(parts.fit.size())},
              {"n_held_out", static_cast<std::uint64_t>(parts.held_out.size())},
              {"nll_before", nll_of(identity, held_out)},
              {"nll_after", nll_of(map, held_out)},
              {"skce_bootstrap_p_value_before", skce_p_value(as_data(held_out, nullptr), seed(), parallel)},
              {"skce_bootstrap_p_value_after", skce_p_value(as_data(held_out, &map), seed(), parallel)}};
    judge_mmd(as_data(held_out, nullptr), as_data(held_out, &map), fit_options().notion, parallel, judged);
    add_warnings(&judged);
    out.compute_seconds = stopwatch.seconds();
    return out;
}

}  // namespace calib

// The registered estimators (registry.hpp): one entry each, with its options and its library call.
#include "registry/common_options.hpp"
#include "registry/mmd_options.hpp"
#include "registry/models.hpp"
#include "registry/score_entries.hpp"
#include "registry/squared_ce_entries.hpp"

#include <calib/calibration_curve.hpp>
#include <calib/ckce.hpp>
#include <calib/corp.hpp>
#include <calib/debiased_l2.hpp>
#include <calib/estimators.hpp>
#include <calib/mmd.hpp>
#include <calib/operation.hpp>
#include <calib/smooth_ece.hpp>

namespace calib::detail {

namespace {

struct NoOptions {};

EstimateResult estimate(const std::string& name, double value, std::size_t n, Record details = {}) {
    return {name, value, n, std::move(details), {}};
}

// equal-mass:B, uniform:B (B >= 1) or distinct.
void parse_l2_binning(DebiasedL2Options& o, const Value& value) {
    const std::string text = text_value(value);
    const std::string rule = "equal-mass:B, uniform:B (B >= 1) or distinct";
    const std::vector<std::string> parts = split(text, ':');
    if (parts.size() == 1 && parts[0] == "distinct") {
        o.binning = PredictionBinning::distinct;
        return;
    }
    if (parts.size() != 2 || (parts[0] != "equal-mass" && parts[0] != "uniform"))
        throw option_error("binning", "'" + text + "'", rule);
    try {
        o.bins = std::size_t(unsigned_value("binning", parts[1], 1, 1'000'000'000));
    } catch (const option_error&) {
        throw option_error("binning", "'" + text + "'", rule);
    }
    o.binning = parts[0] == "uniform" ? PredictionBinning::uniform : PredictionBinning::equal_mass;
}

std::string l2_binning_text(const DebiasedL2Options& o) {
    return o.binning == PredictionBinning::distinct ? "distinct" : to_string(o.binning) + ":" + std::to_string(o.bins);
}

std::vector<Registered<MethodModel<EstimateResult>>> make_estimators() {
    std::vector<Registered<MethodModel<EstimateResult>>> all;

    all.push_back(estimator_entry<NoOptions>(
        method("skce-biased", "biased (V-statistic) squared kernel calibration error, O(n^2)",
               "the biased estimator of the squared kernel calibration error (SKCE)"),
        {}, {},
        {nullptr, nullptr, nullptr,
         [](const AnyData& data, const Kernel* k, const AnyData*, const NoOptions&, const ParallelOptions& p) {
             return estimate("skce-biased", std::visit([&](const auto& d) { return skce_biased(d, *k, p); }, data),
                             data_size(data));
         }}));

    all.push_back(estimator_entry<NoOptions>(
        method("skce-unbiased", "unbiased quadratic estimator of the SKCE, O(n^2)",
               "the unbiased estimator of the squared kernel calibration error (SKCE)"),
        {}, {},
        {nullptr, nullptr,
         [](const NoOptions&, std::size_t n, std::size_t) {
             detail::check_min_size("skce_unbiased", n, 2);
         },
         [](const AnyData& data, const Kernel* k, const AnyData*, const NoOptions&, const ParallelOptions& p) {
             return estimate("skce-unbiased",
                             std::visit([&](const auto& d) { return skce_unbiased(d, *k, p); }, data),
                             data_size(data));
         }}));

    struct BlockEstimate {
        BlockSize block_size;
    };
    all.push_back(estimator_entry<BlockEstimate>(
        linear_method("skce-block", "mean of unbiased estimates on consecutive blocks of B observations, O(nB)",
               "the block estimator of the squared kernel calibration error (SKCE)"),
        {block_size_option(&BlockEstimate::block_size)},
        {},
        {nullptr, nullptr,
         [](const BlockEstimate& o, std::size_t n, std::size_t) {
             check_block_size("skce_block", o.block_size.resolve(n), n);
         },
         [](const AnyData& data, const Kernel* k, const AnyData*, const BlockEstimate& o, const ParallelOptions& p) {
             const std::size_t n = data_size(data);
             const BlockSkce b =
                 std::visit([&](const auto& d) { return skce_block(d, *k, o.block_size.resolve(n), p); }, data);
             return estimate("skce-block", b.estimate, n,
                             {{"block_size", std::uint64_t(b.block_size)},
                              {"num_blocks", std::uint64_t(b.block_estimates.size())}});
         }}));

    struct Locations {
        std::string test_locations;
    };
    all.push_back(estimator_entry<Locations>(
        linear_method("ucme", "unnormalised calibration mean embedding at test locations, O(nJ)",
               "the unnormalised calibration mean embedding (UCME) at test locations"),
        {custom_option<Locations>(
            [] {
                OptionInfo i = info("test_locations", "FILE", "",
                                    "the test locations: predictions and targets in the format of the input");
                i.required = true;
                return i;
            }(),
            [](Locations& l, const Value& v) { l.test_locations = text_value(v); },
            [](const Locations& l) { return Value(l.test_locations); })},
        {},
        {nullptr, always<Locations>(LocationsUse::required), nullptr,
         [](const AnyData& data, const Kernel* k, const AnyData* locations, const Locations&,
            const ParallelOptions& p) {
             const double value = std::visit(
                 [&](const auto& d) {
                     using Data = std::decay_t<decltype(d)>;
                     return ucme(d, std::get<Data>(*locations), *k, p);
                 },
                 data);
             return estimate("ucme", value, data_size(data),
                             {{"num_locations", std::uint64_t(data_size(*locations))}});
         }}));

    all.push_back(estimator_entry<EceOptions>(
        method("ece", "binned expected calibration error (default: of the top label)",
               "the binned expected calibration error (ECE)", true),
        ece_options(), default_ece_options(),
        {always<EceOptions>(KernelUse::none), nullptr,
         [](const EceOptions& o, std::size_t n, std::size_t) { check_ece_binning("ece", o, n); },
         [](const AnyData& data, const Kernel*, const AnyData*, const EceOptions& o, const ParallelOptions&) {
             return estimate("ece", ece(classes_of("ece", data), o), data_size(data));
         }}));

    all.push_back(estimator_entry<CkceSpec>(
        method("ckce", "conditional kernel calibration error (its own kernel options)",
               "the conditional kernel calibration error (CKCE)", true),
        ckce_options(true), {},
        {always<CkceSpec>(KernelUse::own), nullptr, nullptr,
         [](const AnyData& data, const Kernel*, const AnyData*, const CkceSpec& spec, const ParallelOptions& p) {
             const CategoricalData& d = classes_of("ckce", data);
             const ResolvedCkce resolved = resolve_ckce(spec, d, p);
             const CkceResult result = ckce(d, resolved.options);
             return estimate("ckce", result.estimate, d.size(), ckce_details(spec, resolved, &result));
         }},
        check_ckce_spec));
    all.push_back(estimator_entry<MmdChoice>(
        method("mmd",
               "conditional MMD^2 of a notion of calibration (Marx et al. 2023), unbiased, O(n^2 m); categorical, "
               "binary and normal",
               "the unbiased conditional MMD^2 of a notion of calibration (Marx, Zalouk & Ermon 2023)"),
        mmd_options(), {},
        {always<MmdChoice>(KernelUse::own), nullptr,
         [](const MmdChoice&, std::size_t n, std::size_t) {
             detail::check_min_size("mmd_unbiased", n, 2);
         },
         [](const AnyData& data, const Kernel*, const AnyData*, const MmdChoice& c, const ParallelOptions& p) {
             Record details;
             const MmdEstimate e =
                 with_mmd(data, c, p, details, [&](const auto& d, const auto& spec) { return mmd_unbiased(d, spec, p); });
             if (!e.per_class.empty()) {
                 Record per_class;
                 for (std::size_t k = 0; k < e.per_class.size(); ++k)
                     per_class.push_back({"class_" + std::to_string(k), e.per_class[k]});
                 details.push_back({"per_class", per_class});
             }
             if (!e.per_threshold.empty()) {
                 Record per_threshold;  // pair_p as in kernel.conditioning.thresholds
                 for (std::size_t k = 0; k < e.per_threshold.size(); ++k)
                     per_threshold.push_back({"pair_" + std::to_string(k), e.per_threshold[k]});
                 details.push_back({"per_threshold", per_threshold});
             }
             return estimate("mmd", e.estimate, e.n, details);
         }}));
    struct IciOptions {
        double span = 0.75;
        std::size_t degree = 2;
        LoessSurface surface = LoessSurface::interpolate;
        BinaryEvent event;
        Resampling resampling;
        FlexibleCalibrationOptions resolve(const ParallelOptions& parallel) const {
            FlexibleCalibrationOptions o;
            o.loess.span = span;
            o.loess.degree = int(degree);
            o.loess.surface = surface;
            o.resampling = resampling;
            o.parallel = parallel;
            return o;
        }
    };
    all.push_back(estimator_entry<IciOptions>(
        binary_method("ici",
                      "integrated calibration index: mean |loess curve - p| (Austin & Steyerberg 2019), with E50, "
                      "E90, Emax and bootstrap intervals",
                      "the integrated calibration index (ICI) of the flexible (loess) calibration curve"),
        OptionList<IciOptions>{
            real_option(&IciOptions::span,
                        info("span", "S", "0.75", "the share of the observations in each local fit of the loess"),
                        [](double x) { return x > 0 && x <= 1; }, "in (0, 1]"),
            integer_option(&IciOptions::degree,
                           info("degree", "D", "2", "the degree of the local polynomials, 1 or 2"), 1, 2),
            enum_option(&IciOptions::surface,
                        info("surface", "interpolate|direct", "interpolate",
                             "local fits at the vertices of R's k-d tree, interpolated (R's default), or at every "
                             "prediction"),
                        named<LoessSurface>({LoessSurface::interpolate, LoessSurface::direct})),
            event_option(&IciOptions::event)} +
            resampling_options(&IciOptions::resampling, "the ICI, E50, E90 and Emax"),
        {},
        {always<IciOptions>(KernelUse::none), nullptr,
         [](const IciOptions& o, std::size_t n, std::size_t) { validate(o.resolve({}).loess, n); },
         [](const AnyData& data, const Kernel*, const AnyData*, const IciOptions& o, const ParallelOptions& p) {
             const FlexibleCalibration f = flexible_calibration(binary_of("ici", data, o.event), o.resolve(p));
             Record details{
                 {"e50", f.e50}, {"e90", f.e90}, {"emax", f.emax}, {"neighbours", std::uint64_t(f.neighbours)}};
             add_intervals(details, {"ici", "e50", "e90", "emax"}, f.intervals);
             return estimate("ici", f.ici, f.n, details);
         }}));
    all.push_back(estimator_entry<DebiasedL2Options>(
        method("debiased-l2",
               "binned L2 calibration error with the debiased square (Kumar, Liang & Ma 2019), O(n log n)",
               "the debiased binned L2 calibration error (Kumar, Liang & Ma 2019)", true),
        OptionList<DebiasedL2Options>{
            custom_option<DebiasedL2Options>(
                info("binning", "SCHEME", "equal-mass:15",
                     "equal-mass:B (B bins of equal counts, edges halfway between them), uniform:B (edges i/B) or "
                     "distinct (a bin per distinct prediction, for binned models)"),
                parse_l2_binning, [](const DebiasedL2Options& o) { return Value(l2_binning_text(o)); }),
            enum_option(&DebiasedL2Options::mode,
                        info("mode", "marginal|top-label", "marginal",
                             "class predictions of more than two classes: each class against the rest (the root "
                             "of the mean of the squares) or the top label's confidence"),
                        named<L2Mode>({L2Mode::marginal, L2Mode::top_label})),
            custom_option<DebiasedL2Options>(
                info("plugin", "", "false", "the plug-in square, without the debiasing term"),
                [](DebiasedL2Options& o, const Value& v) { o.debias = !flag_value("plugin", v); },
                [](const DebiasedL2Options& o) { return Value(!o.debias); })} +
            resampling_options(&DebiasedL2Options::resampling, "the error and its square"),
        {},
        {always<DebiasedL2Options>(KernelUse::none), nullptr,
         [](const DebiasedL2Options&, std::size_t n, std::size_t) { check_min_size("debiased_l2", n, 2); },
         [](const AnyData& data, const Kernel*, const AnyData*, DebiasedL2Options o, const ParallelOptions& p) {
             o.parallel = p;
             const DebiasedL2 r = debiased_l2(classes_of("debiased-l2", data), o);
             Record details{{"square", r.square},
                            {"bins", std::uint64_t(r.bins)},
                            {"single_observation_bins", std::uint64_t(r.small_bins)}};
             if (!r.class_squares.empty()) {
                 Record per_class;
                 for (std::size_t k = 0; k < r.class_squares.size(); ++k)
                     per_class.push_back({"class_" + std::to_string(k), r.class_squares[k]});
                 details.push_back({"class_squares", per_class});
             }
             add_intervals(details, {"error", "square"}, r.intervals);
             return estimate("debiased-l2", r.error, r.n, details);
         }}));
    struct SmoothEceEntry {
        SmoothEceOptions options;
        BinaryEvent event;
    };
    all.push_back(estimator_entry<SmoothEceEntry>(
        binary_method("smooth-ece",
                      "smooth ECE: the kernel-smoothed residual's mean |.| at the automatic bandwidth (Blasiok & "
                      "Nakkiran 2024), O(n) per bandwidth",
                      "the smooth ECE (smECE) with its smooth reliability curve"),
        OptionList<SmoothEceEntry>{
            custom_option<SmoothEceEntry>(
                info("bandwidth", "auto|S", "auto",
                     "the kernel's standard deviation S in [1e-4, 1], or auto: the S with smECE_S = S"),
                [](SmoothEceEntry& e, const Value& v) {
                    if (text_value(v) == "auto") {
                        e.options.bandwidth.reset();
                        return;
                    }
                    e.options.bandwidth = real_value(
                        "bandwidth", v,
                        [](double x) { return x >= smooth_ece_min_bandwidth && x <= 1; }, "auto or in [1e-4, 1]");
                },
                [](const SmoothEceEntry& e) {
                    return e.options.bandwidth ? Value(*e.options.bandwidth) : Value(std::string("auto"));
                }),
            event_option(&SmoothEceEntry::event)} +
            nested(&SmoothEceEntry::options,
                   OptionList<SmoothEceOptions>{integer_option(
                       &SmoothEceOptions::curve_points,
                       info("curve_points", "P", "0",
                            "the smooth reliability curve at P >= 2 equally spaced points of [0, 1] (0: none)"),
                       0, 1'000'000)} +
                       resampling_options(&SmoothEceOptions::resampling, "the smooth ECE")),
        {},
        {always<SmoothEceEntry>(KernelUse::none), nullptr, nullptr,
         [](const AnyData& data, const Kernel*, const AnyData*, const SmoothEceEntry& e, const ParallelOptions& p) {
             SmoothEceOptions o = e.options;
             o.parallel = p;
             const SmoothEce r = smooth_ece(binary_of("smooth-ece", data, e.event), o);
             Record details{{"bandwidth_used", r.bandwidth}};
             add_intervals(details, {"smooth_ece"}, r.intervals);
             if (!r.mesh.empty())
                 details.push_back({"curve", Record{{"t", r.mesh},
                                                   {"frequency", r.frequency},
                                                   {"residual", r.residual},
                                                   {"density", r.density}}});
             return estimate("smooth-ece", r.value, r.n, details);
         }}));
    struct CorpEntry {
        CorpScore score = CorpScore::brier;
        BinaryEvent event;
    };
    all.push_back(estimator_entry<CorpEntry>(
        binary_method("corp",
                      "CORP miscalibration MCB of the Brier or log score, with DSC and UNC (Dimitriadis, Gneiting & "
                      "Jordan 2021), O(n log n)",
                      "the CORP score decomposition: miscalibration MCB, discrimination DSC, uncertainty UNC"),
        OptionList<CorpEntry>{
            enum_option(&CorpEntry::score,
                        info("score", "", "brier",
                             "the proper score decomposed: brier ((p - y)^2) or log (the negative log-likelihood)"),
                        named<CorpScore>({CorpScore::brier, CorpScore::log})),
            event_option(&CorpEntry::event)},
        {},
        {always<CorpEntry>(KernelUse::none), nullptr, nullptr,
         [](const AnyData& data, const Kernel*, const AnyData*, const CorpEntry& e, const ParallelOptions&) {
             const CorpDecomposition r = corp_decomposition(binary_of("corp", data, e.event), e.score);
             if (r.contradicted)  // an estimate is finite: say why this one is not, and what to do
                 throw invalid_argument(
                     "corp `score` log: " +
                         (r.contradicted == 1 ? "the forecast of row " + std::to_string(r.first_contradicted) + " gives"
                                              : "the forecasts of row " + std::to_string(r.first_contradicted) + " and " +
                                                    std::to_string(r.contradicted - 1) + " other rows give") +
                         " probability 0 to the outcome that happened, so the mean log score and MCB are infinite "
                         "(DSC " + readable(r.dsc) + " and UNC " + readable(r.unc) +
                         " are finite); use `score` brier, or forecasts in (0, 1)",
                     static_cast<long>(r.first_contradicted), -1);
             Record details{{"mean_score", r.mean_score}, {"recalibrated_score", r.recalibrated_score},
                            {"dsc", r.dsc},               {"unc", r.unc},
                            {"blocks", std::uint64_t(r.blocks)}};
             return estimate("corp", r.mcb, r.n, details);
         }}));
    for (auto& e : squared_ce_estimators()) all.push_back(std::move(e));
    for (auto& e : score_estimators()) all.push_back(std::move(e));
    return all;
}

}  // namespace

const std::vector<Registered<MethodModel<EstimateResult>>>& registered_estimators() {
    static const std::vector<Registered<MethodModel<EstimateResult>>> all = make_estimators();
    return all;
}

}  // namespace calib::detail

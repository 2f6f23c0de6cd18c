// The conditional MMD's options and their resolution on the data (registry/mmd_options.hpp).
#include "registry/mmd_options.hpp"

#include <calib/io.hpp>
#include <calib/metrics.hpp>

#include <climits>
#include <cmath>
#include <functional>

namespace calib::detail {

namespace {

const std::vector<std::string> conditioned_notions = {"canonical", "top-label", "class-wise", "individual",
                                                      "distribution", "local"};
const std::vector<std::string> all_notions = {"canonical", "top-label", "class-wise", "group",    "individual", "marginal",
                                              "distribution", "quantile", "threshold", "decision", "local"};
const std::vector<std::pair<MmdTargetChoice, std::string>> target_names = {
    {MmdTargetChoice::white, "white"}, {MmdTargetChoice::sqexp, "sqexp"}, {MmdTargetChoice::sign, "sign"},
    {MmdTargetChoice::moment, "moment"}, {MmdTargetChoice::pit, "pit"}, {MmdTargetChoice::laplacian, "laplacian"},
    {MmdTargetChoice::tanh, "tanh"}, {MmdTargetChoice::min, "min"}};

std::string target_name(MmdTargetChoice t) {
    for (const auto& [v, name] : target_names)
        if (v == t) return name;
    return "?";
}

OptionInfo required(OptionInfo i) {
    i.required = true;
    return i;
}

// "y0:alpha,y0:alpha": finite y0, alpha in [0, 1]; an option_error naming the bad pair otherwise.
std::vector<MmdThreshold> parse_thresholds(const std::string& text) {
    std::vector<MmdThreshold> pairs;
    for (const std::string& item : split(text, ',')) {
        const std::vector<std::string> parts = split(item, ':');
        if (parts.size() != 2)
            throw option_error("thresholds", "'" + item + "'", "pairs y0:alpha separated by commas");
        const auto number = [&](const std::string& part, const std::function<bool(double)>& ok, const char* rule) {
            try {
                return real_value("thresholds", Value(part), ok, rule);
            } catch (const option_error&) {
                throw option_error("thresholds", "'" + item + "'", rule);
            }
        };
        const double y0 = number(parts[0], [](double) { return true; }, "pairs y0:alpha with a finite y0");
        const double alpha = number(parts[1], [](double a) { return a >= 0 && a <= 1; },
                                    "pairs y0:alpha with alpha in [0, 1]");
        pairs.push_back({y0, alpha});
    }
    return pairs;
}

// K_T of the RBF exp(−‖e_a − e_b‖²/(2ℓ²)) on one-hot vectors: 1 on the diagonal, exp(−1/ℓ²) off it.
Matrix one_hot_rbf_gram(Eigen::Index size, double lengthscale) {
    Matrix k = Matrix::Constant(size, size, std::exp(-1 / (lengthscale * lengthscale)));
    k.diagonal().setOnes();
    return k;
}

}  // namespace

OptionList<MmdChoice> mmd_options(Condition notion_condition) {
    std::vector<std::pair<MmdNotion, std::string>> notions;
    for (const std::string& name : all_notions) notions.emplace_back(parse_mmd_notion(name), name);
    return OptionList<MmdChoice>{
        enum_option(&MmdChoice::notion,
                    info("notion", "", "canonical",
                         "the notion of calibration: Y given Z = q (canonical), 1{Y = argmax q} given max q "
                         "(top-label), 1{Y = c} given q_c for every class c (class-wise, their sum), Y given a group "
                         "(group), Y given features x (individual), Y alone (marginal); for normal forecasts Y given "
                         "(mu, sigma) (distribution), individual or marginal",
                         std::move(notion_condition)),
                    notions),
        enum_option(&MmdChoice::shape,
                    info("kernel_p", "exp|sqexp", "sqexp",
                         "the conditioning kernel k_Z = exp(-d/l) or exp(-d^2/(2 l^2)) (the RBF; its bandwidth in "
                         "the paper's code is 2 l^2)",
                         {"notion", conditioned_notions}),
                    named<PredictionKernelShape>({PredictionKernelShape::exp, PredictionKernelShape::sqexp})),
        enum_option(&MmdChoice::metric,
                    info("metric", "tv|l1|euclidean|w2", "euclidean",
                         "the distance d between the conditioning values: tv (half L1), l1 or euclidean between "
                         "predictions (canonical), l1 or euclidean between features (individual), w2 (or "
                         "euclidean, the same: |(mu, sigma) - (mu', sigma')|) between normal forecasts "
                         "(distribution)",
                         {"notion", {"canonical", "individual", "distribution", "local"}}),
                    named<Metric>({Metric::tv, Metric::l1, Metric::euclidean, Metric::w2})),
        lengthscale_option(&MmdChoice::lengthscale,
                           info("lengthscale", "", "median",
                                "l > 0 of k_Z, or the exact median of the distances d(z_i, z_j) over the pairs i < j "
                                "(median; class-wise: one per class) or over all n^2 ordered pairs (median-full)",
                                {"notion", conditioned_notions}),
                           {"median", "median-full"}),
    } + median_subsample_options(&MmdChoice::median_subsample, &MmdChoice::median_seed, {"median", "median-full"}) +
    OptionList<MmdChoice>{
        enum_option(&MmdChoice::target,
                    info("kernel_y", "white|sqexp|sign|moment|pit|laplacian|tanh|min", "white",
                         "the target kernel: for labels white (delta) or sqexp, the RBF exp(-|e_y - e_y'|^2/(2 l^2)) "
                         "on one-hot labels (the paper's code; binary targets for top-label and class-wise); for "
                         "normal forecasts sqexp exp(-(y - y')^2/(2 l^2)), sign sign(y - c) sign(y' - c) (decision), "
                         "moment y y' + y^2 y'^2, pit, the RBF on the PIT against Unif[0, 1] (quantile; the "
                         "target of quantile, threshold and local), laplacian exp(-|y - y'|/l), tanh "
                         "tanh((y - c)/tau) tanh((y' - c)/tau), or min, min(y, y') on --interval (Example 2); "
                         "decision takes sign or tanh",
                         {"notion", all_notions}),
                    target_names),
        real_option(&MmdChoice::target_lengthscale,
                    info("lengthscale_y", "L", "1", "the lengthscale of the sqexp, pit and laplacian target kernels",
                         {"kernel_y", {"sqexp", "pit", "laplacian"}}),
                    [](double x) { return x > 0; }, "a number > 0"),
        custom_option<MmdChoice>(
            info("threshold", "C|median", "0",
                 "the threshold c of the sign and tanh target kernels and of the decision notion's Bayes act, or "
                 "median, the median of the targets (the paper's choice)",
                 {"kernel_y", {"sign", "tanh"}}),
            [](MmdChoice& c, const Value& v) {
                c.threshold_median = text_value(v) == "median";
                if (c.threshold_median) return;
                try {
                    c.threshold = real_value("threshold", v, [](double) { return true; }, "");
                } catch (const option_error&) {
                    throw option_error("threshold", "'" + to_text(v) + "'", "a finite number or median");
                }
            },
            [](const MmdChoice& c) { return c.threshold_median ? Value(std::string("median")) : Value(c.threshold); }),
        custom_option<MmdChoice>(
            info("interval", "LO:HI", "0:1",
                 "the interval [lo, hi] of the min target kernel min(clip(y - lo, 0, hi - lo), clip(y' - lo, 0, "
                 "hi - lo)), lo < hi",
                 {"kernel_y", {"min"}}),
            [](MmdChoice& c, const Value& v) {
                const std::string text = text_value(v);
                const std::vector<std::string> parts = split(text, ':');
                const char* rule = "LO:HI with finite LO < HI";
                try {
                    if (parts.size() != 2) throw option_error("interval", "", rule);
                    c.min_lower = real_value("interval", Value(parts[0]), [](double) { return true; }, rule);
                    c.min_upper = real_value("interval", Value(parts[1]), [](double) { return true; }, rule);
                } catch (const option_error&) {
                    throw option_error("interval", "'" + text + "'", rule);
                }
                if (!(c.min_lower < c.min_upper)) throw option_error("interval", "'" + text + "'", rule);
            },
            [](const MmdChoice& c) { return Value(to_text(Value(c.min_lower)) + ":" + to_text(Value(c.min_upper))); }),
        real_option(&MmdChoice::tau,
                    info("tau", "T", "1", "the scale tau of the tanh target kernel", {"kernel_y", {"tanh"}}),
                    [](double x) { return x > 0; }, "a number > 0"),
        custom_option<MmdChoice>(
            required(info("thresholds", "Y0:ALPHA,...", "",
                          "the pairs (y0, alpha) of the threshold notion, comma-separated: Z = 1{Q(y0) <= alpha} for "
                          "each, alpha in [0, 1]",
                          {"notion", {"threshold"}})),
            [](MmdChoice& c, const Value& v) {
                c.thresholds = text_value(v);
                c.threshold_pairs = parse_thresholds(c.thresholds);
            },
            [](const MmdChoice& c) { return Value(c.thresholds); }),
        enum_option(&MmdChoice::marginalisation,
                    info("marginalisation", "analytic|mc-paired|mc-all-pairs", "analytic",
                         "normal forecasts: the forecast's Y-hat integrated out of the pair term in closed form, or "
                         "by S reparameterised samples per forecast (pit: S uniforms), pairing sample s of i with "
                         "sample s of j (mc-paired, the paper's code, O(n^2 S)) or all S^2 combinations "
                         "(mc-all-pairs, O(n^2 S^2))",
                         {"kernel_y", {"sqexp", "sign", "moment", "pit"}}),
                    named<MmdMarginalisation>({MmdMarginalisation::analytic, MmdMarginalisation::mc_paired,
                                               MmdMarginalisation::mc_all_pairs})),
        integer_option(&MmdChoice::samples,
                       info("samples", "S", "10", "the Monte-Carlo samples per forecast",
                            {"marginalisation", {"mc-paired", "mc-all-pairs"}}),
                       1, max_mc_samples),
        integer_option(&MmdChoice::mc_seed,
                       info("mc_seed", "N", std::to_string(default_seed),
                            "the seed of the Monte-Carlo samples (forecast i draws from the stream (N, i))",
                            {"marginalisation", {"mc-paired", "mc-all-pairs"}}),
                       0),
        table_option(required(info("features", "FILE", "",
                                   "the features x_i of the individual notion (phi(x_i) of local), one row per "
                                   "observation (.npy or delimited text)",
                                   {"notion", {"individual", "local"}})),
                     &MmdChoice::features, &MmdChoice::feature_table),
        table_option(required(info("groups", "FILE", "",
                                   "the group id (an integer) of each observation for the group notion, one per row",
                                   {"notion", {"group"}})),
                     &MmdChoice::groups, &MmdChoice::group_table),
    };
}

namespace {

Matrix read_features(const MmdChoice& choice, std::size_t n) {
    return observation_table("features", choice.features, choice.feature_table, n);
}

// The group ids from the file, or from the table given in memory: one integer per row, as read_groups
// takes them from a file.
std::vector<int> read_group_ids(const MmdChoice& choice, std::size_t n) {
    if (!choice.group_table) {
        std::vector<int> groups = read_groups(choice.groups);
        check_rows("groups", choice.groups, groups.size(), n);
        return groups;
    }
    const Matrix& g = *choice.group_table;
    check_rows("groups", "", static_cast<std::size_t>(g.rows()), n);
    if (g.cols() != 1)
        throw invalid_argument("`groups` has " + std::to_string(g.cols()) + " columns, must have 1 (one group id per row)");
    std::vector<int> groups;
    for (Eigen::Index i = 0; i < g.rows(); ++i) {
        const double v = g(i, 0);
        if (v != std::floor(v) || !(v >= INT_MIN && v <= INT_MAX))
            throw invalid_argument("`groups`[" + std::to_string(i) + "] = " + format_value(v) +
                                   ", must be an integer in [" + std::to_string(INT_MIN) + ", " +
                                   std::to_string(INT_MAX) + "]");
        groups.push_back(static_cast<int>(v));
    }
    return groups;
}

// The median heuristic's lengthscales (one, or one per class) as the choice asks for them.
template <class Data, class Spec>
std::vector<double> median_lengthscales(const MmdChoice& choice, const Data& data, const Spec& spec,
                                        const ParallelOptions& parallel) {
    MedianOptions median;
    median.variant = choice.lengthscale.rule == "median" ? MedianVariant::pairs : MedianVariant::full;
    median.subsample = choice.median_subsample;
    median.seed = choice.median_seed;
    median.parallel = parallel;
    try {
        return mmd_median_lengthscales(data, spec, median);
    } catch (const invalid_argument& e) {
        throw invalid_argument("`lengthscale` " + choice.lengthscale.rule + ": " + e.what());
    }
}

}  // namespace

MmdSpec resolve_mmd(const MmdChoice& choice, const CategoricalData& data, const ParallelOptions& parallel,
                    Record& record) {
    const std::size_t n = data.size();
    MmdSpec spec;
    spec.notion = choice.notion;
    spec.conditioning = {choice.shape, choice.metric, choice.lengthscale.value};
    const bool binary = spec.notion == MmdNotion::top_label || spec.notion == MmdNotion::class_wise;
    if (choice.target != MmdTargetChoice::white && choice.target != MmdTargetChoice::sqexp)
        throw invalid_argument("`kernel_y` " + target_name(choice.target) +
                               " applies to normal forecasts; class predictions take white or sqexp");
    if (choice.marginalisation != MmdMarginalisation::analytic)
        throw invalid_argument("`marginalisation` applies to normal forecasts; class predictions are summed exactly");
    if (choice.target == MmdTargetChoice::sqexp)
        spec.target_gram = one_hot_rbf_gram(binary ? 2 : data.num_classes(), choice.target_lengthscale);
    if (spec.notion == MmdNotion::individual) spec.features = read_features(choice, n);
    if (spec.notion == MmdNotion::group) spec.groups = read_group_ids(choice, n);
    const bool conditioned = spec.notion != MmdNotion::group && spec.notion != MmdNotion::marginal;
    std::vector<double> lengthscales;
    if (conditioned && !choice.lengthscale.given()) {
        lengthscales = median_lengthscales(choice, data, spec, parallel);
        if (spec.notion == MmdNotion::class_wise)
            spec.class_lengthscales = lengthscales;
        else
            spec.conditioning.lengthscale = lengthscales[0];
    }
    validate_mmd(data, spec, "mmd");

    record.push_back({"notion", to_string(spec.notion)});
    Record conditioning;
    if (conditioned) {
        conditioning.push_back({"shape", to_string(spec.conditioning.shape)});
        if (spec.notion == MmdNotion::canonical || spec.notion == MmdNotion::individual)
            conditioning.push_back({"metric", to_string(spec.conditioning.metric)});
        if (spec.class_lengthscales.empty()) {
            conditioning.push_back({"lengthscale", spec.conditioning.lengthscale});
        } else {
            Record per_class;
            for (std::size_t c = 0; c < spec.class_lengthscales.size(); ++c)
                per_class.push_back({"class_" + std::to_string(c), spec.class_lengthscales[c]});
            conditioning.push_back({"lengthscales", per_class});
        }
    } else {
        conditioning.push_back({"shape", spec.notion == MmdNotion::group ? "delta" : "none"});
    }
    Record target{{"type", target_name(choice.target)}};
    if (choice.target == MmdTargetChoice::sqexp) target.push_back({"lengthscale", choice.target_lengthscale});
    record.push_back({"kernel", Record{{"conditioning", conditioning}, {"target", target}}});
    return spec;
}

GaussianMmdSpec resolve_mmd(const MmdChoice& choice, const NormalData& data, const ParallelOptions& parallel,
                            Record& record) {
    const std::size_t n = data.size();
    GaussianMmdSpec spec;
    spec.notion = choice.notion;
    const MmdNotion notion = spec.notion;
    if (notion == MmdNotion::canonical || notion == MmdNotion::top_label || notion == MmdNotion::class_wise ||
        notion == MmdNotion::group)
        throw invalid_argument("`notion` " + to_string(notion) +
                               " applies to class predictions; normal forecasts take distribution, individual, "
                               "marginal, quantile, threshold, decision or local");
    // The Euclidean distance of (μ, σ) is W2: for the distribution notion both names mean it.
    const bool distribution = notion == MmdNotion::distribution;
    if (distribution && choice.metric != Metric::euclidean && choice.metric != Metric::w2)
        throw invalid_argument("`metric` " + to_string(choice.metric) +
                               " does not apply to normal forecasts; the distribution notion takes w2");
    spec.conditioning = {choice.shape, distribution ? Metric::w2 : choice.metric, choice.lengthscale.value};
    switch (choice.target) {
        case MmdTargetChoice::white:
            throw invalid_argument("`kernel_y` white applies to class predictions; normal forecasts take sqexp, sign, "
                                   "moment, pit, laplacian or tanh");
        case MmdTargetChoice::sqexp: spec.target = GaussianTarget::rbf; break;
        case MmdTargetChoice::sign: spec.target = GaussianTarget::sign; break;
        case MmdTargetChoice::moment: spec.target = GaussianTarget::moment; break;
        case MmdTargetChoice::pit: spec.target = GaussianTarget::pit; break;
        case MmdTargetChoice::laplacian: spec.target = GaussianTarget::laplacian; break;
        case MmdTargetChoice::tanh: spec.target = GaussianTarget::tanh; break;
        case MmdTargetChoice::min: spec.target = GaussianTarget::min; break;
    }
    const bool pit_notion = notion == MmdNotion::quantile || notion == MmdNotion::threshold || notion == MmdNotion::local;
    if (pit_notion && spec.target != GaussianTarget::pit)
        throw invalid_argument("`notion` " + to_string(notion) + " compares the PIT with Unif[0, 1]: it takes "
                               "`kernel_y` pit, not " + target_name(choice.target));
    if (notion == MmdNotion::decision && spec.target != GaussianTarget::sign && spec.target != GaussianTarget::tanh)
        throw invalid_argument("`notion` decision takes `kernel_y` sign or tanh (at its `threshold` c), not " +
                               target_name(choice.target));
    spec.target_lengthscale = choice.target_lengthscale;
    spec.tau = choice.tau;
    spec.min_lower = choice.min_lower;
    spec.min_upper = choice.min_upper;
    spec.threshold = choice.threshold;
    spec.marginalisation = choice.marginalisation;
    spec.samples = choice.samples;
    spec.seed = choice.mc_seed;
    if (choice.threshold_median) spec.threshold = median_target(data);  // A10: the paper's c, the median of the targets
    spec.thresholds = choice.threshold_pairs;
    if (notion == MmdNotion::individual || notion == MmdNotion::local) spec.features = read_features(choice, n);
    const bool conditioned = distribution || notion == MmdNotion::individual || notion == MmdNotion::local;
    if (conditioned && !choice.lengthscale.given()) {
        spec.conditioning.lengthscale = median_lengthscales(choice, data, spec, parallel)[0];
    }
    validate_mmd(data, spec, "mmd");

    record.push_back({"notion", to_string(notion)});
    Record conditioning;
    if (conditioned) {
        conditioning = {{"shape", to_string(spec.conditioning.shape)},
                        {"metric", to_string(spec.conditioning.metric)},
                        {"lengthscale", spec.conditioning.lengthscale}};
    } else if (notion == MmdNotion::decision) {
        conditioning = {{"shape", "delta"}, {"variable", "bayes_act"}, {"threshold", spec.threshold}};
    } else if (notion == MmdNotion::threshold) {
        Record pairs;
        for (std::size_t p = 0; p < spec.thresholds.size(); ++p)
            pairs.push_back({"pair_" + std::to_string(p),
                             Record{{"y0", spec.thresholds[p].y0}, {"alpha", spec.thresholds[p].alpha}}});
        conditioning = {{"shape", "delta"}, {"variable", "quantile_indicator"}, {"thresholds", pairs}};
    } else {
        conditioning.push_back({"shape", "none"});
    }
    Record target{{"type", target_name(choice.target)}};
    if (choice.target == MmdTargetChoice::sqexp || choice.target == MmdTargetChoice::pit ||
        choice.target == MmdTargetChoice::laplacian)
        target.push_back({"lengthscale", spec.target_lengthscale});
    if (choice.target == MmdTargetChoice::sign || choice.target == MmdTargetChoice::tanh) {
        target.push_back({"threshold", spec.threshold});
        if (choice.threshold_median) target.push_back({"threshold_rule", "median"});
    }
    if (choice.target == MmdTargetChoice::tanh) target.push_back({"tau", spec.tau});
    if (choice.target == MmdTargetChoice::min) {
        target.push_back({"lower", spec.min_lower});
        target.push_back({"upper", spec.min_upper});
    }
    if (spec.marginalisation != MmdMarginalisation::analytic)
        target.push_back({"marginalisation", Record{{"scheme", to_string(spec.marginalisation)},
                                                    {"samples", std::uint64_t(spec.samples)},
                                                    {"seed", spec.seed}}});
    record.push_back({"kernel", Record{{"conditioning", conditioning}, {"target", target}}});
    return spec;
}

}  // namespace calib::detail

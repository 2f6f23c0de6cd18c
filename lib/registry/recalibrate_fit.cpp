// The recalibration fit with its options (registry.hpp, RecalibrationSetup): the family's methods, the
// objective and its MMD, the optimiser's limits. Each option's rule is the one fit_recalibration checks,
// said before the data are read.
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include "core/check.hpp"

#include <calib/recalibration.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace calib {

namespace detail {

namespace {

struct FitSpec {
    RecalibrationMethod method = RecalibrationMethod::temperature;
    bool automatic = false;  // `method` auto, chosen by `selection`
    MethodSelection selection;
    RecalibrationOptions options;
    std::optional<double> holdout;      // the held-out fraction
    std::uint64_t seed = default_seed;  // the split's and the held-out test's
    std::string features;                         // the normal maps' features: the file, when given
    std::shared_ptr<const Matrix> feature_table;  // or the table (Setup::set_table)
};

bool finite_nonnegative(double x) { return x >= 0 && std::isfinite(x); }
bool finite_positive(double x) { return x > 0 && std::isfinite(x); }

const Condition with_mmd{"objective", {"nll+mmd"}};
// The options of the objective and its optimiser, which the maps fitted by L-BFGS take (not isotonic's PAV).
Condition parametric_methods() {
    Condition condition{"method", {}};
    for (const RecalibrationMethodInfo& m : recalibration_methods())
        if (m.parametric) condition.values.push_back(m.name);
    return condition;
}
const Condition parametric = parametric_methods();

OptionList<RecalibrationOptions> categorical_options() {
    using O = RecalibrationOptions;
    const Condition histogram{"method", {"histogram"}};
    return {
        custom_option<O>(
            info("bins", "B|auto", "auto",
                 "histogram: the bins of each class's probability, B >= 1, or auto: ceil(n^(1/3))", histogram),
            [](O& o, const Value& v) {
                o.histogram_bins =
                    text_value(v) == "auto" ? 0 : static_cast<std::size_t>(unsigned_value("bins", v, 1, detail::max_histogram_bins));
            },
            [](const O& o) {
                return o.histogram_bins ? Value(static_cast<std::uint64_t>(o.histogram_bins)) : Value(std::string("auto"));
            }),
        enum_option(&O::histogram_binning,
                    info("binning", "", "equal-mass",
                         "histogram: equal-mass (bins of n/B predictions, edges halfway between them), uniform (edges "
                         "i/B; an empty bin joins the one above) or distinct (a bin per distinct prediction)",
                         histogram),
                    named(std::vector<PredictionBinning>{PredictionBinning::equal_mass, PredictionBinning::uniform,
                                                         PredictionBinning::distinct})),
        real_option(&O::ridge,
                    info("ridge", "L", "0.001",
                         "the ridge on the off-diagonal entries of W, >= 0 (matrix: L sum W_kj^2; dirichlet: "
                         "L/(m(m-1)) sum W_kj^2)",
                         {"method", {"matrix", "dirichlet"}}),
                    finite_nonnegative, "finite and >= 0"),
        real_option(&O::intercept_ridge,
                    info("intercept_ridge", "M", "0.001", "dirichlet: the ridge M/m sum b_k^2 on the intercepts, >= 0",
                         {"method", {"dirichlet"}}),
                    finite_nonnegative, "finite and >= 0"),
        real_option(&O::probability_floor,
                    info("probability_floor", "F", "1e-12",
                         "probabilities are mapped to z = log max(p, F) (a zero would be -infinity, which no map moves); "
                         "isotonic: its NLL takes max(q, F)"),
                    [](double x) { return x > 0 && x < 1; }, "in (0, 1)"),
    };
}

// The Gaussian MMD of the normal maps' nll+mmd (recalibration.hpp): its target kernel, lengthscales,
// threshold and marginalisation, each fixed by a rule on the data unless given.
OptionList<RecalibrationOptions> normal_mmd_options() {
    using O = RecalibrationOptions;
    const std::vector<GaussianTarget> targets = {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment,
                                                 GaussianTarget::pit};
    const std::vector<MmdMarginalisation> schemes = {MmdMarginalisation::analytic, MmdMarginalisation::mc_paired,
                                                     MmdMarginalisation::mc_all_pairs};
    const Condition sampled{"marginalisation", {"mc-paired", "mc-all-pairs"}};
    return {
        enum_option(&O::mmd_target,
                    info("kernel_y", "", "sqexp",
                         "the target kernel: sqexp (l_T the median of |y_i - y_j|), sign (threshold c, default the "
                         "median of y), moment, or pit (l_T the median of |t_i - t_j| of the unrecalibrated PITs)",
                         with_mmd),
                    named(targets)),
        custom_option<O>(info("threshold", "C", "", "the sign kernel's threshold c (default: the median of y)",
                              {"kernel_y", {"sign"}}),
                         [](O& o, const Value& v) { o.mmd_threshold = real_value("threshold", v, {}, ""); },
                         [](const O& o) { return o.mmd_threshold ? Value(*o.mmd_threshold) : Value(std::string("median")); }),
        real_option(&O::mmd_lengthscale,
                    info("lengthscale", "L", "", "k_Z's lengthscale instead of the median heuristic",
                         {"notion", {"distribution", "individual"}}),
                    finite_positive, "finite and > 0"),
        real_option(&O::mmd_target_lengthscale,
                    info("lengthscale_y", "L", "", "the target kernel's l_T instead of its median rule",
                         {"kernel_y", {"sqexp", "pit"}}),
                    finite_positive, "finite and > 0"),
        enum_option(&O::mmd_marginalisation,
                    info("marginalisation", "", "analytic",
                         "the forecast's Y-hat integrated out in closed form, or by S samples per forecast fixed for "
                         "the fit (mc-paired: sample s of i with sample s of j; mc-all-pairs: all S^2 combinations)",
                         {"kernel_y", {"sqexp", "moment", "pit"}}),
                    named(schemes)),
        integer_option(&O::mmd_samples, info("samples", "S", "10", "the Monte-Carlo samples per forecast", sampled),
                       1, max_mc_samples),
        integer_option(&O::mmd_seed,
                       info("mc_seed", "N", std::to_string(default_seed),
                            "the seed of the Monte-Carlo samples (stored in the map file, exactly)", sampled),
                       0, max_map_seed),
    };
}

// `method`: one of the family's methods, or (categorical) auto.
Option<FitSpec> method_option(OptionInfo i, const std::vector<RecalibrationMethod>& methods, bool categorical) {
    std::vector<std::string> names;
    for (const RecalibrationMethod m : methods) names.push_back(to_string(m));
    if (categorical) names.push_back("auto");
    for (const std::string& n : names) i.metavar += (i.metavar.empty() ? "" : "|") + n;
    const std::string rule = "one of " + one_of(names) + " for family " + (categorical ? "categorical" : "normal");
    return custom_option<FitSpec>(
        std::move(i),
        [=](FitSpec& s, const Value& v) {
            const std::string text = text_value(v);
            if (categorical && text == "auto") {
                s.automatic = true;
                s.method = methods.front();
                return;
            }
            for (const RecalibrationMethod m : methods)
                if (to_string(m) == text) {
                    s.automatic = false;
                    s.method = m;
                    return;
                }
            throw option_error("method", text, rule);
        },
        [](const FitSpec& s) { return Value(s.automatic ? std::string("auto") : to_string(s.method)); });
}

// The cross-validated choice of `method` auto (MethodSelection).
OptionList<MethodSelection> selection_options() {
    using O = MethodSelection;
    const Condition automatic{"method", {"auto"}};
    return {
        integer_option(&O::folds, info("folds", "K", "5", "method auto: the folds of the cross-validation", automatic),
                       2, 1000000),
        enum_option(&O::score,
                    info("selection_score", "", "log",
                         "method auto: the held-out score that decides, log (the NLL) or brier", automatic),
                    named(std::vector<CorpScore>{CorpScore::log, CorpScore::brier})),
        integer_option(&O::seed,
                       info("cv_seed", "S", std::to_string(default_seed), "method auto: the seed of the folds", automatic),
                       0),
        custom_option<O>(
            info("candidates", "M1,M2,...", "all",
                 "method auto: the methods to choose from (tried simplest first, in the order of the methods above), or all: "
                 "every categorical method that applies to the number of classes",
                 automatic),
            [](O& o, const Value& v) {
                const std::string text = text_value(v);
                o.candidates.clear();
                if (text == "all") return;
                for (const std::string& name : split(text, ',')) {
                    const auto it = std::find_if(recalibration_methods().begin(), recalibration_methods().end(),
                                                 [&](const RecalibrationMethodInfo& m) { return m.categorical && m.name == name; });
                    if (it == recalibration_methods().end())
                        throw option_error("candidates", "'" + text + "'",
                                           "all or a comma-separated list of categorical methods (unknown: '" + name + "')");
                    if (std::find(o.candidates.begin(), o.candidates.end(), it->method) != o.candidates.end())
                        throw option_error("candidates", "'" + text + "'", "a list without repeats ('" + name + "' is listed twice)");
                    o.candidates.push_back(it->method);
                }
            },
            [](const O& o) {
                std::string text;
                for (const RecalibrationMethod m : o.candidates) text += (text.empty() ? "" : ",") + to_string(m);
                return Value(text.empty() ? std::string("all") : text);
            }),
    };
}

OptionList<FitSpec> fit_options(bool categorical) {
    using O = RecalibrationOptions;
    std::vector<RecalibrationMethod> methods;
    std::vector<std::string> described;
    for (const RecalibrationMethodInfo& m : recalibration_methods())
        if (m.categorical == categorical) {
            methods.push_back(m.method);
            described.push_back(std::string(m.name) + " (" + m.summary + ")");
        }
    if (categorical) described.push_back("auto (the one of best cross-validated score)");
    const std::string family = categorical ? "categorical" : "normal";
    OptionInfo method = info("method", "", "", one_of(described));
    method.required = true;
    OptionInfo lambda = info("lambda", "L", "", "the weight of MMD^2 in the objective, >= 0", with_mmd);
    lambda.required = true;
    OptionList<O> options = {
        enum_option(&O::objective,
                    info("objective", "", "nll",
                         "nll: the mean negative log-likelihood; nll+mmd: mean NLL + lambda * MMD^2, the conditional "
                         "MMD's block estimate with blocks of floor(sqrt(n)) (Marx et al. 2023)",
                         parametric),
                    named(std::vector<RecalibrationObjective>{RecalibrationObjective::nll,
                                                                 RecalibrationObjective::nll_mmd})),
        real_option(&O::lambda, lambda, finite_nonnegative, "finite and >= 0"),
        enum_option(&O::notion,
                    info("notion", "", to_string(recalibration_notions(categorical).front()),
                         categorical ? "the MMD's notion: canonical, top-label, class-wise (one k_Z lengthscale for "
                                       "every class) or marginal (no Z)"
                                     : "the MMD's notion: distribution (Z = (mu', sigma'), moving with the map), "
                                       "individual (Z = the features) or marginal (no Z)",
                         with_mmd),
                    named(recalibration_notions(categorical)), "for family " + family),
    };
    options = options + (categorical ? categorical_options() : normal_mmd_options());
    options.push_back(integer_option(&O::max_iterations,
                                     info("max_iterations", "N", "1000", "the L-BFGS iterations at most", parametric), 1,
                                     1000000000));
    options.push_back(real_option(&O::gradient_tolerance,
                                  info("gradient_tolerance", "G", "1e-08",
                                       "stop when the gradient's norm is at most G * max(1, |theta|)", parametric),
                                  finite_positive, "finite and > 0"));
    OptionList<FitSpec> all = OptionList<FitSpec>{method_option(method, methods, categorical)} +
                              nested(&FitSpec::options, options);
    if (categorical) all = all + nested(&FitSpec::selection, selection_options());
    if (!categorical)
        all.push_back(table_option(info("features", "FILE", "",
                                        "affine-features: one value x per observation (fit and apply); notion "
                                        "individual: the conditioning features, n x d (text or .npy)"),
                                   &FitSpec::features, &FitSpec::feature_table));
    all.push_back(custom_option<FitSpec>(
        info("holdout", "F", "",
             "fit on a seeded random 1 - F of the rows and report, on the held-out F, the NLL, the SKCE bootstrap "
             "test's p-value and the conditional MMD^2 before and after"),
        [](FitSpec& s, const Value& v) {
            s.holdout = real_value("holdout", v, [](double f) { return f > 0 && f < 1; }, "in (0, 1)");
        },
        [](const FitSpec& s) { return s.holdout ? Value(*s.holdout) : Value(std::string()); }));
    all.push_back(integer_option(&FitSpec::seed,
                                 info("seed", "S", std::to_string(default_seed),
                                      "the seed of the held-out split and of its bootstrap test", {"holdout", {}}),
                                 0));
    return all;
}

class FitEntry final : public WithOptions<SetupModel, FitSpec> {
public:
    FitEntry(bool categorical, FitSpec defaults)
        : WithOptions<SetupModel, FitSpec>({"recalibrate fit", "fit a recalibration map",
                                            "recalibration by NLL (or NLL + lambda MMD^2)", false},
                                           fit_options(categorical), std::move(defaults)) {}
    using WithOptions<SetupModel, FitSpec>::values;
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<FitEntry>(*this); }
};

}  // namespace

}  // namespace detail

namespace {

bool categorical_family(const FamilyInfo& family) {
    if (family.name != "categorical" && family.name != "normal")
        throw invalid_argument("recalibration maps categorical predictions or normal ones, not family " + family.name);
    return family.name == "categorical";
}

detail::FitSpec defaults(bool categorical) {
    detail::FitSpec spec;
    if (!categorical) {
        spec.method = RecalibrationMethod::affine;
        spec.options.notion = MmdNotion::distribution;
    }
    return spec;
}

}  // namespace

RecalibrationSetup::RecalibrationSetup(const FamilyInfo& family)
    : Setup(std::make_shared<detail::FitEntry>(categorical_family(family), defaults(family.name == "categorical"))) {}

namespace {
const detail::FitSpec& spec_of(const detail::SetupModel& model) {
    return static_cast<const detail::FitEntry&>(model).values();
}
}  // namespace

RecalibrationMethod RecalibrationSetup::method() const { return spec_of(*model_).method; }
std::optional<MethodSelection> RecalibrationSetup::selection() const {
    const detail::FitSpec& spec = spec_of(*model_);
    return spec.automatic ? std::optional<MethodSelection>(spec.selection) : std::nullopt;
}
RecalibrationOptions RecalibrationSetup::fit_options() const { return spec_of(*model_).options; }

std::optional<double> RecalibrationSetup::holdout() const { return spec_of(*model_).holdout; }
std::uint64_t RecalibrationSetup::seed() const { return spec_of(*model_).seed; }

void RecalibrationSetup::validate(std::size_t n) const {
    check();
    const std::optional<double> holdout = this->holdout();
    if (!holdout) return;
    const auto k = static_cast<std::size_t>(*holdout * static_cast<double>(n));
    if (k < 2 || n - k < 2)
        throw invalid_argument("`holdout` " + detail::format_value(*holdout) + " leaves " + std::to_string(k) + " of " +
                               std::to_string(n) + " rows held out; both parts need at least 2");
}

Matrix RecalibrationSetup::features() const {
    const detail::FitSpec& spec = spec_of(*model_);
    if (spec.feature_table) return *spec.feature_table;
    return spec.features.empty() ? Matrix() : read_table(spec.features);
}

bool RecalibrationSetup::needs_features() const {
    const RecalibrationOptions& o = spec_of(*model_).options;
    return method() == RecalibrationMethod::affine_features ||
           (o.objective == RecalibrationObjective::nll_mmd && o.notion == MmdNotion::individual);
}

void RecalibrationSetup::check_features(bool given) const {
    check();
    if (given && !needs_features())
        throw invalid_argument("`features` applies only with `method` affine-features or `notion` individual");
    if (!given && method() == RecalibrationMethod::affine_features)
        throw invalid_argument("`method` affine-features needs `features` (one value x per observation)");
    if (!given && needs_features())
        throw invalid_argument("`notion` individual needs `features` (the conditioning variable, n rows)");
}

void RecalibrationSetup::check_features(const Matrix& features, std::size_t n) const {
    const bool one_column = method() == RecalibrationMethod::affine_features;
    if (features.rows() != static_cast<Eigen::Index>(n) || (one_column && features.cols() != 1))
        throw invalid_argument("`features` is " + std::to_string(features.rows()) + " x " + std::to_string(features.cols()) +
                               ", must be n = " + std::to_string(n) +
                               (one_column ? " x 1 (one value x per observation)" : " x d (one row per observation)"));
}

std::string message_context(const RecalibrationSetup& setup) {
    return "recalibrate fit `method` " + (setup.selection() ? std::string("auto") : to_string(setup.method()));
}

}  // namespace calib

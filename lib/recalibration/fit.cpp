// Fitting and applying recalibration maps. The optimiser is LBFGS++ (Debian liblbfgspp-dev, header-only
// on Eigen): L-BFGS with a backtracking line search under the Wolfe conditions, which keeps every
// curvature pair positive (docs/recalibration.md says why it is used rather than our own).
#include <calib/metrics.hpp>
#include <calib/recalibration.hpp>

#include "core/check.hpp"
#include "kernels/mmd_ops.hpp"
#include "recalibration/map_kinds.hpp"
#include "recalibration/venn_abers_map.hpp"
#include "recalibration/one_vs_rest.hpp"
#include "recalibration/objective.hpp"

#include <LBFGS.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace calib {

namespace {

// The Gaussian MMD options of the normal maps' nll+mmd.
void check_normal_mmd_options(const RecalibrationOptions& options) {
    const char* fn = "fit_recalibration";
    const GaussianTarget t = options.mmd_target;
    if (t != GaussianTarget::rbf && t != GaussianTarget::sign && t != GaussianTarget::moment && t != GaussianTarget::pit)
        detail::fail(fn, "the target kernel has no gradient here; nll+mmd takes rbf (sqexp), sign, moment or pit");
    for (const auto& [name, value] : {std::pair<const char*, double>{"mmd_lengthscale", options.mmd_lengthscale},
                                      {"mmd_target_lengthscale", options.mmd_target_lengthscale}})
        if (!(value >= 0 && std::isfinite(value)))
            detail::fail(fn, name, " = ", detail::format_value(value), ", must be finite and > 0 (or 0 for the median rule)");
    if (options.mmd_marginalisation != MmdMarginalisation::analytic) {
        if (t == GaussianTarget::sign)
            detail::fail(fn, "the sign kernel's sampled gradient is 0 almost everywhere; take mmd_marginalisation = analytic");
        if (options.mmd_samples < 1 || options.mmd_samples > max_mc_samples)
            detail::fail(fn, "mmd_samples = ", options.mmd_samples, ", must be in [1, ", max_mc_samples, "]");
        if (options.mmd_seed > max_map_seed)
            detail::fail(fn, "mmd_seed = ", options.mmd_seed, ", must be <= ", max_map_seed);
    }
    if (options.mmd_threshold && !std::isfinite(*options.mmd_threshold))
        detail::fail(fn, "mmd_threshold = ", detail::format_value(*options.mmd_threshold), ", must be finite");
}

// The names of the family's maps fitted by L-BFGS, joined by ", ".
std::string parametric_names(bool categorical) {
    std::string names;
    for (const RecalibrationMethodInfo& info : recalibration_methods())
        if (info.categorical == categorical && info.parametric) names += (names.empty() ? "" : ", ") + std::string(info.name);
    return names;
}

void check_options(const RecalibrationOptions& options, bool categorical) {
    if (!(options.probability_floor > 0 && options.probability_floor < 1))
        detail::fail("fit_recalibration", "probability_floor = ", detail::format_value(options.probability_floor),
                     ", must be in (0, 1)");
    for (const auto& [name, value] : {std::pair<const char*, double>{"ridge", options.ridge},
                                      {"intercept_ridge", options.intercept_ridge}})
        if (!(value >= 0 && std::isfinite(value)))
            detail::fail("fit_recalibration", name, " = ", detail::format_value(value), ", must be finite and >= 0");
    if (options.max_iterations < 1) detail::fail("fit_recalibration", "max_iterations = 0, must be >= 1");
    if (options.histogram_bins > detail::max_histogram_bins)
        detail::fail("fit_recalibration", "histogram_bins = ", options.histogram_bins, ", must be <= ", detail::max_histogram_bins,
                     " (0: the rule ceil(n^(1/3)))");
    if (!(options.gradient_tolerance > 0))
        detail::fail("fit_recalibration", "gradient_tolerance = ", detail::format_value(options.gradient_tolerance),
                     ", must be > 0");
    if (!(options.lambda >= 0 && std::isfinite(options.lambda)))
        detail::fail("fit_recalibration", "lambda = ", detail::format_value(options.lambda), ", must be finite and >= 0");
    if (options.objective == RecalibrationObjective::nll && options.lambda != 0)
        detail::fail("fit_recalibration", "lambda = ", detail::format_value(options.lambda),
                     " applies only to the objective nll+mmd; it must be 0 for nll");
    const std::vector<MmdNotion>& notions = recalibration_notions(categorical);
    if (options.objective == RecalibrationObjective::nll_mmd &&
        std::find(notions.begin(), notions.end(), options.notion) == notions.end())
        detail::fail("fit_recalibration", "notion = ", to_string(options.notion), ", the objective nll+mmd of the ",
                     categorical ? "categorical" : "normal", " maps (", parametric_names(categorical), ")",
                     " takes ", recalibration_notion_names(categorical));
    if (!categorical && options.objective == RecalibrationObjective::nll_mmd)
        check_normal_mmd_options(options);
}

// nll+mmd: the block size ⌊√n⌋ and the k_Z lengthscale by the median heuristic on the predictions of
// the identity map, both fixed for the whole fit (a lengthscale that moved with θ would make the
// objective discontinuous wherever the median jumps from one pair's distance to another's).
void set_mmd_term(RecalibrationMap& map, detail::CategoricalProblem& problem) {
    const auto n = static_cast<std::size_t>(problem.z.cols());
    map.mmd_block_size = static_cast<std::size_t>(std::floor(std::sqrt(static_cast<double>(n))));
    while (map.mmd_block_size * map.mmd_block_size > n) --map.mmd_block_size;  // exact ⌊√n⌋ despite rounding
    if (map.mmd_block_size < 2)
        detail::fail("fit_recalibration", "n = ", n, ", the objective nll+mmd needs n >= 4 (blocks of floor(sqrt(n)) >= 2)");
    const Matrix q = detail::mapped_probabilities(map.method, detail::to_coordinates(map.method, map.parameters), problem.z);
    MmdSpec spec;
    spec.notion = map.notion;
    // Marginal has no k_Z; class-wise has one ℓ for every class (the top-label confidences' median).
    if (map.notion != MmdNotion::marginal)
        map.mmd_lengthscale = mmd_median_lengthscales(CategoricalData(q, problem.labels), spec).front();
    problem.lambda = map.lambda;
    problem.notion = map.notion;
    problem.mmd_lengthscale = map.mmd_lengthscale;
    problem.mmd_block_size = map.mmd_block_size;
}

void check_family(const char* function, RecalibrationMethod method, bool categorical) {
    if (is_categorical(method) != categorical)
        detail::fail(function, "method = ", to_string(method), ", a map of ", categorical ? "normal" : "categorical",
                     " predictions, must be one of the ", categorical ? "categorical" : "normal", " family's");
}

detail::CategoricalProblem make_problem(const RecalibrationMap& map, const CategoricalScores& data) {
    detail::check_labelled_scores("fit_recalibration", data);
    return {map.method, map.ridge, map.intercept_ridge,
            detail::input_columns(data.scores, data.logits, map.probability_floor), data.labels};
}

// |x| of the affine-features map's feature column: n rows, one column, finite values.
Vector feature_magnitudes(const char* function, const Matrix& features, std::size_t n) {
    if (features.rows() != static_cast<Eigen::Index>(n) || features.cols() != 1)
        detail::fail(function, "`features` is ", features.rows(), " x ", features.cols(), ", must be n = ", n,
                     " x 1 (one feature x per observation: log sigma' = log sigma + s0 + s1 |x|)");
    Vector abs_x(features.rows());
    for (Eigen::Index i = 0; i < features.rows(); ++i) {
        detail::check_finite(function, "features", i, 0, features(i, 0));
        abs_x[i] = std::abs(features(i, 0));
    }
    return abs_x;
}

// The |x| a normal map needs: those of the features for affine-features (which needs them), none
// for affine (which refuses them).
Vector map_features(const char* function, const RecalibrationMap& map, const Matrix& features, std::size_t n) {
    if (map.method != RecalibrationMethod::affine_features) {
        if (features.size()) detail::fail(function, "features apply only to method = affine-features, not ", to_string(map.method));
        return Vector();
    }
    if (features.size() == 0) detail::fail(function, "method = affine-features needs the features (n x 1)");
    return feature_magnitudes(function, features, n);
}

// nll+mmd of the normal maps: the block size ⌊√n⌋ and the spec's lengthscales and threshold, fixed
// for the whole fit from the unrecalibrated forecasts (the identity map's), the features and y, by
// the rules of recalibration.hpp unless given in the options.
detail::NormalMmdPenalty normal_mmd_term(RecalibrationMap& map, const NormalData& data, const Matrix& features,
                                         const RecalibrationOptions& options) {
    const char* fn = "fit_recalibration";
    const std::size_t n = data.size();
    map.mmd_block_size = static_cast<std::size_t>(std::floor(std::sqrt(static_cast<double>(n))));
    while (map.mmd_block_size * map.mmd_block_size > n) --map.mmd_block_size;  // exact ⌊√n⌋ despite rounding
    if (map.mmd_block_size < 2)
        detail::fail(fn, "n = ", n, ", the objective nll+mmd needs n >= 4 (blocks of floor(sqrt(n)) >= 2)");
    detail::NormalMmdPenalty penalty;
    penalty.lambda = map.lambda;
    penalty.block_size = map.mmd_block_size;
    GaussianMmdSpec& spec = penalty.spec;
    spec.notion = map.notion;
    spec.target = map.mmd_target;
    if (options.mmd_marginalisation != MmdMarginalisation::analytic) {
        spec.marginalisation = map.mmd_marginalisation = options.mmd_marginalisation;
        spec.samples = map.mmd_samples = options.mmd_samples;
        spec.seed = map.mmd_seed = options.mmd_seed;
    }
    spec.conditioning = {PredictionKernelShape::sqexp,
                         map.notion == MmdNotion::individual ? Metric::euclidean : Metric::w2, 1.0};
    if (map.notion == MmdNotion::individual) {
        if (features.size() == 0)
            detail::fail(fn, "notion = individual needs the features (n x d, the overload with features)");
        spec.features = features;
    }
    validate_mmd(data, spec, fn);
    if (map.notion != MmdNotion::marginal)
        spec.conditioning.lengthscale = options.mmd_lengthscale > 0 ? options.mmd_lengthscale
                                                                    : mmd_median_lengthscales(data, spec).front();
    const Vector mu = data.mean(), sigma = data.stddev(), y = data.targets();
    if (map.mmd_target == GaussianTarget::rbf || map.mmd_target == GaussianTarget::pit) {
        Matrix values(y.size(), 1);  // y, or the PITs Φ((y − μ)/σ)
        for (Eigen::Index i = 0; i < y.size(); ++i)
            values(i, 0) = map.mmd_target == GaussianTarget::rbf ? y[i] : 0.5 * std::erfc(-(y[i] - mu[i]) / (sigma[i] * std::sqrt(2.0)));
        spec.target_lengthscale = options.mmd_target_lengthscale > 0
            ? options.mmd_target_lengthscale : detail::median_of_rows(fn, values, false, 1.0, MedianOptions{});
        map.mmd_target_lengthscale = spec.target_lengthscale;
    }
    if (map.mmd_target == GaussianTarget::sign) {
        spec.threshold = options.mmd_threshold ? *options.mmd_threshold : median_target(data);  // the paper's rule
        map.mmd_threshold = spec.threshold;
    }
    map.mmd_lengthscale = map.notion == MmdNotion::marginal ? 0.0 : spec.conditioning.lengthscale;
    validate_mmd(data, spec, fn);
    return penalty;
}

// Minimises `objective(θ, gradient*)` from the map's parameters; sets them to the result and says how it went.
template <class Objective>
FitSummary minimise(RecalibrationMap& map, const RecalibrationOptions& options, const Objective& objective) {
    FitSummary summary;
    Vector theta = detail::to_coordinates(map.method, map.parameters);
    Vector gradient(theta.size());
    summary.objective_before = objective(theta, &gradient);
    if (!std::isfinite(summary.objective_before) || !gradient.allFinite())
        throw numerical_error(detail::concat(
            "calib::fit_recalibration: the objective at the identity map is ", detail::format_value(summary.objective_before),
            gradient.allFinite() ? "" : " with a non-finite gradient",
            ": the data hold values too large (or scales too small) for the likelihood to be computed in double "
            "precision; rescale them (divide the logits, standardise the targets) or remove the extreme rows"));
    // The lowest point evaluated: the result when the line search fails (LBFGS++ then leaves θ undefined).
    Vector best = theta;
    double best_value = summary.objective_before;
    summary.evaluations = 1;
    auto f = [&](const Vector& x, Vector& grad) {
        ++summary.evaluations;
        const double value = objective(x, &grad);
        if (value < best_value) best_value = value, best = x;
        return std::isfinite(value) ? value : std::numeric_limits<double>::infinity();
    };
    LBFGSpp::LBFGSParam<double> param;
    param.epsilon = options.gradient_tolerance;
    param.epsilon_rel = options.gradient_tolerance;
    param.max_iterations = static_cast<int>(options.max_iterations);
    param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_WOLFE;
    LBFGSpp::LBFGSSolver<double> solver(param);
    double value = 0;
    try {
        summary.iterations = static_cast<std::size_t>(solver.minimize(f, theta, value));
        if (theta.allFinite()) best = theta;
    } catch (const invalid_argument&) {  // ours (from the objective): not the optimiser's
        throw;
    } catch (const numerical_error&) {
        throw;
    } catch (const std::runtime_error&) {  // LBFGS++ reports a failed line search by throwing, without k,
        summary.iterations = 0;
    } catch (const std::logic_error&) {  // and a step it cannot take (a non-finite direction) likewise
        summary.iterations = 0;
    }
    summary.objective_after = objective(best, &gradient);
    if (gradient.norm() <= options.gradient_tolerance * std::max(1.0, best.norm()))
        summary.termination = FitTermination::converged;
    else
        summary.termination = summary.iterations > 0 ? FitTermination::max_iterations : FitTermination::line_search_failed;
    map.parameters = detail::to_parameters(map.method, best);
    // A map that cannot be applied is an error, never a file with null parameters.
    const std::string problem = detail::map_parameter_problem(map);
    if (!problem.empty())
        throw numerical_error(detail::concat(
            "calib::fit_recalibration: the fit diverged (", problem, "): the data hold values too large (or scales too "
            "small) for this method; rescale them or remove the extreme rows"));
    if (!std::isfinite(summary.objective_after))
        throw numerical_error(detail::concat("calib::fit_recalibration: the objective at the fitted map is ",
                                             detail::format_value(summary.objective_after),
                                             ": the data hold values too large for this method; rescale them"));
    return summary;
}

// Beta calibration's constraint a, b ≥ 0 (Kull et al. 2017, who refit with the negative coefficient
// fixed at 0): when the free minimum breaks it, the minimum on each face — a = 0, b = 0, a = b = 0 — that
// keeps the other coefficient ≥ 0, the lowest of them. The NLL is convex in (a, b, c), so the constrained
// minimum is the free minimum of its face: this is it exactly (for nll+mmd, the best of the faces' local
// minima). A face's coordinates stay at 0 because their gradient is set to 0: L-BFGS's directions are
// then 0 there. The summary keeps objective_before (the identity's) and counts every fit's evaluations.
template <class Objective>
void keep_beta_monotone(RecalibrationFit& fit, const RecalibrationOptions& options, const Objective& objective) {
    const Vector free = fit.map.parameters;
    if (free[0] >= 0 && free[1] >= 0) return;
    std::optional<RecalibrationFit> best;
    std::size_t evaluations = fit.summary.evaluations;
    for (const std::vector<Eigen::Index>& fixed : {std::vector<Eigen::Index>{0}, {1}, {0, 1}}) {
        RecalibrationFit face = fit;
        face.map.parameters << 1, 1, 0;
        for (const Eigen::Index k : fixed) face.map.parameters[k] = 0;
        const FitSummary summary = minimise(face.map, options, [&](const Vector& theta, Vector* gradient) {
            const double value = objective(theta, gradient);
            if (gradient)
                for (const Eigen::Index k : fixed) (*gradient)[k] = 0;
            return value;
        });
        evaluations += summary.evaluations;
        if (face.map.parameters[0] < 0 || face.map.parameters[1] < 0) continue;
        face.summary = summary;
        if (!best || summary.objective_after < best->summary.objective_after) best = face;
    }
    best->summary.objective_before = fit.summary.objective_before;
    best->summary.evaluations = evaluations;
    fit = *best;
}

// Fits a normal map (features: |x| for affine-features; Z for the individual notion).
RecalibrationFit fit_normal(const NormalData& data, const Matrix& features, RecalibrationMethod method,
                            const RecalibrationOptions& options) {
    RecalibrationFit fit{identity_map(method, 0, false, options), {}};
    const Vector abs_x = method == RecalibrationMethod::affine_features
        ? feature_magnitudes("fit_recalibration", features, data.size()) : Vector();
    if (fit.map.objective != RecalibrationObjective::nll_mmd) {
        fit.summary = minimise(fit.map, options, [&](const Vector& theta, Vector* gradient) {
            return detail::normal_objective(data, theta, gradient, abs_x);
        });
        return fit;
    }
    const detail::NormalMmdPenalty penalty = normal_mmd_term(fit.map, data, features, options);
    fit.summary = minimise(fit.map, options, [&](const Vector& theta, Vector* gradient) {
        return detail::normal_objective(data, theta, gradient, abs_x, &penalty);
    });
    return fit;
}

}  // namespace

std::string to_string(FitTermination termination) {
    switch (termination) {
    case FitTermination::converged: return "converged";
    case FitTermination::max_iterations: return "max_iterations";
    case FitTermination::line_search_failed: return "line_search_failed";
    }
    return "unknown";
}

FitTermination parse_fit_termination(const std::string& name) {
    for (const FitTermination t :
         {FitTermination::converged, FitTermination::max_iterations, FitTermination::line_search_failed})
        if (to_string(t) == name) return t;
    detail::fail("parse_fit_termination", "termination = '", name, "', must be converged, max_iterations or "
                 "line_search_failed");
}

const std::vector<RecalibrationMethodInfo>& recalibration_methods() {
    using M = RecalibrationMethod;
    static const std::vector<RecalibrationMethodInfo> methods = {
        {M::temperature, "temperature", "softmax(z/T)", true, true, false},
        {M::temperature_bias, "temperature-bias", "softmax(z/T + b)", true, true, false},
        {M::platt, "platt",
         "sigmoid(a (z1 - z0) + b); m > 2: one-vs-rest, sigmoid(a_k s_k + b_k) of each class's log-odds s_k, renormalised",
         true, true, false},
        {M::beta, "beta", "m = 2: sigmoid(a ln p1 - b ln p0 + c), a, b >= 0", true, true, true},
        {M::vector, "vector", "softmax(w*z + b)", true, true, false},
        {M::matrix, "matrix", "softmax(Wz + b), with a ridge on the off-diagonal W", true, true, false},
        {M::dirichlet, "dirichlet",
         "softmax(W ln p + b), p the softmax of z, with Kull et al.'s ODIR ridges on the off-diagonal W and on b", true,
         true, false},
        {M::isotonic, "isotonic",
         "PAV on each class's probability, one-vs-rest and renormalised; the last class's alone when m = 2", true,
         false, false},
        {M::top_label_isotonic, "top-label-isotonic",
         "PAV of each predicted class's confidence on the rows that predict it (Gupta & Ramdas's top-label "
         "calibration); the others share the rest, each below the top class", true, false, false},
        {M::histogram, "histogram",
         "each class's probability binned, a bin's value its class frequency; one-vs-rest as isotonic", true, false,
         false},
        {M::venn_abers, "venn-abers",
         "m = 2: the inductive Venn-Abers predictor, p1 / (1 - p0 + p1) of the isotonic fits p0, p1 with the new "
         "point labelled 0 and 1", true, false, true},
        {M::affine, "affine", "N(a mu + b, (e^s sigma)^2)", false, true, false},
        {M::affine_features, "affine-features", "N(a mu + b, (e^(s0 + s1 |x|) sigma)^2) with one feature x per observation",
         false, true, false},
    };
    return methods;
}

const RecalibrationMethodInfo& method_info(RecalibrationMethod method) {
    for (const RecalibrationMethodInfo& info : recalibration_methods())
        if (info.method == method) return info;
    detail::fail("method_info", "method ", static_cast<int>(method), " is not in recalibration_methods()");
}

std::string to_string(RecalibrationMethod method) { return method_info(method).name; }

RecalibrationMethod parse_recalibration_method(const std::string& name) {
    std::string names;
    for (const RecalibrationMethodInfo& info : recalibration_methods()) {
        if (info.name == name) return info.method;
        names += (names.empty() ? "" : ", ") + std::string(info.name);
    }
    detail::fail("parse_recalibration_method", "method = '", name, "' is unknown; the methods are ", names);
}

std::string to_string(RecalibrationObjective objective) {
    return objective == RecalibrationObjective::nll ? "nll" : "nll+mmd";
}

RecalibrationObjective parse_recalibration_objective(const std::string& name) {
    if (name == "nll") return RecalibrationObjective::nll;
    if (name == "nll+mmd") return RecalibrationObjective::nll_mmd;
    detail::fail("parse_recalibration_objective", "objective = '", name, "' is unknown; the objectives are nll, nll+mmd");
}

bool is_categorical(RecalibrationMethod method) { return method_info(method).categorical; }

bool is_parametric(RecalibrationMethod method) { return method_info(method).parametric; }

const std::vector<MmdNotion>& recalibration_notions(bool categorical) {
    static const std::vector<MmdNotion> classes = {MmdNotion::canonical, MmdNotion::top_label, MmdNotion::class_wise,
                                                   MmdNotion::marginal};
    static const std::vector<MmdNotion> normal = {MmdNotion::distribution, MmdNotion::individual, MmdNotion::marginal};
    return categorical ? classes : normal;
}

std::string recalibration_notion_names(bool categorical) {
    const std::vector<MmdNotion>& notions = recalibration_notions(categorical);
    std::string out;
    for (std::size_t k = 0; k < notions.size(); ++k)
        out += (k == 0 ? "" : k + 1 == notions.size() ? " or " : ", ") + to_string(notions[k]);
    return out;
}

namespace {

// A map of the method with the options' settings and no parameters yet (the identity's, or a fit's).
RecalibrationMap unfitted_map(RecalibrationMethod method, int num_classes, bool logits, const RecalibrationOptions& options) {
    check_options(options, is_categorical(method));
    if (!is_parametric(method) && options.objective == RecalibrationObjective::nll_mmd)
        detail::fail("fit_recalibration", "method = ", to_string(method), " is fitted exactly (PAV, or bin "
                     "frequencies); the objective nll+mmd applies to the parametric maps");
    if (detail::map_kind(method, num_classes) && options.objective == RecalibrationObjective::nll_mmd)
        detail::fail("fit_recalibration", "method = ", to_string(method), " with m = ", num_classes,
                     " classes is fitted one class at a time (one-vs-rest); the objective nll+mmd applies to maps of "
                     "all classes at once");
    if (method_info(method).two_classes && num_classes != 2)
        detail::fail("fit_recalibration", "method = ", to_string(method), " maps binary predictions (m = 2 classes), not m = ",
                     num_classes, "; for more classes take temperature-bias or vector");
    RecalibrationMap map;
    map.method = method;
    map.probability_floor = options.probability_floor;
    if (is_categorical(method) || options.objective == RecalibrationObjective::nll_mmd) {
        map.objective = options.objective;
        map.lambda = options.lambda;
        map.notion = options.notion;
    }
    if (!is_categorical(method) && options.objective == RecalibrationObjective::nll_mmd) map.mmd_target = options.mmd_target;
    if (is_categorical(method)) {
        map.logits = logits;
        map.num_classes = num_classes;
    }
    if (method == RecalibrationMethod::matrix || method == RecalibrationMethod::dirichlet) map.ridge = options.ridge;
    if (method == RecalibrationMethod::dirichlet) map.intercept_ridge = options.intercept_ridge;
    if (method == RecalibrationMethod::histogram) {
        map.histogram_binning = options.histogram_binning;
        map.histogram_bins = options.histogram_bins;
    }
    return map;
}

}  // namespace

RecalibrationMap identity_map(RecalibrationMethod method, int num_classes, bool logits,
                              const RecalibrationOptions& options) {
    RecalibrationMap map = unfitted_map(method, num_classes, logits, options);
    const Eigen::Index m = num_classes;
    if (!is_categorical(method)) {
        map.parameters = Vector::Zero(method == RecalibrationMethod::affine_features ? 4 : 3);
        map.parameters[0] = 1;
        return map;
    }
    switch (method) {
    case RecalibrationMethod::temperature: map.parameters = Vector::Ones(1); break;
    case RecalibrationMethod::temperature_bias: map.parameters = Vector::Zero(1 + m), map.parameters[0] = 1; break;
    case RecalibrationMethod::vector: map.parameters = Vector::Zero(2 * m), map.parameters.head(m).setOnes(); break;
    case RecalibrationMethod::matrix:
    case RecalibrationMethod::dirichlet:
        map.parameters = Vector::Zero(m * m + m);
        for (Eigen::Index k = 0; k < m; ++k) map.parameters[k * m + k] = 1;
        break;
    case RecalibrationMethod::platt:  // [a, b]; m > 2: [a_0 … a_{m−1}, b_0 … b_{m−1}] (one-vs-rest)
        map.parameters = Vector::Zero(m == 2 ? 2 : 2 * m), map.parameters.head(m == 2 ? 1 : m).setOnes();
        break;
    case RecalibrationMethod::beta: map.parameters = Vector::Zero(3), map.parameters.head(2).setOnes(); break;
    case RecalibrationMethod::isotonic: map.curves = detail::identity_curves(num_classes); break;
    case RecalibrationMethod::top_label_isotonic:
        map.curves.assign(static_cast<std::size_t>(num_classes), MonotoneCurve{{0.0, 1.0}, {0.0, 1.0}});
        break;
    case RecalibrationMethod::histogram:
    case RecalibrationMethod::venn_abers:
        detail::fail("identity_map", "method = ", to_string(method), " has no identity (a step function changes every "
                     "prediction)");
    case RecalibrationMethod::affine:
    case RecalibrationMethod::affine_features: break;
    }
    return map;
}

RecalibrationFit fit_recalibration(const CategoricalScores& data, RecalibrationMethod method,
                                   const RecalibrationOptions& options) {
    check_family("fit_recalibration", method, true);
    if (const detail::MapKind* kind = detail::map_kind(method, static_cast<int>(data.scores.cols()))) {
        RecalibrationFit fit{unfitted_map(method, static_cast<int>(data.scores.cols()), data.logits, options), {}};
        fit.summary = kind->fit(fit.map, data, options);
        return fit;
    }
    RecalibrationFit fit{identity_map(method, static_cast<int>(data.scores.cols()), data.logits, options), {}};
    detail::CategoricalProblem problem = make_problem(fit.map, data);
    if (fit.map.objective == RecalibrationObjective::nll_mmd) set_mmd_term(fit.map, problem);
    const auto objective = [&](const Vector& theta, Vector* gradient) {
        return detail::categorical_objective(problem, theta, gradient);
    };
    fit.summary = minimise(fit.map, options, objective);
    if (method == RecalibrationMethod::beta) keep_beta_monotone(fit, options, objective);
    return fit;
}

RecalibrationFit fit_recalibration(const NormalData& data, RecalibrationMethod method,
                                   const RecalibrationOptions& options) {
    check_family("fit_recalibration", method, false);
    if (method == RecalibrationMethod::affine_features)
        detail::fail("fit_recalibration", "method = affine-features needs the features (the overload with features)");
    return fit_normal(data, Matrix(), method, options);
}

RecalibrationFit fit_recalibration(const NormalData& data, const Matrix& features, RecalibrationMethod method,
                                   const RecalibrationOptions& options) {
    check_family("fit_recalibration", method, false);
    const bool individual = options.objective == RecalibrationObjective::nll_mmd && options.notion == MmdNotion::individual;
    if (method != RecalibrationMethod::affine_features && !individual)
        detail::fail("fit_recalibration", "features apply only to method = affine-features or the objective nll+mmd "
                     "with notion individual, not method = ", to_string(method));
    return fit_normal(data, features, method, options);
}

double recalibrated_nll(const RecalibrationMap& map, const CategoricalScores& data) {
    check_family("recalibrated_nll", map.method, true);
    if (const detail::MapKind* kind = detail::map_kind(map.method, map.num_classes)) {
        detail::check_labelled_scores("recalibrated_nll", data);
        if (data.scores.cols() != map.num_classes)
            detail::fail("recalibrated_nll", "scores has ", data.scores.cols(), " columns, must have the map's m = ",
                         map.num_classes);
        return detail::floored_nll(kind->apply(map, data.scores), data.labels, map.probability_floor);
    }
    detail::CategoricalProblem problem = make_problem(map, data);
    problem.ridge = problem.intercept_ridge = 0;
    return detail::categorical_objective(problem, detail::to_coordinates(map.method, map.parameters), nullptr);
}

double recalibrated_nll(const RecalibrationMap& map, const NormalData& data, const Matrix& features) {
    check_family("recalibrated_nll", map.method, false);
    return detail::normal_objective(data, map.parameters, nullptr,
                                    map_features("recalibrated_nll", map, features, data.size()));
}

Matrix apply_recalibration(const RecalibrationMap& map, const Matrix& scores) {
    check_family("apply_recalibration", map.method, true);
    if (scores.cols() != map.num_classes)
        detail::fail("apply_recalibration", "scores has ", scores.cols(), " columns, must have the map's m = ",
                     map.num_classes);
    // A map of probabilities given logits or negative scores would return plausible probabilities. Only
    // the entries' range is checked: the fit may have read rows off the simplex (a tolerance, renormalize).
    if (!map.logits)
        for (Eigen::Index i = 0; i < scores.rows(); ++i)
            for (Eigen::Index k = 0; k < scores.cols(); ++k)
                if (std::isfinite(scores(i, k)) && !(scores(i, k) >= 0 && scores(i, k) <= 1))
                    detail::fail_at(i, k, "apply_recalibration", "scores(", i, ", ", k, ") = ",
                                    detail::format_value(scores(i, k)),
                                    ", must be in [0, 1] (the map was fitted on probabilities; for logits, fit a map on "
                                    "logits)");
    if (const detail::MapKind* kind = detail::map_kind(map.method, map.num_classes)) return kind->apply(map, scores);
    const Matrix z = detail::input_columns(scores, map.logits, map.probability_floor);
    const Matrix p = detail::mapped_probabilities(map.method, detail::to_coordinates(map.method, map.parameters), z);
    for (Eigen::Index i = 0; i < p.rows(); ++i)
        if (!p.row(i).allFinite())
            throw numerical_error(detail::concat(
                "calib::apply_recalibration: row ", i, ": the mapped logits are not finite (the map's parameters are "
                "too extreme for this input, e.g. a temperature near 0 or matrix entries near the largest double)"));
    return p;
}

Matrix venn_abers_intervals(const RecalibrationMap& map, const Matrix& scores) {
    if (map.method != RecalibrationMethod::venn_abers)
        detail::fail("venn_abers_intervals", "the map is ", to_string(map.method), "; only a venn-abers map has intervals");
    return detail::venn_abers_interval_table(map, scores);
}

Matrix apply_recalibration(const RecalibrationMap& map, const Vector& mean, const Vector& stddev,
                           const Matrix& features) {
    check_family("apply_recalibration", map.method, false);
    detail::check_same_rows("apply_recalibration", "mean", mean.size(), "stddev", stddev.size());
    const Vector abs_x = map_features("apply_recalibration", map, features, static_cast<std::size_t>(mean.size()));
    Matrix out(mean.size(), 2);
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
        detail::check_finite("apply_recalibration", "mean", i, 0, mean[i]);
        detail::check_positive("apply_recalibration", "stddev", i, 1, stddev[i]);
        out(i, 0) = map.parameters[0] * mean[i] + map.parameters[1];
        const double s = abs_x.size() ? map.parameters[2] + map.parameters[3] * abs_x[i] : map.parameters[2];
        out(i, 1) = std::exp(s) * stddev[i];
        if (!std::isfinite(out(i, 0)) || !(std::isfinite(out(i, 1)) && out(i, 1) > 0))
            throw numerical_error(detail::concat(
                "calib::apply_recalibration: row ", i, ": the recalibrated (mean, stddev) = (",
                detail::format_value(out(i, 0)), ", ", detail::format_value(out(i, 1)),
                ") is not a normal distribution (the map's parameters are too extreme for this input)"));
    }
    return out;
}

}  // namespace calib

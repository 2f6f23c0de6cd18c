// Tests of recalibration by NLL (recalibration.hpp): analytic gradients against central differences,
// recovery of known maps, the JSON file's round trip, and errors.
#include <calib/errors.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include "recalibration/objective.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

using calib::CategoricalScores;
using calib::Matrix;
using calib::NormalData;
using calib::RecalibrationFit;
using calib::RecalibrationMap;
using calib::RecalibrationMethod;
using calib::Vector;

namespace {

const RecalibrationMethod categorical_methods[] = {RecalibrationMethod::temperature,
                                                   RecalibrationMethod::temperature_bias,
                                                   RecalibrationMethod::vector, RecalibrationMethod::matrix,
                                                   RecalibrationMethod::dirichlet};

// The largest |analytic − central difference| over the coordinates, relative to max(1, |analytic|);
// step h·max(1, |θ_k|), whose truncation error O(h²) is ≈ 1e-10 at h = 1e-5.
template <class Objective>
double gradient_error(const Objective& objective, const Vector& theta, double h = 1e-5) {
    Vector analytic(theta.size());
    objective(theta, &analytic);
    double worst = 0;
    for (Eigen::Index k = 0; k < theta.size(); ++k) {
        const double step = h * std::max(1.0, std::abs(theta[k]));
        Vector up = theta, down = theta;
        up[k] += step;
        down[k] -= step;
        const double numeric = (objective(up, nullptr) - objective(down, nullptr)) / (2 * step);
        worst = std::max(worst, std::abs(numeric - analytic[k]) / std::max(1.0, std::abs(analytic[k])));
    }
    return worst;
}

// Mean NLL of probabilities (n×m) at the labels.
double mean_nll(const Matrix& p, const std::vector<int>& labels) {
    double total = 0;
    for (Eigen::Index i = 0; i < p.rows(); ++i) total -= std::log(p(i, labels[static_cast<std::size_t>(i)]));
    return total / static_cast<double>(p.rows());
}

// Normal forecasts N(μ, σ²) with σ ∈ [0.5, 1.5] and targets from N(a μ + b, (e^s σ)²).
NormalData affine_data(std::size_t n, double a, double b, double s, calib::Rng& rng) {
    boost::random::normal_distribution<double> normal;
    boost::random::uniform_01<double> uniform;
    Vector mean(static_cast<Eigen::Index>(n)), stddev(mean.size()), y(mean.size());
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
        mean[i] = 2 * normal(rng);
        stddev[i] = 0.5 + uniform(rng);
        y[i] = a * mean[i] + b + std::exp(s) * stddev[i] * normal(rng);
    }
    return NormalData(mean, stddev, y);
}

// Binary probabilities p ~ U(0.02, 0.98) with labels from σ(a ln p − b ln(1 − p) + c).
CategoricalScores beta_data(std::size_t n, double a, double b, double c, calib::Rng& rng) {
    boost::random::uniform_01<double> uniform;
    CategoricalScores data{Matrix(static_cast<Eigen::Index>(n), 2), {}, false};
    for (Eigen::Index i = 0; i < data.scores.rows(); ++i) {
        const double p = 0.02 + 0.96 * uniform(rng);
        data.scores.row(i) << 1 - p, p;
        const double logit = a * std::log(p) - b * std::log(1 - p) + c;
        data.labels.push_back(uniform(rng) < 1 / (1 + std::exp(-logit)) ? 1 : 0);
    }
    return data;
}

}  // namespace

TEST_SUITE("recalibration") {

TEST_CASE("analytic gradients match central differences for every map") {
    calib::Rng rng = calib::make_stream(11, 0);
    const CategoricalScores data = calib::synthetic::tempered_logits(60, 4, 2.0, 1.5, rng);
    boost::random::normal_distribution<double> normal(0, 0.3);
    for (bool logits : {true, false}) {
        CategoricalScores scores = data;
        if (!logits) {  // probabilities, one of them 0 so that the floor is used
            scores.logits = false;
            scores.scores = calib::apply_recalibration(calib::identity_map(RecalibrationMethod::temperature, 4, true),
                                                       data.scores);
            scores.scores(0, 1) = 0;
        }
        for (RecalibrationMethod method : categorical_methods) {
            CAPTURE(calib::to_string(method));
            CAPTURE(logits);
            calib::detail::CategoricalProblem problem{method, 0.1, 0.2,
                                                      calib::detail::input_columns(scores.scores, logits, 1e-12),
                                                      scores.labels};
            const RecalibrationMap identity = calib::identity_map(method, 4, logits);
            Vector theta = calib::detail::to_coordinates(method, identity.parameters);
            for (Eigen::Index k = 0; k < theta.size(); ++k) theta[k] += normal(rng);  // away from the identity
            const double error = gradient_error(
                [&](const Vector& t, Vector* g) { return calib::detail::categorical_objective(problem, t, g); }, theta);
            CHECK(error < 1e-7);
        }
    }
    // Platt's map, of two classes.
    const CategoricalScores two = calib::synthetic::tempered_logits(60, 2, 2.0, 1.5, rng);
    const calib::detail::CategoricalProblem platt{RecalibrationMethod::platt, 0, 0,
                                                  calib::detail::input_columns(two.scores, true, 1e-12), two.labels};
    Vector ab(2);
    ab << 0.7, -0.4;
    CHECK(gradient_error([&](const Vector& t, Vector* g) { return calib::detail::categorical_objective(platt, t, g); },
                         ab) < 1e-7);
    // Beta calibration's, of two classes, on logits and on probabilities.
    for (const bool logits : {true, false}) {
        const Matrix scores = logits ? two.scores : calib::detail::mapped_probabilities(
            RecalibrationMethod::temperature, Vector::Zero(1), two.scores.transpose());
        const calib::detail::CategoricalProblem beta{RecalibrationMethod::beta, 0, 0,
                                                     calib::detail::input_columns(scores, logits, 1e-12), two.labels};
        Vector abc(3);
        abc << 0.7, 1.6, -0.4;
        CHECK(gradient_error([&](const Vector& t, Vector* g) { return calib::detail::categorical_objective(beta, t, g); },
                             abc) < 1e-7);
    }
    const NormalData normal_data = affine_data(60, 1.2, 0.3, 0.2, rng);
    Vector theta(3);
    theta << 0.8, -0.2, 0.4;
    CHECK(gradient_error([&](const Vector& t, Vector* g) { return calib::detail::normal_objective(normal_data, t, g); },
                         theta) < 1e-7);
}

// Labels from softmax(z / T₀) with T₀ = 2, m = 10, z ~ N(0, 3²), n = 10 000. The standard error of
// log T̂ is 1/√(n·I), I = (1/n) Σ_i Var_{p_i}(l_i) the Fisher information per observation of log T at
// the fit (l_i = z_i / T̂, p_i = softmax(l_i); docs/recalibration.md); SE(T̂) = T̂·SE(log T̂).
TEST_CASE("beta calibration recovers a known map and keeps a, b >= 0 when the free fit breaks it") {
    calib::Rng rng = calib::make_stream(11, 0);
    const RecalibrationFit free = calib::fit_recalibration(beta_data(20000, 2.0, 0.7, 0.3, rng), RecalibrationMethod::beta);
    CHECK(free.summary.termination == calib::FitTermination::converged);
    // The standard errors are about 0.05 (a, b) and 0.07 (c) at this n: 0.25 is over 3 of them.
    CHECK(std::abs(free.map.parameters[0] - 2.0) < 0.25);
    CHECK(std::abs(free.map.parameters[1] - 0.7) < 0.25);
    CHECK(std::abs(free.map.parameters[2] - 0.3) < 0.25);
    // a = −0.5: the free minimum has a < 0; the fit is the face a = 0's, which beats the face b = 0's
    // and the corner's (the constrained minimum of a convex NLL is one of them).
    const CategoricalScores data = beta_data(20000, -0.5, 1.5, 0.0, rng);
    const RecalibrationFit fit = calib::fit_recalibration(data, RecalibrationMethod::beta);
    CHECK(fit.map.parameters[0] == 0.0);
    CHECK(fit.map.parameters[1] > 0.5);  // the face a = 0, not the corner a = b = 0 (b = 0.91 here)
    CHECK(fit.summary.objective_after == doctest::Approx(calib::recalibrated_nll(fit.map, data)).epsilon(1e-14));
    CHECK(fit.summary.objective_after < fit.summary.objective_before);
    RecalibrationMap other = fit.map;
    for (const double b : {0.0, 0.5, 1.0, 2.0})
        for (const double c : {-1.0, -0.3, 0.0, 0.3}) {
            other.parameters << 0.0, b, c;
            CHECK(calib::recalibrated_nll(other, data) >= fit.summary.objective_after);
            other.parameters << 0.5 + b, 0.0, c;
            CHECK(calib::recalibrated_nll(other, data) >= fit.summary.objective_after);
        }
    // The applied map is nondecreasing in p.
    Matrix grid(101, 2);
    for (Eigen::Index i = 0; i <= 100; ++i) grid.row(i) << 1 - i / 100.0, i / 100.0;
    const Matrix q = calib::apply_recalibration(fit.map, grid);
    for (Eigen::Index i = 1; i <= 100; ++i) CHECK(q(i, 1) >= q(i - 1, 1));
    // A map file with a negative coefficient is not a beta map.
    std::string json = calib::to_json(fit);
    const std::string key = "\"a\": 0";
    REQUIRE(json.find(key) != std::string::npos);
    json.replace(json.find(key), key.size(), "\"a\": -0.5");
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(json), doctest::Contains("a = -0.5, must be >= 0"),
                         calib::invalid_argument);
}

TEST_CASE("temperature scaling recovers a known temperature within 2 standard errors") {
    const double t0 = 2;
    calib::Rng rng = calib::make_stream(2023, 0);
    const CategoricalScores data = calib::synthetic::tempered_logits(10000, 10, 3.0, t0, rng);
    const RecalibrationFit map_fit = calib::fit_recalibration(data, RecalibrationMethod::temperature);
    const RecalibrationMap& map = map_fit.map;
    const double t = map.parameters[0];
    double information = 0;
    for (Eigen::Index i = 0; i < data.scores.rows(); ++i) {
        const Eigen::RowVectorXd l = data.scores.row(i) / t;
        Eigen::RowVectorXd p = (l.array() - l.maxCoeff()).exp();
        p /= p.sum();
        const double mean = p.dot(l);
        information += p.dot(l.cwiseProduct(l)) - mean * mean;
    }
    const double se = t / std::sqrt(information);
    MESSAGE("fitted T = ", t, ", T0 = ", t0, ", SE = ", se, ", (T - T0)/SE = ", (t - t0) / se, ", iterations ",
            map_fit.summary.iterations, ", NLL ", map_fit.summary.objective_before, " -> ", map_fit.summary.objective_after);
    CHECK(map_fit.summary.termination == calib::FitTermination::converged);
    CHECK(std::abs(t - t0) <= 2 * se);
    CHECK(se < 0.05);
    CHECK(map_fit.summary.objective_after < map_fit.summary.objective_before);
}

TEST_CASE("affine Gaussian recalibration recovers a known (a, b, s)") {
    calib::Rng rng = calib::make_stream(7, 0);
    const NormalData data = affine_data(10000, 1.5, -0.3, 0.4, rng);
    const RecalibrationFit map_fit = calib::fit_recalibration(data);
    const RecalibrationMap& map = map_fit.map;
    CHECK(map_fit.summary.termination == calib::FitTermination::converged);
    // The standard errors here are about 0.005 (a), 0.01 (b), 0.007 (s): 0.04 is over 4 of them.
    CHECK(std::abs(map.parameters[0] - 1.5) < 0.04);
    CHECK(std::abs(map.parameters[1] + 0.3) < 0.04);
    CHECK(std::abs(map.parameters[2] - 0.4) < 0.04);
    CHECK(map_fit.summary.objective_after == doctest::Approx(calib::recalibrated_nll(map, data)).epsilon(1e-14));
}

TEST_CASE("every map round-trips through its JSON file bitwise") {
    calib::Rng rng = calib::make_stream(5, 0);
    const CategoricalScores data = calib::synthetic::tempered_logits(300, 3, 2.0, 1.7, rng);
    std::vector<RecalibrationFit> fits;
    for (RecalibrationMethod method : categorical_methods) fits.push_back(calib::fit_recalibration(data, method));
    for (const RecalibrationMethod method : {RecalibrationMethod::platt, RecalibrationMethod::beta})
        fits.push_back(calib::fit_recalibration(calib::synthetic::tempered_logits(300, 2, 2.0, 1.7, rng), method));
    fits.push_back(calib::fit_recalibration(affine_data(300, 0.9, 0.1, -0.2, rng)));
    for (const RecalibrationFit& fit : fits) {
        const RecalibrationMap& map = fit.map;
        CAPTURE(calib::to_string(map.method));
        const std::string json = calib::to_json(fit);
        const RecalibrationFit back = calib::recalibration_fit_from_json(json);
        CHECK(back.map.method == map.method);
        CHECK(back.map.logits == map.logits);
        CHECK(back.map.num_classes == map.num_classes);
        REQUIRE(back.map.parameters.size() == map.parameters.size());
        CHECK(std::memcmp(back.map.parameters.data(), map.parameters.data(),
                          sizeof(double) * static_cast<std::size_t>(map.parameters.size())) == 0);
        CHECK(std::memcmp(&back.summary.objective_after, &fit.summary.objective_after, sizeof(double)) == 0);
        CHECK(back.summary.iterations == fit.summary.iterations);
        CHECK(back.summary.termination == fit.summary.termination);
        CHECK(calib::to_json(back) == json);
    }
    CHECK(calib::to_json(fits[0]).find("\"temperature\": ") != std::string::npos);
    std::vector<RecalibrationMap> maps;
    for (const RecalibrationFit& fit : fits) maps.push_back(fit.map);
    // The names cover every parameter once, in order.
    for (const RecalibrationMap& map : maps) {
        std::vector<double> all;
        for (const calib::NamedParameter& p : calib::named_parameters(map)) {
            CHECK((p.array || p.values.size() == 1));
            all.insert(all.end(), p.values.begin(), p.values.end());
        }
        CHECK(all == std::vector<double>(map.parameters.data(), map.parameters.data() + map.parameters.size()));
    }
    CHECK(calib::named_parameters(maps[0]).front().name == "temperature");
}

TEST_CASE("a map fitted on one half lowers the NLL of the other half") {
    calib::Rng rng = calib::make_stream(9, 0);
    const CategoricalScores all = calib::synthetic::tempered_logits(4000, 5, 3.0, 2.5, rng);
    CategoricalScores fit{all.scores.topRows(2000), {all.labels.begin(), all.labels.begin() + 2000}, true};
    const Matrix test = all.scores.bottomRows(2000);
    const std::vector<int> test_labels(all.labels.begin() + 2000, all.labels.end());
    const Matrix before = calib::apply_recalibration(calib::identity_map(RecalibrationMethod::temperature, 5, true), test);
    for (RecalibrationMethod method : categorical_methods) {
        CAPTURE(calib::to_string(method));
        const RecalibrationFit map_fit = calib::fit_recalibration(fit, method);
        const RecalibrationMap& map = map_fit.map;
        CHECK(mean_nll(calib::apply_recalibration(map, test), test_labels) < mean_nll(before, test_labels) - 0.05);
    }
    // On probabilities: the same model's softmax outputs.
    CategoricalScores probabilities{calib::apply_recalibration(calib::identity_map(RecalibrationMethod::temperature, 5, true),
                                                               fit.scores),
                                    fit.labels, false};
    const RecalibrationFit map_fit = calib::fit_recalibration(probabilities, RecalibrationMethod::temperature);
    const RecalibrationMap& map = map_fit.map;
    CHECK(mean_nll(calib::apply_recalibration(map, before), test_labels) < mean_nll(before, test_labels) - 0.05);
}

TEST_CASE("bad inputs give clear errors") {
    calib::Rng rng = calib::make_stream(3, 0);
    CategoricalScores data = calib::synthetic::tempered_logits(50, 3, 2.0, 1.5, rng);
    const std::string json = calib::to_json(calib::fit_recalibration(data, RecalibrationMethod::temperature));
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string text = json;
        return text.replace(text.find(from), from.size(), to);
    };
    const std::string temperature = json.substr(json.find("\"temperature\": "), json.find('\n', json.find("\"temperature\": ")) - json.find("\"temperature\": "));
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(replaced(temperature, "\"temperature\": -0.5")),
                         "calib::recalibration_fit_from_json: parameters.temperature = -0.5, must be > 0 with "
                         "1/temperature finite",
                         calib::invalid_argument);
    // A temperature whose reciprocal overflows maps every finite logit to infinity.
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(replaced(temperature, "\"temperature\": 5e-324")),
                         doctest::Contains("temperature = 5e-324, must be > 0 with 1/temperature finite"),
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(replaced("\"method\": \"temperature\"", "\"method\": \"spline\"")),
                         doctest::Contains("method = 'spline' is unknown"), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(replaced("\"status\"", "\"statu\"")),
                         doctest::Contains("unknown key \"statu\" in the map"), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(replaced("\"method\": \"temperature\"", "\"method\": \"vector\"")),
                         "calib::recalibration_fit_from_json: parameters of method = vector has no \"weights\"",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(json + "}"), doctest::Contains("text after the JSON value"),
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::parse_recalibration_method("spline"),
                         "calib::parse_recalibration_method: method = 'spline' is unknown; the methods are temperature, "
                         "temperature-bias, platt, beta, vector, matrix, dirichlet, isotonic, top-label-isotonic, histogram, venn-abers, affine, affine-features",
                         calib::invalid_argument);

    // A map of the other family.
    const RecalibrationMap affine = calib::identity_map(RecalibrationMethod::affine, 0, false);
    CHECK_THROWS_WITH_AS(calib::apply_recalibration(affine, data.scores),
                         "calib::apply_recalibration: method = affine, a map of normal predictions, must be one of the "
                         "categorical family's",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::affine),
                         doctest::Contains("method = affine, a map of normal predictions"), calib::invalid_argument);
    const RecalibrationMap four = calib::identity_map(RecalibrationMethod::vector, 4, true);
    CHECK_THROWS_WITH_AS(calib::apply_recalibration(four, data.scores),
                         "calib::apply_recalibration: scores has 3 columns, must have the map's m = 4",
                         calib::invalid_argument);

    data.labels[7] = 3;
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::temperature),
                         "calib::fit_recalibration: labels[7] = 3, must be in [0, 3)", calib::invalid_argument);
    data.labels[7] = 0;
    calib::RecalibrationOptions options;
    options.ridge = -1;
    CHECK_THROWS_WITH_AS(calib::fit_recalibration(data, RecalibrationMethod::matrix, options),
                         "calib::fit_recalibration: ridge = -1, must be finite and >= 0", calib::invalid_argument);
}

TEST_CASE("extreme data and maps: one clear error, never a non-finite map or prediction") {
    // Logits of ±1e308: the NLL at the identity overflows. Before: LBFGS++'s "'step' must be positive"
    // escaped as an internal error.
    Matrix logits(4, 3);
    logits << 1e308, -1e308, 0, -1e308, 1e308, 0, 0, 1e308, -1e308, 5, 1, 2;
    const CategoricalScores huge{logits, {0, 1, 2, 1}, true};
    for (RecalibrationMethod method : categorical_methods)
        CHECK_THROWS_WITH_AS(calib::fit_recalibration(huge, method),
                             doctest::Contains("calib::fit_recalibration: the objective at the identity map is"),
                             calib::numerical_error);
    // Normal forecasts with a mean, a target or a scale at the ends of the doubles; nll and nll+mmd.
    calib::RecalibrationOptions mmd;
    mmd.objective = calib::RecalibrationObjective::nll_mmd;
    mmd.lambda = 1;
    mmd.notion = calib::MmdNotion::distribution;
    const Vector mean = (Vector(5) << 0, 0, 1, 2, 0.5).finished(), stddev = (Vector(5) << 1, 1, 2, 1, 1).finished(),
                 y = (Vector(5) << 1, 1, 0.5, 3, 0.2).finished();
    for (int column = 0; column < 3; ++column)
        for (const calib::RecalibrationOptions& options : {calib::RecalibrationOptions(), mmd}) {
            Vector m = mean, s = stddev, t = y;
            (column == 0 ? m : column == 1 ? t : s)[0] = column == 2 ? 1e-308 : 1e308;
            CAPTURE(column);
            CAPTURE(calib::to_string(options.objective));
            try {
                const RecalibrationFit map_fit = calib::fit_recalibration(NormalData(m, s, t), RecalibrationMethod::affine, options);
                const RecalibrationMap& map = map_fit.map;
                // A fit that ends is a usable map (σ = 1e-308 can leave the identity, unimproved).
                CHECK(map.parameters.allFinite());
                CHECK(std::isfinite(map_fit.summary.objective_after));
            } catch (const calib::numerical_error& e) {
                CHECK(std::string(e.what()).find("rescale") != std::string::npos);
            }
        }

    // Maps whose transforms overflow are refused on reading; extreme but finite ones are refused when
    // they meet an input they cannot map.
    const RecalibrationMap affine = calib::identity_map(RecalibrationMethod::affine, 0, false);
    for (const char* s : {"1000", "-1000"}) {
        std::string json = calib::to_json(RecalibrationFit{affine, {}});
        json.replace(json.find("\"s\": 0"), 6, std::string("\"s\": ") + s);
        CHECK_THROWS_WITH_AS(calib::recalibration_fit_from_json(json),
                             doctest::Contains("must have exp(s) finite and > 0"), calib::invalid_argument);
    }
    RecalibrationMap matrix = calib::identity_map(RecalibrationMethod::matrix, 3, true);
    matrix.parameters.head(9).setConstant(1e308);
    CHECK_THROWS_WITH_AS(calib::apply_recalibration(matrix, Matrix(logits.bottomRows(1))),
                         "calib::apply_recalibration: row 0: the mapped logits are not finite (the map's parameters are "
                         "too extreme for this input, e.g. a temperature near 0 or matrix entries near the largest double)",
                         calib::numerical_error);
    RecalibrationMap wide = affine;
    wide.parameters << 1e308, 0, 0;
    CHECK_THROWS_WITH_AS(calib::apply_recalibration(wide, mean, stddev, Matrix()),
                         doctest::Contains("row 3: the recalibrated (mean, stddev) = (inf, 1) is not a normal distribution"),
                         calib::numerical_error);

    // A map fitted on probabilities refuses logits and negative scores instead of mapping them.
    const RecalibrationMap on_probabilities = calib::identity_map(RecalibrationMethod::temperature, 3, false);
    CHECK_THROWS_WITH_AS(calib::apply_recalibration(on_probabilities, Matrix(logits.bottomRows(1))),
                         "calib::apply_recalibration: scores(0, 0) = 5, must be in [0, 1] (the map was fitted on "
                         "probabilities; for logits, fit a map on logits)",
                         calib::invalid_argument);
    const Matrix negative = (Matrix(1, 3) << 0.5, 0.7, -0.2).finished();
    CHECK_THROWS_WITH_AS(calib::apply_recalibration(on_probabilities, negative),
                         doctest::Contains("scores(0, 2) = -0.2, must be in [0, 1]"), calib::invalid_argument);
    // Rows off the simplex but with entries in [0, 1] are taken (a fit may have read them with a
    // tolerance or renormalised).
    const Matrix off = (Matrix(1, 3) << 0.5, 0.2, 0.2).finished();
    CHECK(calib::apply_recalibration(on_probabilities, off).allFinite());
}

}  // TEST_SUITE

// Recalibration of Gaussian forecasts by mean NLL + λ·MMD² (recalibration.hpp, normal maps with the
// objective nll+mmd): the whole objective's gradient against central differences (affine and
// affine-features, every notion and target), λ = 0 against the NLL fit (bitwise), the heteroscedastic
// model of the Marx digest §11.6 (held-out individual MMD² not increasing with λ), the JSON round trip
// and the errors.
#include <calib/errors.hpp>
#include <calib/mmd.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>

#include "finite_difference.hpp"
#include "recalibration/objective.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

using namespace calib;

namespace {

// x ~ U[−2, 2], y | x ~ N(sin x, (0.2 + 0.3|x|)²); the forecaster N(α + βx, s²) with (α, β) the least
// squares fit of y on x and s² the mean squared residual, both from an independent training sample
// (digest §11.6): right on average, wrong in the mean locally and in the spread everywhere.
struct Heteroscedastic {
    NormalData data;
    Matrix x;
};

Heteroscedastic heteroscedastic(Eigen::Index n, std::uint64_t seed) {
    Rng rng = make_stream(seed, 0);
    boost::random::uniform_real_distribution<double> uniform(-2, 2);
    boost::random::normal_distribution<double> normal(0, 1);
    const auto draw = [&](Vector& x, Vector& y) {
        for (Eigen::Index i = 0; i < x.size(); ++i) {
            x[i] = uniform(rng);
            y[i] = std::sin(x[i]) + (0.2 + 0.3 * std::abs(x[i])) * normal(rng);
        }
    };
    Vector xt(2000), yt(2000), x(n), y(n);
    draw(xt, yt);
    const double mx = xt.mean(), my = yt.mean();
    const double beta = (xt.array() - mx).matrix().dot((yt.array() - my).matrix()) / (xt.array() - mx).square().sum();
    const double alpha = my - beta * mx;
    const double s = std::sqrt((yt.array() - alpha - beta * xt.array()).square().mean());
    draw(x, y);
    return {NormalData((alpha + beta * x.array()).matrix(), Vector::Constant(n, s), y), Matrix(x)};
}

RecalibrationOptions mmd_options(double lambda, MmdNotion notion, GaussianTarget target = GaussianTarget::rbf) {
    RecalibrationOptions o;
    o.objective = RecalibrationObjective::nll_mmd;
    o.lambda = lambda;
    o.notion = notion;
    o.mmd_target = target;
    return o;
}

NormalData rows(const NormalData& d, Eigen::Index begin, Eigen::Index count) {
    return NormalData(Vector(d.mean().segment(begin, count)), Vector(d.stddev().segment(begin, count)),
                      Vector(d.targets().segment(begin, count)));
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

}  // namespace

TEST_SUITE("recalibration") {

TEST_CASE("normal nll+mmd: the objective's gradient equals central differences (affine, affine-features)") {
    const Heteroscedastic h = heteroscedastic(37, 51);  // blocks of 6: one row dropped
    const Vector abs_x = h.x.col(0).cwiseAbs();
    for (bool features : {false, true})
        for (MmdNotion notion : {MmdNotion::distribution, MmdNotion::individual, MmdNotion::marginal})
            for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment, GaussianTarget::pit}) {
                CAPTURE(features);
                CAPTURE(to_string(notion));
                CAPTURE(static_cast<int>(target));
                detail::NormalMmdPenalty penalty;
                penalty.lambda = 4;
                penalty.block_size = 6;
                penalty.spec.notion = notion;
                penalty.spec.target = target;
                penalty.spec.conditioning = {PredictionKernelShape::sqexp,
                                             notion == MmdNotion::individual ? Metric::euclidean : Metric::w2, 0.7};
                penalty.spec.target_lengthscale = target == GaussianTarget::pit ? 0.25 : 0.6;
                penalty.spec.threshold = 0.1;
                if (notion == MmdNotion::individual) penalty.spec.features = h.x;
                Vector theta(features ? 4 : 3);
                theta << 0.8, 0.1, -0.2;
                if (features) theta[3] = 0.3;
                const Vector ax = features ? abs_x : Vector();
                Vector analytic;
                detail::normal_objective(h.data, theta, &analytic, ax, &penalty);
                const Vector numeric = test::central_differences(
                    [&](const Vector& t) { return detail::normal_objective(h.data, t, nullptr, ax, &penalty); }, theta);
                CHECK(test::relative_error(analytic, numeric) < 1e-6);
                Vector nll_only;
                detail::normal_objective(h.data, theta, &nll_only, ax);
                CHECK(test::relative_error(nll_only, analytic) > 1e-3);  // the MMD part matters
            }
}

TEST_CASE("normal nll+mmd with Monte-Carlo marginalisation: gradient, JSON round trip, errors") {
    const Heteroscedastic h = heteroscedastic(37, 56);
    const Vector abs_x = h.x.col(0).cwiseAbs();
    for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::moment, GaussianTarget::pit})
        for (MmdMarginalisation m : {MmdMarginalisation::mc_paired, MmdMarginalisation::mc_all_pairs}) {
            CAPTURE(static_cast<int>(target));
            CAPTURE(static_cast<int>(m));
            detail::NormalMmdPenalty penalty;
            penalty.lambda = 4;
            penalty.block_size = 6;
            penalty.spec.notion = MmdNotion::distribution;
            penalty.spec.target = target;
            penalty.spec.conditioning.lengthscale = 0.7;
            penalty.spec.target_lengthscale = target == GaussianTarget::pit ? 0.25 : 0.6;
            penalty.spec.marginalisation = m;
            penalty.spec.samples = 4;
            Vector theta(4);
            theta << 0.8, 0.1, -0.2, 0.3;
            Vector analytic;
            detail::normal_objective(h.data, theta, &analytic, abs_x, &penalty);
            const Vector numeric = test::central_differences(
                [&](const Vector& t) { return detail::normal_objective(h.data, t, nullptr, abs_x, &penalty); }, theta);
            CHECK(test::relative_error(analytic, numeric) < 1e-6);
        }
    RecalibrationOptions o = mmd_options(2, MmdNotion::distribution);
    o.mmd_marginalisation = MmdMarginalisation::mc_all_pairs;
    o.mmd_samples = 3;
    o.mmd_seed = 77;
    const RecalibrationFit map_fit = fit_recalibration(h.data, h.x, RecalibrationMethod::affine_features, o);
    const RecalibrationMap& map = map_fit.map;
    CHECK(map.mmd_marginalisation == MmdMarginalisation::mc_all_pairs);
    const RecalibrationFit back_fit = recalibration_fit_from_json(to_json(map_fit));
    const RecalibrationMap& back = back_fit.map;
    CHECK(to_json(back_fit) == to_json(map_fit));
    CHECK(back.mmd_samples == 3);
    CHECK(back.mmd_seed == 77);
    CHECK(back.mmd_marginalisation == MmdMarginalisation::mc_all_pairs);
    // Another seed, other draws, another fit.
    o.mmd_seed = 78;
    CHECK(fit_recalibration(h.data, h.x, RecalibrationMethod::affine_features, o).map.parameters != map.parameters);
    o.mmd_target = GaussianTarget::sign;
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, RecalibrationMethod::affine, o), doctest::Contains("sign kernel"),
                         invalid_argument);
    o.mmd_target = GaussianTarget::rbf;
    o.mmd_samples = 0;
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, RecalibrationMethod::affine, o), doctest::Contains("mmd_samples = 0"),
                         invalid_argument);
}

TEST_CASE("normal nll+mmd with lambda = 0 is the NLL fit, bitwise") {
    const Heteroscedastic h = heteroscedastic(300, 52);
    const RecalibrationFit nll_fit = fit_recalibration(h.data, RecalibrationMethod::affine);
    const RecalibrationMap& nll = nll_fit.map;
    const RecalibrationFit nll_f_fit = fit_recalibration(h.data, h.x, RecalibrationMethod::affine_features);
    const RecalibrationMap& nll_f = nll_f_fit.map;
    for (MmdNotion notion : {MmdNotion::distribution, MmdNotion::individual, MmdNotion::marginal}) {
        CAPTURE(to_string(notion));
        const RecalibrationFit zero_fit = fit_recalibration(h.data, h.x, RecalibrationMethod::affine_features, mmd_options(0, notion));
        const RecalibrationMap& zero = zero_fit.map;
        for (Eigen::Index k = 0; k < 4; ++k) CHECK(same_bits(zero.parameters[k], nll_f.parameters[k]));
        CHECK(same_bits(zero_fit.summary.objective_after, nll_f_fit.summary.objective_after));
        CHECK(zero.mmd_block_size == 17);  // ⌊√300⌋
        const RecalibrationMap zero_affine = notion == MmdNotion::individual
            ? fit_recalibration(h.data, h.x, RecalibrationMethod::affine, mmd_options(0, notion)).map
            : fit_recalibration(h.data, RecalibrationMethod::affine, mmd_options(0, notion)).map;
        for (Eigen::Index k = 0; k < 3; ++k) CHECK(same_bits(zero_affine.parameters[k], nll.parameters[k]));
    }
}

// Fitted on 2000 forecasts, judged on 2000 others by the unbiased individual-notion MMD² (rbf target) with
// the map's lengthscales: the digest's §11.6 expectation is that a larger λ does not make it worse.
TEST_CASE("normal nll+mmd: the held-out individual MMD² does not increase with lambda (heteroscedastic model)") {
    const Heteroscedastic h = heteroscedastic(4000, 53);
    const NormalData fit = rows(h.data, 0, 2000), held_out = rows(h.data, 2000, 2000);
    const Matrix x_fit = h.x.topRows(2000), x_held = h.x.bottomRows(2000);
    double previous = std::numeric_limits<double>::infinity();
    for (double lambda : {0.0, 1.0, 10.0}) {
        CAPTURE(lambda);
        const RecalibrationFit map_fit = fit_recalibration(fit, x_fit, RecalibrationMethod::affine_features,
                                                       mmd_options(lambda, MmdNotion::individual));
        const RecalibrationMap& map = map_fit.map;
        const Matrix out = apply_recalibration(map, held_out.mean(), held_out.stddev(), x_held);
        GaussianMmdSpec spec;
        spec.notion = MmdNotion::individual;
        spec.conditioning = {PredictionKernelShape::sqexp, Metric::euclidean, map.mmd_lengthscale};
        spec.target_lengthscale = map.mmd_target_lengthscale;
        spec.features = x_held;
        const double mmd = mmd_unbiased(NormalData(out.col(0), out.col(1), held_out.targets()), spec).estimate;
        MESSAGE("lambda ", lambda, ": a, b, s0, s1 = ", map.parameters.transpose(), "; held-out NLL ",
                recalibrated_nll(map, held_out, x_held), ", MMD2 ", mmd, ", ", to_string(map_fit.summary.termination));
        CHECK(map_fit.summary.termination != calib::FitTermination::line_search_failed);
        CHECK(mmd <= previous);
        previous = mmd;
    }
}

TEST_CASE("a normal nll+mmd map round-trips through its JSON file bitwise; the reader checks its fields") {
    const Heteroscedastic h = heteroscedastic(200, 54);
    for (MmdNotion notion : {MmdNotion::distribution, MmdNotion::individual, MmdNotion::marginal})
        for (GaussianTarget target : {GaussianTarget::rbf, GaussianTarget::sign, GaussianTarget::moment, GaussianTarget::pit}) {
            CAPTURE(to_string(notion));
            CAPTURE(static_cast<int>(target));
            const RecalibrationFit map_fit = fit_recalibration(h.data, h.x, RecalibrationMethod::affine_features,
                                                           mmd_options(0.5, notion, target));
            const RecalibrationMap& map = map_fit.map;
            const std::string json = to_json(map_fit);
            const RecalibrationFit back_fit = recalibration_fit_from_json(json);
            const RecalibrationMap& back = back_fit.map;
            CHECK(to_json(back_fit) == json);
            CHECK(back.notion == notion);
            CHECK(back.mmd_target == target);
            CHECK(back.mmd_block_size == 14);
            CHECK(same_bits(back.mmd_lengthscale, map.mmd_lengthscale));
            CHECK(same_bits(back.mmd_target_lengthscale, map.mmd_target_lengthscale));
            CHECK(same_bits(back.mmd_threshold, map.mmd_threshold));
            for (Eigen::Index k = 0; k < 4; ++k) CHECK(same_bits(back.parameters[k], map.parameters[k]));
            CHECK((map.mmd_lengthscale > 0) == (notion != MmdNotion::marginal));
            CHECK((map.mmd_target_lengthscale > 0) == (target == GaussianTarget::rbf || target == GaussianTarget::pit));
        }
    const RecalibrationFit sign_fit = fit_recalibration(h.data, RecalibrationMethod::affine,
                                                    mmd_options(0.5, MmdNotion::marginal, GaussianTarget::sign));
    const RecalibrationMap& sign = sign_fit.map;
    std::vector<double> y(h.data.targets().data(), h.data.targets().data() + 200);
    std::sort(y.begin(), y.end());
    CHECK(sign.mmd_threshold == 0.5 * (y[99] + y[100]));  // the median of y (n even)
    const std::string json = to_json(sign_fit);
    const auto edited = [&](const std::string& from, const std::string& to) {
        std::string text = json;
        const auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        return text.replace(at, from.size(), to);
    };
    CHECK_THROWS_WITH_AS(recalibration_fit_from_json(edited("\"sign\"", "\"laplace\"")),
                         doctest::Contains("mmd_target = 'laplace'"), invalid_argument);
    CHECK_THROWS_WITH_AS(recalibration_fit_from_json(edited("\"marginal\"", "\"canonical\"")),
                         doctest::Contains("notion = 'canonical'"), invalid_argument);
    CHECK_THROWS_WITH_AS(recalibration_fit_from_json(edited("\"mmd_threshold\"", "\"threshold\"")),
                         doctest::Contains("mmd_threshold"), invalid_argument);
}

TEST_CASE("normal nll+mmd: bad options give clear errors") {
    const Heteroscedastic h = heteroscedastic(30, 55);
    const auto fit = [&](const RecalibrationOptions& o) { fit_recalibration(h.data, RecalibrationMethod::affine, o); };
    CHECK_THROWS_WITH_AS(fit(mmd_options(-1, MmdNotion::distribution)), doctest::Contains("lambda = -1"), invalid_argument);
    CHECK_THROWS_WITH_AS(fit(mmd_options(1, MmdNotion::top_label)), doctest::Contains("notion = top-label"), invalid_argument);
    CHECK_THROWS_WITH_AS(fit(mmd_options(1, MmdNotion::individual)), doctest::Contains("needs the features"), invalid_argument);
    RecalibrationOptions o = mmd_options(1, MmdNotion::distribution);
    o.mmd_target_lengthscale = -2;
    CHECK_THROWS_WITH_AS(fit(o), doctest::Contains("mmd_target_lengthscale = -2"), invalid_argument);
    o = mmd_options(1, MmdNotion::distribution, GaussianTarget::sign);
    o.mmd_threshold = std::nan("");
    CHECK_THROWS_WITH_AS(fit(o), doctest::Contains("mmd_threshold = nan"), invalid_argument);
    CHECK_THROWS_WITH_AS(fit_recalibration(h.data, h.x, RecalibrationMethod::affine, mmd_options(1, MmdNotion::distribution)),
                         doctest::Contains("features apply only"), invalid_argument);
    CHECK_THROWS_WITH_AS(fit_recalibration(rows(h.data, 0, 3), RecalibrationMethod::affine, mmd_options(1, MmdNotion::marginal)),
                         doctest::Contains("n >= 4"), invalid_argument);
    // Given lengthscales are used as given.
    o = mmd_options(1, MmdNotion::distribution);
    o.mmd_lengthscale = 0.75;
    o.mmd_target_lengthscale = 1.5;
    const RecalibrationFit map_fit = fit_recalibration(h.data, RecalibrationMethod::affine, o);
    const RecalibrationMap& map = map_fit.map;
    CHECK(map.mmd_lengthscale == 0.75);
    CHECK(map.mmd_target_lengthscale == 1.5);
}

}  // TEST_SUITE

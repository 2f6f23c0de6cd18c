// Parts 1 and 3 of repro-marx: heteroscedastic regression, a forecaster with a constant
// σ, affine(-features) recalibration by NLL and by NLL + λ·MMD² (RBF or sign target kernel, Z = X),
// judged on a held-out split by the NLL, QCE, DCE, the individual MMD² and its bootstrap test.
#include "marx.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace marx {

namespace {

// x ~ U[−2, 2], y | x ~ N(sin x, (0.2 + 0.3|x|)²). sin is odd and x symmetric, so the
// population median of y, the decision threshold, is 0.
double true_sd(double x) { return 0.2 + 0.3 * std::abs(x); }

struct Sizes {
    std::size_t fit, recalibrate, test;
};
Sizes sizes(const repro::Options& o) { return o.quick ? Sizes{200, 400, 800} : Sizes{500, 2000, 2000}; }

struct Points {
    calib::Vector x, y;
};
// Point by point: x from one uniform draw, then y from one normal draw.
Points draw(std::size_t n, calib::Rng& rng) {
    boost::random::uniform_01<double> uniform;
    boost::random::normal_distribution<double> normal;
    Points p{calib::Vector(static_cast<Eigen::Index>(n)), calib::Vector(static_cast<Eigen::Index>(n))};
    for (Eigen::Index i = 0; i < p.x.size(); ++i) {
        p.x(i) = -2 + 4 * uniform(rng);
        p.y(i) = std::sin(p.x(i)) + true_sd(p.x(i)) * normal(rng);
    }
    return p;
}

// The base forecaster N(f̂(x), σ̂²): f̂ the least-squares cubic (sin x on [−2, 2] is odd and within
// 0.03 of its best cubic, a line only within 0.4, so the mean is nearly right and what is left is the scale, which the
// affine-features map can move; a line would leave a mean error that no affine map in μ removes),
// σ̂² = RSS/(n − 4), the same for every x, so the forecaster is too wide near 0 and too narrow at |x| = 2.
struct Forecaster {
    Eigen::Vector4d coefficients;  // of 1, x, x², x³
    double sigma = 0;
    double mean(double x) const {
        return coefficients(0) + x * (coefficients(1) + x * (coefficients(2) + x * coefficients(3)));
    }
};
// The normal equations by a serial loop and a 4×4 LDLᵀ (x ∈ [−2, 2] keeps them well conditioned):
// the same bits for any thread count.
Forecaster fit_cubic(const Points& p) {
    Eigen::Matrix4d gram = Eigen::Matrix4d::Zero();
    Eigen::Vector4d moment = Eigen::Vector4d::Zero();
    for (Eigen::Index i = 0; i < p.x.size(); ++i) {
        const double x = p.x(i);
        const Eigen::Vector4d phi(1, x, x * x, x * x * x);
        gram += phi * phi.transpose();
        moment += phi * p.y(i);
    }
    Forecaster f;
    f.coefficients = gram.ldlt().solve(moment);
    double rss = 0;
    for (Eigen::Index i = 0; i < p.x.size(); ++i) rss += std::pow(p.y(i) - f.mean(p.x(i)), 2);
    f.sigma = std::sqrt(rss / double(p.x.size() - 4));
    return f;
}

calib::NormalData forecasts(const Forecaster& f, const Points& p) {
    calib::Vector mean = p.x.unaryExpr([&](double x) { return f.mean(x); });
    return calib::NormalData(std::move(mean), calib::Vector::Constant(p.x.size(), f.sigma), p.y);
}
calib::Matrix column(const calib::Vector& v) { return calib::Matrix(v); }

// The target kernels of the MMD term and of the evaluation: the RBF, and the sign kernel of the
// threshold decision at c = the median of y (the c of the paper's code) or at its 70% quantile. The base
// forecaster's error is symmetric about the median (sin is odd, x symmetric, σ̂ too wide at x = 0 and too
// narrow at |x| = 2), so its DCE at the median is ≈ 0 in the population; at the 70% quantile it is
// ≈ 0.046 (Monte Carlo, 4·10⁵ draws), so that threshold shows how the DCE responds.
enum class Target { none, rbf, sign_median, sign_q70 };
const char* name(Target t) {
    switch (t) {
        case Target::rbf: return "rbf";
        case Target::sign_median: return "sign";
        case Target::sign_q70: return "sign-q70";
        default: return "-";
    }
}

// The recalibrations compared. λ is relative to the mean NLL (not the paper's batch sum); the MMD² terms are of
// order 10⁻⁴–10⁻³ here, so λ = 100 is "small" (the NLL dominates) and λ = 1000 "large"
// (docs/reproduction.md has the measured trade-off).
constexpr double lambda_small = 100, lambda_large = 1000;
struct Method {
    const char* name;
    bool identity;
    calib::RecalibrationMethod map;
    Target target;  // none: the NLL alone
    double lambda;
};
const std::vector<Method>& methods() {
    constexpr auto affine = calib::RecalibrationMethod::affine, features = calib::RecalibrationMethod::affine_features;
    static const std::vector<Method> list = {
        {"base", true, affine, Target::none, 0},
        {"affine", false, affine, Target::none, 0},
        {"features", false, features, Target::none, 0},
        {"features-rbf-small", false, features, Target::rbf, lambda_small},
        {"features-rbf-large", false, features, Target::rbf, lambda_large},
        {"features-sign-small", false, features, Target::sign_median, lambda_small},
        {"features-sign-large", false, features, Target::sign_median, lambda_large},
        {"features-sign-q70-small", false, features, Target::sign_q70, lambda_small},
        {"features-sign-q70-large", false, features, Target::sign_q70, lambda_large},
    };
    return list;
}
calib::RecalibrationObjective objective(const Method& m) {
    return m.target == Target::none ? calib::RecalibrationObjective::nll : calib::RecalibrationObjective::nll_mmd;
}

// What a replicate fixes before the methods: the forecaster, the decision thresholds and the
// kernels' lengthscales, from the recalibration split (no held-out target enters a fit), the same
// for every method and for the fit's MMD term and the evaluation.
struct Setting {
    Forecaster forecaster;
    double median = 0;         // c: the median of y (the paper's code takes the whole data set's)
    double q70 = 0;            // the 70% quantile of y: order statistic ⌊0.7 n⌋ + 1
    double lengthscale_x = 0;  // k_Z: median |x − x'|
    double lengthscale_y = 0;  // RBF k_T: median |y − y'|
    std::uint64_t test_seed = 0;
};

// The individual notion (Z = X) with k_Z = exp(−(x − x')²/(2ℓ_x²)) and the target kernel t.
calib::GaussianMmdSpec mmd_spec(const Setting& s, const calib::Vector& x, Target t) {
    calib::GaussianMmdSpec spec;
    spec.notion = calib::MmdNotion::individual;
    spec.conditioning = {calib::PredictionKernelShape::sqexp, calib::Metric::euclidean, s.lengthscale_x};
    spec.target = t == Target::rbf ? calib::GaussianTarget::rbf : calib::GaussianTarget::sign;
    spec.target_lengthscale = s.lengthscale_y;
    spec.threshold = t == Target::sign_q70 ? s.q70 : s.median;
    spec.features = column(x);
    return spec;
}

// The three MMD² of a forecast (rbf, sign at the median, sign at the 70% quantile): unbiased over all
// pairs, or the block estimate with B = ⌊√n⌋ consecutive blocks that the fit minimises.
std::vector<double> mmd2(const Setting& s, const calib::NormalData& data, const calib::Vector& x, bool block) {
    const calib::ParallelOptions serial{1};
    const auto b = static_cast<std::size_t>(std::sqrt(double(data.size())));
    std::vector<double> out;
    for (const Target t : {Target::rbf, Target::sign_median, Target::sign_q70}) {
        const calib::GaussianMmdSpec spec = mmd_spec(s, x, t);
        out.push_back(block ? calib::mmd_block(data, spec, b, serial).estimate
                            : calib::mmd_unbiased(data, spec, serial).estimate);
    }
    return out;
}

calib::NormalData mapped(const calib::RecalibrationMap& map, const calib::NormalData& data, const Points& p) {
    const bool features = map.method == calib::RecalibrationMethod::affine_features;
    const calib::Matrix q = calib::apply_recalibration(map, data.mean(), data.stddev(), features ? column(p.x) : calib::Matrix());
    return calib::NormalData(q.col(0), q.col(1), p.y);
}

// One method on one replicate: its row of regression.csv and its timing row.
void run_method(std::size_t r, const Method& m, const Setting& s, const calib::NormalData& recalibrate,
                const Points& recalibrate_points, const calib::NormalData& test, const Points& test_points,
                repro::Packet& result) {
    const calib::ParallelOptions serial{1};
    calib::RecalibrationFit fit{calib::identity_map(m.map, 0, false), {}};
    calib::RecalibrationMap& map = fit.map;
    const bool features = m.map == calib::RecalibrationMethod::affine_features;
    const double fit_seconds = repro::time_call([&] {
        if (m.identity) return;
        calib::RecalibrationOptions options;
        options.objective = objective(m);
        options.lambda = m.lambda;
        if (m.target != Target::none) {
            const calib::GaussianMmdSpec spec = mmd_spec(s, recalibrate_points.x, m.target);
            options.notion = spec.notion;
            options.mmd_target = spec.target;
            options.mmd_lengthscale = s.lengthscale_x;
            options.mmd_target_lengthscale = s.lengthscale_y;
            options.mmd_threshold = spec.threshold;
        }
        fit = features ? calib::fit_recalibration(recalibrate, column(recalibrate_points.x), m.map, options)
                       : calib::fit_recalibration(recalibrate, m.map, options);
    });
    // On the recalibration split: the mean NLL and the block MMD² that the fits trade against each other.
    const calib::NormalData trained = mapped(map, recalibrate, recalibrate_points);
    const double train_nll = calib::recalibrated_nll(map, recalibrate, features ? column(recalibrate_points.x) : calib::Matrix());
    const std::vector<double> train_mmd2 = mmd2(s, trained, recalibrate_points.x, true);
    // On the held-out split: the paper's metrics, the unbiased MMD² and the MMD test (RBF target).
    double nll = 0, qce = 0, dce = 0, dce_q70 = 0, p_rbf = 0;
    std::vector<double> test_mmd2;
    const double test_seconds = repro::time_call([&] {
        const calib::NormalData judged = mapped(map, test, test_points);
        calib::MetricsOptions metrics;
        metrics.threshold = s.median;
        metrics.parallel = serial;
        const calib::Record record = calib::evaluation_metrics(judged, metrics);
        nll = calib::to_double(calib::find(record, "nll"));
        qce = calib::to_double(calib::find(record, "qce"));
        dce = calib::to_double(calib::find(record, "dce"));
        dce_q70 = calib::decision_calibration_error(judged, s.q70);
        calib::BootstrapOptions bootstrap;
        bootstrap.replicates = bootstrap_replicates;
        bootstrap.seed = s.test_seed;
        bootstrap.parallel = serial;
        p_rbf = calib::mmd_bootstrap_test(judged, mmd_spec(s, test_points.x, Target::rbf), bootstrap).p_value;
        test_mmd2 = mmd2(s, judged, test_points.x, false);
    });
    // a, b, s0, s1 (affine: s0 = s, s1 = 0; the identity 1, 0, 0, 0).
    const calib::Vector& q = map.parameters;
    result.put(repro::Table::row(r, m.name, m.identity ? "identity" : calib::to_string(m.map),
                                 calib::to_string(objective(m)), name(m.target), m.lambda, nll, qce, dce, dce_q70,
                                 test_mmd2[0], p_rbf, test_mmd2[1], test_mmd2[2], train_nll, train_mmd2[0],
                                 train_mmd2[1], train_mmd2[2], q(0), q(1), q(2), features ? q(3) : 0,
                                 m.identity ? "-" : calib::to_string(fit.summary.termination).c_str(), fit.summary.iterations));
    result.put(repro::Table::row(r, m.name, fit_seconds, test_seconds));
}

// The parameters of a replicate's base forecaster and evaluation kernel: its row of regression_base.csv.
std::vector<std::string> base_row(std::size_t r, const Setting& s) {
    const Eigen::Vector4d& c = s.forecaster.coefficients;
    return repro::Table::row(r, c(0), c(1), c(2), c(3), s.forecaster.sigma, s.median, s.q70, s.lengthscale_x,
                             s.lengthscale_y);
}

void run_replicate(const repro::Options& o, std::size_t r, repro::Packet& result) {
    const Sizes n = sizes(o);
    calib::Rng rng = repro::cell_stream(o, 0, r);
    const Points fit = draw(n.fit, rng), recalibrate_points = draw(n.recalibrate, rng), test_points = draw(n.test, rng);
    Setting s;
    s.test_seed = rng();
    s.forecaster = fit_cubic(fit);
    std::vector<double> y(recalibrate_points.y.begin(), recalibrate_points.y.end());
    s.median = repro::median(y);
    const auto k = static_cast<std::ptrdiff_t>(0.7 * double(y.size()));
    std::nth_element(y.begin(), y.begin() + k, y.end());
    s.q70 = y[static_cast<std::size_t>(k)];
    const calib::ParallelOptions serial{1};
    s.lengthscale_x = calib::median_feature_distance(column(recalibrate_points.x), serial);
    s.lengthscale_y = calib::median_feature_distance(column(recalibrate_points.y), serial);
    result.put(base_row(r, s));
    const calib::NormalData recalibrate = forecasts(s.forecaster, recalibrate_points);
    const calib::NormalData test = forecasts(s.forecaster, test_points);
    for (const Method& m : methods()) run_method(r, m, s, recalibrate, recalibrate_points, test, test_points, result);
}

const std::vector<std::string> columns = {"replicate", "method", "map", "objective", "target", "lambda", "nll", "qce",
                                          "dce", "dce_q70", "mmd2_rbf", "p_mmd_rbf", "mmd2_sign", "mmd2_sign_q70",
                                          "train_nll", "train_mmd2_rbf", "train_mmd2_sign", "train_mmd2_sign_q70",
                                          "a", "b", "s0", "s1", "status", "iterations"};

// Per method: mean ± s.e. over replicates, the rejection rate of the MMD test, and the paired
// differences to the λ = 0 affine-features fit ("features") within replicates (d_*).
void write_summary(const repro::Output& out, const calib::JsonObject& parameters) {
    const repro::CsvFile raw(out.csv_path("regression"));
    auto values = [&](const std::string& method, const std::string& column) {
        std::vector<double> v;
        for (std::size_t i = 0; i < raw.rows(); ++i)
            if (raw.cell(i, "method") == method) v.push_back(raw.number(i, column));
        return v;
    };
    auto paired = [&](const std::string& method, const std::string& column) {
        std::vector<double> a = values(method, column);
        const std::vector<double> b = values("features", column);
        for (std::size_t i = 0; i < a.size(); ++i) a[i] -= b[i];
        return moments(a);
    };
    const std::vector<const char*> held_out = {"nll", "qce", "dce", "dce_q70", "mmd2_rbf", "mmd2_sign", "mmd2_sign_q70"};
    const std::vector<const char*> compared = {"nll", "dce", "dce_q70", "mmd2_rbf", "train_nll", "train_mmd2_rbf",
                                               "train_mmd2_sign", "train_mmd2_sign_q70"};
    std::vector<std::string> names = {"method", "map", "objective", "target", "lambda", "reps"};
    for (const char* c : held_out) {
        names.push_back(std::string(c) + "_mean");
        names.push_back(std::string(c) + "_se");
    }
    for (const char* c : {"p_mmd_rbf_mean", "rejection_rate", "a_mean", "b_mean", "s0_mean", "s1_mean", "converged"})
        names.push_back(c);
    for (const char* c : compared) {
        names.push_back(std::string("d_") + c + "_mean");
        names.push_back(std::string("d_") + c + "_se");
    }
    repro::Table table(names);
    for (const Method& m : methods()) {
        std::vector<std::string> row = {m.name, m.identity ? "identity" : calib::to_string(m.map),
                                        calib::to_string(objective(m)), name(m.target), repro::fmt(m.lambda),
                                        repro::fmt(values(m.name, "nll").size())};
        for (const char* c : held_out) {
            const Moments x = moments(values(m.name, c));
            row.push_back(repro::fmt(x.mean));
            row.push_back(repro::fmt(x.se));
        }
        row.push_back(repro::fmt(repro::mean(values(m.name, "p_mmd_rbf"))));
        row.push_back(repro::fmt(rejection_rate(values(m.name, "p_mmd_rbf"))));
        for (const char* c : {"a", "b", "s0", "s1"}) row.push_back(repro::fmt(repro::mean(values(m.name, c))));
        std::size_t converged = 0;
        for (std::size_t i = 0; i < raw.rows(); ++i)
            converged += raw.cell(i, "method") == m.name && raw.cell(i, "status") == "converged";
        row.push_back(repro::fmt(converged));
        for (const char* c : compared) {
            const Moments d = paired(m.name, c);
            row.push_back(repro::fmt(d.mean));
            row.push_back(repro::fmt(d.se));
        }
        table.add_row(row);
    }
    out.write("regression_summary", table, parameters, 0);
}

// The conditional mean and sd of the truth and of each forecaster of replicate 0 on a grid of x (the figure).
void write_curves(const repro::Output& out, const calib::JsonObject& parameters) {
    const repro::CsvFile base(out.csv_path("regression_base"));
    const repro::CsvFile raw(out.csv_path("regression"));
    Forecaster f;
    for (int k = 0; k < 4; ++k) f.coefficients(k) = base.number(0, "c" + std::to_string(k));
    f.sigma = base.number(0, "sigma");
    std::vector<std::string> names = {"x", "true_mean", "true_sd"};
    std::vector<std::size_t> rows;  // replicate 0's row of each method
    for (const Method& m : methods()) {
        for (std::size_t i = 0; i < raw.rows(); ++i)
            if (raw.number(i, "replicate") == 0 && raw.cell(i, "method") == m.name) rows.push_back(i);
        names.push_back(std::string(m.name) + "_mean");
        names.push_back(std::string(m.name) + "_sd");
    }
    repro::Table table(names);
    for (int k = 0; k <= 80; ++k) {
        const double x = -2 + k / 20.0;
        std::vector<std::string> row = {repro::fmt(x), repro::fmt(std::sin(x)), repro::fmt(true_sd(x))};
        for (const std::size_t i : rows) {
            const double scale = std::exp(raw.number(i, "s0") + raw.number(i, "s1") * std::abs(x));
            row.push_back(repro::fmt(raw.number(i, "a") * f.mean(x) + raw.number(i, "b")));
            row.push_back(repro::fmt(scale * f.sigma));
        }
        table.add_row(row);
    }
    out.write("regression_curves", table, parameters, 0);
}

}  // namespace

void run_regression(const repro::Output& out) {
    const repro::Options& o = out.options();
    const Sizes n = sizes(o);
    calib::JsonObject parameters;
    std::vector<std::string> names;
    std::vector<double> lambdas;
    for (const Method& m : methods()) {
        names.push_back(std::string(m.name) + ": " + (m.identity ? "identity" : calib::to_string(m.map)) + " " +
                        calib::to_string(objective(m)) + " " + name(m.target));
        lambdas.push_back(m.lambda);
    }
    parameters.set("n_fit", n.fit).set("n_recalibrate", n.recalibrate).set("n_test", n.test)
        .set("data", "x ~ U[-2, 2], y | x ~ N(sin x, (0.2 + 0.3|x|)^2)")
        .set("forecaster", "N(least-squares cubic, RSS/(n - 4))").set("methods", names).set("lambdas", lambdas)
        .set("bootstrap_replicates", bootstrap_replicates)
        .set("mmd_kernel", "individual: k_Z sqexp of |x - x'|, k_T rbf or sign(y - c); lengthscales: medians on the "
                           "recalibration split; c = its median of y (sign) or 70% quantile (sign-q70); the same in "
                           "the fits and the evaluation; train_*: block estimate, B = floor(sqrt n)");
    if (!out.done("regression", parameters)) {
        repro::Table table(columns);
        repro::Table base({"replicate", "c0", "c1", "c2", "c3", "sigma", "median", "q70", "lengthscale_x", "lengthscale_y"});
        repro::Table times({"replicate", "method", "fit_seconds", "test_seconds"});
        const std::size_t per = methods().size();
        table.resize(o.reps * per);
        times.resize(o.reps * per);
        base.resize(o.reps);
        repro::Progress progress(o, "marx regression", o.reps);
        const double wall = repro::time_call([&] {
            repro::distribute(
                o.reps, o, &progress, [&](std::size_t r, repro::Packet& result) { run_replicate(o, r, result); },
                [&](std::size_t r, repro::Packet& result) {
                    base.set(r, result.get_strings());
                    for (std::size_t k = 0; k < per; ++k) {
                        table.set(r * per + k, result.get_strings());
                        times.set(r * per + k, result.get_strings());
                    }
                });
        });
        out.write("regression_base", base, parameters, wall);
        out.write("regression_times", times, parameters, wall);
        out.write("regression", table, parameters, wall);
    }
    if (!out.writer()) return;
    write_summary(out, parameters);
    write_curves(out, parameters);
}

}  // namespace marx

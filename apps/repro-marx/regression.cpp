// Parts 1 and 3 of repro-marx (digest §11.6): heteroscedastic regression, a forecaster with a constant
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

// x ~ U[−2, 2], y | x ~ N(sin x, (0.2 + 0.3|x|)²) (digest §11.6). sin is odd and x symmetric, so the
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
// 0.02 of its best cubic, so the mean is nearly right and what is left is the scale, which the
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

// The recalibrations compared. λ is relative to the mean NLL (digest A24). small: the NLL dominates
// the objective; large: the MMD² term does (see docs/reproduction.md for the magnitudes).
struct Method {
    const char* name;
    bool identity;
    calib::RecalibrationMethod map;
    calib::RecalibrationObjective objective;
    const char* target;  // the MMD term's target kernel: "-" (none), "rbf", "sign"
    double lambda;
};
const std::vector<Method>& methods() {
    using calib::RecalibrationMethod;
    using calib::RecalibrationObjective;
    static const std::vector<Method> list = {
        {"base", true, RecalibrationMethod::affine, RecalibrationObjective::nll, "-", 0},
        {"affine", false, RecalibrationMethod::affine, RecalibrationObjective::nll, "-", 0},
        {"features", false, RecalibrationMethod::affine_features, RecalibrationObjective::nll, "-", 0},
    };
    return list;
}

// What a replicate fixes before the methods: the forecaster, the decision threshold c and the
// evaluation kernel's lengthscales (from the recalibration split, the same for every method).
struct Setting {
    Forecaster forecaster;
    // c: the median of y on the recalibration split (the paper takes the whole data set's, A10; here
    // no held-out target enters a fit, and the population median is 0 either way).
    double threshold = 0;
    double lengthscale_x = 0;  // k_Z: median |x − x'| on the recalibration split
    double lengthscale_y = 0;  // RBF k_T: median |y − y'| on the recalibration split
    std::uint64_t test_seed = 0;
};

calib::GaussianMmdSpec evaluation_spec(const Setting& s, const calib::Vector& x, calib::GaussianTarget target) {
    calib::GaussianMmdSpec spec;
    spec.notion = calib::MmdNotion::individual;
    spec.conditioning = {calib::PredictionKernelShape::sqexp, calib::Metric::euclidean, s.lengthscale_x};
    spec.target = target;
    spec.target_lengthscale = s.lengthscale_y;
    spec.threshold = s.threshold;
    spec.features = column(x);
    return spec;
}

// One method on one replicate: its row of regression.csv and its timing row.
void run_method(std::size_t r, const Method& m, const Setting& s, const calib::NormalData& recalibrate,
                const Points& recalibrate_points, const calib::NormalData& test, const Points& test_points,
                repro::Packet& result) {
    const calib::ParallelOptions serial{1};
    calib::RecalibrationMap map = calib::identity_map(m.map, 0, false);
    const bool features = m.map == calib::RecalibrationMethod::affine_features;
    const double fit_seconds = repro::time_call([&] {
        if (m.identity) return;
        calib::RecalibrationOptions options;
        options.objective = m.objective;
        options.lambda = m.lambda;
        map = features ? calib::fit_recalibration(recalibrate, column(recalibrate_points.x), m.map, options)
                       : calib::fit_recalibration(recalibrate, m.map, options);
    });
    double nll = 0, qce = 0, dce = 0, mmd2_rbf = 0, p_rbf = 0, mmd2_sign = 0;
    const double test_seconds = repro::time_call([&] {
        const calib::Matrix mapped = calib::apply_recalibration(map, test.mean(), test.stddev(),
                                                                features ? column(test_points.x) : calib::Matrix());
        const calib::NormalData judged(mapped.col(0), mapped.col(1), test_points.y);
        calib::MetricsOptions metrics;
        metrics.threshold = s.threshold;
        metrics.parallel = serial;
        const calib::Record record = calib::evaluation_metrics(judged, metrics);
        nll = calib::to_double(calib::find(record, "nll"));
        qce = calib::to_double(calib::find(record, "qce"));
        dce = calib::to_double(calib::find(record, "dce"));
        const calib::GaussianMmdSpec rbf = evaluation_spec(s, test_points.x, calib::GaussianTarget::rbf);
        calib::BootstrapOptions bootstrap;
        bootstrap.replicates = bootstrap_replicates;
        bootstrap.seed = s.test_seed;
        bootstrap.parallel = serial;
        const calib::TestResult t = calib::mmd_bootstrap_test(judged, rbf, bootstrap);
        p_rbf = t.p_value;
        mmd2_rbf = calib::mmd_unbiased(judged, rbf, serial).estimate;
        mmd2_sign = calib::mmd_unbiased(judged, evaluation_spec(s, test_points.x, calib::GaussianTarget::sign), serial)
                        .estimate;
    });
    // a, b, s0, s1 (affine: s0 = s, s1 = 0; the identity 1, 0, 0, 0).
    const calib::Vector& q = map.parameters;
    const double s1 = features ? q(3) : 0;
    result.put(repro::Table::row(r, m.name, m.identity ? "identity" : calib::to_string(m.map),
                                 calib::to_string(m.objective), m.target, m.lambda, nll, qce, dce, mmd2_rbf, p_rbf,
                                 mmd2_sign, q(0), q(1), q(2), s1, m.identity ? "-" : map.status.c_str(),
                                 map.iterations));
    result.put(repro::Table::row(r, m.name, fit_seconds, test_seconds));
}

// The parameters of a replicate's base forecaster and evaluation kernel: its row of regression_base.csv.
std::vector<std::string> base_row(std::size_t r, const Setting& s) {
    const Eigen::Vector4d& c = s.forecaster.coefficients;
    return repro::Table::row(r, c(0), c(1), c(2), c(3), s.forecaster.sigma, s.threshold, s.lengthscale_x,
                             s.lengthscale_y);
}

void run_replicate(const repro::Options& o, std::size_t r, repro::Packet& result) {
    const Sizes n = sizes(o);
    calib::Rng rng = repro::cell_stream(o, 0, r);
    const Points fit = draw(n.fit, rng), recalibrate_points = draw(n.recalibrate, rng), test_points = draw(n.test, rng);
    Setting s;
    s.test_seed = rng();
    s.forecaster = fit_cubic(fit);
    s.threshold = repro::median(std::vector<double>(recalibrate_points.y.begin(), recalibrate_points.y.end()));
    const calib::ParallelOptions serial{1};
    s.lengthscale_x = calib::median_feature_distance(column(recalibrate_points.x), serial);
    s.lengthscale_y = calib::median_feature_distance(column(recalibrate_points.y), serial);
    result.put(base_row(r, s));
    const calib::NormalData recalibrate = forecasts(s.forecaster, recalibrate_points);
    const calib::NormalData test = forecasts(s.forecaster, test_points);
    for (const Method& m : methods()) run_method(r, m, s, recalibrate, recalibrate_points, test, test_points, result);
}

const std::vector<std::string> columns = {"replicate", "method", "map", "objective", "target", "lambda",
                                          "nll", "qce", "dce", "mmd2_rbf", "p_mmd_rbf", "mmd2_sign",
                                          "a", "b", "s0", "s1", "status", "iterations"};

// Per method: mean ± s.e. over replicates, the rejection rate of the MMD test, and the paired
// differences to the λ = 0 affine-features fit ("features") within replicates.
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
    repro::Table table({"method", "map", "objective", "target", "lambda", "reps", "nll_mean", "nll_se", "qce_mean",
                        "qce_se", "dce_mean", "dce_se", "mmd2_rbf_mean", "mmd2_rbf_se", "mmd2_sign_mean",
                        "mmd2_sign_se", "p_mmd_rbf_mean", "rejection_rate", "a_mean", "b_mean", "s0_mean", "s1_mean",
                        "d_nll_mean", "d_nll_se", "d_dce_mean", "d_dce_se", "d_mmd2_rbf_mean", "d_mmd2_rbf_se"});
    for (const Method& m : methods()) {
        std::vector<std::string> row = {m.name, m.identity ? "identity" : calib::to_string(m.map),
                                        calib::to_string(m.objective), m.target, repro::fmt(m.lambda),
                                        repro::fmt(values(m.name, "nll").size())};
        for (const char* c : {"nll", "qce", "dce", "mmd2_rbf", "mmd2_sign"}) {
            const Moments x = moments(values(m.name, c));
            row.push_back(repro::fmt(x.mean));
            row.push_back(repro::fmt(x.se));
        }
        row.push_back(repro::fmt(repro::mean(values(m.name, "p_mmd_rbf"))));
        row.push_back(repro::fmt(rejection_rate(values(m.name, "p_mmd_rbf"))));
        for (const char* c : {"a", "b", "s0", "s1"}) row.push_back(repro::fmt(repro::mean(values(m.name, c))));
        for (const char* c : {"nll", "dce", "mmd2_rbf"}) {
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
                        calib::to_string(m.objective) + " " + m.target);
        lambdas.push_back(m.lambda);
    }
    parameters.set("n_fit", n.fit).set("n_recalibrate", n.recalibrate).set("n_test", n.test)
        .set("data", "x ~ U[-2, 2], y | x ~ N(sin x, (0.2 + 0.3|x|)^2)")
        .set("forecaster", "N(least-squares cubic, RSS/(n - 4))").set("methods", names).set("lambdas", lambdas)
        .set("bootstrap_replicates", bootstrap_replicates)
        .set("evaluation_kernel", "individual: k_Z sqexp of |x - x'|, k_T rbf or sign(y - c); lengthscales: medians "
                                  "on the recalibration split; c = median of y on the recalibration split");
    if (!out.done("regression", parameters)) {
        repro::Table table(columns);
        repro::Table base({"replicate", "c0", "c1", "c2", "c3", "sigma", "threshold", "lengthscale_x", "lengthscale_y"});
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

// Part 2 of repro-marx: temperature and temperature + bias scaling of an overconfident
// softmax model by NLL and by NLL + λ·MMD² (canonical, top-label), judged on a held-out split by the
// paper's classification metrics, the SKCE bootstrap test and the unbiased MMD².
#include "marx.hpp"

#include <calib/tool/synthetic.hpp>

#include <boost/random/normal_distribution.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace marx {

namespace {

// The model predicts softmax(z) for logits z ~ N(0, 3²)^m; labels come from softmax(z/T₀ + β) with
// T₀ = 2 (overconfident: temperature scaling with T = 2 removes that part) and a class-prior shift
// β_k = 2k/(m − 1) − 1 ∈ [−1, 1], which a temperature cannot remove and temperature + bias can.
// So temperature scaling is the misspecified map on which NLL and NLL + λ·MMD² may disagree.
constexpr int classes = 10;
constexpr double logit_scale = 3, true_temperature = 2;
double prior_shift(int k) { return 2.0 * k / (classes - 1) - 1; }

struct Sizes {
    std::size_t recalibrate, test;
};
Sizes sizes(const repro::Options& o) { return o.quick ? Sizes{300, 300} : Sizes{2000, 2000}; }

// Row by row: m normal draws for the logits, then the label's uniform draw.
calib::CategoricalScores draw(std::size_t n, calib::Rng& rng) {
    boost::random::normal_distribution<double> normal(0, logit_scale);
    calib::CategoricalScores out{calib::Matrix(static_cast<Eigen::Index>(n), classes), std::vector<int>(n), true};
    for (std::size_t i = 0; i < n; ++i) {
        const auto row = static_cast<Eigen::Index>(i);
        Eigen::RowVectorXd l(classes);
        for (int k = 0; k < classes; ++k) {
            out.scores(row, k) = normal(rng);
            l(k) = out.scores(row, k) / true_temperature + prior_shift(k);
        }
        const Eigen::RowVectorXd p = (l.array() - l.maxCoeff()).exp();
        out.labels[i] = calib::synthetic::draw_label(p / p.sum(), rng);
    }
    return out;
}

struct Method {
    const char* name;
    bool identity;
    calib::RecalibrationMethod map;
    calib::RecalibrationObjective objective;
    calib::MmdNotion notion;
    double lambda;
};
// λ relative to the mean NLL (not the paper's batch sum): small 1 (the NLL dominates), large 100 (MMD² does).
const std::vector<Method>& methods() {
    using calib::MmdNotion;
    using calib::RecalibrationMethod;
    using calib::RecalibrationObjective;
    constexpr auto t = RecalibrationMethod::temperature, tb = RecalibrationMethod::temperature_bias;
    constexpr auto nll = RecalibrationObjective::nll, mmd = RecalibrationObjective::nll_mmd;
    static const std::vector<Method> list = {
        {"base", true, t, nll, MmdNotion::canonical, 0},
        {"temperature", false, t, nll, MmdNotion::canonical, 0},
        {"temperature-canonical-small", false, t, mmd, MmdNotion::canonical, 1},
        {"temperature-canonical-large", false, t, mmd, MmdNotion::canonical, 100},
        {"temperature-top-label-small", false, t, mmd, MmdNotion::top_label, 1},
        {"temperature-top-label-large", false, t, mmd, MmdNotion::top_label, 100},
        {"temperature-bias", false, tb, nll, MmdNotion::canonical, 0},
        {"temperature-bias-canonical-small", false, tb, mmd, MmdNotion::canonical, 1},
        {"temperature-bias-canonical-large", false, tb, mmd, MmdNotion::canonical, 100},
    };
    return list;
}

// The evaluation's MMD kernels: k_Z = exp(−d²/(2ℓ²)) with ℓ the median heuristic on the base model's
// held-out predictions, the same for every method of a replicate.
struct Evaluation {
    calib::MmdSpec canonical, top_label;
    std::uint64_t test_seed = 0;
};

std::string notion_name(const Method& m) {
    return m.objective == calib::RecalibrationObjective::nll ? "-" : calib::to_string(m.notion);
}

void run_method(std::size_t r, const Method& m, const Evaluation& e, const calib::CategoricalScores& recalibrate,
                const calib::CategoricalScores& test, repro::Packet& result) {
    const calib::ParallelOptions serial{1};
    calib::RecalibrationFit fit{calib::identity_map(m.map, classes, true), {}};
    calib::RecalibrationMap& map = fit.map;
    const double fit_seconds = repro::time_call([&] {
        if (m.identity) return;
        calib::RecalibrationOptions options;
        options.objective = m.objective;
        options.lambda = m.lambda;
        options.notion = m.notion;
        fit = calib::fit_recalibration(recalibrate, m.map, options);
    });
    double nll = 0, ece = 0, accuracy = 0, entropy = 0, skce = 0, p_skce = 0, mmd2_canonical = 0, mmd2_top = 0;
    const double test_seconds = repro::time_call([&] {
        const calib::CategoricalData judged(calib::apply_recalibration(map, test.scores), test.labels);
        calib::MetricsOptions metrics;
        metrics.parallel = serial;
        const calib::Record record = calib::evaluation_metrics(judged, metrics);
        nll = calib::to_double(calib::find(record, "nll"));
        ece = calib::to_double(calib::find(record, "ece_top_label"));
        accuracy = calib::to_double(calib::find(record, "accuracy"));
        entropy = calib::to_double(calib::find(record, "entropy"));
        // The SKCE test as `calib test --method bootstrap` runs it: exp-TV ⊗ δ, ℓ the median TV distance.
        calib::MedianOptions median;
        median.parallel = serial;
        const calib::Kernel kernel{{calib::PredictionKernelShape::exp, calib::Metric::tv,
                                    calib::median_distance(judged, calib::Metric::tv, median)},
                                   {}};
        calib::BootstrapOptions bootstrap;
        bootstrap.replicates = bootstrap_replicates;
        bootstrap.seed = e.test_seed;
        bootstrap.parallel = serial;
        const calib::TestResult t = calib::bootstrap_test(judged, kernel, bootstrap);
        skce = t.estimate;
        p_skce = t.p_value;
        mmd2_canonical = calib::mmd_unbiased(judged, e.canonical, serial).estimate;
        mmd2_top = calib::mmd_unbiased(judged, e.top_label, serial).estimate;
    });
    const calib::Vector& q = map.parameters;
    const double bias_range =
        m.map == calib::RecalibrationMethod::temperature_bias ? q.tail(classes).maxCoeff() - q.tail(classes).minCoeff() : 0;
    result.put(repro::Table::row(r, m.name, m.identity ? "identity" : calib::to_string(m.map),
                                 calib::to_string(m.objective), notion_name(m), m.lambda, nll, ece, accuracy, entropy,
                                 skce, p_skce, mmd2_canonical, mmd2_top, q(0), bias_range,
                                 m.identity ? "-" : calib::to_string(fit.summary.termination).c_str(), fit.summary.iterations));
    result.put(repro::Table::row(r, m.name, fit_seconds, test_seconds));
}

void run_replicate(const repro::Options& o, std::size_t r, repro::Packet& result) {
    const Sizes n = sizes(o);
    calib::Rng rng = repro::cell_stream(o, 1, r);
    const calib::CategoricalScores recalibrate = draw(n.recalibrate, rng), test = draw(n.test, rng);
    Evaluation e;
    e.test_seed = rng();
    const calib::CategoricalData base = calib::CategoricalData::from_logits(test.scores, test.labels);
    calib::MedianOptions median;
    median.parallel = calib::ParallelOptions{1};
    for (calib::MmdSpec* spec : {&e.canonical, &e.top_label}) {
        spec->notion = spec == &e.canonical ? calib::MmdNotion::canonical : calib::MmdNotion::top_label;
        spec->conditioning = {calib::PredictionKernelShape::sqexp, calib::Metric::euclidean, 1.0};
        spec->conditioning.lengthscale = calib::mmd_median_lengthscales(base, *spec, median)[0];
    }
    result.put(repro::Table::row(r, e.canonical.conditioning.lengthscale, e.top_label.conditioning.lengthscale));
    for (const Method& m : methods()) run_method(r, m, e, recalibrate, test, result);
}

void write_summary(const repro::Output& out, const calib::JsonObject& parameters) {
    const repro::CsvFile raw(out.csv_path("classification"));
    auto values = [&](const std::string& method, const std::string& column) {
        std::vector<double> v;
        for (std::size_t i = 0; i < raw.rows(); ++i)
            if (raw.cell(i, "method") == method) v.push_back(raw.number(i, column));
        return v;
    };
    repro::Table table({"method", "map", "objective", "notion", "lambda", "reps", "nll_mean", "nll_se", "ece_mean",
                        "ece_se", "accuracy_mean", "accuracy_se", "entropy_mean", "entropy_se", "skce_mean", "skce_se",
                        "mmd2_canonical_mean", "mmd2_canonical_se", "mmd2_top_label_mean", "mmd2_top_label_se",
                        "p_skce_mean", "rejection_rate", "temperature_mean", "temperature_se", "bias_range_mean",
                        "converged"});
    for (const Method& m : methods()) {
        std::vector<std::string> row = {m.name, m.identity ? "identity" : calib::to_string(m.map),
                                        calib::to_string(m.objective), notion_name(m), repro::fmt(m.lambda),
                                        repro::fmt(values(m.name, "nll").size())};
        for (const char* c : {"nll", "ece", "accuracy", "entropy", "skce", "mmd2_canonical", "mmd2_top_label"}) {
            const Moments x = moments(values(m.name, c));
            row.push_back(repro::fmt(x.mean));
            row.push_back(repro::fmt(x.se));
        }
        row.push_back(repro::fmt(repro::mean(values(m.name, "p_skce"))));
        row.push_back(repro::fmt(rejection_rate(values(m.name, "p_skce"))));
        const Moments t = moments(values(m.name, "temperature"));
        row.push_back(repro::fmt(t.mean));
        row.push_back(repro::fmt(t.se));
        row.push_back(repro::fmt(repro::mean(values(m.name, "bias_range"))));
        std::size_t converged = 0;
        for (std::size_t i = 0; i < raw.rows(); ++i)
            converged += raw.cell(i, "method") == m.name && raw.cell(i, "status") == "converged";
        row.push_back(repro::fmt(converged));
        table.add_row(row);
    }
    out.write("classification_summary", table, parameters, 0);
}

}  // namespace

void run_classification(const repro::Output& out) {
    const repro::Options& o = out.options();
    const Sizes n = sizes(o);
    std::vector<std::string> names;
    std::vector<double> lambdas;
    for (const Method& m : methods()) {
        names.push_back(std::string(m.name) + ": " + (m.identity ? "identity" : calib::to_string(m.map)) + " " +
                        calib::to_string(m.objective) + " " + notion_name(m));
        lambdas.push_back(m.lambda);
    }
    calib::JsonObject parameters;
    parameters.set("n_recalibrate", n.recalibrate).set("n_test", n.test).set("classes", classes)
        .set("data", "logits z ~ N(0, 3^2)^m; labels ~ softmax(z / 2 + beta), beta_k = 2k/(m - 1) - 1; model softmax(z)")
        .set("methods", names).set("lambdas", lambdas).set("bootstrap_replicates", bootstrap_replicates)
        .set("skce_kernel", "exp-TV (median heuristic on the tested predictions) x white")
        .set("mmd_kernel", "k_Z sqexp, median heuristic on the base model's held-out predictions; K_T white");
    if (!out.done("classification", parameters)) {
        const std::size_t per = methods().size();
        repro::Table table({"replicate", "method", "map", "objective", "notion", "lambda", "nll", "ece", "accuracy",
                            "entropy", "skce", "p_skce", "mmd2_canonical", "mmd2_top_label", "temperature",
                            "bias_range", "status", "iterations"});
        repro::Table kernels({"replicate", "lengthscale_canonical", "lengthscale_top_label"});
        repro::Table times({"replicate", "method", "fit_seconds", "test_seconds"});
        table.resize(o.reps * per);
        times.resize(o.reps * per);
        kernels.resize(o.reps);
        repro::Progress progress(o, "marx classification", o.reps);
        const double wall = repro::time_call([&] {
            repro::distribute(
                o.reps, o, &progress, [&](std::size_t r, repro::Packet& result) { run_replicate(o, r, result); },
                [&](std::size_t r, repro::Packet& result) {
                    kernels.set(r, result.get_strings());
                    for (std::size_t k = 0; k < per; ++k) {
                        table.set(r * per + k, result.get_strings());
                        times.set(r * per + k, result.get_strings());
                    }
                });
        });
        out.write("classification_kernels", kernels, parameters, wall);
        out.write("classification_times", times, parameters, wall);
        out.write("classification", table, parameters, wall);
    }
    if (out.writer()) write_summary(out, parameters);
}

}  // namespace marx

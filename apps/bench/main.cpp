// calib-bench: timings of the estimators for docs/performance.md (`make bench`).
// Each case reports the minimum wall time over its repetitions, and pairs per second for the
// pairwise estimators. Memory: the peak resident set size of the process at the end.
#include <calib/calib.hpp>
#include <calib/registry.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace calib;

namespace {

CategoricalData dirichlet_data(std::size_t n, int m, double alpha, std::uint64_t seed) {
    Rng rng(seed);
    return synthetic::dirichlet_data(n, m, alpha, rng);
}

NormalData normal_data(std::size_t n, std::uint64_t seed) {
    boost::random::mt19937_64 rng(seed);
    boost::random::normal_distribution<double> z;
    boost::random::uniform_01<double> u;
    Vector mu(n), sigma(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        mu(r) = u(rng), sigma(r) = 0.1, y(r) = mu(r) + 0.1 * z(rng);
    }
    return NormalData(mu, sigma, y);
}

// An ensemble of K normal members per observation (equal weights), as in the Friedman experiment:
// member means around a common centre, member standard deviations in [0.1, 0.6]; the target drawn
// from a random member.
MixtureNormalData ensemble_data(std::size_t n, int K, std::uint64_t seed) {
    boost::random::mt19937_64 rng(seed);
    boost::random::normal_distribution<double> z;
    boost::random::uniform_01<double> u;
    Matrix mu(n, K), sigma(n, K);
    Vector y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        const double centre = z(rng);
        for (int k = 0; k < K; ++k) mu(r, k) = centre + 0.3 * z(rng), sigma(r, k) = 0.1 + 0.5 * u(rng);
        const int k = std::min(K - 1, static_cast<int>(K * u(rng)));
        y(r) = mu(r, k) + sigma(r, k) * z(rng);
    }
    return MixtureNormalData::ensemble(mu, sigma, y);
}

double seconds(const std::function<void()>& f, int reps) {
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// pairs = 0: a test whose work is not a pair count (the column shows "-").
void report(const std::string& name, int threads, double s, double pairs, double value) {
    char rate[32] = "-";
    if (pairs > 0) std::snprintf(rate, sizeof rate, "%.3e", pairs / s);
    std::printf("%-48s threads=%d  %10.4f s  %10s pairs/s  value=%.10g\n", name.c_str(), threads, s, rate, value);
    std::fflush(stdout);
}

// The reference tests, the exact median and model ranking at the size of real network
// outputs (n = 10 000, m = 10), 2 threads.
void real_data_scale() {
    std::printf("-- real-data scale (n = 10 000, m = 10, 2 threads)\n");
    const CategoricalData data = dirichlet_data(10000, 10, 0.1, 6);
    const ParallelOptions two{2};
    Kernel kernel = default_kernel<CategoricalData>();
    MedianOptions median;
    median.parallel = two;
    double v = 0, s = 0, total = 0;
    s = seconds([&] { kernel.prediction.lengthscale = v = median_distance(data, Metric::tv, median); }, 3);
    report("median heuristic (exact) n=1e4", 2, s, 1e4 * (1e4 - 1) / 2, v);
    total += s;
    const auto method = [&](const std::string& name, const std::function<double()>& run) {
        double p = 0;
        const double t = seconds([&] { p = run(); }, 2);
        report("test " + name + " n=1e4", 2, t, 0, p);
        total += t;
    };
    method("gamma", [&] { return gamma_test(data, kernel, two).p_value; });
    method("bootstrap R=1000", [&] {
        BootstrapOptions o;
        o.parallel = two;
        return bootstrap_test(data, kernel, o).p_value;
    });
    method("block B=2", [&] {
        BlockTestOptions o;
        o.parallel = two;
        return block_test(data, kernel, o).p_value;
    });
    method("dfree-biased", [&] { return dfree_biased_test(data, kernel, {0, two}).p_value; });
    method("dfree-unbiased", [&] { return dfree_unbiased_test(data, kernel, {0, two}).p_value; });
    method("dfree-block B=2", [&] { return dfree_block_test(data, kernel, 2, {0, two}).p_value; });
    method("consistency ece uniform:10 R=1000", [&] {
        ConsistencyOptions o;
        o.parallel = two;
        const EceOptions ece_options;
        return consistency_test(data, [&](const CategoricalData& d) { return ece(d, ece_options); }, "ece", o).p_value;
    });
    method("cme J=5", [&] {
        CmeOptions o;
        o.parallel = two;
        return cme_test(data, 5, 1234, kernel, o).p_value;
    });
    std::printf("%-48s threads=2  %10.4f s  (median + every method above)\n", "all tests n=1e4", total);

    // calib rank's defaults on two models: exact CKCE, unbiased SKCE and ECE, R = 200.
    // A second model of the same observations: other predictions, the same labels.
    const CategoricalData second(dirichlet_data(10000, 10, 0.3, 7).probabilities(), data.labels());
    ComparisonOptions compare;
    compare.parallel = two;
    for (const CategoricalData* d : {&data, &second}) {
        CkceOptions o;
        MedianOptions b;
        b.parallel = two;
        o.kernel.lengthscale = simplex_median_lengthscale(d->probabilities(), b).value;
        compare.ckce.push_back(o);
    }
    ModelComparison result;
    s = seconds([&] { result = compare_models({data, second}, compare); }, 1);
    report("compare_models 2 models n=1e4 R=200 (rank)", 2, s, 0, result.results[0].pairs[0].difference);
    // The CKCE replicates from the pivoted Cholesky factor against exact factorisations of the same
    // resamples (replicate r draws from stream r + 1 of the seed), beside the replicates' spread.
    const EstimatorComparison& ckce_result = result.results[0];
    const CategoricalData* models[] = {&data, &second};
    for (std::size_t k = 0; k < 2; ++k) {
        double worst = 0;
        for (std::size_t r = 0; r < 2; ++r) {
            Rng rng = make_stream(compare.seed, r + 1);
            std::vector<std::size_t> idx(data.size());
            for (std::size_t& i : idx) i = uniform_index(rng, data.size());
            CkceOptions o = compare.ckce[k];
            o.parallel = two;
            const double exact = ckce(subset(*models[k], idx), o).estimate;
            worst = std::max(worst, std::abs(ckce_result.replicates[k][r] - exact) / exact);
        }
        std::printf("  ckce model %zu: factor rank %zu, replicates vs exact (2 resamples) %.2e relative, "
                    "std error / estimate %.2e\n",
                    k, ckce_result.replicate_ranks[k], worst, ckce_result.std_errors[k] / ckce_result.estimates[k]);
    }

    // The exact median at n = 1e5 against one unbiased SKCE pass at the same n.
    const CategoricalData large = dirichlet_data(100000, 10, 0.1, 8);
    const double pairs = 1e5 * (1e5 - 1) / 2;
    const double pass = seconds([&] { v = skce_unbiased(large, kernel, two); }, 1);
    report("skce_unbiased n=1e5 (one pass)", 2, pass, pairs, v);
    const double exact_median = seconds([&] { v = median_distance(large, Metric::tv, median); }, 1);
    report("median heuristic (exact) n=1e5", 2, exact_median, pairs, v);
    std::printf("%-48s %.2f (target <= 3)\n", "  median / skce pass", exact_median / pass);
}

// A miscalibrated model of Dirichlet truths: P ~ Dir(0.3·1_m), Y ~ P, predictions f ∝ P^0.6
// (underconfident), so CCE₂² = E‖f − P‖² > 0.
CategoricalData tempered_dirichlet(std::size_t n, int m, std::uint64_t seed) {
    Rng rng = make_stream(seed, 0);
    const Matrix p = synthetic::dirichlet(n, m, 0.3, rng, 1e-300);
    const std::vector<int> y = synthetic::draw_labels(p, rng);
    Matrix f = p.array().pow(0.6);
    for (Eigen::Index i = 0; i < f.rows(); ++i) f.row(i) /= f.row(i).sum();
    return CategoricalData(f, y);
}

CeEstimator ce_estimator(const std::string& name) {
    return name == "ce-bins" ? CeEstimator::bins
         : name == "ce-kde"  ? CeEstimator::kde
         : name == "ce-kkr"  ? CeEstimator::kkr
                             : CeEstimator::ukkr;
}

// Speed targets of the squared-CE pipeline (5 folds of 6 400, default grids) at n = 10 000,
// m = 10, 2 threads; `only` = one estimator name, "NAME:NOTION" or "brier", for a process of its own
// under /usr/bin/time -v (peak memory per estimator, docs/performance.md).
void squared_ce_scale(const std::string& only) {
    std::printf("-- squared CE pipeline (n = 10 000, m = 10, 5 folds, default grids, 2 threads)\n");
    const CategoricalData data = tempered_dirichlet(10000, 10, 12);
    SquaredCeOptions o;
    o.parallel = ParallelOptions{2};
    const std::pair<const char*, CeNotion> cases[] = {
        {"ce-bins", CeNotion::top_label},  {"ce-kde", CeNotion::top_label},   {"ce-kde", CeNotion::canonical},
        {"ce-kkr", CeNotion::top_label},   {"ce-kkr", CeNotion::canonical},   {"ce-ukkr", CeNotion::top_label},
        {"ce-ukkr", CeNotion::canonical},  {"ce-kkr", CeNotion::class_wise},  {"ce-ukkr", CeNotion::class_wise}};
    if (only.empty() || only == "brier") {
        BrierDecomposition b;
        const double s = seconds([&] { b = brier_decomposition(data, o); }, 1);
        report("brier (calibration by canonical ce-kde) n=1e4", 2, s, 0, b.calibration);
    }
    for (const auto& [name, notion] : cases) {
        if (!only.empty() && only != name && only != std::string(name) + ":" + to_string(notion)) continue;
        o.notion = notion;
        SquaredCeResult r;
        const double s = seconds([&] { r = squared_ce(data, ce_estimator(name), o); }, 1);
        report(std::string(name) + " " + to_string(notion) + " n=1e4", 2, s, 0, r.estimate);
    }
}

// The default KRR path (krr_tolerance auto) against the exact one (KrrCeFit tolerance 0) on the same
// pipeline, per notion, estimator and ridge preset: the grid values that are candidates of the default
// (rounding sensitivity and truncation error within their bounds, the first problem's count), the largest relative
// difference of a candidate's fold-mean validation risk and of its fold-mean estimate, whether every
// problem chose the same value, the final estimates' relative difference, and the rank of the first
// training fold's default factor. The three notions, or the one named by `only`.
void krr_agreement(std::size_t n, const std::string& only) {
    std::printf("-- KRR default vs exact (n = %zu, m = 10, 5 folds, default grids, 2 threads)\n", n);
    const CategoricalData data = tempered_dirichlet(n, 10, 21);
    for (CeNotion notion : {CeNotion::canonical, CeNotion::top_label, CeNotion::class_wise})
        for (const char* name : {"ce-kkr", "ce-ukkr"})
            if (only.empty() || only == to_string(notion))
            for (RidgePreset preset : {RidgePreset::reference_code, RidgePreset::paper_text}) {
                SquaredCeOptions o;
                o.parallel = ParallelOptions{2};
                o.notion = notion;
                o.ridge_preset = preset;
                o.krr_tolerance = 0;
                SquaredCeResult exact, low;
                const double exact_seconds = seconds([&] { exact = squared_ce(data, ce_estimator(name), o); }, 1);
                o.krr_tolerance = -1;
                const double low_seconds = seconds([&] { low = squared_ce(data, ce_estimator(name), o); }, 1);
                // The estimate's standard error: the fold estimates' std (ddof 1) over √K, on the squared scale.
                double mean = 0, squares = 0;
                for (double f : exact.fold_estimate) mean += f / static_cast<double>(o.folds);
                for (double f : exact.fold_estimate) squares += (f - mean) * (f - mean);
                const double se = std::sqrt(squares / static_cast<double>(o.folds - 1) / static_cast<double>(o.folds));
                double risk = 0, estimate = 0, in_se = 0;
                std::size_t candidates = 0;
                bool same = true;
                for (std::size_t c = 0; c < exact.problems.size(); ++c) {
                    const CeProblemResult &e = exact.problems[c], &l = low.problems[c];
                    same = same && e.chosen == l.chosen;
                    for (std::size_t g = 0; g < e.mean_validation_risk.size(); ++g) {
                        if (l.rounding_sensitivity[g] > max_rounding_sensitivity ||
                            l.truncation_error_in_se[g] > max_truncation_error_in_se)
                            continue;
                        candidates += c == 0;
                        risk = std::max(risk, std::abs(l.mean_validation_risk[g] - e.mean_validation_risk[g]) /
                                                  std::abs(e.mean_validation_risk[g]));
                        estimate = std::max(estimate, std::abs(l.grid_estimate[g] - e.grid_estimate[g]) /
                                                          std::abs(e.grid_estimate[g]));
                        in_se = std::max(in_se, std::abs(l.grid_estimate[g] - e.grid_estimate[g]) / se);
                    }
                }
                const CeSplit split = ce_split(n, o.folds, o.test_fraction, o.seed);
                const CeProblem first = ce_problems(data, notion)[0];
                CeProblem train{Matrix(split.train[0].size(), first.inputs.cols()),
                                Matrix(split.train[0].size(), first.residuals.cols())};
                for (std::size_t i = 0; i < split.train[0].size(); ++i) {
                    const auto r = static_cast<Eigen::Index>(i), s = static_cast<Eigen::Index>(split.train[0][i]);
                    train.inputs.row(r) = first.inputs.row(s);
                    train.residuals.row(r) = first.residuals.row(s);
                }
                const KrrCeFit fit(train, o.rbf_gamma, o.parallel);
                std::printf("%s %s %s: exact %.2f s, default %.2f s (rank %ld), candidates %zu of %zu (first problem), "
                            "max rel diff risk %.1e estimate %.1e (%.1e SE), same choice %s, final estimate %.6g rel diff %.1e\n",
                            name, to_string(notion).c_str(), to_string(preset).c_str(), exact_seconds, low_seconds,
                            static_cast<long>(fit.rank()), candidates, exact.grid.size(), risk, estimate, in_se,
                            same ? "yes" : "NO", exact.estimate, std::abs(low.estimate - exact.estimate) / std::abs(exact.estimate));
                std::fflush(stdout);
            }
}

}  // namespace

// The C++ calls that bench/python_overhead.py makes through the Python module, for its overhead: the
// data set read in place from a row-major buffer (as the module reads a float64 C-order NumPy array),
// its labels passed by copy, and skce_block with B = 2 and lengthscale 1 on 1 thread; median of the
// calls, as there. Run with glibc's own malloc thresholds, then with 64 MiB of working memory kept
// (keep_working_memory(default_working_memory), as the Python module does).
void python_reference(const char* memory) {
    std::printf("-- C++ reference of bench/python_overhead.py (1 thread, median of the calls; %s)\n", memory);
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const auto median = [](std::vector<double> t) {
        std::nth_element(t.begin(), t.begin() + static_cast<long>(t.size() / 2), t.end());
        return t[t.size() / 2];
    };
    for (const auto& [n, calls] : {std::pair<std::size_t, int>{100, 5000}, {10000, 500}, {100000, 50}}) {
        const CategoricalData source = dirichlet_data(n, 10, 1.0, 1);
        const RowMajor rows = source.probabilities();
        const MatrixView view(rows.data(), rows.rows(), rows.cols(),
                              Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(1, rows.cols()));
        Kernel kernel = default_kernel(source);
        kernel.prediction.lengthscale = 1.0;
        std::vector<double> construct, total;
        double value = 0;
        for (int c = 0; c < calls; ++c) {
            const auto t0 = std::chrono::steady_clock::now();
            const CategoricalData data(view, nullptr, source.labels());
            const auto t1 = std::chrono::steady_clock::now();
            value = skce_block(data, kernel, 2, ParallelOptions{1}).estimate;
            const auto t2 = std::chrono::steady_clock::now();
            construct.push_back(std::chrono::duration<double>(t1 - t0).count());
            total.push_back(std::chrono::duration<double>(t2 - t0).count());
        }
        std::printf("data set + skce_block B=2 n=%-6zu m=10: call %9.1f us, of which the data set %7.1f us  value=%.10g\n",
                    n, 1e6 * median(total), 1e6 * median(construct), value);
    }
}

// Both runs of python_reference: with glibc's thresholds, then with the module's working memory kept.
void python_references() {
    python_reference("glibc's malloc thresholds");
    keep_working_memory(default_working_memory);
    python_reference("64 MiB of working memory kept, as the Python module does");
}

// The normal maps by NLL + λ·MMD² (Gaussian conditional MMD, rbf target, B = ⌊√n⌋ = 100) at
// n = 10⁴ (target ≤ 10 s) on the heteroscedastic model of repro-marx: x ~ U[−2, 2],
// y ~ N(sin x, (0.2 + 0.3|x|)²), forecasts N(0.8x, 0.6²); the median rules are part of the fit.
void normal_recalibration() {
    Rng rng = make_stream(13, 2);
    boost::random::normal_distribution<double> normal(0, 1);
    const Eigen::Index n = 10000;
    Vector mu(n), y(n);
    Matrix x(n, 1);
    for (Eigen::Index i = 0; i < n; ++i) {
        x(i, 0) = -2 + 4 * boost::random::uniform_01<double>()(rng);
        mu[i] = 0.8 * x(i, 0);
        y[i] = std::sin(x(i, 0)) + (0.2 + 0.3 * std::abs(x(i, 0))) * normal(rng);
    }
    const NormalData data(mu, Vector::Constant(n, 0.6), y);
    RecalibrationOptions options;
    options.objective = RecalibrationObjective::nll_mmd;
    options.lambda = 1;
    for (RecalibrationMethod method : {RecalibrationMethod::affine, RecalibrationMethod::affine_features})
        for (MmdNotion notion : {MmdNotion::distribution, MmdNotion::individual}) {
            options.notion = notion;
            RecalibrationFit fit;
            const bool features = method == RecalibrationMethod::affine_features || notion == MmdNotion::individual;
            const double s = seconds([&] {
                fit = features ? fit_recalibration(data, x, method, options) : fit_recalibration(data, method, options);
            }, 3);
            std::printf("%-48s threads=1  %10.4f s  a=%.6f iterations=%zu evaluations=%zu %s\n",
                        ("recalibrate " + to_string(method) + " nll+mmd " + to_string(notion) + " n=1e4").c_str(), s,
                        fit.map.parameters[0], fit.summary.iterations, fit.summary.evaluations,
                        to_string(fit.summary.termination).c_str());
            std::fflush(stdout);
        }
}

// Temperature scaling by NLL (L-BFGS, analytic gradient; serial) at n = 10⁵, m = 10, on
// logits that need T = 2 (target ≤ 0.5 s).
// Weighted PAV (isotonic.hpp) and the CORP diagram at n = 10^7 binary outcomes: predictions with few ties (uniform draws)
// and with many (rounded to 3 decimals, a 1001-level predictor), y ~ Bernoulli(x^1.5), a miscalibrated
// model. Serial: the time is the sort's and one pass.
void isotonic() {
    const std::size_t n = 10000000;
    boost::random::mt19937_64 rng(57);
    boost::random::uniform_01<double> u;
    std::vector<double> x(n), rounded(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = u(rng);
        rounded[i] = std::round(x[i] * 1000) / 1000;
        y[i] = u(rng) < std::pow(x[i], 1.5) ? 1 : 0;
    }
    for (const auto& [name, predictions] : {std::pair<const char*, const std::vector<double>*>{"distinct", &x},
                                            {"1001 levels", &rounded}}) {
        std::size_t blocks = 0;
        const double s = seconds([&] { blocks = isotonic_regression(*predictions, y).blocks.size(); }, 3);
        report(std::string("isotonic_regression n=1e7 binary, ") + name + " (value: blocks)", 1, s, 0,
               static_cast<double>(blocks));
    }
    // The CORP diagram (corp.hpp) of the distinct predictions: the curve and the decomposition alone at
    // n = 10^7, then with the bands of R = 100 replicates at 1000 band points on the first 10^6, 2 threads.
    Matrix p(n, 2);
    std::vector<int> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        p(static_cast<Eigen::Index>(i), 0) = 1 - x[i], p(static_cast<Eigen::Index>(i), 1) = x[i];
        labels[i] = static_cast<int>(y[i]);
    }
    const CategoricalData all(p, labels);
    CorpDiagramOptions curve;
    curve.replicates = 0;
    double mcb = 0;
    double s = seconds([&] { mcb = corp_diagram(all, curve).decomposition.mcb; }, 3);
    report("corp_diagram n=1e7 binary, no bands (value: MCB)", 1, s, 0, mcb);
    const std::size_t m = 1000000;
    const CategoricalData first(p.topRows(static_cast<Eigen::Index>(m)), std::vector<int>(labels.begin(), labels.begin() + m));
    CorpDiagramOptions bands;
    bands.parallel = ParallelOptions{2};
    double width = 0;
    s = seconds([&] {
        const CorpDiagram d = corp_diagram(first, bands);
        width = d.consistency_upper[d.x.size() / 2] - d.consistency_lower[d.x.size() / 2];
    }, 3);
    report("corp_diagram n=1e6 binary, R=100 bands (value: band width at the median)", 2, s, 0, width);
}

void recalibration() {
    Rng rng = make_stream(13, 0);
    const CategoricalScores data = synthetic::tempered_logits(100000, 10, 3.0, 2.0, rng);
    RecalibrationFit fit;
    const double s = seconds([&] { fit = fit_recalibration(data, RecalibrationMethod::temperature); }, 3);
    std::printf("%-48s threads=1  %10.4f s  T=%.6f iterations=%zu evaluations=%zu %s\n",
                "recalibrate temperature nll n=1e5 m=10", s, fit.map.parameters[0], fit.summary.iterations,
                fit.summary.evaluations, to_string(fit.summary.termination).c_str());
    std::fflush(stdout);
    // The same by NLL + λ·MMD² (block estimate, B = ⌊√n⌋ = 100, canonical) at n = 10⁴,
    // m = 10 (target ≤ 10 s); the median heuristic for k_Z is part of the fit.
    Rng rng4 = make_stream(13, 1);
    const CategoricalScores data4 = synthetic::tempered_logits(10000, 10, 3.0, 2.0, rng4);
    RecalibrationOptions options;
    options.objective = RecalibrationObjective::nll_mmd;
    options.lambda = 1;
    for (MmdNotion notion : {MmdNotion::canonical, MmdNotion::top_label}) {
        options.notion = notion;
        const double s4 = seconds([&] { fit = fit_recalibration(data4, RecalibrationMethod::temperature, options); }, 3);
        std::printf("%-48s threads=1  %10.4f s  T=%.6f iterations=%zu evaluations=%zu %s\n",
                    ("recalibrate temperature nll+mmd " + to_string(notion) + " n=1e4 m=10").c_str(), s4,
                    fit.map.parameters[0], fit.summary.iterations, fit.summary.evaluations,
                    to_string(fit.summary.termination).c_str());
        std::fflush(stdout);
    }
    normal_recalibration();
}

// The bootstrap at real-data scale against its floor: one quadratic SKCE pass, the bootstrap test
// (R = 1000) and a plain Eigen product of the bootstrap's shape (H, n × n, times 256 counts), 2 threads,
// in one run. The bootstrap's products with the upper triangle Hᵤ cost n²/2 multiply-adds per replicate
// (n² flops; its first pass one column more): reported as the GFLOP/s it achieves over its whole time,
// beside the plain product's rate.
void bootstrap_floor() {
    std::printf("-- bootstrap against its floor (n = 10 000, m = 10, R = 1000, 2 threads)\n");
    const std::size_t n = 10000, replicates = 1000;
    const CategoricalData data = dirichlet_data(n, 10, 0.1, 6);
    const Kernel kernel = default_kernel<CategoricalData>();
    const ParallelOptions two{2};
    double v = 0;
    const double pass = seconds([&] { v = skce_unbiased(data, kernel, two); }, 3);
    report("skce_unbiased n=1e4 m=10 (one pass)", 2, pass, 0.5 * double(n) * double(n - 1), v);
    BootstrapOptions o;
    o.replicates = replicates;
    o.parallel = two;
    const double boot = seconds([&] { v = bootstrap_test(data, kernel, o).p_value; }, 2);
    const double flops = double(n) * double(n) * double(replicates + 1);
    std::printf("%-48s threads=2  %10.4f s  %.1f x one pass, %.1f GFLOP/s (n^2 (R + 1) flops)  p=%.4f\n",
                "bootstrap_test R=1000", boot, boot / pass, flops / boot * 1e-9, v);
    const Matrix h = Matrix::Random(Eigen::Index(n), Eigen::Index(n));
    const Matrix counts = Matrix::Random(Eigen::Index(n), 256);
    Matrix product;
    Eigen::setNbThreads(2);
    const double gemm = seconds([&] { product.noalias() = h * counts; }, 3);
    Eigen::setNbThreads(0);
    std::printf("%-48s threads=2  %10.4f s  %.1f GFLOP/s (2 n^2 256 flops); the bootstrap's flops at this "
                "rate: %.2f s\n",
                "plain Eigen product (n x n) * (n x 256)", gemm, 2 * double(n) * double(n) * 256 / gemm * 1e-9,
                gemm / (2 * 256.0) * double(replicates + 1));
    std::fflush(stdout);
}

// With an argument, only that section: "recalibration"; "bootstrap"; "block-defaults"; "mmd"; "python";
// "squared-ce [ESTIMATOR|brier]"; "krr-agreement [N [NOTION]]" (not in the full run: the exact paths
// take minutes).
// The conditional MMD at n = 20 000 beside the SKCE's pair rate (same data, same k_Z).
// Canonical with exp-TV ⊗ δ is the SKCE's U-statistic through the MMD's generic pair term;
// top-label compares one conditioning distance and a 2-class residual per pair; class-wise evaluates
// m conditioning kernels (m exps) per pair, in one pass that sums each class apart.
void mmd_scale(const CategoricalData& data, const Kernel& skce_kernel) {
    std::printf("-- conditional MMD (n = 20 000, m = 10, fixed lengthscale 1)\n");
    const double n = static_cast<double>(data.size()), pairs = n * (n - 1) / 2;
    const std::pair<MmdNotion, PredictionKernel> cases[] = {
        {MmdNotion::canonical, skce_kernel.prediction},
        {MmdNotion::top_label, {PredictionKernelShape::exp, Metric::euclidean, 1.0}},
        {MmdNotion::class_wise, {PredictionKernelShape::exp, Metric::euclidean, 1.0}},
    };
    for (const auto& [notion, conditioning] : cases)
        for (int t : {1, 2}) {
            MmdSpec spec;
            spec.notion = notion;
            spec.conditioning = conditioning;
            double v = 0;
            const double s = seconds([&] { v = mmd_unbiased(data, spec, {t}).estimate; }, 2);
            report("mmd " + to_string(notion) + " categorical n=2e4 m=10", t, s, pairs, v);
        }
}

// Options given by name, as a front-end gives them to configure (registry.hpp).
class NamedOptions : public GivenOptions {
public:
    explicit NamedOptions(std::vector<std::pair<std::string, std::string>> options) : options_(std::move(options)) {}
    std::optional<Value> take(const OptionInfo& option) override {
        for (auto it = options_.begin(); it != options_.end(); ++it)
            if (it->first == option.name) {
                Value v(it->second);
                options_.erase(it);
                return v;
            }
        return std::nullopt;
    }
    std::vector<std::string> left() const override {
        std::vector<std::string> names;
        for (const auto& o : options_) names.push_back(o.first);
        return names;
    }

private:
    std::vector<std::pair<std::string, std::string>> options_;
};

// calib test --method block with its default options (the lengthscale included: the median on a seeded
// subsample of linear_median_subsample observations) through the registry, as both front-ends run it,
// at n = 1e6 and 1e7 (m = 10, 2 threads): what a user waits for, the data's validation aside.
void block_defaults() {
    std::printf("-- calib test --method block, default options (median on %zu observations), m = 10, 2 threads\n",
                linear_median_subsample);
    for (const std::size_t n : {std::size_t{1000000}, std::size_t{10000000}}) {
        const AnyData data = dirichlet_data(n, 10, 0.1, 6);
        for (const char* block_size : {"2", "sqrt"}) {
            NamedOptions given(std::vector<std::pair<std::string, std::string>>{{"block_size", block_size}});
            const ConfiguredMethod<TestSetup> configured =
                configure(make_test("block"), find_family("categorical"), nullptr, given);
            MethodRun<TestResult> run;
            const double s = seconds(
                [&] { run = run_method(configured.method, configured.kernel_setup(), data, nullptr, {2}); }, 2);
            std::printf("%-48s threads=2  %10.4f s  lengthscale=%.6g  p=%.4f\n",
                        ("block test n=" + std::to_string(n) + " B=" + block_size + " (defaults)").c_str(), s,
                        run.kernel->prediction.lengthscale, run.result.p_value);
        }
    }
    std::fflush(stdout);
}

int main(int argc, char** argv) {
    std::printf("calib %s benchmark\n", version);
    const std::string section = argc > 1 ? argv[1] : "";
    if (section == "recalibration") {
        recalibration();
        return 0;
    }
    if (section == "python") {  // beside bench/python_overhead.py, on the same machine at the same time
        python_references();
        return 0;
    }
    if (section == "bootstrap") {
        bootstrap_floor();
        return 0;
    }
    if (section == "isotonic") {
        isotonic();
        return 0;
    }
    if (section == "block-defaults") {
        block_defaults();
        return 0;
    }
    if (section == "mmd") {
        const CategoricalData data = dirichlet_data(20000, 10, 0.1, 1);
        const Kernel kernel = default_kernel<CategoricalData>();
        for (int t : {1, 2}) {
            double v = 0;
            const double s = seconds([&] { v = skce_unbiased(data, kernel, {t}); }, 2);
            report("skce_unbiased categorical n=2e4 m=10 exp-TV", t, s, 2e4 * (2e4 - 1) / 2, v);
        }
        mmd_scale(data, kernel);
        return 0;
    }
    if (section == "squared-ce" || section == "krr-agreement") {
        if (section == "squared-ce") squared_ce_scale(argc > 2 ? argv[2] : "");
        else krr_agreement(argc > 2 ? std::stoul(argv[2]) : 2000, argc > 3 ? argv[3] : "");
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("peak resident memory: %.1f MiB\n", usage.ru_maxrss / 1024.0);
        return 0;
    }
    const Kernel kc = default_kernel<CategoricalData>();
    const CategoricalData big = dirichlet_data(20000, 10, 0.1, 1);
    const double n = 20000, pairs = n * (n - 1) / 2;
    for (int t : {1, 2}) {
        double v = 0;
        const double s = seconds([&] { v = skce_unbiased(big, kc, {t}); }, 3);
        report("skce_unbiased categorical n=2e4 m=10 exp-TV", t, s, pairs, v);
    }
    mmd_scale(big, kc);
    const CategoricalData huge = dirichlet_data(1000000, 10, 0.1, 2);
    for (int t : {1, 2})
        for (std::size_t b : {std::size_t{2}, sqrt_block_size(huge.size())}) {
            double v = 0;
            const double s = seconds([&] { v = skce_block(huge, kc, b, {t}).estimate; }, 3);
            const double blocks = static_cast<double>(huge.size() / b);
            report("skce_block categorical n=1e6 m=10 B=" + std::to_string(b), t, s,
                   blocks * static_cast<double>(b) * static_cast<double>(b - 1) / 2, v);
        }
    const NormalData normal = normal_data(1024, 3);
    for (int t : {1, 2}) {
        double v = 0;
        const double s = seconds([&] { v = skce_unbiased(normal, default_kernel<NormalData>(), {t}); }, 20);
        report("skce_unbiased normal n=1024 exp-W2 x sqexp", t, s, 1024.0 * 1023 / 2, v);
    }
    const MixtureNormalData ensemble = ensemble_data(1024, 10, 5);
    for (int t : {1, 2}) {
        double v = 0;
        const double s = seconds([&] { v = skce_unbiased(ensemble, default_kernel<NormalData>(), {t}); }, 3);
        report("skce_unbiased ensemble K=10 n=1024 exp-MW2", t, s, 1024.0 * 1023 / 2, v);
    }
    {
        // Unequal weights (the transportation simplex instead of the assignment): the same
        // members, weights ∝ 1, 2, …, K.
        const Eigen::RowVectorXd w = Eigen::RowVectorXd::LinSpaced(10, 1, 10) / 55.0;
        const MixtureNormalData weighted(w.replicate(1024, 1), ensemble.means(), ensemble.stddevs(), ensemble.targets());
        double v = 0;
        const double s = seconds([&] { v = skce_unbiased(weighted, default_kernel<NormalData>(), {2}); }, 1);
        report("skce_unbiased mixture K=10 weighted n=1024", 2, s, 1024.0 * 1023 / 2, v);
    }
    for (int t : {1, 2}) {
        BootstrapOptions o;
        o.parallel.num_threads = t;
        double v = 0;
        const double s = seconds([&] { v = bootstrap_test(normal, default_kernel<NormalData>(), o).p_value; }, 5);
        report("bootstrap_test normal n=1024 R=1000", t, s, 0, v);
    }
    for (int t : {1, 2}) {
        BlockTestOptions o;
        o.block_size = sqrt_block_size(huge.size());
        o.parallel.num_threads = t;
        double v = 0;
        const double s = seconds([&] { v = block_test(huge, kc, o).p_value; }, 3);
        report("block_test categorical n=1e6 m=10 B=1000", t, s, 0, v);
    }
    {
        const CategoricalData large = dirichlet_data(100000, 10, 0.1, 4);
        double v = 0;
        const double s = seconds([&] { v = gamma_test(large, kc, {2}).p_value; }, 1);
        report("gamma_test categorical n=1e5 m=10", 2, s, 1e5 * (1e5 - 1) / 2, v);
    }
    block_defaults();
    recalibration();
    isotonic();
    real_data_scale();
    bootstrap_floor();
    squared_ce_scale("");
    python_references();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak resident memory: %.1f MiB (data: n=1e6 x m=10 doubles = 76 MiB)\n", usage.ru_maxrss / 1024.0);
}

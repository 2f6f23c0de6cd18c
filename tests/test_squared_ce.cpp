// Tests of the squared-CE estimation functions of Gruber & Bach (squared_ce.hpp): the identities of
// digest §10.1 against naive references written here, independently of the library's algebra.
#include <calib/errors.hpp>
#include <calib/squared_ce.hpp>
#include <calib/tool/synthetic.hpp>

#include <Eigen/Cholesky>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using calib::CeBinning;
using calib::CeNotion;
using calib::CeProblem;
using calib::Matrix;
using calib::Vector;

namespace {

// A miscalibrated model: P ~ Dir(1), Y ~ P, predictions f = P^0.5 renormalised (under-confident).
calib::CategoricalData tempered_data(std::size_t n, int d, std::uint64_t seed) {
    calib::Rng rng = calib::make_stream(seed, 0);
    const Matrix p = calib::synthetic::dirichlet(n, d, 1.0, rng, 1e-300);
    const std::vector<int> y = calib::synthetic::draw_labels(p, rng);
    Matrix f = p.array().sqrt();
    for (Eigen::Index i = 0; i < f.rows(); ++i) f.row(i) /= f.row(i).sum();
    return calib::CategoricalData(f, y);
}

Matrix rbf_gram(const Matrix& a, const Matrix& b, double gamma) {  // rows are points
    Matrix k(a.rows(), b.rows());
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < b.rows(); ++j) k(i, j) = std::exp(-gamma * (a.row(i) - b.row(j)).squaredNorm());
    return k;
}

// (28) solved literally: vec(T)ᵀ (K ⊗ K + ρ I)⁻¹ (k(p) ⊗ k(p')) on the n² pairs, vec index i + n j for
// the pair (i, j). `k` is the n×n Gram matrix, `cross` the n×m kernel values at the evaluation points.
Matrix naive_kronecker(const Matrix& k, const Matrix& cross, const Matrix& residuals, double rho) {
    const Eigen::Index n = k.rows(), m = cross.cols();
    Matrix system(n * n, n * n);
    Vector target(n * n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) {
            target(i + n * j) = residuals.row(i).dot(residuals.row(j));
            for (Eigen::Index l = 0; l < n; ++l)
                for (Eigen::Index c = 0; c < n; ++c) system(i + n * j, c + n * l) = k(i, c) * k(j, l);
        }
    system.diagonal().array() += rho;
    const Vector alpha = system.ldlt().solve(target);  // symmetric: vec(T)ᵀ A⁻¹ = (A⁻¹ vec T)ᵀ
    Matrix h(m, m);
    for (Eigen::Index a = 0; a < m; ++a)
        for (Eigen::Index b = 0; b < m; ++b) {
            double s = 0;
            for (Eigen::Index j = 0; j < n; ++j)
                for (Eigen::Index i = 0; i < n; ++i) s += alpha(i + n * j) * cross(i, a) * cross(j, b);
            h(a, b) = s;
        }
    return h;
}

// (20) as a double loop over ordered pairs a ≠ b.
double naive_risk(const Matrix& residuals, const Matrix& h) {
    const Eigen::Index m = residuals.rows();
    double s = 0;
    for (Eigen::Index a = 0; a < m; ++a)
        for (Eigen::Index b = 0; b < m; ++b)
            if (a != b) {
                const double e = residuals.row(a).dot(residuals.row(b)) - h(a, b);
                s += e * e;
            }
    return s / static_cast<double>(m * (m - 1));
}

double max_abs(const Matrix& x) { return x.cwiseAbs().maxCoeff(); }

CeProblem rows_of(const CeProblem& p, Eigen::Index first, Eigen::Index count) {
    return {p.inputs.middleRows(first, count), p.residuals.middleRows(first, count)};
}

// The Dirichlet density at z of the kernel centred at c (α = c/b + 1), in linear space (digest §6.2).
double dirichlet_kernel(const Eigen::RowVectorXd& z, const Eigen::RowVectorXd& c, double b) {
    double sum = 0, value = 1;
    for (Eigen::Index k = 0; k < z.size(); ++k) {
        const double alpha = c(k) / b + 1;
        sum += alpha;
        value *= std::pow(z(k), alpha - 1) / std::tgamma(alpha);
    }
    return value * std::tgamma(sum);
}

// z − ĝ(z) of (25)/(11) for a canonical problem (labels e_Y = P − r), skipping the training point `skip`.
Eigen::RowVectorXd naive_kde_residual(const CeProblem& train, const Eigen::RowVectorXd& z, double b, Eigen::Index skip) {
    Eigen::RowVectorXd numerator = Eigen::RowVectorXd::Zero(z.size());
    double denominator = 0;
    for (Eigen::Index i = 0; i < train.inputs.rows(); ++i) {
        if (i == skip) continue;
        const double w = dirichlet_kernel(z, train.inputs.row(i), b);
        numerator += w * (train.inputs.row(i) - train.residuals.row(i));
        denominator += w;
    }
    return z - numerator / denominator;
}

}  // namespace

TEST_SUITE("squared_ce") {

TEST_CASE("reductions: canonical, top-label and class-wise targets (digest §2)") {
    const calib::CategoricalData data(Matrix{{0.2, 0.5, 0.3}, {0.6, 0.2, 0.2}, {0.4, 0.4, 0.2}}, {1, 2, 1});
    const auto canonical = calib::ce_problems(data, CeNotion::canonical);
    REQUIRE(canonical.size() == 1);
    CHECK(canonical[0].residuals.row(0).isApprox(Eigen::RowVector3d(0.2, -0.5, 0.3)));
    const auto top = calib::ce_problems(data, CeNotion::top_label);
    REQUIRE(top.size() == 1);
    // Row 2 has two maxima: the first (class 0) is the top label, so the label 1 is not correct.
    CHECK(top[0].inputs(0, 0) == 0.5);
    CHECK(top[0].residuals(0, 0) == doctest::Approx(-0.5));
    CHECK(top[0].residuals(1, 0) == doctest::Approx(0.6));
    CHECK(top[0].residuals(2, 0) == doctest::Approx(0.4));
    const auto classes = calib::ce_problems(data, CeNotion::class_wise);
    REQUIRE(classes.size() == 3);
    // The class-wise pair targets add up to the canonical ones (digest §2.4).
    Matrix sum = Matrix::Zero(3, 3);
    for (const CeProblem& c : classes) sum += c.residuals * c.residuals.transpose();
    CHECK(max_abs(sum - canonical[0].residuals * canonical[0].residuals.transpose()) < 1e-15);
}

TEST_CASE("risk (20): engine and low-rank paths against a naive double loop") {
    const CeProblem p = calib::ce_problems(tempered_data(150, 4, 1), CeNotion::canonical)[0];
    calib::Rng rng = calib::make_stream(2, 0);
    Matrix u = calib::synthetic::dirichlet(150, 3, 1.0, rng);  // any factor: H = U Uᵀ
    const Matrix h = u * u.transpose();
    const double naive = naive_risk(p.residuals, h);
    CHECK(calib::ce_risk(p.residuals, h) == doctest::Approx(naive).epsilon(1e-13));
    CHECK(calib::ce_risk_low_rank(p.residuals, u) == doctest::Approx(naive).epsilon(1e-12));
    // A function that is not low rank (the targets themselves plus noise) still agrees.
    Matrix g = h + calib::synthetic::dirichlet(150, 150, 1.0, rng);
    g = (g + g.transpose()).eval() / 2;
    CHECK(calib::ce_risk(p.residuals, g) == doctest::Approx(naive_risk(p.residuals, g)).epsilon(1e-13));
    // h = T off the diagonal has zero risk, up to rounding: the risk forms ⟨r_a, r_b⟩ in another order
    // than the matrix product (differences of order 1e-17, squared; exactly 0 in some builds only).
    CHECK(calib::ce_risk(p.residuals, p.residuals * p.residuals.transpose()) < 1e-30);
}

TEST_CASE("risk and KRR: bitwise the same for 1 and 2 threads") {
    const CeProblem p = calib::ce_problems(tempered_data(700, 3, 3), CeNotion::canonical)[0];
    const Matrix h = p.residuals * p.residuals.transpose() * 0.5;
    CHECK(calib::ce_risk(p.residuals, h, {1}) == calib::ce_risk(p.residuals, h, {2}));
    const CeProblem train = rows_of(p, 0, 400), eval = rows_of(p, 400, 300);
    const calib::KrrCeFit one(train, 1.0, {1}), two(train, 1.0, {2});
    const Matrix b1 = one.project(eval.inputs), b2 = two.project(eval.inputs);
    CHECK((b1.array() == b2.array()).all());
    CHECK((one.kronecker_diagonal(b1, 0.1).array() == two.kronecker_diagonal(b2, 0.1).array()).all());
    CHECK((one.two_step_factor(b1, 0.1).array() == two.two_step_factor(b2, 0.1).array()).all());
}

TEST_CASE("KRR low-rank path: bitwise the same for 1 and 2 threads, exact path too") {
    const CeProblem p = calib::ce_problems(tempered_data(700, 4, 13), CeNotion::canonical)[0];
    const CeProblem train = rows_of(p, 0, 400), eval = rows_of(p, 400, 300);  // 300 > one strip of 256
    for (double tolerance : {0.0, 1e-6, -1.0}) {
        CAPTURE(tolerance);
        const calib::KrrCeFit one(train, 1.0, {1}, tolerance), two(train, 1.0, {2}, tolerance);
        CHECK((one.eigenvalues().array() == two.eigenvalues().array()).all());
        const Matrix b1 = one.project(eval.inputs), b2 = two.project(eval.inputs);
        CHECK((b1.array() == b2.array()).all());
        CHECK((one.kronecker_apply(b1, 1e-3).array() == two.kronecker_apply(b2, 1e-3).array()).all());
        CHECK((one.kronecker_pairs(b1, 1e-3).array() == two.kronecker_pairs(b2, 1e-3).array()).all());
        CHECK((one.two_step_factor(b1, 1e-3).array() == two.two_step_factor(b2, 1e-3).array()).all());
    }
}

TEST_CASE("pipeline: bitwise the same for 1 and 2 threads (folds in parallel)") {
    const calib::CategoricalData data = tempered_data(500, 4, 16);
    for (calib::CeEstimator e : {calib::CeEstimator::kde, calib::CeEstimator::kkr, calib::CeEstimator::ukkr}) {
        calib::SquaredCeOptions o;
        o.notion = CeNotion::canonical;
        o.parallel = {1};
        const calib::SquaredCeResult one = calib::squared_ce(data, e, o);
        o.parallel = {2};
        const calib::SquaredCeResult two = calib::squared_ce(data, e, o);
        CHECK(one.estimate == two.estimate);
        CHECK(one.problems[0].mean_validation_risk == two.problems[0].mean_validation_risk);
        CHECK(one.fold_estimate == two.fold_estimate);
    }
}

TEST_CASE("KRR low-rank path: K's leading eigenvalues (Weyl), and functions approaching the exact path's") {
    const CeProblem p = calib::ce_problems(tempered_data(500, 4, 14), CeNotion::canonical)[0];
    const CeProblem train = rows_of(p, 0, 300), eval = rows_of(p, 300, 200);
    const calib::KrrCeFit exact(train, 1.0, {}, 0.0);
    const Vector& all = exact.eigenvalues();  // ascending
    const double trace = all.sum();
    CHECK(trace == doctest::Approx(300).epsilon(1e-12));  // k(z, z) = 1
    const Matrix b_exact = exact.project(eval.inputs);
    const double mu = calib::two_step_ridge(1e-3, 300, calib::RidgePreset::reference_code);
    const Matrix u_exact = exact.two_step_factor(b_exact, mu);
    const Matrix h_exact = u_exact * u_exact.transpose();
    double previous_error = 1e300;
    for (double tolerance : {1e-3, 1e-5, 1e-7, 1e-9}) {
        CAPTURE(tolerance);
        const calib::KrrCeFit low(train, 1.0, {}, tolerance);
        const Eigen::Index r = low.rank();
        CHECK(r < 300);
        CHECK(low.training_size() == 300);
        // K − G Gᵀ is PSD with trace ≤ tolerance · tr K, so (Weyl) 0 ≤ ℓ_i(K) − ℓ_i(G Gᵀ) ≤ tolerance · tr K
        // for the r largest, and Σ ℓ(G Gᵀ) ≥ (1 − tolerance) tr K; up to rounding.
        const Eigen::ArrayXd gap = all.tail(r).array() - low.eigenvalues().array();
        CHECK(gap.minCoeff() > -1e-10 * trace);
        CHECK(gap.maxCoeff() <= tolerance * trace + 1e-10 * trace);
        CHECK(low.eigenvalues().sum() >= (1 - tolerance) * trace - 1e-10 * trace);
        // h_ukkr at a moderate ridge: the low-rank function approaches the exact one as the tolerance falls.
        const Matrix u_low = low.two_step_factor(low.project(eval.inputs), mu);
        const double error = max_abs(u_low * u_low.transpose() - h_exact);
        CHECK(error <= previous_error);
        previous_error = error;
    }
    CHECK(previous_error < 1e-4 * max_abs(h_exact));
}

TEST_CASE("h_kkr: the eigen form (29)/(31) equals the naive Kronecker solve (28)") {
    const CeProblem p = calib::ce_problems(tempered_data(11, 3, 4), CeNotion::canonical)[0];
    const CeProblem train = rows_of(p, 0, 6), eval = rows_of(p, 6, 5);
    const double gamma = 1.0;
    const calib::KrrCeFit fit(train, gamma, {}, 0.0);  // the exact path
    const Matrix b = fit.project(eval.inputs);
    const Matrix k = rbf_gram(train.inputs, train.inputs, gamma), cross = rbf_gram(train.inputs, eval.inputs, gamma);
    for (double rho : {1e-3, 0.1, 10.0}) {
        CAPTURE(rho);
        const Matrix naive = naive_kronecker(k, cross, train.residuals, rho);
        const Matrix h = fit.kronecker_pairs(b, rho);
        // Both solves lose digits with the condition number of K ⊗ K + ρI, about 1/ρ.
        const double tolerance = 1e-14 / std::min(rho, 1.0) * std::max(1.0, max_abs(naive));
        CHECK(max_abs(h - naive) < tolerance);
        CHECK(max_abs(fit.kronecker_diagonal(b, rho) - naive.diagonal()) < tolerance);
        // (31): the risk of the eigen-form H on the evaluation set, as the naive risk of the naive H.
        CHECK(calib::ce_risk(eval.residuals, h) == doctest::Approx(naive_risk(eval.residuals, naive)).epsilon(1e-10));
    }
}

TEST_CASE("h_ukkr: Kronecker KRR with kernel K + mu I and zero ridge equals two-step KRR with mu") {
    const CeProblem p = calib::ce_problems(tempered_data(12, 3, 5), CeNotion::canonical)[0];
    const CeProblem train = rows_of(p, 0, 6), eval = rows_of(p, 6, 6);
    const calib::KrrCeFit fit(train, 1.0, {}, 0.0);
    const Matrix b = fit.project(eval.inputs);
    const Matrix k = rbf_gram(train.inputs, train.inputs, 1.0), cross = rbf_gram(train.inputs, eval.inputs, 1.0);
    for (double mu : {1e-2, 0.5, 3.0}) {
        CAPTURE(mu);
        // The kernel k + mu·δ: its Gram matrix is K + mu I and it equals k away from the training points.
        const Matrix naive = naive_kronecker(k + mu * Matrix::Identity(6, 6), cross, train.residuals, 0.0);
        const Matrix u = fit.two_step_factor(b, mu);
        CHECK(max_abs(u * u.transpose() - naive) < 1e-11 * std::max(1.0, max_abs(naive)));
    }
}

TEST_CASE("h_ukkr equals h_kkr at zero ridge, and h_ukkr(p, p) >= 0") {
    const CeProblem p = calib::ce_problems(tempered_data(14, 3, 6), CeNotion::canonical)[0];
    const CeProblem train = rows_of(p, 0, 7), eval = rows_of(p, 7, 7);
    const calib::KrrCeFit fit(train, 4.0, {}, 0.0);  // exact path; a larger γ keeps K well conditioned for the exact inverse
    const Matrix b = fit.project(eval.inputs);
    const Matrix kkr = fit.kronecker_pairs(b, 0.0), u = fit.two_step_factor(b, 0.0);
    CHECK(max_abs(kkr - u * u.transpose()) < 1e-7 * max_abs(kkr));
    CHECK((fit.two_step_factor(b, 0.3).rowwise().squaredNorm().array() >= 0).all());
    // At zero ridge the function interpolates the training targets (K invertible).
    const Matrix bt = fit.project(train.inputs);
    CHECK(max_abs(fit.kronecker_pairs(bt, 0.0) - train.residuals * train.residuals.transpose()) < 1e-7);
}

TEST_CASE("low-rank risk of h_ukkr and h_bin equals the full risk") {
    const calib::CategoricalData data = tempered_data(400, 4, 7);
    const CeProblem p = calib::ce_problems(data, CeNotion::canonical)[0];
    const CeProblem train = rows_of(p, 0, 250), eval = rows_of(p, 250, 150);
    const calib::KrrCeFit fit(train, 1.0, {}, 0.0);
    const Matrix u = fit.two_step_factor(fit.project(eval.inputs), calib::two_step_ridge(1e-3, 250, calib::RidgePreset::reference_code));
    const Matrix h = u * u.transpose();
    CHECK(calib::ce_risk_low_rank(eval.residuals, u) == doctest::Approx(naive_risk(eval.residuals, h)).epsilon(1e-12));
    CHECK(calib::ce_risk(eval.residuals, h) == doctest::Approx(naive_risk(eval.residuals, h)).epsilon(1e-13));

    const CeProblem top = calib::ce_problems(data, CeNotion::top_label)[0];
    const calib::BinCeFunction bins(rows_of(top, 0, 250), 10);
    const Matrix v = bins.factor(rows_of(top, 250, 150).inputs);
    CHECK(calib::ce_risk_low_rank(rows_of(top, 250, 150).residuals, v) ==
          doctest::Approx(naive_risk(rows_of(top, 250, 150).residuals, v * v.transpose())).epsilon(1e-12));
}

TEST_CASE("binning: (TCE2^bin)^2 (10) equals the diagonal mean of h_bin on the same data (24)") {
    const calib::CategoricalData data = tempered_data(500, 5, 8);
    for (CeNotion notion : {CeNotion::top_label, CeNotion::class_wise})
        for (const CeProblem& p : calib::ce_problems(data, notion))
            for (CeBinning scheme : {CeBinning::equal_width, CeBinning::equal_mass})
                for (int m : {1, 5, 15, 90}) {
                    CAPTURE(m);
                    const calib::BinCeFunction h(p, m, scheme);
                    CHECK(calib::binned_squared_ce(p, m, scheme) == doctest::Approx(h.diagonal(p.inputs).mean()).epsilon(1e-13));
                }
}

TEST_CASE("binning: right-closed bins, equal mass, and the empty-bin fallback") {
    // Confidences 0.25 (a bin edge for M = 4: it belongs to the first bin), 0.3, 0.9, 1.0.
    const CeProblem p{Matrix{{0.25}, {0.3}, {0.9}, {1.0}}, Matrix{{0.25}, {-0.7}, {0.9}, {0.0}}};
    const calib::BinCeFunction w(p, 4);
    CHECK(w.counts() == std::vector<std::size_t>{1, 1, 0, 2});
    CHECK(w.values()(0) == doctest::Approx(0.25));
    CHECK(w.values()(1) == doctest::Approx(-0.7));
    CHECK(w.values()(2) == doctest::Approx(0.1125));  // empty: the global conf − acc
    CHECK(w.values()(3) == doctest::Approx(0.45));
    CHECK(w.factor(Matrix{{0.0}, {0.6}})(0, 0) == doctest::Approx(0.25));  // 0 falls in the first bin
    const calib::BinCeFunction q(p, 2, CeBinning::equal_mass);  // cut at the value of rank 2: 0.3
    CHECK(q.counts() == std::vector<std::size_t>{2, 2});
    CHECK(q.factor(Matrix{{0.3}, {0.31}})(1, 0) == doctest::Approx(0.45));
}

TEST_CASE("ridge presets (digest §6.5)") {
    using calib::RidgePreset;
    CHECK(calib::kronecker_ridge(2, 100, RidgePreset::reference_code) == doctest::Approx(2000));
    CHECK(calib::two_step_ridge(2, 16, RidgePreset::reference_code) == doctest::Approx(16));
    CHECK(calib::kronecker_ridge(2, 100, RidgePreset::paper_text) == doctest::Approx(2e5));
    CHECK(calib::two_step_ridge(2, 100, RidgePreset::paper_text) == doctest::Approx(2000));
}

TEST_CASE("squared_ce: every bad input is a clear error") {
    const CeProblem p = calib::ce_problems(tempered_data(20, 3, 9), CeNotion::top_label)[0];
    const CeProblem c = calib::ce_problems(tempered_data(20, 3, 9), CeNotion::canonical)[0];
    CHECK_THROWS_WITH_AS(calib::BinCeFunction(p, 0), "calib::BinCeFunction: bins = 0, must be >= 1",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::binned_squared_ce(p, -2), "calib::binned_squared_ce: bins = -2, must be >= 1",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::BinCeFunction(c, 5), doctest::Contains("must have 1 of each"), calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::BinCeFunction(rows_of(p, 0, 0), 5),
                         "calib::BinCeFunction: train has n = 0 observations, must have n >= 1", calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::BinCeFunction(CeProblem{Matrix{{1.5}}, Matrix{{0.5}}}, 5),
                         "calib::BinCeFunction: inputs(0, 0) = 1.5, must be in [0, 1]", calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::KrrCeFit(c, 0.0), "calib::KrrCeFit: gamma = 0, must be finite and > 0",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::KrrCeFit(c, 1.0, {}, 1.0),
                         "calib::KrrCeFit: tolerance = 1, must be < 1 (0: the exact dense path, < 0: the default)",
                         calib::invalid_argument);
    const calib::KrrCeFit fit(c, 1.0);
    const Matrix b = fit.project(c.inputs);
    CHECK_THROWS_WITH_AS(fit.kronecker_pairs(b, -1.0), "calib::KrrCeFit::kronecker: rho = -1, must be finite and >= 0",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(fit.two_step_factor(b, -0.5), "calib::KrrCeFit::two_step_factor: mu = -0.5, must be finite and >= 0",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(fit.project(p.inputs), doctest::Contains("must have 3 as the training inputs"),
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::kronecker_ridge(-1, 10, calib::RidgePreset::paper_text),
                         "calib::kronecker_ridge: c = -1, must be finite and >= 0", calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::ce_risk(c.residuals.topRows(1), Matrix::Zero(1, 1)),
                         "calib::ce_risk: residuals has m = 1 rows, must have m >= 2 (pairs a != b)",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::ce_risk_low_rank(c.residuals, Matrix::Zero(5, 1)), doctest::Contains("they must match"),
                         calib::invalid_argument);
    // An exact fit whose n×n matrices cannot fit in memory fails before allocating them; the low-rank
    // path needs O(n r) and fits scalar inputs of any size (rank about 10 at the floor).
    const CeProblem huge{Matrix::Constant(2000000, 1, 0.5), Matrix::Zero(2000000, 1)};
    CHECK_THROWS_WITH_AS(calib::KrrCeFit(huge, 1.0, {}, 0), doctest::Contains("more than this machine's memory"),
                         calib::invalid_argument);
    const CeProblem many{Matrix::Random(200000, 1).cwiseAbs(), Matrix::Random(200000, 1)};
    const calib::KrrCeFit large(many, 1.0);
    CHECK(large.rank() <= 20);
    CHECK(large.rank() >= 5);
    // Labels out of range are refused by the data set every reduction starts from.
    CHECK_THROWS_AS(calib::CategoricalData(Matrix{{0.5, 0.5}}, {2}), calib::invalid_argument);
}

TEST_CASE("pipeline: the split is seeded, disjoint and covers the data; folds are consecutive") {
    const calib::CeSplit s = calib::ce_split(103, 5, 0.2, 7);
    CHECK(s.test.size() == 21);  // ⌊0.8 · 103⌋ = 82 in the CV part
    std::vector<int> seen(103, 0);
    for (std::size_t i : s.test) ++seen[i];
    std::vector<std::size_t> sizes, cv;
    for (std::size_t k = 0; k < 5; ++k) {
        sizes.push_back(s.validation[k].size());
        CHECK(s.train[k].size() + s.validation[k].size() == 82);
        std::vector<int> fold(103, 0);
        for (std::size_t i : s.train[k]) ++fold[i];
        for (std::size_t i : s.validation[k]) {
            ++fold[i];
            ++seen[i];
            cv.push_back(i);
        }
        for (std::size_t i : s.test) CHECK(fold[i] == 0);
        CHECK(std::count(fold.begin(), fold.end(), 1) == 82);  // train and validation disjoint
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    CHECK(sizes == std::vector<std::size_t>{17, 17, 16, 16, 16});
    // Train fold k is the CV part without validation fold k, in order.
    const std::vector<std::size_t> rest(cv.begin() + 17, cv.end());
    CHECK(s.train[0] == rest);
    CHECK(calib::ce_split(103, 5, 0.2, 7).test == s.test);
    CHECK(calib::ce_split(103, 5, 0.2, 8).test != s.test);
}

TEST_CASE("pipeline: deterministic for a seed, the fold ensemble of (21), selection on validation folds only") {
    const calib::CategoricalData data = tempered_data(300, 4, 10);
    calib::SquaredCeOptions o;
    o.seed = 3;
    o.grid = {5, 10, 20};
    const calib::SquaredCeResult r = calib::squared_ce(data, calib::CeEstimator::bins, o);
    const calib::SquaredCeResult again = calib::squared_ce(data, calib::CeEstimator::bins, o);
    CHECK(r.estimate == again.estimate);
    CHECK(r.problems[0].mean_validation_risk == again.problems[0].mean_validation_risk);
    REQUIRE(r.problems.size() == 1);
    const calib::CeProblemResult& p = r.problems[0];
    CHECK(p.chosen == static_cast<std::size_t>(std::min_element(p.mean_validation_risk.begin(), p.mean_validation_risk.end()) -
                                                p.mean_validation_risk.begin()));
    // The estimate by hand: h_bin fitted on each training fold, its diagonal averaged on the test part.
    const calib::CeSplit split = calib::ce_split(300, 5, 0.2, 3);
    const CeProblem top = calib::ce_problems(data, CeNotion::top_label)[0];
    const auto take = [&](const std::vector<std::size_t>& rows) {
        CeProblem out{Matrix(static_cast<Eigen::Index>(rows.size()), 1), Matrix(static_cast<Eigen::Index>(rows.size()), 1)};
        for (std::size_t a = 0; a < rows.size(); ++a) {
            out.inputs(static_cast<Eigen::Index>(a), 0) = top.inputs(static_cast<Eigen::Index>(rows[a]), 0);
            out.residuals(static_cast<Eigen::Index>(a), 0) = top.residuals(static_cast<Eigen::Index>(rows[a]), 0);
        }
        return out;
    };
    double ensemble = 0, roots = 0;
    for (std::size_t k = 0; k < 5; ++k) {
        const calib::BinCeFunction h(take(split.train[k]), static_cast<int>(o.grid[p.chosen]));
        const double estimate = h.diagonal(take(split.test).inputs).mean();
        CHECK(p.fold_estimate[k] == doctest::Approx(estimate).epsilon(1e-13));
        const CeProblem validation = take(split.validation[k]);
        CHECK(p.fold_validation_risk[k] ==
              doctest::Approx(naive_risk(validation.residuals, h.factor(validation.inputs) * h.factor(validation.inputs).transpose()))
                  .epsilon(1e-12));
        ensemble += estimate / 5;
        roots += std::sqrt(estimate) / 5;
    }
    CHECK(r.estimate == doctest::Approx(ensemble).epsilon(1e-13));
    CHECK(r.sqrt_mean == doctest::Approx(roots).epsilon(1e-13));
    CHECK(r.cv_size == 240);
    CHECK(r.test_size == 60);
    // Another seed gives another split, hence another estimate.
    o.seed = 4;
    CHECK(calib::squared_ce(data, calib::CeEstimator::bins, o).estimate != r.estimate);
}

TEST_CASE("pipeline: the test part's labels never influence the selection") {
    const calib::CategoricalData data = tempered_data(200, 3, 11);
    calib::SquaredCeOptions o;
    const calib::CeSplit split = calib::ce_split(200, o.folds, o.test_fraction, o.seed);
    std::vector<int> labels = data.labels();
    for (std::size_t i : split.test) labels[i] = (labels[i] + 1) % 3;
    const calib::CategoricalData changed(data.probabilities(), labels);
    o.notion = CeNotion::canonical;
    o.grid = {1e-2, 1, 100};
    const calib::SquaredCeResult a = calib::squared_ce(data, calib::CeEstimator::ukkr, o),
                                 b = calib::squared_ce(changed, calib::CeEstimator::ukkr, o);
    CHECK(a.problems[0].mean_validation_risk == b.problems[0].mean_validation_risk);
    CHECK(a.problems[0].chosen == b.problems[0].chosen);
    // The test diagonal of h depends on the test inputs only, not on their labels.
    CHECK(a.estimate == b.estimate);
}

TEST_CASE("pipeline: class-wise sums (or averages) the classes; KRR bitwise the same for 1 and 2 threads") {
    const calib::CategoricalData data = tempered_data(250, 3, 12);
    calib::SquaredCeOptions o;
    o.notion = CeNotion::class_wise;
    o.grid = {1e-1, 1e-5};
    const calib::SquaredCeResult sum = calib::squared_ce(data, calib::CeEstimator::kkr, o);
    REQUIRE(sum.problems.size() == 3);
    double total = 0;
    std::size_t negative = 0;
    for (const calib::CeProblemResult& p : sum.problems) {
        for (double e : p.fold_estimate) total += e / 5;
        negative += p.negative_diagonal;
    }
    CHECK(sum.estimate == doctest::Approx(total).epsilon(1e-13));
    CHECK(sum.negative_diagonal == negative);
    o.aggregation = calib::ClassAggregation::mean;
    CHECK(calib::squared_ce(data, calib::CeEstimator::kkr, o).estimate == doctest::Approx(total / 3).epsilon(1e-13));
    o.notion = CeNotion::canonical;
    o.parallel.num_threads = 1;
    const calib::SquaredCeResult one = calib::squared_ce(data, calib::CeEstimator::kkr, o);
    o.parallel.num_threads = 2;
    const calib::SquaredCeResult two = calib::squared_ce(data, calib::CeEstimator::kkr, o);
    CHECK(one.estimate == two.estimate);
    CHECK(one.problems[0].mean_validation_risk == two.problems[0].mean_validation_risk);
}

TEST_CASE("pipeline: bad options are clear errors") {
    const calib::CategoricalData data = tempered_data(40, 3, 13);
    calib::SquaredCeOptions o;
    CHECK_THROWS_WITH_AS(calib::squared_ce(tempered_data(12, 3, 1), calib::CeEstimator::bins, o),
                         "calib::ce_split: n = 12 is too small for folds = 5 and test_fraction = 0.2: the CV part has 9 "
                         "and the test part 3 observations, must have >= 2 * folds = 10 and >= 1",
                         calib::invalid_argument);
    o.folds = 1;
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::bins, o), "calib::ce_split: folds = 1, must be >= 2",
                         calib::invalid_argument);
    o.folds = 5;
    o.test_fraction = 1;
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::bins, o),
                         "calib::ce_split: test_fraction = 1, must be in (0, 1)", calib::invalid_argument);
    o.test_fraction = 0.2;
    o.grid = {5, 7.5};
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::bins, o),
                         "calib::squared_ce: grid value 7.5 for ce-bins, must be an integer in [1, 1e6]", calib::invalid_argument);
    o.grid = {0};
    CHECK_THROWS_AS(calib::squared_ce(data, calib::CeEstimator::bins, o), calib::invalid_argument);
    o.grid = {1, -1e-3};
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::ukkr, o),
                         "calib::squared_ce: grid value (ridge constant) = -0.001, must be finite and >= 0",
                         calib::invalid_argument);
    o.grid = {};
    o.rbf_gamma = -1;
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::kkr, o),
                         "calib::squared_ce: rbf_gamma = -1, must be finite and > 0", calib::invalid_argument);
    o.rbf_gamma = 1;
    o.krr_tolerance = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::kkr, o),
                         "calib::squared_ce: krr_tolerance = nan, must be < 1 (0: the exact dense path, < 0: the default)",
                         calib::invalid_argument);
    o.krr_tolerance = -1;
    o.notion = CeNotion::canonical;
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::bins, o), doctest::Contains("binning needs a scalar notion"),
                         calib::invalid_argument);
}

TEST_CASE("h_kde: (25) and the leave-one-out estimator (11) against the kernel written out") {
    const CeProblem p = calib::ce_problems(tempered_data(60, 3, 14), CeNotion::canonical)[0];
    const CeProblem train = rows_of(p, 0, 40), eval = rows_of(p, 40, 20);
    for (double b : {0.1, 0.5}) {
        CAPTURE(b);
        const calib::KdeCeFunction h(train, b);
        const Matrix u = h.factor(eval.inputs);
        for (Eigen::Index a = 0; a < 20; ++a)
            CHECK(max_abs(u.row(a) - naive_kde_residual(train, eval.inputs.row(a), b, -1)) < 1e-12);
        CHECK(calib::ce_risk_low_rank(eval.residuals, u) ==
              doctest::Approx(naive_risk(eval.residuals, u * u.transpose())).epsilon(1e-12));
        double in_sample = 0;
        for (Eigen::Index i = 0; i < 40; ++i)
            in_sample += naive_kde_residual(train, train.inputs.row(i), b, i).squaredNorm() / 40;
        CHECK(calib::kde_squared_ce(train, b) == doctest::Approx(in_sample).epsilon(1e-12));
    }
    // The Beta kernel of a scalar problem is the Dirichlet kernel of (z, 1 − z).
    const CeProblem top = calib::ce_problems(tempered_data(30, 4, 15), CeNotion::top_label)[0];
    CeProblem pairs{Matrix(30, 2), Matrix(30, 2)};
    pairs.inputs << top.inputs, (1 - top.inputs.array()).matrix();
    pairs.residuals << top.residuals, -top.residuals;
    const Matrix z = top.inputs.topRows(5);
    const Matrix scalar = calib::KdeCeFunction(top, 0.2).factor(z);
    for (Eigen::Index a = 0; a < 5; ++a)
        CHECK(scalar(a, 0) == doctest::Approx(naive_kde_residual(pairs, pairs.inputs.row(a), 0.2, -1)(0)).epsilon(1e-12));
}

TEST_CASE("h_kde: saturated confidences and zero coordinates give finite values; threads do not change them") {
    calib::Rng rng = calib::make_stream(16, 0);
    Matrix probabilities = calib::synthetic::dirichlet(600, 3, 0.05, rng);  // many coordinates underflow to 0
    probabilities.row(0) << 1, 0, 0;
    probabilities.row(1) << 0, 1, 0;
    const std::vector<int> labels = calib::synthetic::draw_labels(probabilities, rng);
    const calib::CategoricalData data(probabilities, labels);
    for (CeNotion notion : {CeNotion::canonical, CeNotion::top_label}) {
        const CeProblem p = calib::ce_problems(data, notion)[0];
        for (double b : {1e-5, 1e-2, 1.0}) {
            const calib::KdeCeFunction one(p, b, {1}), two(p, b, {2});
            const Matrix u1 = one.factor(p.inputs), u2 = two.factor(p.inputs);
            CHECK(u1.allFinite());
            CHECK((u1.array() == u2.array()).all());
        }
    }
    const CeProblem p = calib::ce_problems(data, CeNotion::canonical)[0];
    CHECK_THROWS_WITH_AS(calib::KdeCeFunction(p, 0.0), "calib::KdeCeFunction: bandwidth = 0, must be finite and > 0",
                         calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::kde_squared_ce(rows_of(p, 0, 1), 0.1),
                         "calib::kde_squared_ce: train has n = 1 observations, must have n >= 2", calib::invalid_argument);
    calib::SquaredCeOptions o;
    o.grid = {0.1, -1};
    CHECK_THROWS_WITH_AS(calib::squared_ce(data, calib::CeEstimator::kde, o),
                         "calib::squared_ce: grid value (bandwidth) = -1, must be finite and > 0", calib::invalid_argument);
    o.grid = {1e-3, 1e-1};
    const calib::SquaredCeResult r = calib::squared_ce(data, calib::CeEstimator::kde, o);
    CHECK(r.estimate >= 0);
    CHECK(r.problems[0].negative_diagonal == 0);
}

TEST_CASE("h_sim (§5.1): equals h* at theta = 1, exact at zero coordinates, minimum risk at theta = 1 (paired)") {
    // f = softmax(0.3 log P): the factor with exponent θ/0.3 at θ = 1 is f − P, whose pair products are h*.
    calib::Rng rng = calib::make_stream(11, 0);
    const Matrix p = calib::synthetic::dirichlet(200, 5, 0.3, rng, 1e-300);
    Matrix f = p.array().pow(0.3);
    for (Eigen::Index i = 0; i < f.rows(); ++i) f.row(i) /= f.row(i).sum();
    CHECK((calib::power_ce_factor(f, 1 / 0.3) - (f - p)).cwiseAbs().maxCoeff() < 1e-12);
    // Exponent 1 is the identity map: a zero factor.
    CHECK(calib::power_ce_factor(f, 1).cwiseAbs().maxCoeff() < 1e-15);
    Matrix z(1, 3);
    z << 0, 0.25, 0.75;
    const Matrix uz = calib::power_ce_factor(z, 2);
    CHECK(uz(0, 0) == 0);
    CHECK(uz(0, 1) == doctest::Approx(0.25 - 0.0625 / 0.625));
    CHECK_THROWS_WITH_AS(calib::power_ce_factor(z, 0), "calib::power_ce_factor: exponent = 0, must be finite and > 0",
                         calib::invalid_argument);
    CHECK_THROWS_AS(calib::power_ce_factor(Matrix::Zero(1, 3), 1), calib::invalid_argument);
    // Paired over 20 data sets of the paper's size: the risk (20) at θ = 1 is below its neighbours'.
    int below = 0;
    for (std::uint64_t rep = 0; rep < 20; ++rep) {
        const calib::CategoricalData d = tempered_data(500, 5, 100 + rep);
        // tempered_data's model is f = P^0.5 renormalised: t = 0.5.
        const Matrix r = calib::ce_problems(d, CeNotion::canonical)[0].residuals;
        const Matrix fd = d.probabilities();
        const double at1 = calib::ce_risk_low_rank(r, calib::power_ce_factor(fd, 1 / 0.5));
        below += at1 < calib::ce_risk_low_rank(r, calib::power_ce_factor(fd, 0.5 / 0.5)) &&
                 at1 < calib::ce_risk_low_rank(r, calib::power_ce_factor(fd, 2 / 0.5));
    }
    CHECK(below >= 18);
}

TEST_CASE("Brier decomposition: BS and the corrected uncertainty term by hand, CAL from ce-kde, RES closes it") {
    // Four copies of p = (0.7, 0.2, 0.1) with labels 0, 0, 1, 2, 0: ‖p − e_y‖² = 0.14 (y = 0), 1.14 (y = 1),
    // 1.34 (y = 2), so BS = (3 · 0.14 + 1.14 + 1.34)/5 = 0.58; π̂ = (0.6, 0.2, 0.2), UNC = 1 − 0.44 = 0.56
    // (Eq. 5 as printed would give ‖π̂‖² = 0.44).
    Matrix p(20, 3);
    std::vector<int> y;
    for (int i = 0; i < 20; ++i) {
        p.row(i) << 0.7, 0.2, 0.1;
        y.push_back(std::vector<int>{0, 0, 1, 2, 0}[static_cast<std::size_t>(i % 5)]);
    }
    const calib::CategoricalData data(p, y);
    calib::SquaredCeOptions o;
    o.notion = CeNotion::top_label;  // ignored: the calibration term is canonical
    o.folds = 2;
    const calib::BrierDecomposition b = calib::brier_decomposition(data, o);
    CHECK(b.brier == doctest::Approx(0.58).epsilon(1e-14));
    CHECK(b.uncertainty == doctest::Approx(0.56).epsilon(1e-14));
    o.notion = CeNotion::canonical;
    CHECK(b.calibration == calib::squared_ce(data, calib::CeEstimator::kde, o).estimate);
    CHECK(b.brier == doctest::Approx(b.calibration - b.resolution + b.uncertainty).epsilon(1e-14));
    CHECK(calib::brier_score(data) == b.brier);
}

TEST_CASE("Brier score alone: by hand, one observation, perfect and worst predictions, row-major views") {
    // p = (0.5, 0.3, 0.2), y = 1: 0.25 + 0.49 + 0.04 = 0.78; p = (0, 0, 1), y = 2: 0; p = (1, 0, 0), y = 2: 2.
    Matrix p(3, 3);
    p << 0.5, 0.3, 0.2, 0, 0, 1, 1, 0, 0;
    CHECK(calib::brier_score(calib::CategoricalData(p.topRows(1), {1})) == doctest::Approx(0.78).epsilon(1e-15));
    CHECK(calib::brier_score(calib::CategoricalData(p.middleRows(1, 1), {2})) == 0);
    CHECK(calib::brier_score(calib::CategoricalData(p.bottomRows(1), {2})) == 2);
    CHECK(calib::brier_score(calib::CategoricalData(p, {1, 2, 2})) == doctest::Approx(2.78 / 3).epsilon(1e-15));
    // The same numbers read in place from a row-major buffer (as the Python module reads C-order arrays).
    const auto rows = std::make_shared<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(p);
    const calib::CategoricalData view(
        calib::MatrixView(rows->data(), 3, 3, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(1, 3)), rows, {1, 2, 2});
    CHECK(calib::brier_score(view) == calib::brier_score(calib::CategoricalData(p, {1, 2, 2})));
    CHECK_THROWS_AS(calib::brier_score(calib::CategoricalData(Matrix(0, 3), {})), calib::invalid_argument);
}

TEST_CASE("Kumar et al.'s debiased binned estimator by hand; the linear-time risk against a naive loop") {
    // 3 equal-width bins. [0, 1/3]: z 0.1, 0.2, b 0, 1: conf − acc = −0.35, acc = 0.5, term 2 (0.1225 − 0.25);
    // (1/3, 2/3]: one point, 0; (2/3, 1]: z 0.8, 0.9, 0.95, b 1, 0, 1: conf − acc = 0.65/3, acc = 2/3,
    // term 3 ((0.65/3)² − (2/9)/2). n = 6.
    CeProblem p{Matrix(6, 1), Matrix(6, 1)};
    const double z[] = {0.1, 0.2, 0.5, 0.8, 0.9, 0.95}, b[] = {0, 1, 1, 1, 0, 1};
    for (int i = 0; i < 6; ++i) {
        p.inputs(i, 0) = z[i];
        p.residuals(i, 0) = z[i] - b[i];
    }
    const double expected = (2 * (0.1225 - 0.25) + 3 * (std::pow(0.65 / 3, 2) - 1.0 / 9)) / 6;
    CHECK(calib::debiased_binned_squared_ce(p, 3) == doctest::Approx(expected).epsilon(1e-14));
    // One bin per point: every bin has < 2 points, so 0; the plug-in is then Σ (z − b)²/n.
    CHECK(calib::debiased_binned_squared_ce(p, 1000) == 0);
    CHECK_THROWS_WITH_AS(calib::debiased_binned_squared_ce(p, 0),
                         "calib::debiased_binned_squared_ce: bins = 0, must be >= 1", calib::invalid_argument);

    // Linear-time risk: (1/(m − 1)) Σ_a (⟨r_a, r_{a+1}⟩ − ⟨u_a, u_{a+1}⟩)², written out.
    calib::Rng rng = calib::make_stream(5, 0);
    const Matrix r = calib::synthetic::dirichlet(40, 3, 1.0, rng);
    const Matrix u = calib::synthetic::dirichlet(40, 2, 1.0, rng);
    double naive = 0;
    Vector pairs(39);
    for (Eigen::Index a = 0; a < 39; ++a) {
        pairs(a) = u.row(a).dot(u.row(a + 1));
        naive += std::pow(r.row(a).dot(r.row(a + 1)) - pairs(a), 2) / 39;
    }
    CHECK(calib::ce_risk_consecutive_low_rank(r, u) == doctest::Approx(naive).epsilon(1e-13));
    CHECK(calib::ce_risk_consecutive(r, pairs) == doctest::Approx(naive).epsilon(1e-13));
    CHECK_THROWS_AS(calib::ce_risk_consecutive(r, Vector::Zero(40)), calib::invalid_argument);
    CHECK_THROWS_AS(calib::ce_risk_consecutive_low_rank(r.topRows(1), u.topRows(1)), calib::invalid_argument);
}

TEST_CASE("fixed-hyperparameter mode: fit on train, diagonal mean on data, risk (20) on validation") {
    const calib::CategoricalData train = tempered_data(60, 3, 21), data = tempered_data(30, 3, 22),
                                 validation = tempered_data(25, 3, 23);
    // One bin: h = v² everywhere, v = mean(conf − correct) of train.
    const CeProblem t = calib::ce_problems(train, CeNotion::top_label)[0];
    const double v = t.residuals.mean();
    CHECK(calib::fixed_squared_ce(train, data, nullptr, calib::CeEstimator::bins, 1).estimate ==
          doctest::Approx(v * v).epsilon(1e-14));
    CHECK(std::isnan(calib::fixed_squared_ce(train, data, nullptr, calib::CeEstimator::bins, 1).validation_risk));
    // Each estimator against its parts, canonical (bins: top-label).
    calib::SquaredCeOptions o;
    for (const calib::CeEstimator e : {calib::CeEstimator::bins, calib::CeEstimator::kde, calib::CeEstimator::kkr,
                                       calib::CeEstimator::ukkr}) {
        CAPTURE(calib::to_string(e));
        o.notion = e == calib::CeEstimator::bins ? CeNotion::top_label : CeNotion::canonical;
        const CeProblem tr = calib::ce_problems(train, o.notion)[0], da = calib::ce_problems(data, o.notion)[0],
                        va = calib::ce_problems(validation, o.notion)[0];
        const double hyper = e == calib::CeEstimator::bins ? 7 : e == calib::CeEstimator::kde ? 0.1 : 1e-3;
        double estimate = 0, risk = 0;
        if (e == calib::CeEstimator::bins) {
            const calib::BinCeFunction h(tr, 7);
            estimate = h.diagonal(da.inputs).mean();
            risk = calib::ce_risk_low_rank(va.residuals, h.factor(va.inputs));
        } else if (e == calib::CeEstimator::kde) {
            const calib::KdeCeFunction h(tr, 0.1);
            estimate = h.diagonal(da.inputs).mean();
            risk = calib::ce_risk_low_rank(va.residuals, h.factor(va.inputs));
        } else {
            const calib::KrrCeFit fit(tr, 1);
            const Matrix bd = fit.project(da.inputs), bv = fit.project(va.inputs);
            if (e == calib::CeEstimator::kkr) {
                const double rho = calib::kronecker_ridge(1e-3, 60, calib::RidgePreset::reference_code);
                estimate = fit.kronecker_diagonal(bd, rho).mean();
                risk = calib::ce_risk(va.residuals, fit.kronecker_pairs(bv, rho));
            } else {
                const double mu = calib::two_step_ridge(1e-3, 60, calib::RidgePreset::reference_code);
                estimate = fit.two_step_factor(bd, mu).rowwise().squaredNorm().mean();
                risk = calib::ce_risk_low_rank(va.residuals, fit.two_step_factor(bv, mu));
            }
        }
        const calib::FixedCeResult r = calib::fixed_squared_ce(train, data, &validation, e, hyper, o);
        CHECK(r.estimate == doctest::Approx(estimate).epsilon(1e-12));
        CHECK(r.validation_risk == doctest::Approx(risk).epsilon(1e-12));
    }
    // Class-wise: the classes' values, summed.
    o.notion = CeNotion::class_wise;
    const calib::FixedCeResult cw = calib::fixed_squared_ce(train, data, &validation, calib::CeEstimator::bins, 5, o);
    REQUIRE(cw.problem_estimates.size() == 3);
    CHECK(cw.estimate == doctest::Approx(cw.problem_estimates[0] + cw.problem_estimates[1] + cw.problem_estimates[2]));
    // Bad inputs.
    CHECK_THROWS_WITH_AS(calib::fixed_squared_ce(train, data, nullptr, calib::CeEstimator::bins, 0),
                         "calib::fixed_squared_ce: bins = 0, must be an integer in [1, 1e6]", calib::invalid_argument);
    CHECK_THROWS_WITH_AS(calib::fixed_squared_ce(train, data, nullptr, calib::CeEstimator::kde, -1),
                         "calib::fixed_squared_ce: bandwidth = -1, must be finite and > 0", calib::invalid_argument);
    CHECK_THROWS_AS(calib::fixed_squared_ce(train, tempered_data(10, 4, 1), nullptr, calib::CeEstimator::kde, 0.1),
                    calib::invalid_argument);
}


TEST_CASE("squared_ce: the default KRR tolerance is the exact path for canonical fits up to exact_krr_limit points") {
    CHECK(calib::default_krr_tolerance(calib::exact_krr_limit, 10) == 0.0);
    CHECK(calib::default_krr_tolerance(calib::exact_krr_limit + 1, 10) == 1e-6);
    CHECK(calib::default_krr_tolerance(5, 1) == std::numeric_limits<double>::epsilon());
    CHECK(calib::default_krr_tolerance(100000, 1) == std::numeric_limits<double>::epsilon());
}

namespace {
// The relative difference of two numbers.
double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }
}  // namespace

TEST_CASE("KRR rounding sensitivity: its closed forms, and what it predicts of two independent computations") {
    const CeProblem all = calib::ce_problems(tempered_data(400, 4, 31), CeNotion::top_label)[0];
    const CeProblem train = rows_of(all, 0, 200), evaluation = rows_of(all, 200, 200);
    const calib::KrrCeFit exact(train, 1, {}, 0), floor(train, 1);  // the dense path; the default low rank
    REQUIRE(floor.rank() < 200);
    const double eps = std::numeric_limits<double>::epsilon(), top = floor.eigenvalues().maxCoeff();
    // A factor that leaves directions out has ℓ_min = 0: ε ℓ_max²/ρ and ε ℓ_max/μ; a zero ridge is infinite.
    CHECK(floor.kronecker_sensitivity(1e-3) == doctest::Approx(eps * top * top / 1e-3).epsilon(1e-14));
    CHECK(floor.two_step_sensitivity(1e-3) == doctest::Approx(eps * top / 1e-3).epsilon(1e-14));
    CHECK(std::isinf(floor.kronecker_sensitivity(0)));
    CHECK(std::isinf(floor.two_step_sensitivity(0)));
    // A full spectrum with ℓ_min > 0 (20 spread canonical points): a zero ridge changes no weight, and the
    // Kronecker bound is at least the largest weight change over the spectrum's own pairs.
    const CeProblem spread = calib::ce_problems(tempered_data(20, 3, 32), CeNotion::canonical)[0];
    const calib::KrrCeFit full(spread, 1, {}, 0);
    const Vector& l = full.eigenvalues();
    REQUIRE(l.minCoeff() > 0);
    CHECK(full.kronecker_sensitivity(0) == 0.0);
    CHECK(full.two_step_sensitivity(0) == 0.0);
    for (double rho : {1e-12, 1e-8, 1e-4, 1.0}) {
        double pairs = 0;
        for (Eigen::Index i = 0; i < l.size(); ++i)
            for (Eigen::Index j = 0; j < l.size(); ++j)
                pairs = std::max(pairs, eps * l.maxCoeff() * l(i) * rho / std::pow(l(i) * l(j) + rho, 2));
        CHECK(full.kronecker_sensitivity(rho) >= pairs);
        CHECK(full.kronecker_sensitivity(rho) <= eps * l.maxCoeff() / (4 * l.minCoeff()) * (1 + 1e-12));
    }
    // What it predicts: the dense eigendecomposition and the pivoted Cholesky + QR factor are two
    // computations of the same function; where the sensitivity s is small they agree (measured: within
    // about 20 s relative on the diagonal mean, docs/squared_ce.md), where it is large they do not (the
    // ridges below the rounding floor). Top-label, reference-code ridges c = 1e-1 … 1e-17 at n = 200.
    const Matrix be = exact.project(evaluation.inputs), bf = floor.project(evaluation.inputs);
    for (double c : calib::default_ce_grid(calib::CeEstimator::kkr, CeNotion::top_label)) {
        const double rho = calib::kronecker_ridge(c, 200, calib::RidgePreset::reference_code);
        const double s = floor.kronecker_sensitivity(rho);
        const double a = exact.kronecker_diagonal(be, rho).mean(), b = floor.kronecker_diagonal(bf, rho).mean();
        CAPTURE(c);
        CAPTURE(s);
        if (s <= calib::max_rounding_sensitivity) CHECK(relative(b, a) <= 1e3 * s);
        if (s >= 10) CHECK(relative(b, a) > 1e-2);
    }
}

TEST_CASE("KRR search: the default agrees with the exact path at every candidate; ridges below the floor are not candidates") {
    const calib::CategoricalData data = tempered_data(500, 10, 33);
    for (CeNotion notion : {CeNotion::top_label, CeNotion::class_wise})
        for (calib::CeEstimator e : {calib::CeEstimator::kkr, calib::CeEstimator::ukkr}) {
            CAPTURE(calib::to_string(notion));
            CAPTURE(calib::to_string(e));
            calib::SquaredCeOptions o;
            o.notion = notion;
            o.krr_tolerance = 0;
            const calib::SquaredCeResult exact = calib::squared_ce(data, e, o);
            o.krr_tolerance = -1;
            const calib::SquaredCeResult low = calib::squared_ce(data, e, o);
            for (std::size_t c = 0; c < low.problems.size(); ++c) {
                const calib::CeProblemResult &x = exact.problems[c], &y = low.problems[c];
                CHECK(x.chosen == y.chosen);
                for (std::size_t g = 0; g < low.grid.size(); ++g) {
                    // The low-rank factor leaves out directions (ℓ_min = 0), so its sensitivity is the larger.
                    CHECK(y.rounding_sensitivity[g] >= x.rounding_sensitivity[g] * (1 - 1e-9));
                    if (y.rounding_sensitivity[g] > calib::max_rounding_sensitivity) {
                        CHECK(g != y.chosen);
                        continue;
                    }
                    // docs/squared_ce.md: measured at n = 500 and 2 000 within ... (the exact path's own noise).
                    CHECK(relative(y.mean_validation_risk[g], x.mean_validation_risk[g]) <= 1e-6);
                    CHECK(std::abs(y.grid_estimate[g] - x.grid_estimate[g]) <= 1e-4 * std::abs(x.grid_estimate[g]) + 1e-9);
                }
            }
        }
}

TEST_CASE("KRR truncation: its closed forms, and coarse factors within a tenth of a standard error at every candidate") {
    const CeProblem all = calib::ce_problems(tempered_data(300, 4, 51), CeNotion::canonical)[0];
    const CeProblem train = rows_of(all, 0, 200);
    const calib::KrrCeFit exact(train, 1, {}, 0), coarse(train, 1, {}, 1e-3);
    REQUIRE(coarse.rank() < 200);
    const Vector& l = coarse.eigenvalues();
    CHECK(coarse.kronecker_truncation(0.5) == doctest::Approx(l.maxCoeff() * l.minCoeff() / 0.5).epsilon(1e-14));
    CHECK(coarse.two_step_truncation(0.5) == doctest::Approx(l.minCoeff() / 0.5).epsilon(1e-14));
    CHECK(std::isinf(coarse.kronecker_truncation(0)));
    CHECK(exact.kronecker_truncation(0.5) == 0.0);
    CHECK(exact.two_step_truncation(0) == 0.0);
    // The claim behind the candidates (docs/squared_ce.md): where the bound truncation_error_factor ×
    // indicator × |estimate| is within max_truncation_error_in_se standard errors, the coarse factor's
    // estimate is within that many standard errors of the exact path's. Tolerances 1e-3 and 1e-4.
    const calib::CategoricalData data = tempered_data(800, 4, 52);
    for (double tolerance : {1e-3, 1e-4})
        for (calib::CeEstimator e : {calib::CeEstimator::kkr, calib::CeEstimator::ukkr}) {
            CAPTURE(tolerance);
            CAPTURE(calib::to_string(e));
            calib::SquaredCeOptions o;
            o.notion = CeNotion::canonical;
            o.krr_tolerance = 0;
            const calib::SquaredCeResult x = calib::squared_ce(data, e, o);
            o.krr_tolerance = tolerance;
            const calib::SquaredCeResult y = calib::squared_ce(data, e, o);
            const calib::CeProblemResult &px = x.problems[0], &py = y.problems[0];
            std::size_t excluded = 0;
            for (std::size_t g = 0; g < y.grid.size(); ++g) {
                if (py.truncation_error_in_se[g] > calib::max_truncation_error_in_se) {
                    ++excluded;
                    continue;
                }
                CAPTURE(y.grid[g]);
                CHECK(std::abs(py.grid_estimate[g] - px.grid_estimate[g]) <=
                      calib::max_truncation_error_in_se * py.grid_estimate_se[g]);
            }
            CHECK(excluded < y.grid.size());
            MESSAGE("tolerance ", tolerance, " ", calib::to_string(e), ": ", excluded, " of ", y.grid.size(), " excluded");
        }
}

TEST_CASE("KRR search: a grid wholly below the rounding floor is an error; the edges and the floor are warned") {
    const calib::CategoricalData data = tempered_data(400, 4, 15);
    calib::SquaredCeOptions o;
    o.grid = {1e-17};
    CHECK_THROWS_AS(calib::squared_ce(data, calib::CeEstimator::kkr, o), calib::invalid_argument);
    CHECK_THROWS_WITH(calib::squared_ce(data, calib::CeEstimator::kkr, o),
                      doctest::Contains("no grid value is resolved by its fits"));
    // 1e-17 is not a candidate: 1e-1 is chosen, at the edge of what rounding resolves.
    o.grid = {1e-1, 1e-17};
    const calib::SquaredCeResult r = calib::squared_ce(data, calib::CeEstimator::kkr, o);
    CHECK(r.problems[0].chosen == 0);
    CHECK(r.problems[0].rounding_sensitivity[1] > calib::max_rounding_sensitivity);
    CHECK(r.problems[0].edge == calib::CeGridEdge::smallest);
    const std::vector<std::string> w = calib::squared_ce_warnings(r, calib::CeEstimator::kkr);
    REQUIRE(!w.empty());
    CHECK(w[0].find("ce-kkr chose the ridge constant 0.1, the smallest that its fits resolve") == 0);
    // A grid's extreme values: whichever of two is chosen is an edge, warned with the option to widen; of
    // one value there is no search and no edge.
    for (calib::CeEstimator e : {calib::CeEstimator::bins, calib::CeEstimator::kde}) {
        CAPTURE(calib::to_string(e));
        o.grid = e == calib::CeEstimator::bins ? std::vector<double>{2, 3} : std::vector<double>{0.05, 0.1};
        const calib::SquaredCeResult two = calib::squared_ce(data, e, o);
        const bool small = two.problems[0].chosen == 0;
        CHECK(two.problems[0].edge == (small ? calib::CeGridEdge::smallest : calib::CeGridEdge::largest));
        const std::vector<std::string> edge = calib::squared_ce_warnings(two, e);
        REQUIRE(!edge.empty());
        CHECK(edge[0].find(small ? "the smallest value of the grid" : "the largest value of the grid") != std::string::npos);
        CHECK(edge[0].find("extend `grid` to see") != std::string::npos);
        o.grid.resize(1);
        CHECK(calib::squared_ce(data, e, o).problems[0].edge == calib::CeGridEdge::none);
    }
}

TEST_CASE("canonical: the same estimator's top-label estimate on the same split is its bound, warned when above it") {
    // CCE₂² ≥ TCE₂² for every model (docs/squared_ce.md, "Which estimator to trust"): the canonical run
    // carries the top-label pipeline of the same estimator, split and options, with the top-label default
    // grid and KRR tolerance (here the canonical run takes a grid and the exact path of its own).
    const calib::CategoricalData data = tempered_data(300, 4, 7);
    for (calib::CeEstimator e : {calib::CeEstimator::kde, calib::CeEstimator::kkr, calib::CeEstimator::ukkr}) {
        CAPTURE(calib::to_string(e));
        calib::SquaredCeOptions canonical, top_label;
        canonical.notion = CeNotion::canonical;
        canonical.grid = {e == calib::CeEstimator::kde ? 0.2 : 1e3};  // a canonical grid; not the top-label one's
        canonical.krr_tolerance = 0;
        top_label.notion = CeNotion::top_label;
        const calib::SquaredCeResult r = calib::squared_ce(data, e, canonical), t = calib::squared_ce(data, e, top_label);
        CHECK(r.top_label_estimate == t.estimate);  // bitwise: the same computation
        CHECK(std::isnan(t.top_label_estimate));
        const std::vector<std::string> w = calib::squared_ce_warnings(r, e);
        const bool warned = std::any_of(w.begin(), w.end(), [](const std::string& s) {
            return s.find("is below the top-label estimate") != std::string::npos;
        });
        CHECK(warned == (r.estimate < t.estimate));
    }
    calib::SquaredCeResult r;  // the warning's text and threshold, on values set by hand
    r.estimate = 0.003;
    r.top_label_estimate = 0.005;
    const std::vector<std::string> w = calib::squared_ce_warnings(r, calib::CeEstimator::ukkr);
    REQUIRE(w.size() == 1);
    CHECK(w[0] == "ce-ukkr: the canonical estimate 0.003 is below the top-label estimate 0.005 of the same data, but "
                  "CCE2^2 >= TCE2^2 for every model, so the canonical estimate is too low (unless both are noise around "
                  "0): smoothing over the whole probability vector flattens the miscalibration. Read it as a lower "
                  "bound of CCE2^2 and prefer the top-label error: on network-like outputs ce-ukkr's top-label "
                  "estimates were on average within 10 % of the truth, while the canonical estimators mostly ran low, by "
                  "up to 93 % (docs/squared_ce.md)");
    r.top_label_estimate = 0.003;  // equal: no contradiction
    CHECK(calib::squared_ce_warnings(r, calib::CeEstimator::ukkr).empty());
    r.top_label_estimate = std::numeric_limits<double>::quiet_NaN();  // not canonical
    CHECK(calib::squared_ce_warnings(r, calib::CeEstimator::ukkr).empty());
}

TEST_CASE("KRR fixed mode: a ridge below the floor and a mostly negative diagonal are warned") {
    const calib::CategoricalData train = tempered_data(300, 4, 41), data = tempered_data(200, 4, 42);
    calib::SquaredCeOptions o;
    o.notion = CeNotion::top_label;
    const calib::FixedCeResult fine = calib::fixed_squared_ce(train, data, nullptr, calib::CeEstimator::kkr, 1e-1, o);
    CHECK(fine.rounding_sensitivity < calib::max_rounding_sensitivity);
    CHECK(fine.diagonal_size == 200);
    CHECK(calib::fixed_squared_ce_warnings(fine, calib::CeEstimator::kkr).empty());
    const calib::FixedCeResult noise = calib::fixed_squared_ce(train, data, nullptr, calib::CeEstimator::kkr, 1e-17, o);
    CHECK(noise.rounding_sensitivity > 1);
    const std::vector<std::string> w = calib::fixed_squared_ce_warnings(noise, calib::CeEstimator::kkr);
    REQUIRE(!w.empty());
    CHECK(w[0].find("ce-kkr: the ridge constant lies below the rounding floor of the fit") == 0);
    // The negative-diagonal warning counts the values given.
    calib::FixedCeResult negative;
    negative.negative_diagonal = 101;
    negative.diagonal_size = 200;
    REQUIRE(calib::fixed_squared_ce_warnings(negative, calib::CeEstimator::kkr).size() == 1);
    CHECK(calib::fixed_squared_ce_warnings(negative, calib::CeEstimator::kkr)[0].find("h(p, p) < 0 at 101 of 200") !=
          std::string::npos);
    CHECK(calib::fixed_squared_ce_warnings(negative, calib::CeEstimator::ukkr).empty());
    negative.negative_diagonal = 100;
    CHECK(calib::fixed_squared_ce_warnings(negative, calib::CeEstimator::kkr).empty());
}

}  // TEST_SUITE

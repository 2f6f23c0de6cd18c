// Squared calibration errors estimated by risk-minimising calibration estimation functions
// [gruber-bach: Gruber & Bach, TMLR 2025; maths and decisions in docs/squared_ce.md].
//
// A calibration estimation function h(p, p') approximates h*(p, p') = ⟨p − q(p), p' − q(p')⟩, q the
// recalibration map; its diagonal mean (1/m) Σ h(P_a, P_a) estimates the squared error (21), and it
// is scored by the calibration-estimation risk (20), a U-statistic over pairs a ≠ b of an
// evaluation set. Every bad input throws calib::invalid_argument naming function, argument, value
// and rule.
#pragma once

#include <calib/data.hpp>
#include <calib/parallel.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace calib {

// One regression problem on pairs (§2.2–2.3, §3.1): row a holds the input z_a the function sees and
// the residual r_a whose pair products ⟨r_a, r_b⟩ are the noisy targets T_ab.
struct CeProblem {
    Matrix inputs;     // n×q: probability vectors (canonical) or one scalar (top-label, one class)
    Matrix residuals;  // n×d': P − e_Y (canonical) or s − b (scalar reductions, no factor 2)
};

// canonical: z = P, r = P − e_Y (CCE₂).  top_label: z = max_k P_k (first maximum), r = z − 1{Y = argmax}
// (TCE₂).  class_wise: one problem per class k, z = P_k, r = P_k − 1{Y = k}, with the scalar
// convention (no factor 2, as the authors' code; docs/squared_ce.md, decision 6); the class values are
// summed or averaged.
enum class CeNotion { canonical, top_label, class_wise };
enum class ClassAggregation { sum, mean };

// The problems of a notion: one for canonical and top-label, num_classes for class-wise.
std::vector<CeProblem> ce_problems(const CategoricalData& data, CeNotion notion);

// The empirical calibration-estimation risk (20) of a function with values H (m×m, H_ab = h(z_a, z_b),
// symmetric: its strict lower triangle is read) on the evaluation residuals (m×d'):
// (1/(m(m−1))) Σ_{a≠b} (⟨r_a, r_b⟩ − H_ab)², T never formed, on the pairwise engine (bitwise the same
// for any thread count). O(m² d'). Needs m ≥ 2.
double ce_risk(const Matrix& residuals, const Matrix& h, const ParallelOptions& parallel = {});

// The same for a low-rank function H = U Uᵀ (U m×r: binning r = 1, KDE and two-step KRR r = d'), exactly, in
// O(m (d' + r)²) by ‖T − H‖²_F = ‖ΔᵀΔ‖² − 2‖ΔᵀU‖² + ‖UᵀU‖² minus the diagonal (an exact
// rearrangement of (20)).
double ce_risk_low_rank(const Matrix& residuals, const Matrix& factor);

// The linear-time risk (§3.2.1 only says one exists): the mean over the m − 1 consecutive pairs (a, a + 1)
// of (⟨r_a, r_{a+1}⟩ − h(z_a, z_{a+1}))², as the authors' ce_estimator_lin_simulation; unbiased for the
// risk when the rows are i.i.d. in random order, with a larger variance than (20). O(m (d' + r)). Needs m ≥ 2.
// pair_values(a) = h(z_a, z_{a+1}), a = 0 … m − 2; or h = U Uᵀ given by its factor U (m×r).
double ce_risk_consecutive(const Matrix& residuals, const Vector& pair_values);
double ce_risk_consecutive_low_rank(const Matrix& residuals, const Matrix& factor);

// h_bin (23) on a scalar problem: the bin value v_m = mean of the residuals z − b in training bin m
// (conf(B_m) − acc(B_m)); an empty training bin takes the global mean (as the authors' code). Bins are
// right-closed, the first also closed on the left: equal_width [0, 1/M], (1/M, 2/M], …; equal_mass
// cuts at the training values of rank ⌈kn/M⌉ (k = 1 … M−1), so ties can leave bins empty.
enum class CeBinning { equal_width, equal_mass };
class BinCeFunction {
public:
    // Needs a scalar problem (q = d' = 1) with n ≥ 1 and inputs in [0, 1], bins ≥ 1.
    BinCeFunction(const CeProblem& train, int bins, CeBinning scheme = CeBinning::equal_width);
    // h(z_a, z_b) = U_a U_b with U (m×1) the bin values of the evaluation inputs.
    Matrix factor(const Matrix& inputs) const;
    Vector diagonal(const Matrix& inputs) const;  // U_a²
    const Vector& values() const { return values_; }
    const std::vector<std::size_t>& counts() const { return counts_; }
    std::size_t bin_of(double z) const;  // 0 … M−1, for z in [0, 1]

private:
    CeBinning scheme_;
    int bins_;
    Vector edges_;   // equal_mass: the M−1 inner cuts
    Vector values_;  // v_1 … v_M
    std::vector<std::size_t> counts_;
};

// The plug-in (TCE₂^bin)² (10) of a scalar problem: Σ_m |B_m|/n (conf − acc)²; equals the diagonal
// mean of BinCeFunction fitted and evaluated on the same data (24).
double binned_squared_ce(const CeProblem& problem, int bins, CeBinning scheme = CeBinning::equal_width);

// Kumar et al.'s debiased (TCE₂^bin)² (mentioned in §4.1; the formula of their verified_calibration code):
// Σ_m |B_m|/n [(conf_m − acc_m)² − acc_m (1 − acc_m)/(|B_m| − 1)], bins with |B_m| < 2 contributing 0;
// acc_m is the bin mean of the labels z − r. Squared scale, may be < 0 (the L2 version is √max(·, 0)).
double debiased_binned_squared_ce(const CeProblem& problem, int bins, CeBinning scheme = CeBinning::equal_width);

// The ridge-independent part of Kronecker KRR h_kkr (28–29) and two-step KRR h_ukkr (32) with the
// RBF kernel k(z, z') = exp(−γ‖z − z'‖²) fitted on n training points: K = Q diag(ℓ) Qᵀ (eigenvalues
// clipped at 0) and R = Qᵀ Δ, computed once and shared by every ridge.
// tolerance = 0, the exact path: the dense eigendecomposition of K, Q n×n; O(n³) time, O(n²) memory
// (about 24 n² bytes; more than the machine's memory throws invalid_argument before allocation).
// tolerance > 0, the low-rank path: K ≈ G Gᵀ by the pivoted incomplete Cholesky factorisation
// stopped when tr(K − G Gᵀ) ≤ tolerance · tr K, and Q (n×r), ℓ the r nonzero eigenpairs of G Gᵀ; the
// formulas below then hold with r in place of n (the directions beyond the factor are dropped).
// O(n r²) time, O(n r) memory. tolerance < 0: default_krr_tolerance of the inputs' dimension. The
// agreement with the exact path is measured in docs/squared_ce.md. Every result is bitwise the same for
// any thread count.
// The default tolerance for n training inputs of dimension q (docs/squared_ce.md, measured agreement):
// for scalar inputs (top-label, class-wise) the rounding floor, the machine epsilon: the factor then
// holds every direction of K above rounding (rank about 10 for the RBF kernel on [0, 1], whatever n,
// in milliseconds), so it agrees with the exact path as closely as two exact computations agree with
// each other; for probability vectors (canonical) 0, the exact path, up to exact_krr_limit training
// points (a few seconds per fit), and 1e-6 above (rank ≈ 1 200 at n = 6 400, where 1e-8 needs ≈ 2 900
// and minutes).
inline constexpr Eigen::Index exact_krr_limit = 2000;
double default_krr_tolerance(Eigen::Index n, Eigen::Index input_dimension);

// The rounding floor of a KRR fit (docs/squared_ce.md, "The rounding floor"): a ridge whose rounding
// sensitivity (KrrCeFit::kronecker_sensitivity, two_step_sensitivity) exceeds this is not a candidate of
// the search, and the fixed-hyperparameter mode warns about it: its numbers would carry fewer than
// about five significant digits, and below it they are rounding noise.
inline constexpr double max_rounding_sensitivity = 1e-6;
// A low-rank fit's truncation: the bound truncation_error_factor × the truncation indicator on the
// relative error of a grid value's estimate (measured against the exact path, docs/squared_ce.md) must
// stay within max_truncation_error_in_se of that estimate's standard error over the folds, or the value
// is not a candidate.
inline constexpr double truncation_error_factor = 2;
inline constexpr double max_truncation_error_in_se = 0.1;

class KrrCeFit {
public:
    KrrCeFit(const CeProblem& train, double gamma, const ParallelOptions& parallel = {}, double tolerance = -1);

    // B = Qᵀ K× (r×m) of an evaluation set: every evaluation below starts from it. O(n r m).
    Matrix project(const Matrix& inputs) const;

    // h_kkr: H = Bᵀ S B with S = Λ̃ ⊙ R Rᵀ, Λ̃_ij = 1/(ℓ_i ℓ_j + ρ) (0 where ℓ_i ℓ_j + ρ = 0: the
    // pseudo-inverse). ρ ≥ 0 is the effective ridge λn² of (28). kronecker_apply gives S B (r×m), from
    // which any block of H and its diagonal follow. O(r² m).
    Matrix kronecker_apply(const Matrix& projected, double rho) const;
    Matrix kronecker_pairs(const Matrix& projected, double rho) const;
    Vector kronecker_diagonal(const Matrix& projected, double rho) const;  // b_aᵀ S b_a, may be < 0
    // h_ukkr = U Uᵀ with U = Bᵀ diag(1/(ℓ + μ)) R (m×d'); μ ≥ 0 is the effective ridge λn of (32).
    Matrix two_step_factor(const Matrix& projected, double mu) const;

    // The rounding sensitivity of the fit at a ridge: the largest change of a weight of the function,
    // ℓ_iℓ_j/(ℓ_iℓ_j + ρ) (Kronecker) or ℓ_i/(ℓ_i + μ) (two-step), when the eigenvalues move by their
    // rounding error ε ℓ_max (ε the machine epsilon), over eigenvalues in [ℓ_min, ℓ_max]; ℓ_min is 0 when
    // the factor leaves directions out (rank < n) or K is singular to rounding. Kronecker:
    // ε ℓ_max x ρ/(x ℓ_min + ρ)² with x = ρ/ℓ_min clamped to [ℓ_min, ℓ_max]; two-step: ε ℓ_max μ/(ℓ_min + μ)²;
    // +inf when the ridge and ℓ_min are both 0. Relative errors of the estimate measured at a
    // sensitivity s were below about 20 s (docs/squared_ce.md).
    double kronecker_sensitivity(double rho) const;
    double two_step_sensitivity(double mu) const;
    // The truncation indicator of a low-rank fit at a ridge: the weight the function would give the
    // directions the factor leaves out, with the factor's smallest eigenvalue ℓ_r standing for the
    // largest of them: ℓ_max ℓ_r/ρ (Kronecker), ℓ_r/μ (two-step); 0 on a complete spectrum (rank n) and
    // on a factor grown to the rounding floor (the trace it leaves out ≤ 16 ε ℓ_max: what it drops is
    // rounding, which the rounding sensitivity covers), +inf at a zero ridge otherwise. Measured
    // (docs/squared_ce.md): the estimate's relative error against the exact path was at most about 2
    // times it (truncation_error_factor).
    double kronecker_truncation(double rho) const;
    double two_step_truncation(double mu) const;

    std::size_t training_size() const { return static_cast<std::size_t>(points_.cols()); }  // n
    Eigen::Index rank() const { return eigenvalues_.size(); }  // r (n on the exact path)
    const Vector& eigenvalues() const { return eigenvalues_; }

private:
    Matrix kronecker_weights(double rho) const;  // S
    bool reaches_floor() const;
    Matrix points_;        // q×n training inputs, one point per column
    double gamma_;
    ParallelOptions parallel_;
    Vector eigenvalues_;   // ℓ, ascending, ≥ 0
    Matrix eigenvectors_;  // Q
    Matrix projected_residuals_;  // R
    double residual_trace_ = 0;   // tr(K − G Gᵀ) of the low-rank path, 0 on the exact one
};

// h_kde (25): h(z, z′) = ⟨z − ĝ(z), z′ − ĝ(z′)⟩ with the Nadaraya–Watson estimate
// ĝ(z) = Σ_i k(z; z_i) y_i / Σ_i k(z; z_i) of the training labels y_i = z_i − r_i, computed in log
// space. Kernel centred at training point z_i, evaluated at the query z (as the authors' code): the
// Dirichlet density with α = z_i/b + 1 on probability vectors (canonical), the Beta density with
// α = z_i/b + 1, β = (1 − z_i)/b + 1 on scalars (top-label, class-wise). Queries are clipped to
// [1e-12, 1] inside the logarithm (float-saturated confidences of 1.0, coordinates 0), so no NaN arises;
// a non-finite result would throw numerical_error. O(n m q) per evaluation.
class KdeCeFunction {
public:
    // Needs n ≥ 1, inputs in [0, 1], as many residual as input columns, bandwidth > 0.
    KdeCeFunction(const CeProblem& train, double bandwidth, const ParallelOptions& parallel = {});
    Matrix factor(const Matrix& inputs) const;  // U (m×d′): u_a = z_a − ĝ(z_a), h = U Uᵀ
    Vector diagonal(const Matrix& inputs) const;
    // U at the training inputs with each point's own kernel left out (the in-sample estimator (11)).
    Matrix leave_one_out_factor() const;

private:
    Matrix factor_excluding(const Matrix& inputs, bool leave_one_out) const;
    double bandwidth_;
    ParallelOptions parallel_;
    Matrix inputs_, centres_, labels_;
    Vector log_normaliser_;
};

// The in-sample (CCE₂^kde)² of (11) (Popordanoska et al.), leave-one-out: (1/n) Σ_i ‖z_i − ĝ_{−i}(z_i)‖².
// Needs n ≥ 2.
double kde_squared_ce(const CeProblem& problem, double bandwidth, const ParallelOptions& parallel = {});

// h_sim (§5.1): h(p, p′) = ⟨p − s(p), p′ − s(p′)⟩ with s(p) = p^a / Σ_k p_k^a
// = softmax(a log p). For a model f = softmax(t log P) of true probabilities P, s(f) = P^θ / Σ P^θ
// with a = θ/t (the paper: t = 0.3, a = (10/3)θ), so h_sim = h* exactly at θ = 1. Returns U (m×d),
// u_a = p_a − s(p_a), h = U Uᵀ (the low-rank risk applies). Zero coordinates are exact in this power
// form (no log 0 is formed). Needs a finite exponent > 0 and finite, non-negative rows, none all zero.
Matrix power_ce_factor(const Matrix& probabilities, double exponent);

// How a ridge constant c becomes the effective ridges on n training points (App. B; docs/squared_ce.md,
// decision 2):
//   reference_code  ρ = c n^1.5, μ = c n^0.75 (the authors' code, which made the tables)
//   paper_text      ρ = λ n², μ = λ n with λ = c √n (App. B as printed)
enum class RidgePreset { reference_code, paper_text };
double kronecker_ridge(double c, std::size_t n, RidgePreset preset);
double two_step_ridge(double c, std::size_t n, RidgePreset preset);

// The cross-validation pipeline (§3.2.2, §5.2): a seeded permutation; its first ⌊(1 − F)·n⌋
// observations are the CV part, the rest the test part; K unshuffled consecutive folds of the CV part
// (sizes differ by at most one, the larger first). For each problem, fold and grid value the function
// is fitted on the training folds, scored by the risk (20) on the validation fold and averaged over
// the diagonal of the test part; the grid value with the least fold-mean risk is chosen (test risks
// are never computed), and the estimate is the fold ensemble's test diagonal mean (21). For kkr and ukkr
// the candidates are the grid values whose rounding sensitivity is at most max_rounding_sensitivity in
// every fold and whose truncation error (low-rank factors) is within max_truncation_error_in_se
// standard errors (none: invalid_argument).
enum class CeEstimator { bins, kde, kkr, ukkr };
// mean_risk: argmin of the fold mean of R (the U-statistic itself; CV_pipeline.py); mean_sqrt_risk:
// argmin of the fold mean of √R (the notebook behind the paper's tables).
enum class CeSelection { mean_risk, mean_sqrt_risk };
struct SquaredCeOptions {
    CeNotion notion = CeNotion::top_label;
    ClassAggregation aggregation = ClassAggregation::sum;  // class-wise only
    std::size_t folds = 5;                                 // K ≥ 2
    double test_fraction = 0.2;                            // F in (0, 1)
    std::uint64_t seed = default_seed;
    std::vector<double> grid;  // bins: bin counts; kde: bandwidths; kkr, ukkr: ridge constants c; empty: default_ce_grid
    CeBinning binning = CeBinning::equal_width;
    RidgePreset ridge_preset = RidgePreset::reference_code;  // c → ρ, μ with n the training-fold size
    double rbf_gamma = 1;
    double krr_tolerance = -1;  // kkr, ukkr: KrrCeFit's tolerance; < 0: default_krr_tolerance, 0: exact, < 1
    CeSelection selection = CeSelection::mean_risk;
    ParallelOptions parallel;
};

// The grids of App. B (ridge constants c without its n^0.5 factor): bins {5, 10, …, 100}; kde 10^-5,
// 10^(-5 + 4/14), …, 10^-1 and 0.2, 0.4, …, 1 (the paper's 20 bandwidths, for every notion); kkr
// top-label and class-wise {10^-1, 10^-3, …, 10^-17}, canonical {10^8, 10^7, …, 10^-9}; ukkr top-label
// and class-wise {10^-1, …, 10^-9}, canonical {10^4, 10^3.5, …, 10^-4.5}. Bins need a scalar notion.
std::vector<double> default_ce_grid(CeEstimator estimator, CeNotion notion);

struct CeSplit {
    std::vector<std::size_t> test;
    std::vector<std::vector<std::size_t>> train, validation;  // per fold
};
// Throws unless folds ≥ 2, F ∈ (0, 1), the test part is non-empty and every validation fold has ≥ 2
// observations (the risk needs pairs).
CeSplit ce_split(std::size_t n, std::size_t folds, double test_fraction, std::uint64_t seed);

// Where the chosen value sits among the candidates, by value.
enum class CeGridEdge { none, smallest, largest };
// The least relative change of the estimate that makes a choice unsettled (CeProblemResult).
inline constexpr double unsettled_shift = 0.1;
// The selection and estimate of one problem (the problem itself for canonical and top-label, one
// class for class-wise).
struct CeProblemResult {
    std::size_t chosen = 0;                    // index into the grid
    std::vector<double> mean_validation_risk;  // fold mean of R per grid value
    std::vector<double> fold_validation_risk;  // R_k of the chosen value
    std::vector<double> fold_estimate;         // test diagonal mean of the chosen value, per fold
    std::size_t negative_diagonal = 0;         // h(p, p) < 0 on the test part, chosen value, all folds
    // KRR: the rounding sensitivity per grid value, the largest over the folds (0 for bins and KDE); the
    // values above max_rounding_sensitivity were not candidates.
    std::vector<double> rounding_sensitivity;
    // KRR on a low-rank factor: the bound on the estimate's error from the factor's truncation per grid
    // value (truncation_error_factor × the indicator, largest over the folds, × |grid_estimate|) in
    // standard errors of the fold estimates; the values above max_truncation_error_in_se were not
    // candidates. 0 for bins, KDE and complete spectra.
    std::vector<double> truncation_error_in_se;
    // The chosen value is the smallest or largest candidate: the risk may still fall beyond it.
    CeGridEdge edge = CeGridEdge::none;
    // A candidate next to the chosen one (by value) whose validation risk is within noise of the chosen
    // one's (the mean over folds of the risk difference is below twice its standard error) while its
    // estimate (grid_estimate) differs by more than twice the standard error of the chosen one's fold
    // estimates and by more than unsettled_shift of the larger of the two: the choice between them is not
    // settled by the data. Absent otherwise.
    std::optional<std::size_t> unsettled_neighbour;
    std::vector<double> grid_estimate;     // fold mean of the test diagonal mean per grid value
    std::vector<double> grid_estimate_se;  // its standard error over the folds (std, ddof 1, over √K)
};
struct SquaredCeResult {
    double estimate = 0;  // squared scale: the fold ensemble's test diagonal mean, aggregated over classes
    // √ per fold, as the paper's figures: mean, std (ddof 1) and SE = std/√K of √max(estimate_k, 0).
    double sqrt_mean = 0, sqrt_std = 0, sqrt_se = 0;
    std::size_t negative_fold_estimates = 0;  // folds whose estimate was < 0 (clamped before the √)
    // The validation risk as the tables: mean and SE over folds of √max(R_k, 0) (R_k aggregated over
    // classes; the U-statistic R_k can fall below 0 when the fit is perfect, e.g. one-hot predictions).
    double risk_sqrt_mean = 0, risk_sqrt_se = 0;
    std::size_t negative_fold_risks = 0;  // folds whose validation risk was < 0 (clamped before the √)
    std::vector<double> fold_estimate, fold_validation_risk;  // aggregated over classes
    std::vector<double> grid;
    std::vector<CeProblemResult> problems;  // one per class for class-wise
    std::size_t negative_diagonal = 0;      // summed over problems
    std::size_t cv_size = 0, test_size = 0;
    // Canonical only (NaN otherwise): the same estimator's top-label estimate on the same split with the
    // top-label default grid and KRR tolerance. CCE₂² ≥ TCE₂² holds for every model, so a canonical
    // estimate below it is too low (squared_ce_warnings; docs/squared_ce.md, "Which estimator to trust").
    double top_label_estimate = std::numeric_limits<double>::quiet_NaN();
};
SquaredCeResult squared_ce(const CategoricalData& data, CeEstimator estimator, const SquaredCeOptions& options = {});

// What a front-end should warn about a squared_ce result, one sentence each with what it means and what
// to try (options named in backquotes): the choice at an edge of the candidates (and the ridges left out
// below the rounding floor), an unsettled choice, for kkr a test diagonal mostly negative, and a canonical
// estimate below its top_label_estimate.
std::vector<std::string> squared_ce_warnings(const SquaredCeResult& result, CeEstimator estimator);

// The Brier score BS = (1/n) Σ ‖p_i − e_{y_i}‖² alone: O(n m), one pass, the row sums added with
// compensation (the value brier_decomposition reports as `brier`).
double brier_score(const CategoricalData& data);
// Two classes: (1/n) Σ (p_i − y_i)² of p_i = P(Y = 1) — the binary convention of scikit-learn's
// brier_score_loss and of the clinical literature, half brier_score (up to rounding). Throws
// calib::invalid_argument for other than two classes or n = 0.
double binary_brier_score(const CategoricalData& data);

// The Brier score and its decomposition BS = CAL − RES + UNC (paper
// Eq. 5, corrected: it prints ‖π‖²): UNC = 1 − ‖π̂‖² = Σ_k π̂_k (1 − π̂_k) with π̂ the label
// frequencies; CAL = CCE₂² = E‖P − q(P)‖², estimated by the canonical ce-kde pipeline with `options`
// (its notion is set to canonical); RES = E‖q(P) − π‖² is then CAL + UNC − BS, so the identity holds
// exactly for the reported numbers (RES inherits CAL's estimation error, and may come out < 0).
struct BrierDecomposition {
    double brier = 0, calibration = 0, resolution = 0, uncertainty = 0;
    SquaredCeResult calibration_fit;  // the ce-kde pipeline behind `calibration`
};
BrierDecomposition brier_decomposition(const CategoricalData& data, const SquaredCeOptions& options = {});

// The fixed-hyperparameter mode (the command line's --train): the function of `estimator` with one
// hyperparameter (bins: M, with options.binning; kde: bandwidth b; kkr, ukkr: ridge constant c, the
// effective ridge by options.ridge_preset with n the size of `train`, and options.rbf_gamma), fitted on
// all of `train`; no cross-validation (options' folds, test_fraction, seed, grid and selection are not
// used). estimate = (1/m) Σ_a h(p_a, p_a) over `data`; validation_risk = the risk (20) of h on
// `validation` (NaN without one). Class-wise: summed or averaged over the classes as
// options.aggregation, per class in problem_estimates. Needs the same number of classes in every set
// and a validation set of m ≥ 2.
struct FixedCeResult {
    double estimate = 0, validation_risk = 0;
    std::vector<double> problem_estimates;  // one per class for class-wise, else one
    std::size_t negative_diagonal = 0;      // h(p, p) < 0 over `data` (h_kkr only)
    std::size_t diagonal_size = 0;          // the diagonal values computed: the size of `data` times the problems
    double rounding_sensitivity = 0;        // kkr, ukkr: the largest over the problems (KrrCeFit)
};
// A warning when the ridge's rounding sensitivity exceeds max_rounding_sensitivity, or (kkr) when most
// of the diagonal is negative.
std::vector<std::string> fixed_squared_ce_warnings(const FixedCeResult& result, CeEstimator estimator);
FixedCeResult fixed_squared_ce(const CategoricalData& train, const CategoricalData& data, const CategoricalData* validation,
                               CeEstimator estimator, double hyperparameter, const SquaredCeOptions& options = {});

std::string to_string(CeEstimator estimator);
std::string to_string(CeNotion notion);
std::string to_string(RidgePreset preset);

}  // namespace calib

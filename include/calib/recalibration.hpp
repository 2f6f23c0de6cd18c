// Post-hoc recalibration by maximum likelihood (docs/recalibration.md): a map from a model's
// predictions to new ones, fitted on a validation set by minimising the mean negative log-likelihood
// with L-BFGS and analytic gradients, then applied to new data.
//
//   classification (categorical), on logits z or on log-probabilities z = log max(p, floor):
//     temperature        softmax(z / T)                      T > 0 (Guo et al. 2017)
//     temperature-bias   softmax(z / T + b)
//     vector             softmax(w ⊙ z + b)                  (Guo et al. 2017, vector scaling)
//     matrix             softmax(W z + b), with the ridge λ Σ_{k≠l} W_kl² added to the objective
//                        (off-diagonal regularisation, Kull et al. 2019)
//     dirichlet          softmax(W ln p + b), p = softmax(z), with Kull et al.'s (2019) ODIR penalty
//                        λ/(m(m−1)) Σ_{k≠l} W_kl² + μ/m Σ_k b_k² (off-diagonal and intercept regularisation)
//     platt              m = 2: P(class 1) = σ(a·(z₁ − z₀) + b), the logistic map of the log-odds
//                        (Platt 1999), fitted by the plain NLL (no target smoothing); m > 2: one-vs-rest,
//                        q_k = σ(a_k s_k + b_k) of class k's log-odds s_k = ln(p_k / (1 − p_k)) (of logits:
//                        z_k − ln Σ_{j≠k} e^{z_j}), each (a_k, b_k) the binary fit on the indicators of class
//                        k, then each row divided by its sum (Zadrozny & Elkan 2002, scikit-learn's
//                        CalibratedClassifierCV(method="sigmoid"))
//     beta               m = 2: P(class 1) = σ(a·ln p₁ − b·ln p₀ + c), p the softmax of z, with a, b ≥ 0 so
//                        that the map is nondecreasing (Kull, Silva Filho & Flach 2017): the NLL's minimum
//                        under the constraint, found on the faces a = 0, b = 0 when the free minimum breaks it
//     isotonic           one-vs-rest isotonic regression of each class's probability (the last class's
//                        alone when m = 2, the first then 1 − it), renormalised, as scikit-learn's
//                        CalibratedClassifierCV(method="isotonic") does (Zadrozny & Elkan 2002)
//     top-label-isotonic for each class c, the isotonic regression of 1{y = c} on p_c over the rows whose
//                        top class (argmax p, the first on a tie) is c (Gupta & Ramdas 2022, top-label
//                        calibration); a row of top class c gets q_c = f_c(p_c), the other classes shares
//                        of 1 − q_c in proportion to p_j, each capped below q_c when q_c > 1/m (so c stays
//                        the top class) and at (1 − q_c)/(m − 1) otherwise, classes of p_j = 0 taking what
//                        the capped ones leave; a class no fitting row predicts keeps its curve through
//                        (0, 0) and (1, 1)
//     histogram          one-vs-rest as isotonic, each class's probability binned (prediction_bins.hpp:
//                        equal-mass by default, B = ⌈n^{1/3}⌉ unless given) and mapped to the class's
//                        frequency in its bin (Zadrozny & Elkan 2001)
//     venn-abers         m = 2: the inductive Venn–Abers predictor (Vovk, Petej & Fedorova 2015): for a
//                        new score the isotonic fits p0, p1 of the calibration set with it labelled 0 and
//                        1 (VennAbersTable), merged into P(class 1) = p1 / (1 − p0 + p1);
//                        venn_abers_intervals gives [p0, p1]
//   regression (normal): affine Gaussian  N(a μ + b, (e^s σ)²)
//                        affine-features    N(a μ + b, (e^{s₀ + s₁|x|} σ)²), x one feature per observation
//
// The categorical maps can instead minimise mean NLL + λ·MMD² (Marx, Zalouk & Ermon 2023, eq. 4 with
// the mean NLL in place of its batch sum): MMD² is the conditional MMD's block estimate (calib/mmd.hpp)
// with B = ⌊√n⌋ consecutive blocks, notion canonical, top-label, class-wise or marginal, k_Z =
// exp(−d²/(2ℓ²)) with ℓ fixed at the start by the median heuristic on the unrecalibrated predictions.
// The normal maps (affine, affine-features) minimise the same with the Gaussian conditional MMD
// (GaussianMmdSpec): notion distribution (Z = (μ′, σ′), which moves with θ), individual (Z = the
// features, n×d, fixed) or marginal; target rbf, sign, moment or pit; k_Z = exp(−d²/(2ℓ²)). Fixed
// before the fit (docs/recalibration.md): ℓ by the median heuristic on the unrecalibrated forecasts
// (distribution) or the features (individual); the target's ℓ_T (rbf) by the median of |y_i − y_j|
// over i < j, (pit) by the median of |t_i − t_j| of the unrecalibrated PITs; sign's threshold by
// the median of y. Each can be given instead.
#pragma once

#include <calib/data.hpp>
#include <calib/eigen.hpp>
#include <calib/io.hpp>
#include <calib/mmd_kinds.hpp>
#include <calib/prediction_bins.hpp>
#include <calib/seed.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace calib {

enum class RecalibrationMethod { temperature, temperature_bias, platt, beta, vector, matrix, dirichlet, isotonic,
                                 top_label_isotonic, histogram, venn_abers, affine, affine_features };
enum class RecalibrationObjective { nll, nll_mmd };

// "nll", "nll+mmd"; the parser throws calib::invalid_argument for another name.
std::string to_string(RecalibrationObjective objective);
RecalibrationObjective parse_recalibration_objective(const std::string& name);

// The methods, simplest first (the order of the lists in messages and help, and of `method auto`'s
// candidates, so that a tie goes to the simpler map): the name, what the map is (one line, for help),
// whether it maps categorical predictions (else normal ones), whether it is fitted by L-BFGS on its
// objective (else exactly: PAV, bin frequencies), whether it takes only m = 2 classes.
struct RecalibrationMethodInfo {
    RecalibrationMethod method;
    const char* name;
    const char* summary;
    bool categorical, parametric, two_classes;
};
const std::vector<RecalibrationMethodInfo>& recalibration_methods();
const RecalibrationMethodInfo& method_info(RecalibrationMethod method);

// The method's name; the parser throws calib::invalid_argument for an unknown name, listing the known ones.
std::string to_string(RecalibrationMethod method);
RecalibrationMethod parse_recalibration_method(const std::string& name);
bool is_categorical(RecalibrationMethod method);
bool is_parametric(RecalibrationMethod method);
// The notions of the nll+mmd objective for the categorical maps (canonical, top-label, class-wise,
// marginal) or the normal ones (distribution, individual, marginal), and their names joined as
// "a, b or c" for messages.
const std::vector<MmdNotion>& recalibration_notions(bool categorical);
std::string recalibration_notion_names(bool categorical);

struct RecalibrationOptions {
    // Probabilities are mapped to z = log max(p, floor): a zero would be −∞, which no map can move.
    double probability_floor = 1e-12;
    double ridge = 1e-3;                // λ of matrix and dirichlet, ≥ 0
    double intercept_ridge = 1e-3;      // μ of dirichlet, ≥ 0
    std::size_t max_iterations = 1000;  // L-BFGS iterations
    double gradient_tolerance = 1e-8;   // stop when ‖∇‖ ≤ tolerance · max(1, ‖θ‖)
    // nll_mmd: mean NLL + lambda · MMD², lambda finite ≥ 0 (must be 0 for nll), a notion of
    // recalibration_notions (canonical by default for the categorical maps).
    RecalibrationObjective objective = RecalibrationObjective::nll;
    double lambda = 0;
    MmdNotion notion = MmdNotion::canonical;
    // nll_mmd for the normal maps: notion distribution, individual (needs the features) or marginal;
    // the target kernel; 0 (lengthscales) or empty (threshold) for the rules above.
    GaussianTarget mmd_target = GaussianTarget::rbf;
    double mmd_lengthscale = 0;         // k_Z's ℓ
    double mmd_target_lengthscale = 0;  // rbf, pit
    std::optional<double> mmd_threshold;  // sign: c
    // Ŷ integrated out in closed form, or by S samples per forecast from the streams (mmd_seed, i),
    // fixed for the fit (GaussianMmdSpec; not with sign, whose sampled gradient is 0).
    MmdMarginalisation mmd_marginalisation = MmdMarginalisation::analytic;
    std::size_t mmd_samples = 10;           // in [1, max_mc_samples]
    std::uint64_t mmd_seed = default_seed;  // at most max_map_seed
    // histogram: the bins (0: B = ⌈n^{1/3}⌉, which balances a bin's squared bias, O(1/B²) for a
    // Lipschitz calibration function, against its variance, O(B/n)) and how they are cut.
    std::size_t histogram_bins = 0;  // at most 100 000 (the library's bound on a histogram's bins)
    PredictionBinning histogram_binning = PredictionBinning::equal_mass;
};
// The largest seed a map records: the map file stores it as a JSON number, which readers take exactly
// only up to 2^53.
inline constexpr std::uint64_t max_map_seed = 1000000000000000ULL;

// A nondecreasing piecewise-linear function of a probability (an isotonic map's, per class): knots x
// strictly increasing in [0, 1] with values y nondecreasing in [0, 1], x and y of one length ≥ 1;
// linear between knots, y.front() below x.front() and y.back() above x.back(). Fitted by PAV
// (isotonic.hpp), a block of the fit is one knot (its x) or two (its smallest and largest x), so the
// curve is the fit's step function joined linearly across the gaps between blocks — the curve of
// scikit-learn's IsotonicRegression(out_of_bounds="clip").
struct MonotoneCurve {
    std::vector<double> x, y;
};
double evaluate(const MonotoneCurve& curve, double x);

// A step function of a probability (a histogram map's, per class): the bins' upper edges, strictly
// increasing in (0, 1] and ending at 1, and each bin's value in [0, 1]; p belongs to the first bin whose
// upper edge is ≥ p (prediction_bins.hpp).
struct BinnedCurve {
    std::vector<double> upper_edges, values;
};
double evaluate(const BinnedCurve& curve, double p);

// An inductive Venn–Abers predictor (Vovk & Petej 2014; Vovk, Petej & Fedorova 2015): the calibration
// set's distinct scores s_1 < … < s_G (class 1's probability, or the log-odds z₁ − z₀ of a map on
// logits), and for each place a new score can take the isotonic fits at it with its label taken to be 0
// and 1 (p0 ≤ p1): at[g] for a score equal to s_{g+1} (pooled with its ties), between[g] for one
// strictly between s_g and s_{g+1} (g = 0 … G, s_0 = −∞, s_{G+1} = +∞).
struct VennAbersTable {
    std::vector<double> scores;
    std::vector<double> p0_at, p1_at;            // G each
    std::vector<double> p0_between, p1_between;  // G + 1 each
};

// A fitted map. `parameters` are the parametric map's own values, by name in the JSON file:
//   temperature: [T]; temperature-bias: [T, b_1 … b_m]; vector: [w_1 … w_m, b_1 … b_m];
//   matrix, dirichlet: [W row-major (m²), b_1 … b_m]; platt: [a, b] (m = 2) or [a_1 … a_m, b_1 … b_m] (m > 2,
//   lists a and b in the file); beta: [a, b, c]; affine: [a, b, s];
//   affine-features: [a, b, s0, s1].
// `curves` are the isotonic map's: class k's curve of p_k at index k (m > 2), or only class 1's (m = 2),
// named x_k and y_k in the file (k the column, from 0); the top-label-isotonic map's, one per class
// (m = 2 too), named so. `bins` are the histogram map's, in the same
// columns, named edges_k and values_k, with the binning and bin count they were fitted with.
// `venn_abers` is the venn-abers map's table, its five lists by their names in the file.
struct RecalibrationMap {
    RecalibrationMethod method = RecalibrationMethod::temperature;
    bool logits = false;            // categorical: the inputs are logits (else probabilities)
    int num_classes = 0;            // categorical: m
    double probability_floor = 1e-12;
    double ridge = 0;               // matrix and dirichlet's λ, dirichlet's μ
    double intercept_ridge = 0;
    RecalibrationObjective objective = RecalibrationObjective::nll;
    double lambda = 0;              // nll_mmd: the weight of MMD², its notion, the block size ⌊√n⌋ and
    MmdNotion notion = MmdNotion::canonical;  // the k_Z lengthscale fixed at the start of the fit
    std::size_t mmd_block_size = 0;
    double mmd_lengthscale = 0;     // 0 for the marginal notion (no k_Z)
    GaussianTarget mmd_target = GaussianTarget::rbf;  // normal maps: the target kernel and its ℓ_T or c
    double mmd_target_lengthscale = 0;
    double mmd_threshold = 0;
    MmdMarginalisation mmd_marginalisation = MmdMarginalisation::analytic;  // with its S and seed
    std::size_t mmd_samples = 0;
    std::uint64_t mmd_seed = 0;
    Vector parameters;
    std::vector<MonotoneCurve> curves;
    std::vector<BinnedCurve> bins;
    VennAbersTable venn_abers;
    PredictionBinning histogram_binning = PredictionBinning::equal_mass;
    std::size_t histogram_bins = 0;
};

// Why L-BFGS stopped: the gradient test held (‖∇‖ ≤ gradient_tolerance · max(1, ‖θ‖)), the iteration
// limit came first, or the line search failed (on a flat minimum, often at the rounding floor before
// the gradient test holds). "converged", "max_iterations", "line_search_failed"; the parser throws
// calib::invalid_argument for another name.
enum class FitTermination { converged, max_iterations, line_search_failed };
std::string to_string(FitTermination termination);
FitTermination parse_fit_termination(const std::string& name);

// How a fit went: the objective at the identity map and at the fitted parameters, L-BFGS's iterations
// (0 when the line search failed: LBFGS++ throws) and objective-and-gradient evaluations, why it stopped.
// The exact maps (isotonic, top-label-isotonic, histogram, venn-abers): the mean NLL of the predictions and of the fitted
// map on the same data (probabilities floored as in recalibrated_nll), 0 iterations and evaluations,
// converged.
struct FitSummary {
    double objective_before = 0;
    double objective_after = 0;
    std::size_t iterations = 0;
    std::size_t evaluations = 0;
    FitTermination termination = FitTermination::converged;
};

// A fit: the map, and how the fit went.
struct RecalibrationFit {
    RecalibrationMap map;
    FitSummary summary;
};

// The parameters of a map by name, as the JSON file holds them (temperature; bias; weights; matrix,
// row-major; a, b, s): `array` for the vectors, else one value.
struct NamedParameter {
    std::string name;
    std::vector<double> values;
    bool array = false;
};
std::vector<NamedParameter> named_parameters(const RecalibrationMap& map);

// The identity map of a method (T = 1, w = 1, W = I (matrix, dirichlet), a = 1, b = 0, s = s0 = s1 = 0; beta: a = b = 1,
// c = 0; isotonic: the curves through (0, 0) and (1, 1); platt of m > 2: a_k = 1, b_k = 0). Throws
// invalid_argument for beta or venn-abers with num_classes ≠ 2, and for histogram and venn-abers, which have no identity.
RecalibrationMap identity_map(RecalibrationMethod method, int num_classes, bool logits,
                              const RecalibrationOptions& options = {});

// Fits a map by mean NLL (+ λ·MMD², + the ridge for matrix scaling), or an exact map (isotonic by PAV
// on the probabilities, the softmax of logits; histogram; venn-abers), for which the options other than
// probability_floor and the histogram's are the optimiser's and nll+mmd is refused. Throws invalid_argument for a method of the other family, bad options or labels
// out of range.
RecalibrationFit fit_recalibration(const CategoricalScores& data, RecalibrationMethod method,
                                   const RecalibrationOptions& options = {});
RecalibrationFit fit_recalibration(const NormalData& data, RecalibrationMethod method = RecalibrationMethod::affine,
                                   const RecalibrationOptions& options = {});
// affine-features: `features` holds x, one finite value per observation (n×1); with objective
// nll_mmd and notion individual, the same matrix (n×d for affine, n×1 for affine-features) is Z.
RecalibrationFit fit_recalibration(const NormalData& data, const Matrix& features,
                                   RecalibrationMethod method = RecalibrationMethod::affine_features,
                                   const RecalibrationOptions& options = {});

// The mean NLL of the recalibrated predictions (without matrix and dirichlet's penalties), by the stable
// log-softmax: finite however small a recalibrated probability is. The exact maps, whose probabilities
// can be exactly 0 (isotonic beyond the range it was fitted on, a histogram's bin of one class): −log max(q_y, probability_floor), as scikit-learn's
// log_loss clips.
double recalibrated_nll(const RecalibrationMap& map, const CategoricalScores& data);
double recalibrated_nll(const RecalibrationMap& map, const NormalData& data, const Matrix& features = Matrix());

// The map applied: n×m probabilities; n×2 columns μ′, σ′. Throws invalid_argument when the map is of
// the other family or the input has another number of classes. The features (n×1) are needed by
// affine-features, and refused by the other maps.
Matrix apply_recalibration(const RecalibrationMap& map, const Matrix& scores);
Matrix apply_recalibration(const RecalibrationMap& map, const Vector& mean, const Vector& stddev,
                           const Matrix& features = Matrix());
// A venn-abers map's n×2 intervals [p0, p1] of class 1's probability for the scores (checked as
// apply_recalibration checks them); apply_recalibration gives their merge. Throws invalid_argument for
// another map.
Matrix venn_abers_intervals(const RecalibrationMap& map, const Matrix& scores);

// The map file: the map and how its fit went, as a JSON object (doubles in shortest round-trip form), and
// back: the reader is strict (exactly this schema) and checks the parameters (T > 0, finite values,
// sizes).
std::string to_json(const RecalibrationFit& fit);
RecalibrationFit recalibration_fit_from_json(const std::string& text);
// The text of a map file ("-": standard input), never more than max_map_file_bytes of it: the largest
// maps are venn-abers tables, about 100 bytes per distinct score (10⁷ scores: 0.98 GB), so a larger
// file (or a device such as /dev/zero) is no map. Throws calib::invalid_argument "<path>: cannot be
// opened" or "<path>: is larger than 1 GiB: not a map file …".
inline constexpr std::size_t max_map_file_bytes = std::size_t{1} << 30;
std::string read_map_text(const std::string& path);

// The files of `calib recalibrate` (formats of io.hpp). A categorical file's predictions as given, with
// its labels: probabilities validated as read_categorical does; logits (options.logits) read as numbers
// after the same checks, which needs a second read of the file (so not standard input).
CategoricalScores read_categorical_scores(const std::string& path, const ReadOptions& options = {},
                                          std::vector<FileSummary>* files = nullptr);
// Writes a matrix as .npy (version 1.0, little-endian float64, C order) when the path ends in ".npy",
// else as CSV with the header line `names` and doubles in shortest round-trip form; whole or not at all
// (write_file, io.hpp).
void write_table(const std::string& path, const Matrix& values, const std::vector<std::string>& names);

}  // namespace calib

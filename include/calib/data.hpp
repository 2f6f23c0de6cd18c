// Predictions and targets of one validation set, validated at construction.
//
// Each container holds n predictions (probability distributions of the target) and the n observed
// targets. Construction checks everything the estimators rely on and throws calib::invalid_argument
// naming the function, the argument, the index and the value at fault. Containers are immutable
// after construction; rows are observations.
//
// A container either owns its values (built from Matrix / Vector, moved in) or reads a caller's
// buffer in place (built from views and an Owner that keeps the buffer alive, e.g. a NumPy array:
// the Python module passes float64 arrays this way, without a copy). Either way the accessors
// return read-only views, so the estimators see one type whatever the layout; copies of a container
// share its values.
#pragma once

#include <calib/errors.hpp>

#include <calib/eigen.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace calib {

using Matrix = Eigen::MatrixXd;  // column-major: column k of an n×m matrix is contiguous over i
using Vector = Eigen::VectorXd;

// A read-only n×k matrix of doubles with any strides, in elements: Stride(outer, inner) with
// element (i, k) at data[k·outer + i·inner]. Column-major: Stride(n, 1); row-major (C order): Stride(1, k).
using MatrixView = Eigen::Map<const Matrix, Eigen::Unaligned, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
// A read-only vector of n doubles with any stride, in elements.
using VectorView = Eigen::Map<const Vector, Eigen::Unaligned, Eigen::InnerStride<Eigen::Dynamic>>;
// Keeps alive the memory that views of a caller's buffer point into (released with the last container
// that reads it). The buffer must not change while a container reads it.
using Owner = std::shared_ptr<const void>;

// Views of a whole Matrix or Vector (no copy; valid while it lives).
MatrixView view_of(const Matrix& x);
VectorView view_of(const Vector& x);

namespace detail {

// A view and what keeps its memory alive. Assignment rebinds the view (an Eigen Map's own operator=
// would copy values).
template <class View>
class Held {
public:
    Held() : view_(nullptr, 0, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(0, 0)) {}
    Held(const View& view, Owner owner) : view_(view), owner_(std::move(owner)) {}
    Held(const Held& other) : view_(other.view_), owner_(other.owner_) {}
    Held& operator=(const Held& other) {
        if (this == &other) return *this;
        owner_ = other.owner_;
        new (&view_) View(other.view_);  // a Map's destructor is trivial: nothing to end first
        return *this;
    }
    const View& view() const { return view_; }

private:
    View view_;
    Owner owner_;
};
template <>
inline Held<VectorView>::Held() : view_(nullptr, 0, Eigen::InnerStride<Eigen::Dynamic>(1)) {}

// The values of x, moved into shared memory that the returned view points into.
Held<MatrixView> hold(Matrix x);
Held<VectorView> hold(Vector x);

}  // namespace detail

// The default tolerance on |Σ_k p_k − 1| for a row of m probabilities (or mixture weights) to count
// as on the simplex: max(1e-6, m·2⁻²⁴). Rows of float32 softmax outputs sum to 1 only up to the
// rounding of m float32 values and of their float32 normaliser: at most about m·2⁻²⁴ (unit
// roundoff u = 2⁻²⁴, recursive summation), in practice ~1e-7 for m = 10 and ~1e-6 for m = 1000.
// The floor 1e-6 covers small m with a margin; a row off by 1e-3 is still rejected for m ≤ 10⁴.
double default_simplex_tolerance(std::size_t m);

// How rows of probabilities (and of mixture weights) are checked against the simplex. Entries must
// lie in [0, 1] (weights: ≥ 0) in every case.
struct SimplexOptions {
    // |Σ_k p_k − 1| ≤ tolerance for every row; empty: default_simplex_tolerance(m).
    std::optional<double> tolerance;
    // Divide each row by its sum before the check (for scores that are not quite normalised). The
    // largest deviation reported is still that of the rows as given.
    bool renormalize = false;
};

// Categorical predictions: n×m class probabilities (rows on the simplex, entries in [0, 1]) and
// 0-based labels in [0, m). m ≥ 2. The probabilities are used as given (not renormalised unless
// asked): the published reference values are computed on them.
class CategoricalData {
public:
    CategoricalData(Matrix probabilities, std::vector<int> labels, const SimplexOptions& simplex = {});
    // The probabilities read in place from a caller's buffer that `owner` keeps alive (copied only when
    // simplex.renormalize asks to change them).
    CategoricalData(const MatrixView& probabilities, Owner owner, std::vector<int> labels,
                    const SimplexOptions& simplex = {});

    // Predictions given as logits (any finite reals): row-wise softmax, computed stably.
    static CategoricalData from_logits(const Matrix& logits, std::vector<int> labels);
    // Binary predictions P(Y = 1) = p with 0/1 targets, as the 2-class model [1 − p, p].
    static CategoricalData from_binary(const Vector& p, const std::vector<int>& y);
    // One event of these predictions as binary predictions, for the tests of binary predictions and the
    // ICI: top-label, the confidence max_k p_k (the first class on ties) against whether the label is
    // that class; or one-vs-rest for class k ∈ [0, m), p_k against whether the label is k.
    CategoricalData top_label_event() const;
    CategoricalData class_event(int k) const;

    std::size_t size() const { return labels_.size(); }
    int num_classes() const { return static_cast<int>(probabilities().cols()); }
    const MatrixView& probabilities() const { return probabilities_.view(); }
    const std::vector<int>& labels() const { return labels_; }
    // max_i |Σ_k p_ik − 1| over the rows as given, and the tolerance they were checked against.
    double max_simplex_deviation() const { return max_simplex_deviation_; }
    double simplex_tolerance() const { return simplex_tolerance_; }

private:
    void validate(const SimplexOptions& simplex);
    detail::Held<MatrixView> probabilities_;
    std::vector<int> labels_;
    double max_simplex_deviation_ = 0, simplex_tolerance_ = 0;
};

// Univariate normal predictions N(μ_i, σ_i²), σ_i > 0, with real targets y_i.
class NormalData {
public:
    NormalData(Vector mean, Vector stddev, Vector targets);
    // The values read in place from a caller's buffers that `owner` keeps alive.
    NormalData(const VectorView& mean, const VectorView& stddev, const VectorView& targets, Owner owner);

    std::size_t size() const { return static_cast<std::size_t>(mean().size()); }
    const VectorView& mean() const { return mean_.view(); }
    const VectorView& stddev() const { return stddev_.view(); }
    const VectorView& targets() const { return targets_.view(); }

    // Observation i's predicted distribution at y: its CDF F_i(y) and its negative log-density −log p_i(y),
    // which the PIT, the NLL and the decision calibration error evaluate (is_univariate_v).
    double cdf(Eigen::Index i, double y) const;
    double nll(Eigen::Index i, double y) const;

private:
    void validate() const;
    detail::Held<VectorView> mean_, stddev_, targets_;
};

// Univariate Laplace predictions L(μ_i, β_i) (density exp(−|y − μ|/β)/(2β)), β_i > 0, with real
// targets y_i.
class LaplaceData {
public:
    LaplaceData(Vector mean, Vector scale, Vector targets);
    // The values read in place from a caller's buffers that `owner` keeps alive.
    LaplaceData(const VectorView& mean, const VectorView& scale, const VectorView& targets, Owner owner);

    std::size_t size() const { return static_cast<std::size_t>(mean().size()); }
    const VectorView& mean() const { return mean_.view(); }
    const VectorView& scale() const { return scale_.view(); }
    const VectorView& targets() const { return targets_.view(); }

    // Observation i's predicted distribution at y: its CDF F_i(y) and its negative log-density −log p_i(y),
    // which the PIT, the NLL and the decision calibration error evaluate (is_univariate_v).
    double cdf(Eigen::Index i, double y) const;
    double nll(Eigen::Index i, double y) const;

private:
    void validate() const;
    detail::Held<VectorView> mean_, scale_, targets_;
};

// d-variate normal predictions N(μ_i, Σ_i) with vector targets y_i ∈ R^d. The covariance is either
// diagonal (given by the standard deviations) or full (symmetric positive definite, checked by a
// Cholesky factorisation).
class MvNormalData {
public:
    // mean, stddev and targets are n×d; Σ_i = diag(stddev_i²).
    static MvNormalData diagonal(Matrix mean, Matrix stddev, Matrix targets);
    // mean and targets are n×d; covariances holds n symmetric positive definite d×d matrices.
    static MvNormalData full(Matrix mean, std::vector<Matrix> covariances, Matrix targets);
    // The same with mean, stddev and targets read in place from a caller's buffers that `owner` keeps
    // alive (the covariances are always held by the container).
    static MvNormalData diagonal(const MatrixView& mean, const MatrixView& stddev, const MatrixView& targets,
                                 Owner owner);
    static MvNormalData full(const MatrixView& mean, std::vector<Matrix> covariances, const MatrixView& targets,
                             Owner owner);

    std::size_t size() const { return static_cast<std::size_t>(mean().rows()); }
    int dimension() const { return static_cast<int>(mean().cols()); }
    bool is_diagonal() const { return covariances_.empty(); }
    const MatrixView& mean() const { return mean_.view(); }
    const MatrixView& targets() const { return targets_.view(); }
    // n×d standard deviations; only for a diagonal covariance.
    const MatrixView& stddev() const { return stddev_.view(); }
    // The n covariance matrices; only for a full covariance.
    const std::vector<Matrix>& covariances() const { return covariances_; }

private:
    MvNormalData() = default;
    detail::Held<MatrixView> mean_, stddev_, targets_;
    std::vector<Matrix> covariances_;
};

// Univariate Gaussian-mixture predictions p_i = Σ_k π_ik N(μ_ik, σ_ik²), k = 1 … K (the same K for
// every observation), with real targets y_i [widmann-2021 App. D.3]. weights, means and stddevs
// are n×K: every row of weights lies on the simplex (entries ≥ 0, sum 1 within the tolerance of
// SimplexOptions, by default default_simplex_tolerance(K)),
// every σ_ik > 0, every value finite. Zero weights are allowed. Errors report column() in the row
// layout [π_1 … π_K, μ_1 … μ_K, σ_1 … σ_K, y] (columns k, K + k, 2K + k and 3K), as in the CSV format.
class MixtureNormalData {
public:
    MixtureNormalData(Matrix weights, Matrix means, Matrix stddevs, Vector targets,
                      const SimplexOptions& simplex = {});
    // The values read in place from a caller's buffers that `owner` keeps alive (the weights are
    // copied only when simplex.renormalize asks to change them).
    MixtureNormalData(const MatrixView& weights, const MatrixView& means, const MatrixView& stddevs,
                      const VectorView& targets, Owner owner, const SimplexOptions& simplex = {});

    // An equal-weight ensemble of K normals: π_ik = 1/K. means and stddevs are n×K.
    static MixtureNormalData ensemble(Matrix means, Matrix stddevs, Vector targets);

    std::size_t size() const { return static_cast<std::size_t>(targets().size()); }
    int num_components() const { return static_cast<int>(weights().cols()); }
    const MatrixView& weights() const { return weights_.view(); }
    const MatrixView& means() const { return means_.view(); }
    const MatrixView& stddevs() const { return stddevs_.view(); }
    const VectorView& targets() const { return targets_.view(); }
    // max_i |Σ_k π_ik − 1| over the weights as given, and the tolerance they were checked against.
    double max_simplex_deviation() const { return max_simplex_deviation_; }
    double simplex_tolerance() const { return simplex_tolerance_; }

    // Observation i's predicted distribution at y: its CDF F_i(y) and its negative log-density −log p_i(y),
    // which the PIT, the NLL and the decision calibration error evaluate (is_univariate_v).
    double cdf(Eigen::Index i, double y) const;
    double nll(Eigen::Index i, double y) const;

private:
    void validate(const SimplexOptions& simplex);
    detail::Held<MatrixView> weights_, means_, stddevs_;
    detail::Held<VectorView> targets_;
    double max_simplex_deviation_ = 0, simplex_tolerance_ = 0;
};

// Whether Data is a family of univariate predictive distributions: one whose observations have a CDF
// and a density (cdf, nll above). The PIT, the NLL and the metrics of such predictions take any of them.
template <class Data, class = void>
struct is_univariate : std::false_type {};
template <class Data>
struct is_univariate<Data, std::void_t<decltype(std::declval<const Data&>().cdf(Eigen::Index(), 0.0))>>
    : std::true_type {};
template <class Data>
inline constexpr bool is_univariate_v = is_univariate<Data>::value;

// A data set of any family.
using AnyData = std::variant<CategoricalData, NormalData, LaplaceData, MvNormalData, MixtureNormalData>;

// The raw predictions of a categorical model as given, before they are probabilities: n×m logits (any
// finite reals) or probabilities, with the labels. What a recalibration map is fitted on and applied to
// (recalibration.hpp); labels may be empty for predictions alone.
struct CategoricalScores {
    Matrix scores;
    std::vector<int> labels;  // 0-based, in [0, m)
    bool logits = false;
};

// The observations at the given indices (repeats allowed), in that order: for resampling, splits
// and subsampling. Throws when an index is out of range or no index is given.
CategoricalData subset(const CategoricalData& data, const std::vector<std::size_t>& indices);
NormalData subset(const NormalData& data, const std::vector<std::size_t>& indices);
LaplaceData subset(const LaplaceData& data, const std::vector<std::size_t>& indices);
MvNormalData subset(const MvNormalData& data, const std::vector<std::size_t>& indices);
MixtureNormalData subset(const MixtureNormalData& data, const std::vector<std::size_t>& indices);

// ---- Conventions of class predictions ------------------------------------------------------------
// The likely mistakes in how class predictions are given (1-based labels, logits, unnormalised scores)
// and their remedies, said once for every front-end. Messages name the front-end's options in
// backquotes (`one_based_labels`, `logits`, `renormalize`, `simplex_tolerance`): render_message
// (options.hpp) writes them as --one-based-labels on the command line.

// n class labels given as numbers value(0), …, value(n − 1) (a file's cells, an array's elements),
// returned 0-based. Each must be an integer in [0, m − 1] ([1, m] when one_based). Throws
// invalid_argument at the first that is not, with row() = its index (the caller says where that is)
// and the message "<name> = 10, must be in [0, 9]" followed, when `advise` (the front-end has a
// `one_based_labels` option), by the convention in use and, when the labels look like the other
// convention, the remedy: " (0-based labels; the labels run from 1 to 10: if they are 1-based, use
// `one_based_labels`)".
std::vector<int> class_labels(const std::string& name, std::size_t n, const std::function<double(std::size_t)>& value,
                              long m, bool one_based, bool advise);

// Labels of num_classes = m classes read as 0-based (one_based false) in which label 0 never occurs
// although there are at least 20 m observations: for uniform labels that has probability
// (1 − 1/m)^n < e^−20, so the labels are most likely 1-based. The warning's text ("label 0 never occurs among 9000 observations of 10
// classes; if the labels run 1..10, pass `one_based_labels` (…)"), or empty.
std::string zero_label_warning(const std::vector<int>& labels, long num_classes, bool one_based);

// What an error of CategoricalData's validation (`error`, with its row and column) on the scores as
// given (n × m, before any renormalisation) may mean, as text to append to its message: an entry
// outside [0, 1] — logits ("; if the columns hold logits, use `logits`"); a row whose sum is off by more
// than 0.01 — logits or unnormalised scores; a row just off the simplex — `renormalize` or a larger
// `simplex_tolerance`. Empty for other errors and when the scores were given as logits. `for_map`: the
// scores a recalibration map fitted on probabilities takes, where logits are the map's choice, not an
// option ("; the map was fitted on probabilities (logits need a map fitted on logits)").
std::string probability_advice(const invalid_argument& error, const MatrixView& scores, bool logits, bool for_map = false);

}  // namespace calib

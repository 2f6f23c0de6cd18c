// Predictions and targets of one validation set, validated at construction.
//
// Each container holds n predictions (probability distributions of the target) and the n observed
// targets. Construction checks everything the estimators rely on and throws calib::invalid_argument
// naming the function, the argument, the index and the value at fault. Containers are immutable
// after construction; rows are observations.
#pragma once

#include <calib/errors.hpp>

#include <calib/eigen.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace calib {

using Matrix = Eigen::MatrixXd;  // column-major: column k of an n×m matrix is contiguous over i
using Vector = Eigen::VectorXd;

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

    // Predictions given as logits (any finite reals): row-wise softmax, computed stably.
    static CategoricalData from_logits(const Matrix& logits, std::vector<int> labels);
    // Binary predictions P(Y = 1) = p with 0/1 targets, as the 2-class model [1 − p, p].
    static CategoricalData from_binary(const Vector& p, const std::vector<int>& y);

    std::size_t size() const { return labels_.size(); }
    int num_classes() const { return static_cast<int>(probabilities_.cols()); }
    const Matrix& probabilities() const { return probabilities_; }
    const std::vector<int>& labels() const { return labels_; }
    // max_i |Σ_k p_ik − 1| over the rows as given, and the tolerance they were checked against.
    double max_simplex_deviation() const { return max_simplex_deviation_; }
    double simplex_tolerance() const { return simplex_tolerance_; }

private:
    Matrix probabilities_;
    std::vector<int> labels_;
    double max_simplex_deviation_ = 0, simplex_tolerance_ = 0;
};

// Univariate normal predictions N(μ_i, σ_i²), σ_i > 0, with real targets y_i.
class NormalData {
public:
    NormalData(Vector mean, Vector stddev, Vector targets);

    std::size_t size() const { return static_cast<std::size_t>(mean_.size()); }
    const Vector& mean() const { return mean_; }
    const Vector& stddev() const { return stddev_; }
    const Vector& targets() const { return targets_; }

private:
    Vector mean_, stddev_, targets_;
};

// Univariate Laplace predictions L(μ_i, β_i) (density exp(−|y − μ|/β)/(2β)), β_i > 0, with real
// targets y_i.
class LaplaceData {
public:
    LaplaceData(Vector mean, Vector scale, Vector targets);

    std::size_t size() const { return static_cast<std::size_t>(mean_.size()); }
    const Vector& mean() const { return mean_; }
    const Vector& scale() const { return scale_; }
    const Vector& targets() const { return targets_; }

private:
    Vector mean_, scale_, targets_;
};

// d-variate normal predictions N(μ_i, Σ_i) with vector targets y_i ∈ R^d. The covariance is either
// diagonal (given by the standard deviations) or full (symmetric positive definite, checked by a
// Cholesky factorisation).
class MvNormalData {
public:
    // mean, stddev and targets are n×d; Σ_i = diag(stddev_i²).
    static MvNormalData diagonal(Matrix mean, const Matrix& stddev, Matrix targets);
    // mean and targets are n×d; covariances holds n symmetric positive definite d×d matrices.
    static MvNormalData full(Matrix mean, std::vector<Matrix> covariances, Matrix targets);

    std::size_t size() const { return static_cast<std::size_t>(mean_.rows()); }
    int dimension() const { return static_cast<int>(mean_.cols()); }
    bool is_diagonal() const { return covariances_.empty(); }
    const Matrix& mean() const { return mean_; }
    const Matrix& targets() const { return targets_; }
    // n×d standard deviations; only for a diagonal covariance.
    const Matrix& stddev() const { return stddev_; }
    // The n covariance matrices; only for a full covariance.
    const std::vector<Matrix>& covariances() const { return covariances_; }

private:
    MvNormalData() = default;
    Matrix mean_, stddev_, targets_;
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

    // An equal-weight ensemble of K normals: π_ik = 1/K. means and stddevs are n×K.
    static MixtureNormalData ensemble(Matrix means, Matrix stddevs, Vector targets);

    std::size_t size() const { return static_cast<std::size_t>(targets_.size()); }
    int num_components() const { return static_cast<int>(weights_.cols()); }
    const Matrix& weights() const { return weights_; }
    const Matrix& means() const { return means_; }
    const Matrix& stddevs() const { return stddevs_; }
    const Vector& targets() const { return targets_; }
    // max_i |Σ_k π_ik − 1| over the weights as given, and the tolerance they were checked against.
    double max_simplex_deviation() const { return max_simplex_deviation_; }
    double simplex_tolerance() const { return simplex_tolerance_; }

private:
    Matrix weights_, means_, stddevs_;
    Vector targets_;
    double max_simplex_deviation_ = 0, simplex_tolerance_ = 0;
};

// The observations at the given indices (repeats allowed), in that order: for resampling, splits
// and subsampling. Throws when an index is out of range or no index is given.
CategoricalData subset(const CategoricalData& data, const std::vector<std::size_t>& indices);
NormalData subset(const NormalData& data, const std::vector<std::size_t>& indices);
LaplaceData subset(const LaplaceData& data, const std::vector<std::size_t>& indices);
MvNormalData subset(const MvNormalData& data, const std::vector<std::size_t>& indices);
MixtureNormalData subset(const MixtureNormalData& data, const std::vector<std::size_t>& indices);

}  // namespace calib

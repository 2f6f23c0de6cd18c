// Prediction-side kernels k_P(p_i, q_j) between the rows of two prediction sets (the same set for
// the SKCE, data × test locations for the UCME), evaluated a row chunk at a time.
#pragma once

#include "core/exp_nonpositive.hpp"
#include "kernels/transport.hpp"

#include <calib/kernels.hpp>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace calib::detail {

// d(p, q) = scale · Σ_k |x_k − y_k| (l1 = true) or scale · ‖x − y‖₂ (l1 = false) on an embedding
// x = φ(p) of the predictions: probability vectors, (μ, σ) for normals with commuting covariances,
// (μ, √2 β) for Laplace [widmann-2021 App. D; T21], which gives TV, L1, Euclidean and W2.
// Between a set and itself, pass an empty `cols`: the rows are then also the columns.
class EmbeddedPredictionKernel {
public:
    EmbeddedPredictionKernel(Matrix rows, Matrix cols, bool l1, double scale,
                             const PredictionKernel& kernel)
        : rows_(std::move(rows)), cols_(std::move(cols)), l1_(l1), scale_(scale),
          sqexp_(kernel.shape == PredictionKernelShape::sqexp), lengthscale_(kernel.lengthscale) {}

    // out[j - j0] = d(p_i, q_j). A sum of squares that overflowed (> 2⁹⁶⁰, ∞) or lost its precision to
    // underflow (< 2⁻⁹⁶⁰, 0 included) is recomputed with the differences scaled by the largest, as
    // hypot does: every distance is then right to a few ulps for any finite input, or ∞ when it
    // exceeds the largest double. (An L1 sum cannot lose precision that way.)
    void distances(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const std::size_t len = j1 - j0;
        accumulate(i, j0, len, out);
        Eigen::Map<Eigen::ArrayXd> a(out, static_cast<Eigen::Index>(len));
        if (l1_) {
            a *= scale_;
            return;
        }
        constexpr double huge = 0x1p960, tiny = 0x1p-960;
        for (std::size_t l = 0; l < len; ++l)
            out[l] = out[l] > huge || out[l] < tiny ? scaled_norm(i, j0 + l) : std::sqrt(out[l]);
        a *= scale_;
    }

    // out[j - j0] = k_P(p_i, q_j) = exp(−d/ℓ) or exp(−d²/(2ℓ²)).
    void values(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        if (is_line()) {
            line(i, j0, j1 - j0, [out](std::size_t l, double k) { out[l] = k; });
            return;
        }
        accumulate(i, j0, j1 - j0, out);
        values_from_sums(out, j1 - j0);
    }

    // a[l] := k_P for a[l] = Σ_k |x_k − y_k| (l1) or Σ_k (x_k − y_k)² (not l1): the second half of
    // values(), for terms that accumulate the sums themselves (CategoricalTerm).
    void values_from_sums(double* a, std::size_t len) const {
        with_exponent(l1_, [&](auto exponent, auto) {
            for (std::size_t l = 0; l < len; ++l) a[l] = exponent(a[l]);
        });
        exp_nonpositive(a, len);
    }

    // One feature (top-label's and class-wise's confidences, one-column features).
    bool is_line() const { return rows_.cols() == 1; }

    // For one feature: emit(j − j0, k_P(x_i, y_j)) for j in [j0, j0 + len) in one vector pass, the exp
    // fused with what emit does (the binary blocks of the conditional MMD weigh by their residuals). The
    // distance is |x − y| for either metric, since √(RN((x − y)²)) = |x − y| in binary floating point
    // with rounding to nearest unless the square under- or overflows (then |x − y| is the exact one):
    // the exp shape skips the square root (a scalar call, most of the class-wise MMD's time); the
    // sqexp shape keeps the Euclidean square, so its values are those of accumulate().
    template <class Emit>
    void line(std::size_t i, std::size_t j0, std::size_t len, Emit emit) const {
        const double x = rows_(static_cast<Eigen::Index>(i), 0);
        const double* y = cols().data() + j0;
        with_exponent(l1_ || !sqexp_, [&](auto exponent, auto absolute) {
            for (std::size_t l = 0; l < len; ++l) {
                const double d = y[l] - x;
                emit(l, exp_nonpositive(exponent(decltype(absolute)::value ? std::abs(d) : d * d)));
            }
        });
    }

    const Matrix& features() const { return rows_; }  // the embedded rows x_i
    bool l1() const { return l1_; }

    // out[j − j0] = Σ_k |x_ik − y_jk| (l1) or Σ_k (x_ik − y_jk)² (the squared Euclidean distance of the
    // embeddings), without the scale.
    void sums(std::size_t i, std::size_t j0, std::size_t j1, double* out) const { accumulate(i, j0, j1 - j0, out); }

private:
    // body(exponent, l1 as std::bool_constant) with exponent(a) = −d/ℓ or −d²/(2ℓ²) of a = the L1
    // distance (`l1`) or the squared Euclidean one, both without the scale: one loop per case, so each
    // vectorises.
    template <class Body>
    void with_exponent(bool l1, Body&& body) const {
        const double s = scale_ / lengthscale_;  // d/ℓ = s·a (l1) or s·√a
        if (sqexp_ && l1)
            body([s](double a) { return -0.5 * (s * a) * (s * a); }, std::true_type{});
        else if (sqexp_)
            body([s](double a) { return -0.5 * s * s * a; }, std::false_type{});
        else if (l1)
            body([s](double a) { return -s * a; }, std::true_type{});
        else
            body([s](double a) { return -s * std::sqrt(a); }, std::false_type{});
    }

    // out = Σ_k |x_ik − y_jk| or Σ_k (x_ik − y_jk)². Columns go in register blocks of 32 with the
    // features innermost, so each output is stored once.
    void accumulate(std::size_t i, std::size_t j0, std::size_t len, double* out) const {
        if (l1_)
            accumulate_blocks(i, j0, len, out, [](double u) { return std::abs(u); });
        else
            accumulate_blocks(i, j0, len, out, [](double u) { return u * u; });
    }

    template <class F>
    void accumulate_blocks(std::size_t i, std::size_t j0, std::size_t len, double* out, F f) const {
        const Matrix& c = cols();
        const Eigen::Index q = rows_.cols();
        const auto r = static_cast<Eigen::Index>(i);
        std::size_t j = 0;
        for (; j + 32 <= len; j += 32) {
            double acc[32] = {};
            for (Eigen::Index k = 0; k < q; ++k) {
                const double x = rows_(r, k);
                const double* y = c.col(k).data() + j0 + j;
                for (int l = 0; l < 32; ++l) acc[l] += f(y[l] - x);
            }
            for (int l = 0; l < 32; ++l) out[j + l] = acc[l];
        }
        for (; j < len; ++j) {
            double acc = 0;
            for (Eigen::Index k = 0; k < q; ++k) acc += f(c(static_cast<Eigen::Index>(j0 + j), k) - rows_(r, k));
            out[j] = acc;
        }
    }

    const Matrix& cols() const { return cols_.size() ? cols_ : rows_; }

    // ‖x_i − y_j‖₂ with the differences divided by the largest one before squaring.
    double scaled_norm(std::size_t i, std::size_t j) const {
        const Matrix& c = cols();
        const auto r = static_cast<Eigen::Index>(i), col = static_cast<Eigen::Index>(j);
        double largest = 0;
        for (Eigen::Index k = 0; k < rows_.cols(); ++k) largest = std::max(largest, std::abs(c(col, k) - rows_(r, k)));
        if (largest == 0 || std::isinf(largest)) return largest;  // equal rows; a difference beyond the range
        double sum = 0;
        for (Eigen::Index k = 0; k < rows_.cols(); ++k) {
            const double u = (c(col, k) - rows_(r, k)) / largest;
            sum += u * u;
        }
        return largest * std::sqrt(sum);
    }

    Matrix rows_, cols_;
    bool l1_;
    double scale_;
    bool sqexp_;
    double lengthscale_;
};

// W2 between normals with full covariances (Bures):
//   W2² = ‖μ−μ'‖² + tr Σ + tr Σ' − 2 tr (Σ'^½ Σ Σ'^½)^½.
// The square roots Σ^½ of the column set are computed once; each pair costs one d×d symmetric
// eigendecomposition. exp(−W2^ν/ℓ) is positive definite only on commuting covariances [T21].
class BuresPredictionKernel {
public:
    BuresPredictionKernel(const MvNormalData& rows, const MvNormalData& cols,
                          const PredictionKernel& kernel)
        : rows_(rows), cols_(cols), rows_mean_(rows.mean()), cols_mean_(cols.mean()),
          sqexp_(kernel.shape == PredictionKernelShape::sqexp), lengthscale_(kernel.lengthscale) {
        for (const Matrix& s : cols.covariances()) {
            Eigen::SelfAdjointEigenSolver<Matrix> es(s);
            roots_.push_back(es.eigenvectors() *
                             es.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() *
                             es.eigenvectors().transpose());
        }
    }

    void distances(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const Eigen::Index d = rows_.dimension();
        Eigen::SelfAdjointEigenSolver<Matrix> es(d);
        Matrix m(d, d);
        const Matrix& si = rows_.covariances()[i];
        const double tr_i = si.trace();
        for (std::size_t j = j0; j < j1; ++j) {
            // Equal predictions (the diagonal of h, repeated rows) are at distance 0 exactly; the
            // formula would give √(tr Σ · ε) ≈ 1e-8 from rounding, and a rounding that depends on
            // the build (docs/architecture.md, "Identical numbers").
            if (same_prediction(i, j)) {
                out[j - j0] = 0.0;
                continue;
            }
            const Matrix& r = roots_[j];
            m.noalias() = r * si * r;
            es.compute(m, Eigen::EigenvaluesOnly);
            const double cross = es.eigenvalues().cwiseMax(0.0).cwiseSqrt().sum();
            const double mean2 =
                (rows_mean_.row(static_cast<Eigen::Index>(i)) - cols_mean_.row(static_cast<Eigen::Index>(j))).squaredNorm();
            const double w2 = mean2 + tr_i + cols_.covariances()[j].trace() - 2 * cross;
            // A square, trace or product that overflowed (∞, or ∞ − ∞ = NaN): again on scaled predictions.
            out[j - j0] = std::isfinite(w2) ? std::sqrt(std::max(w2, 0.0)) : scaled_distance(i, j, es, m);
        }
    }

    // exp(−W2/ℓ) or exp(−W2²/(2ℓ²)); 0 for an infinite distance.
    void values(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        distances(i, j0, j1, out);
        const std::size_t len = j1 - j0;
        const double c = 0.5 / (lengthscale_ * lengthscale_);
        for (std::size_t l = 0; l < len; ++l) out[l] = sqexp_ ? -c * out[l] * out[l] : -out[l] / lengthscale_;
        exp_nonpositive(out, len);
    }

private:
    bool same_prediction(std::size_t i, std::size_t j) const {
        const auto r = static_cast<Eigen::Index>(i), c = static_cast<Eigen::Index>(j);
        return rows_mean_.row(r) == cols_mean_.row(c) && rows_.covariances()[i] == cols_.covariances()[j];
    }

    // W2 is homogeneous, W2(μ/t, Σ/t²; μ'/t, Σ'/t²) = W2/t: t is the largest of |μ_k − μ'_k| and the
    // standard deviations √Σ_kk, √Σ'_kk, so that every square and product stays in range.
    double scaled_distance(std::size_t i, std::size_t j, Eigen::SelfAdjointEigenSolver<Matrix>& es, Matrix& m) const {
        const Matrix& si = rows_.covariances()[i];
        const Matrix& sj = cols_.covariances()[j];
        const Vector difference =
            (rows_mean_.row(static_cast<Eigen::Index>(i)) - cols_mean_.row(static_cast<Eigen::Index>(j))).transpose();
        const double t = std::max({difference.cwiseAbs().maxCoeff(), std::sqrt(si.diagonal().maxCoeff()),
                                   std::sqrt(sj.diagonal().maxCoeff())});
        if (std::isinf(t)) return t;  // a difference of means beyond the range of doubles
        const Matrix root = roots_[j] / t;
        m.noalias() = root * (si / t / t) * root;
        es.compute(m, Eigen::EigenvaluesOnly);
        const double cross = es.eigenvalues().cwiseMax(0.0).cwiseSqrt().sum();
        const double w2 = (difference / t).squaredNorm() + si.trace() / t / t + sj.trace() / t / t - 2 * cross;
        return t * std::sqrt(std::max(w2, 0.0));
    }

    const MvNormalData& rows_;
    const MvNormalData& cols_;
    // The means in column-major copies: Eigen's reductions over a row may take another order on
    // another layout, and the data may be a view of any layout (data.hpp).
    Matrix rows_mean_, cols_mean_;
    std::vector<Matrix> roots_;
    bool sqexp_;
    double lengthscale_;
};

// MW2 between univariate Gaussian mixtures [widmann-2021 App. D.3, eq. D.2; Delon & Desolneux 2020]:
//   MW2(p, p')² = min_{w ∈ Π(π, π')} Σ_{k,l} w_kl [(μ_k − μ'_l)² + (σ_k − σ'_l)²],
// an exact K×K' transport problem per pair (transport.hpp): the Hungarian method, /K, when both
// mixtures have K equal weights (ensembles), else the transportation simplex. O(K³) per pair; the
// workspace is allocated once per row chunk. exp(−MW2^ν/ℓ) is NOT guaranteed positive definite
// (widmann digest §8.5: a counterexample for ν = 2; ν = 1 unproven); see gram_min_eigenvalue.
// A distance is NaN only if the simplex hits its pivot limit (never observed).
class MixtureW2PredictionKernel {
public:
    MixtureW2PredictionKernel(const MixtureNormalData& rows, const MixtureNormalData& cols,
                              const PredictionKernel& kernel)
        : rows_(rows), cols_(cols), sqexp_(kernel.shape == PredictionKernelShape::sqexp),
          lengthscale_(kernel.lengthscale) {}

    // out[j − j0] = MW2(p_i, q_j)² (∞ when it exceeds the largest double).
    void squared_distances(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        Workspace w(rows_.components, cols_.components);
        for (std::size_t j = j0; j < j1; ++j) out[j - j0] = squared_distance(i, j, w);
    }

    // out[j − j0] = MW2(p_i, q_j): like squared_distances, but with scaled costs where the squares
    // would overflow or underflow, so that every finite distance is right to a few ulps.
    void distances(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        Workspace w(rows_.components, cols_.components);
        for (std::size_t j = j0; j < j1; ++j) {
            const double t = scale_of(i, j);
            out[j - j0] = is_safe(t) ? std::sqrt(solve(i, j, 1.0, w)) : t * std::sqrt(solve(i, j, t, w));
        }
    }

    // out[j − j0] = k_P(p_i, q_j) = exp(−MW2/ℓ) or exp(−MW2²/(2ℓ²)); 0 for an infinite distance.
    // (std::sqrt and exp_nonpositive, not Eigen's: its vectorised sqrt gives NaN for ∞.)
    // (Each value is written once, from the distance: writing the distances first and reading them
    // back through `out` made GCC 12 warn of an uninitialised read at -O3 for AVX2.)
    void values(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        Workspace w(rows_.components, cols_.components);
        const double c = 0.5 / (lengthscale_ * lengthscale_);
        for (std::size_t j = j0; j < j1; ++j) {
            const double d2 = squared_distance(i, j, w);
            out[j - j0] = sqexp_ ? -c * d2 : -std::sqrt(d2) / lengthscale_;
        }
        exp_nonpositive(out, j1 - j0);
    }

private:
    struct Workspace {
        Workspace(int kr, int kc) : cost(std::size_t(kr) * std::size_t(kc)) {}
        std::vector<double> cost;
        TransportSolver transport;
        AssignmentSolver assignment;
    };

    // MW2(p_i, q_j)², with scaled costs where the squares would overflow or underflow.
    double squared_distance(std::size_t i, std::size_t j, Workspace& w) const {
        const double t = scale_of(i, j);
        if (is_safe(t)) return solve(i, j, 1.0, w);
        const double scaled = solve(i, j, t, w);
        return scaled == 0 ? 0.0 : t * t * scaled;  // t² may overflow: ∞, not ∞·0
    }

    // The largest |μ_k − μ'_l| and |σ_k − σ'_l| of the pair (0 for equal mixtures).
    double scale_of(std::size_t i, std::size_t j) const {
        const auto r = static_cast<Eigen::Index>(i), c = static_cast<Eigen::Index>(j);
        double t = 0;
        for (int k = 0; k < rows_.components; ++k)
            for (int l = 0; l < cols_.components; ++l)
                t = std::max({t, std::abs(rows_.mean(k, r) - cols_.mean(l, c)),
                              std::abs(rows_.stddev(k, r) - cols_.stddev(l, c))});
        return t;
    }

    // Costs whose squares neither overflow nor lose precision to underflow.
    static bool is_safe(double t) { return t > 0x1p-480 && t < 0x1p480; }

    // The optimal transport cost with every difference divided by t (t = 0: equal mixtures, 0;
    // t = ∞: a difference beyond the range of doubles, ∞).
    double solve(std::size_t i, std::size_t j, double t, Workspace& w) const {
        if (t == 0 || std::isinf(t)) return t;
        const int kr = rows_.components, kc = cols_.components;
        const auto r = static_cast<Eigen::Index>(i), c = static_cast<Eigen::Index>(j);
        for (int k = 0; k < kr; ++k)
            for (int l = 0; l < kc; ++l) {
                const double dm = (rows_.mean(k, r) - cols_.mean(l, c)) / t;
                const double ds = (rows_.stddev(k, r) - cols_.stddev(l, c)) / t;
                w.cost[std::size_t(k) * std::size_t(kc) + std::size_t(l)] = dm * dm + ds * ds;
            }
        if (kr == 1 && kc == 1) return w.cost[0];
        if (kr == kc && rows_.uniform[i] && cols_.uniform[j]) return w.assignment.solve(kr, w.cost.data()) / kr;
        return w.transport.solve(rows_.weight.col(r).data(), kr, cols_.weight.col(c).data(), kc, w.cost.data());
    }

    // The components of each observation stored contiguously: column i of the K×n matrices.
    struct Components {
        explicit Components(const MixtureNormalData& d)
            : components(d.num_components()), weight(d.weights().transpose()), mean(d.means().transpose()),
              stddev(d.stddevs().transpose()), uniform(d.size()) {
            for (std::size_t i = 0; i < d.size(); ++i) {
                const auto w = weight.col(static_cast<Eigen::Index>(i));
                uniform[i] = (w.array() == w(0)).all();
            }
        }
        int components;
        Matrix weight, mean, stddev;
        std::vector<char> uniform;  // all K weights of observation i are equal
    };

    Components rows_, cols_;
    bool sqexp_;
    double lengthscale_;
};

}  // namespace calib::detail

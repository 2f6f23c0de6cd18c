// Prediction-side kernels k_P(p_i, q_j) between the rows of two prediction sets (the same set for
// the SKCE, data × test locations for the UCME), evaluated a row chunk at a time.
#pragma once

#include "exp_nonpositive.hpp"
#include "transport.hpp"

#include <calib/kernels.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstddef>
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

    // out[j - j0] = d(p_i, q_j).
    void distances(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const std::size_t len = j1 - j0;
        accumulate(i, j0, len, out);
        Eigen::Map<Eigen::ArrayXd> a(out, static_cast<Eigen::Index>(len));
        if (l1_)
            a *= scale_;
        else
            a = scale_ * a.sqrt();
    }

    // out[j - j0] = k_P(p_i, q_j) = exp(−d/ℓ) or exp(−d²/(2ℓ²)).
    void values(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        accumulate(i, j0, j1 - j0, out);
        values_from_sums(out, j1 - j0);
    }

    // a[l] := k_P for a[l] = Σ_k |x_k − y_k| (l1) or Σ_k (x_k − y_k)² (not l1): the second half of
    // values(), for terms that accumulate the sums themselves (CategoricalTerm).
    void values_from_sums(double* a, std::size_t len) const {
        const double s = scale_ / lengthscale_;  // d/ℓ = s·a (l1) or s·√a
        if (sqexp_ && l1_)
            for (std::size_t l = 0; l < len; ++l) a[l] = -0.5 * (s * a[l]) * (s * a[l]);
        else if (sqexp_)
            for (std::size_t l = 0; l < len; ++l) a[l] = -0.5 * s * s * a[l];
        else if (l1_)
            for (std::size_t l = 0; l < len; ++l) a[l] = -s * a[l];
        else
            for (std::size_t l = 0; l < len; ++l) a[l] = -s * std::sqrt(a[l]);
        exp_nonpositive(a, len);
    }

    const Matrix& features() const { return rows_; }  // the embedded rows x_i
    bool l1() const { return l1_; }

    // out[j − j0] = Σ_k |x_ik − y_jk| (l1) or Σ_k (x_ik − y_jk)² (the squared Euclidean distance of the
    // embeddings), without the scale.
    void sums(std::size_t i, std::size_t j0, std::size_t j1, double* out) const { accumulate(i, j0, j1 - j0, out); }

private:
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
        : rows_(rows), cols_(cols), sqexp_(kernel.shape == PredictionKernelShape::sqexp),
          lengthscale_(kernel.lengthscale) {
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
            const Matrix& r = roots_[j];
            m.noalias() = r * si * r;
            es.compute(m, Eigen::EigenvaluesOnly);
            const double cross = es.eigenvalues().cwiseMax(0.0).cwiseSqrt().sum();
            const double mean2 =
                (rows_.mean().row(static_cast<Eigen::Index>(i)) - cols_.mean().row(static_cast<Eigen::Index>(j)))
                    .squaredNorm();
            const double w2 = mean2 + tr_i + cols_.covariances()[j].trace() - 2 * cross;
            out[j - j0] = std::sqrt(std::max(w2, 0.0));
        }
    }

    void values(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        distances(i, j0, j1, out);
        Eigen::Map<Eigen::ArrayXd> a(out, static_cast<Eigen::Index>(j1 - j0));
        if (sqexp_)
            a = (-0.5 / (lengthscale_ * lengthscale_) * a.square()).exp();
        else
            a = (-a / lengthscale_).exp();
    }

private:
    const MvNormalData& rows_;
    const MvNormalData& cols_;
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

    // out[j − j0] = MW2(p_i, q_j)².
    void squared_distances(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const int kr = rows_.components, kc = cols_.components;
        const auto r = static_cast<Eigen::Index>(i);
        const double* wi = rows_.weight.col(r).data();
        const double* mi = rows_.mean.col(r).data();
        const double* si = rows_.stddev.col(r).data();
        std::vector<double> cost(std::size_t(kr) * std::size_t(kc));
        TransportSolver transport;
        AssignmentSolver assignment;
        for (std::size_t j = j0; j < j1; ++j) {
            const auto c = static_cast<Eigen::Index>(j);
            const double* mj = cols_.mean.col(c).data();
            const double* sj = cols_.stddev.col(c).data();
            for (int k = 0; k < kr; ++k)
                for (int l = 0; l < kc; ++l) {
                    const double dm = mi[k] - mj[l], ds = si[k] - sj[l];
                    cost[std::size_t(k) * std::size_t(kc) + std::size_t(l)] = dm * dm + ds * ds;
                }
            if (kr == 1 && kc == 1)
                out[j - j0] = cost[0];
            else if (kr == kc && rows_.uniform[i] && cols_.uniform[j])
                out[j - j0] = assignment.solve(kr, cost.data()) / kr;
            else
                out[j - j0] = transport.solve(wi, kr, cols_.weight.col(c).data(), kc, cost.data());
        }
    }

    // out[j − j0] = MW2(p_i, q_j).
    void distances(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        squared_distances(i, j0, j1, out);
        Eigen::Map<Eigen::ArrayXd> a(out, static_cast<Eigen::Index>(j1 - j0));
        a = a.sqrt();
    }

    // out[j − j0] = k_P(p_i, q_j) = exp(−MW2/ℓ) or exp(−MW2²/(2ℓ²)).
    void values(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        squared_distances(i, j0, j1, out);
        Eigen::Map<Eigen::ArrayXd> a(out, static_cast<Eigen::Index>(j1 - j0));
        if (sqexp_)
            a = (-0.5 / (lengthscale_ * lengthscale_) * a).exp();
        else
            a = (-a.sqrt() / lengthscale_).exp();
    }

private:
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

// Target-side terms of the SKCE core for each prediction family, evaluated a row chunk at a time:
//   pair:    h_Y(i, j) = k_Y(y_i,y_j) − E_{Z∼p_i} k_Y(Z,y_j) − E_{Z'∼p_j} k_Y(y_i,Z') + E k_Y(Z,Z')
//   witness: w(i, t)   = k_Y(y_i, t) − E_{Z∼p_i} k_Y(Z, t)   (UCME, t the target of a test location)
// [widmann-2021 §3.2, App. C, App. D]. Each class refers to the data it was built from.
#pragma once

#include "kernels/closed_forms.hpp"
#include "data/column_major.hpp"
#include "core/exp_nonpositive.hpp"
#include "engine/term.hpp"

#include <calib/data.hpp>
#include <calib/kernels.hpp>

#include <Eigen/Cholesky>

#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace calib::detail {

// Classes: with residuals r_i = e_{y_i} − p_i, h_Y = r_iᵀ K r_j and w(i, t) = r_iᵀ K e_t
// [widmann-2021 App. E]; the white kernel is K = I.
class ClassTarget {
public:
    ClassTarget(const CategoricalData& data, const TargetKernel& kernel)
        : white_(kernel.type == TargetKernelType::white), gram_(kernel.gram) {
        residuals_ = column_major_copy(data.probabilities());
        residuals_ = -residuals_;
        for (std::size_t i = 0; i < data.size(); ++i)
            residuals_(static_cast<Eigen::Index>(i), data.labels()[i]) += 1;
        if (!white_) weighted_ = residuals_ * gram_;
    }

    // Register blocks of 32 columns with the classes innermost, as in EmbeddedPredictionKernel.
    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const std::size_t len = j1 - j0;
        const Matrix& right = weighted();
        const Eigen::Index m = residuals_.cols();
        const auto r = static_cast<Eigen::Index>(i);
        std::size_t j = 0;
        for (; j + 32 <= len; j += 32) {
            double acc[32] = {};
            for (Eigen::Index k = 0; k < m; ++k) {
                const double a = residuals_(r, k);
                const double* b = right.col(k).data() + j0 + j;
                for (int l = 0; l < 32; ++l) acc[l] += a * b[l];
            }
            for (int l = 0; l < 32; ++l) out[j + l] = acc[l];
        }
        for (; j < len; ++j) out[j] = residuals_.row(r).dot(right.row(static_cast<Eigen::Index>(j0 + j)));
    }

    void witness(std::size_t i, const std::vector<int>& labels, std::size_t j0, std::size_t j1,
                 double* out) const {
        const auto row = static_cast<Eigen::Index>(i);
        for (std::size_t j = j0; j < j1; ++j)
            out[j - j0] = white_ ? residuals_(row, labels[j])
                                 : residuals_.row(row).dot(gram_.col(labels[j]));
    }

    const Matrix& residuals() const { return residuals_; }                 // r_i by rows
    const Matrix& weighted() const { return white_ ? residuals_ : weighted_; }  // r_j K by rows

private:
    bool white_;
    Matrix gram_;
    Matrix residuals_;  // n×m, r_i
    Matrix weighted_;   // n×m, r_i K (gram only)
};

// An expectation term that came out NaN only because an intermediate overflowed (0·∞, ∞/∞) where
// the true value is below 10⁻¹⁵⁴ (see the callers): 0.
inline double nan_to_zero(double x) { return std::isnan(x) ? 0.0 : x; }

inline void overflowed_exponents_to_minus_infinity(double* e, std::size_t len) {
    for (std::size_t l = 0; l < len; ++l)
        if (std::isnan(e[l])) e[l] = -std::numeric_limits<double>::infinity();
}

// Normals with diagonal covariances (d = 1 for NormalData) and k_Y = exp(−γ‖y − y'‖²):
//   E_{Z∼p_i} k_Y(Z, y) = Π_k a_ik^{-½} exp(−γ(μ_ik − y_k)²/a_ik),   a_ik = 1 + 2γσ_ik²,
//   E k_Y(Z, Z')        = Π_k s_k^{-½}  exp(−γ(μ_ik − μ_jk)²/s_k),   s_k = 1 + 2γ(σ_ik² + σ_jk²).
class GaussianDiagonalTarget {
public:
    GaussianDiagonalTarget(Matrix mean, const Matrix& stddev, Matrix targets, double gamma)
        : mean_(std::move(mean)), targets_(std::move(targets)), gamma_(gamma) {
        variance_ = stddev.array().square().matrix();
        const Eigen::ArrayXXd a = 1 + 2 * gamma * variance_.array();
        gamma_over_a_ = (gamma / a).matrix();
        log_norm_ = -0.5 * a.log().rowwise().sum().matrix();
    }

    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        using Array = Eigen::Map<Eigen::ArrayXd>;
        using ConstArray = Eigen::Map<const Eigen::ArrayXd>;
        const auto len = static_cast<Eigen::Index>(j1 - j0);
        const auto r = static_cast<Eigen::Index>(i), c = static_cast<Eigen::Index>(j0);
        alignas(64) double b1[chunk_width], b2[chunk_width], b3[chunk_width], b4[chunk_width],
            b5[chunk_width], b6[chunk_width];
        Array yy(b1, len), iy(b2, len), jy(b3, len), plog(b4, len), pquad(b5, len), s(b6, len);
        yy.setZero(), iy.setZero(), jy.setZero(), plog.setZero(), pquad.setZero();
        for (Eigen::Index k = 0; k < mean_.cols(); ++k) {
            const double yi = targets_(r, k), mi = mean_(r, k), vi = variance_(r, k),
                         gi = gamma_over_a_(r, k);
            ConstArray yj(targets_.col(k).data() + c, len), mj(mean_.col(k).data() + c, len),
                vj(variance_.col(k).data() + c, len), gj(gamma_over_a_.col(k).data() + c, len);
            yy += (yj - yi).square();
            iy += gi * (yj - mi).square();
            jy += gj * (mj - yi).square();
            s = 1 + 2 * gamma_ * (vi + vj);
            plog += s.log();
            pquad += (mj - mi).square() / s;
        }
        ConstArray lj(log_norm_.data() + c, len);
        // Every exponent is ≤ 0: log_norm ≤ 0 and s ≥ 1. An exponent is NaN only where σ² or a squared
        // difference overflowed (0·∞, ∞/∞); the normalising factor a^{-½} or s^{-½} is then below
        // 10⁻¹⁵⁴, so the expectation is 0 to double precision: the exponent is taken as −∞.
        yy = -gamma_ * yy, iy = log_norm_(r) - iy, jy = lj - jy, plog = -0.5 * plog - gamma_ * pquad;
        for (double* e : {b1, b2, b3, b4}) {
            overflowed_exponents_to_minus_infinity(e, static_cast<std::size_t>(len));
            exp_nonpositive(e, static_cast<std::size_t>(len));
        }
        Array(out, len) = yy - iy - jy + plog;
    }

    void witness(std::size_t i, const Matrix& targets, std::size_t j0, std::size_t j1,
                 double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t j = j0; j < j1; ++j) {
            const auto t = static_cast<Eigen::Index>(j);
            double yy = 0, iy = 0;
            for (Eigen::Index k = 0; k < mean_.cols(); ++k) {
                yy += std::pow(targets_(r, k) - targets(t, k), 2);
                iy += gamma_over_a_(r, k) * std::pow(mean_(r, k) - targets(t, k), 2);
            }
            const double exponent = log_norm_(r) - iy;  // NaN: overflow, as in pair()
            out[j - j0] = std::exp(-gamma_ * yy) - (std::isnan(exponent) ? 0.0 : std::exp(exponent));
        }
    }

private:
    Matrix mean_, targets_;
    double gamma_;
    Matrix variance_, gamma_over_a_;  // n×d: σ², γ/(1 + 2γσ²)
    Vector log_norm_;                 // −½ Σ_k log(1 + 2γσ_ik²)
};

// Univariate Gaussian mixtures p_i = Σ_k π_ik N(μ_ik, σ_ik²) and k_Y = exp(−γ(y − y')²): by
// linearity of the expectations [widmann-2021 App. D.3], with the FULL double sum over components
// (CalibrationErrors.jl omits the (k ≥ 2, l = 1) terms: julia-reference §2.1, §2.12 #1):
//   h_Y(i, j) = k_Y(y_i, y_j) − Σ_k π_ik E_{Z∼N_ik} k_Y(Z, y_j) − Σ_l π_jl E_{Z'∼N_jl} k_Y(y_i, Z')
//             + Σ_{k,l} π_ik π_jl E k_Y(Z_ik, Z'_jl),
// with the normal forms of GaussianDiagonalTarget per component pair. Loops over k and l are
// outside, the row chunk over j inside (vectorised); zero-weight components of row i are skipped.
// O(K²) exponentials per pair.
class MixtureNormalTarget {
public:
    MixtureNormalTarget(const MixtureNormalData& data, double gamma)
        : weights_(data.weights()), means_(data.means()), targets_(data.targets()), gamma_(gamma) {
        two_gamma_variance_ = (2 * gamma * data.stddevs().array().square()).matrix();
        const Eigen::ArrayXXd a = 1 + two_gamma_variance_.array();
        gamma_over_a_ = (gamma / a).matrix();
        // 1/√a by std::sqrt: Eigen's vectorised square root gives NaN for a = ∞ (σ² overflowed).
        weighted_norm_ = (weights_.array() * a.unaryExpr([](double x) { return 1 / std::sqrt(x); })).matrix();
    }

    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        using Array = Eigen::Map<Eigen::ArrayXd>;
        using ConstArray = Eigen::Map<const Eigen::ArrayXd>;
        const auto len = static_cast<Eigen::Index>(j1 - j0);
        const auto r = static_cast<Eigen::Index>(i), c = static_cast<Eigen::Index>(j0);
        const Eigen::Index K = means_.cols();
        alignas(64) double b1[chunk_width], b2[chunk_width], b3[chunk_width], b4[chunk_width];
        Array iy(b1, len), jy(b2, len), both(b3, len), s(b4, len);
        iy.setZero(), jy.setZero(), both.setZero();
        const double yi = targets_(r);
        const ConstArray yj(targets_.data() + c, len);
        for (Eigen::Index k = 0; k < K; ++k) {
            // Column j's component k at y_i.
            const ConstArray mj(means_.col(k).data() + c, len), gj(gamma_over_a_.col(k).data() + c, len),
                nj(weighted_norm_.col(k).data() + c, len);
            // 0·∞ in an exponent (σ² or a squared difference overflowed) means a factor (1 + 2γσ²)^{-½}
            // below 10⁻¹⁵⁴ in front: the term is 0 (as in GaussianDiagonalTarget).
            jy += nj * (-gj * (mj - yi).square()).exp().unaryExpr(&nan_to_zero);
            const double wi = weights_(r, k);
            if (wi == 0) continue;
            // Row i's component k at y_j, and against every component l of column j.
            iy += weighted_norm_(r, k) * (-gamma_over_a_(r, k) * (yj - means_(r, k)).square()).exp().unaryExpr(&nan_to_zero);
            const double mi = means_(r, k), ai = 1 + two_gamma_variance_(r, k);
            for (Eigen::Index l = 0; l < K; ++l) {
                const ConstArray ml(means_.col(l).data() + c, len), tl(two_gamma_variance_.col(l).data() + c, len),
                    wl(weights_.col(l).data() + c, len);
                s = 1 / (ai + tl);
                both += wi * wl * s.sqrt() * (-gamma_ * (ml - mi).square() * s).exp().unaryExpr(&nan_to_zero);
            }
        }
        Array(out, len) = (-gamma_ * (yj - yi).square()).exp() - iy - jy + both;
    }

    void witness(std::size_t i, const Vector& targets, std::size_t j0, std::size_t j1, double* out) const {
        using Array = Eigen::Map<Eigen::ArrayXd>;
        using ConstArray = Eigen::Map<const Eigen::ArrayXd>;
        const auto len = static_cast<Eigen::Index>(j1 - j0);
        const auto r = static_cast<Eigen::Index>(i);
        alignas(64) double b1[chunk_width];
        Array iy(b1, len);
        iy.setZero();
        const ConstArray t(targets.data() + j0, len);
        for (Eigen::Index k = 0; k < means_.cols(); ++k)
            if (weights_(r, k) != 0)
                iy += weighted_norm_(r, k) * (-gamma_over_a_(r, k) * (t - means_(r, k)).square()).exp().unaryExpr(&nan_to_zero);
        Array(out, len) = (-gamma_ * (t - targets_(r)).square()).exp() - iy;
    }

private:
    Matrix weights_, means_;
    Vector targets_;
    double gamma_;
    Matrix two_gamma_variance_, gamma_over_a_, weighted_norm_;  // n×K: 2γσ², γ/(1 + 2γσ²), π(1 + 2γσ²)^{-½}
};

// Normals with full covariances and k_Y = exp(−γ‖y − y'‖²) [widmann-2021 App. D.1]:
//   E_{Z∼N(μ,Σ)} k_Y(Z, y) = |A|^{-½} exp(−γ (μ−y)ᵀ A^{-1} (μ−y)),  A = I + 2γΣ  (Cholesky);
// the pair expectation is the same with Σ = Σ_i + Σ_j and y = μ_j, one factorisation per pair.
class GaussianFullTarget {
public:
    GaussianFullTarget(const MvNormalData& data, double gamma)
        : data_(data), mean_(data.mean()), targets_(data.targets()), gamma_(gamma) {
        const Eigen::Index d = data.dimension();
        for (const Matrix& s : data.covariances()) {
            Eigen::LLT<Matrix> llt(Matrix::Identity(d, d) + 2 * gamma * s);
            inverse_factors_.push_back(llt.matrixL().solve(Matrix::Identity(d, d)));
            log_dets_.push_back(2 * llt.matrixLLT().diagonal().array().log().sum());
        }
    }

    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const Eigen::Index d = data_.dimension();
        const auto r = static_cast<Eigen::Index>(i);
        Matrix sum(d, d);
        Eigen::LLT<Matrix> llt(d);
        Vector difference(d), work(d);
        const Matrix& mean = mean_;
        const Matrix& y = targets_;
        for (std::size_t j = j0; j < j1; ++j) {
            const auto c = static_cast<Eigen::Index>(j);
            const double yy = (y.row(r) - y.row(c)).squaredNorm();
            const double iy = single(i, y.row(c).transpose());
            const double jy = single(j, y.row(r).transpose());
            sum = data_.covariances()[i] + data_.covariances()[j];
            difference = (mean.row(r) - mean.row(c)).transpose();
            out[j - j0] = std::exp(-gamma_ * yy) - iy - jy +
                          sqexp_mvnormal_from_difference(difference, sum, gamma_, llt, work);
        }
    }

    void witness(std::size_t i, const Matrix& targets, std::size_t j0, std::size_t j1,
                 double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t j = j0; j < j1; ++j) {
            const Vector t = targets.row(static_cast<Eigen::Index>(j)).transpose();
            out[j - j0] = std::exp(-gamma_ * (targets_.row(r).transpose() - t).squaredNorm()) -
                          single(i, t);
        }
    }

private:
    // E_{Z∼p_i} exp(−γ‖Z − y‖²) from the cached inverse Cholesky factor of I + 2γΣ_i.
    template <class V>
    double single(std::size_t i, const V& y) const {
        const Vector u = inverse_factors_[i] * (mean_.row(static_cast<Eigen::Index>(i)).transpose() - y);
        return std::exp(-0.5 * log_dets_[i] - gamma_ * u.squaredNorm());
    }

    const MvNormalData& data_;
    // Column-major copies, as in BuresPredictionKernel: the same order of operations for any layout.
    Matrix mean_, targets_;
    double gamma_;
    std::vector<Matrix> inverse_factors_;  // L_i^{-1}, L_i L_iᵀ = I + 2γΣ_i
    std::vector<double> log_dets_;         // log |I + 2γΣ_i|
};

// Laplace predictions and k_Y = exp(−γ|y − y'|): the closed forms of widmann-2021 App. D.2,
// evaluated stably near their removable singularities (closed_forms.hpp).
class LaplaceTarget {
public:
    LaplaceTarget(const LaplaceData& data, double gamma) : data_(data), gamma_(gamma) {}

    void pair(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const VectorView& mu = data_.mean();
        const VectorView& beta = data_.scale();
        const VectorView& y = data_.targets();
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t j = j0; j < j1; ++j) {
            const auto c = static_cast<Eigen::Index>(j);
            out[j - j0] = std::exp(-gamma_ * std::abs(y(r) - y(c))) -
                          exp_laplace_single(mu(r), beta(r), y(c), gamma_) -
                          exp_laplace_single(mu(c), beta(c), y(r), gamma_) +
                          exp_laplace_pair(mu(r), beta(r), mu(c), beta(c), gamma_);
        }
    }

    void witness(std::size_t i, const Vector& targets, std::size_t j0, std::size_t j1,
                 double* out) const {
        const auto r = static_cast<Eigen::Index>(i);
        for (std::size_t j = j0; j < j1; ++j) {
            const double t = targets(static_cast<Eigen::Index>(j));
            out[j - j0] = std::exp(-gamma_ * std::abs(data_.targets()(r) - t)) -
                          exp_laplace_single(data_.mean()(r), data_.scale()(r), t, gamma_);
        }
    }

private:
    const LaplaceData& data_;
    double gamma_;
};

}  // namespace calib::detail

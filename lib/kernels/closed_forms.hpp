// Closed-form expectations of the target kernels under the prediction families, for the inner
// loops of the SKCE core h (internal; the validating public wrappers are in closed_forms.cpp).
//
// γ-parametrisation: sqexp target kernel exp(−γ(z−y)²), exp target kernel exp(−γ|z−y|), γ > 0.
// Sources: widmann-2021 App. D.1 (Gaussian, Mathai & Provost 1992 Thm 3.2.a.3) and App. D.2
// (Laplace); digest shared/reference/widmann-2019-2021.md §8.3–8.4.
//
// Laplace forms. The textbook formulas (digest §8.4 table) divide by βγ − 1 and β − β' and cancel
// catastrophically near those removable singularities. Here they are rewritten, exactly, as sums
// of positive terms built from divided differences of exp(−s), so there is no cancellation and no
// case distinction (derivation in docs/math/laplace-closed-forms.md). With u = γ|μ − y| (or
// γ|μ − μ'|), a = βγ, s = u/a, and the divided differences of exp(−s)
//   D(s, t)      = (e^{−s} − e^{−t})/(t − s)        > 0,  D(s, s) = e^{−s},
//   D2(s, t, r)  = (D(s, t) − D(t, r))/(r − s)       > 0,  D2(s, s, s) = e^{−s}/2,
// the expectations are
//   E_{Z∼L(μ,β)} e^{−γ|Z−y|}           = [e^{−u} + u·D(u, s)] / (1 + a)
//   E_{Z∼L(μ1,β1),Z'∼L(μ2,β2)} e^{−γ|Z−Z'|}
//        = A·[e^{−u} + u·D(u, s1)] + u·s1·D2(u, s1, s2) · a2 / ((a1 + a2)(1 + a2)),
//          A = (1 + a1a2/(a1 + a2)) / ((1 + a1)(1 + a2)),
// which hold for all a, a1, a2 > 0, the five cases of the table included. D and D2 are evaluated
// stably: D through expm1 when its nodes are close, D2 by its Taylor series when all three nodes
// lie within 0.5 of each other (else by the recursion above, whose cancellation is then at most 8×).
// Relative error: a few ulps times max(1, u) (u is the conditioning of e^{−u} itself).
//
// All functions are noexcept and allocation-free except the full-covariance Gaussian ones.
#pragma once

#include <calib/errors.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <cmath>
#include <utility>

namespace calib::detail {

// ---------------------------------------------------------------------------------------------
// Divided differences of exp(−s) (all arguments s ≥ 0 finite; es = exp(−s) precomputed).

// φ(h) = (1 − e^{−h})/h for h ≥ 0, with φ(0) = 1; relative error ≲ 2 ulp.
inline double one_minus_expneg_over(double h) noexcept {
    if (h < 1e-8) return 1.0 - h * (0.5 - h * (1.0 / 6.0));  // truncation error < h³/24 < 1e-24
    return -std::expm1(-h) / h;
}

// D(s, t) = (e^{−s} − e^{−t})/(t − s) (minus the first divided difference of e^{−s}); es = e^{−s},
// et = e^{−t}. Symmetric, positive, D(s, s) = e^{−s}.
inline double expneg_dd1(double s, double t, double es, double et) noexcept {
    const bool ordered = s <= t;
    const double lo = ordered ? s : t, hi = ordered ? t : s;
    const double elo = ordered ? es : et, ehi = ordered ? et : es;
    const double h = hi - lo;
    // For h > 0.5 the difference loses at most log2((1 + e^{-h})/(1 − e^{-h})) < 2 bits.
    if (h > 0.5) return (elo - ehi) / h;
    return elo * one_minus_expneg_over(h);
}

// D2(s0, s1, s2): the second divided difference of e^{−s} (symmetric, positive,
// D2(s, s, s) = e^{−s}/2); e_k = e^{−s_k}.
inline double expneg_dd2(double s0, double s1, double s2, double e0, double e1,
                         double e2) noexcept {
    // Sort the nodes (with their exponentials) ascending: lo ≤ mid ≤ hi.
    if (s0 > s1) { std::swap(s0, s1); std::swap(e0, e1); }
    if (s1 > s2) { std::swap(s1, s2); std::swap(e1, e2); }
    if (s0 > s1) { std::swap(s0, s1); std::swap(e0, e1); }
    const double h1 = s1 - s0, h2 = s2 - s0;
    if (h2 < 0.5) {
        // e^{s0}·D2 = DD of e^{−h} at (0, h1, h2) = Σ_{n≥2} (−1)^n c_{n−2}/n!, where
        // c_k = Σ_{i+j=k} h1^i h2^j (the DD of h^n) obeys c_k = h2·c_{k−1} + h1^k.
        // Term k is at most (k+1)·2^{−k}/(k+2)! (< 1e-24 at k = 19); the sum lies in
        // [e^{−1/2}/2, 1/2]. coef holds (−1)^n/n! for n = 2, ..., 21.
        static constexpr double coef[20] = {
            1.0 / 2, -1.0 / 6, 1.0 / 24, -1.0 / 120, 1.0 / 720, -1.0 / 5040, 1.0 / 40320,
            -1.0 / 362880, 1.0 / 3628800, -1.0 / 39916800, 1.0 / 479001600,
            -1.0 / 6227020800.0, 1.0 / 87178291200.0, -1.0 / 1307674368000.0,
            1.0 / 20922789888000.0, -1.0 / 355687428096000.0, 1.0 / 6402373705728000.0,
            -1.0 / 121645100408832000.0, 1.0 / 2432902008176640000.0,
            -1.0 / 51090942171709440000.0};
        double c = 1.0, h1k = 1.0, sum = coef[0];
        for (int k = 1; k < 20; ++k) {
            h1k *= h1;
            c = h2 * c + h1k;
            const double term = c * coef[k];
            sum += term;
            if (std::abs(term) < 1e-18) break;
        }
        return e0 * sum;
    }
    // The nodes are spread by h2 ≥ 0.5: D(lo, mid) − D(mid, hi) ≈ h2·D2 loses at most 3 bits.
    return (expneg_dd1(s0, s1, e0, e1) - expneg_dd1(s1, s2, e1, e2)) / h2;
}

// ---------------------------------------------------------------------------------------------
// Gaussian predictions, sqexp target kernel exp(−γ(z − y)²) [widmann-2021 App. D.1].

// E_{Z∼N(mean,var)} exp(−γ(Z − y)²) = (1 + 2γ var)^{−½} exp(−γ(mean − y)²/(1 + 2γ var)).
inline double sqexp_normal_single(double mean, double var, double y, double gamma) noexcept {
    const double c = 1.0 + 2.0 * gamma * var;
    const double d = mean - y;
    return std::exp(-gamma * d * d / c) / std::sqrt(c);
}

// E exp(−γ(Z − Z')²), Z∼N(mean1,var1), Z'∼N(mean2,var2) independent = single(mean1, var1+var2, mean2).
inline double sqexp_normal_pair(double mean1, double var1, double mean2, double var2,
                                double gamma) noexcept {
    return sqexp_normal_single(mean1, var1 + var2, mean2, gamma);
}

// E_{Z∼N(μ,Σ)} exp(−γ‖Z − y‖²) = |I + 2γΣ|^{−½} exp(−γ(μ − y)ᵀ(I + 2γΣ)^{−1}(μ − y)), from the
// difference μ − y, via the Cholesky factor L of I + 2γΣ: ½ log-det = Σ log L_ii, quadratic form
// = ‖L^{−1}(μ − y)‖². `llt` and `work` are caller-owned storage, reused without allocation when
// their sizes match. Throws calib::numerical_error when I + 2γΣ is not positive definite.
inline double sqexp_mvnormal_from_difference(const Eigen::Ref<const Eigen::VectorXd>& difference,
                                             const Eigen::Ref<const Eigen::MatrixXd>& cov, double gamma,
                                             Eigen::LLT<Eigen::MatrixXd>& llt, Eigen::VectorXd& work) {
    const Eigen::Index d = difference.size();
    llt.compute(Eigen::MatrixXd::Identity(d, d) + (2.0 * gamma) * cov);
    if (llt.info() != Eigen::Success)
        throw numerical_error("calib: I + 2*gamma*covariance is not positive definite");
    work = difference;
    llt.matrixL().solveInPlace(work);
    return std::exp(-llt.matrixLLT().diagonal().array().log().sum() - gamma * work.squaredNorm());
}

inline double sqexp_mvnormal_single(const Eigen::Ref<const Eigen::VectorXd>& mean,
                                    const Eigen::Ref<const Eigen::MatrixXd>& cov,
                                    const Eigen::Ref<const Eigen::VectorXd>& y, double gamma) {
    Eigen::LLT<Eigen::MatrixXd> llt(mean.size());
    Eigen::VectorXd work(mean.size());
    return sqexp_mvnormal_from_difference(mean - y, cov, gamma, llt, work);
}

// E exp(−γ‖Z − Z'‖²), Z∼N(mean1,Σ1), Z'∼N(mean2,Σ2) independent = single(mean1, Σ1+Σ2, mean2).
inline double sqexp_mvnormal_pair(const Eigen::Ref<const Eigen::VectorXd>& mean1,
                                  const Eigen::Ref<const Eigen::MatrixXd>& cov1,
                                  const Eigen::Ref<const Eigen::VectorXd>& mean2,
                                  const Eigen::Ref<const Eigen::MatrixXd>& cov2, double gamma) {
    const Eigen::MatrixXd sum = cov1 + cov2;
    return sqexp_mvnormal_single(mean1, sum, mean2, gamma);
}

// ---------------------------------------------------------------------------------------------
// Laplace predictions, exp target kernel exp(−γ|z − y|) [widmann-2021 App. D.2], in normalised
// form: u = γ·distance ≥ 0, a = βγ > 0. Exact for all a (no case split); see the file comment.
// u and the nodes s = u/a are capped at 1e300 (e^{−s} is 0 there already) so that a subnormal a or
// an overflowing distance cannot produce inf − inf or inf·0.

// E_{Z∼L(0,a)} exp(−|Z − u|) = [e^{−u} + u·D(u, u/a)]/(1 + a).
inline double exp_laplace_single_normalized(double u, double a) noexcept {
    u = u < 1e300 ? u : 1e300;
    const double s0 = u;
    const double s1 = u / a < 1e300 ? u / a : 1e300;
    const double e0 = std::exp(-s0), e1 = std::exp(-s1);
    return (e0 + u * expneg_dd1(s0, s1, e0, e1)) / (1.0 + a);
}

// E exp(−|Z − Z'|), Z∼L(u,a1), Z'∼L(0,a2) independent
//   = A·[e^{−u} + u·D(u, u/a1)] + u·(u/a1)·D2(u, u/a1, u/a2)·a2/((a1 + a2)(1 + a2)),
//   A = (1 + a1a2/(a1 + a2))/((1 + a1)(1 + a2)).
// (Symmetric in a1 ↔ a2, although the form is not.)
inline double exp_laplace_pair_normalized(double u, double a1, double a2) noexcept {
    u = u < 1e300 ? u : 1e300;
    const double s0 = u;
    const double s1 = u / a1 < 1e300 ? u / a1 : 1e300;
    const double s2 = u / a2 < 1e300 ? u / a2 : 1e300;
    const double e0 = std::exp(-s0), e1 = std::exp(-s1), e2 = std::exp(-s2);
    const double w2 = a2 / (a1 + a2);  // in (0, 1]; the products below cannot overflow
    const double big_a = (1.0 + a1 * w2) / (1.0 + a1) / (1.0 + a2);
    return big_a * (e0 + u * expneg_dd1(s0, s1, e0, e1)) +
           u * (s1 * expneg_dd2(s0, s1, s2, e0, e1, e2)) * (w2 / (1.0 + a2));
}

// E_{Z∼L(mean,beta)} exp(−γ|Z − y|); textbook form (βγ e^{−z/β} − e^{−γz})/(β²γ² − 1), z = |mean − y|.
inline double exp_laplace_single(double mean, double beta, double y, double gamma) noexcept {
    return exp_laplace_single_normalized(gamma * std::abs(mean - y), beta * gamma);
}

// E exp(−γ|Z − Z'|), Z∼L(mean1,beta1), Z'∼L(mean2,beta2) independent: all five cases of the
// digest's table (general; β1 = β2 = 1/γ; β1 = β2 ≠ 1/γ; β1 = 1/γ ≠ β2; β2 = 1/γ ≠ β1) in one form.
inline double exp_laplace_pair(double mean1, double beta1, double mean2, double beta2,
                               double gamma) noexcept {
    return exp_laplace_pair_normalized(gamma * std::abs(mean1 - mean2), beta1 * gamma,
                                       beta2 * gamma);
}

}  // namespace calib::detail

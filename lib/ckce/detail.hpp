// Pieces shared by the CKCE sources: argument checks, the residual matrix A = Q − E, and the CKCE's
// trace forms on the generic kernel-ridge solvers (ridge/).
#pragma once

#include "core/check.hpp"
#include "core/serial_eigen.hpp"
#include "engine/count_forms.hpp"
#include "engine/quadratic_sums.hpp"
#include "ridge/dense.hpp"
#include "ridge/primal.hpp"

#include <calib/ckce.hpp>

#include <cstddef>

namespace calib::detail {

// ---- checks (shared.cpp) ----
void check_simplex_kernel(const char* function, const SimplexKernel& kernel);
// The target (class) kernel: white, or gram with a symmetric PSD m×m matrix of finite entries.
void check_ckce_target(const char* function, const TargetKernel& target, int m);
void check_lambda(const char* function, const char* argument, double lambda);
void check_attribute(const char* function, const Attribute& attribute, std::size_t n);

// A = Q − E: row i is q_i − e_{y_i}.
Matrix residuals(const CategoricalData& data);

// Σ_ij x_ij y_ij, columns in order with a compensated sum.
double frobenius_dot(const Matrix& x, const Matrix& y);

// Tr(X L Xᵀ) = Σ_ij X_ij (X L)_ij for the class Gram L of the target kernel (white: L = I).
inline double label_quadratic(const Matrix& x, const TargetKernel& target) {
    return target.type == TargetKernelType::gram ? frobenius_dot(x, x * target.gram) : frobenius_dot(x, x);
}

// The engine passes over the JKCE term (baselines.cpp): its sums, and the quadratic forms of resampling
// counts (the model comparison's replicates).
QuadraticSums jkce_sums(const char* fn, const CategoricalData& data, const SimplexKernel& kernel,
                        const TargetKernel& target, const ParallelOptions& parallel);
CountForms jkce_count_forms(const char* fn, const CategoricalData& data, const SimplexKernel& kernel,
                            const TargetKernel& target, std::size_t replicates, const CountSource& counts, bool cache,
                            const ParallelOptions& parallel);

// Tr(P L Pᵀ) with P = (S + ridge I)⁻¹ T, from the primal sums S = FᵀF, T = FᵀA.
double primal_ckce(PrimalSums sums, double ridge, const TargetKernel& target);

// The exact CKCE of a symmetric term (simplex kernel, or a stored Gram) by Cholesky of K + ridge I;
// `product(B)` returns K B. Opens no SerialEigenScope itself (the caller does).
template <class Term, class Product>
double cholesky_ckce(const Term& term, const Matrix& a, const TargetKernel& target, double ridge, int threads,
                     Product product) {
    const Matrix b = shifted_solve("ckce", term, a, ridge, threads);  // B = R⁻¹A; the factor is freed
    const Matrix kb = product(b);
    return target.type == TargetKernelType::gram ? frobenius_dot(kb, b * target.gram) : frobenius_dot(kb, b);
}

}  // namespace calib::detail

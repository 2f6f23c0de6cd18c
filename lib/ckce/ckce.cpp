// The CKCE estimator: option checks and the four methods (ckce.hpp).
#include "data/column_major.hpp"
#include "ckce/detail.hpp"
#include "ckce/memory.hpp"
#include "ckce/simplex_rows.hpp"
#include "core/memory_guard.hpp"
#include "ridge/low_rank.hpp"
#include "ridge/random_features.hpp"

#include <cmath>
#include <map>

namespace calib {

using detail::fail;

namespace {

void check_options(const char* fn, const CategoricalData& data, const CkceOptions& o) {
    detail::check_ckce_memory(fn, data.size(), o.method);
    detail::check_simplex_kernel(fn, o.kernel);
    detail::check_ckce_target(fn, o.target, data.num_classes());
    (void)to_string(o.method);  // throws on an invalid value
    if (o.method == CkceMethod::rff && o.features == 0) fail(fn, "features = 0, must be >= 1");
    if (o.method == CkceMethod::lowrank) detail::check_low_rank_options(fn, o.tolerance, o.max_rank);
    if (o.attribute) {
        detail::check_attribute(fn, *o.attribute, data.size());
        if (o.method == CkceMethod::rff && o.attribute->type != AttributeKernelType::kronecker)
            fail(fn, "method rff supports only kronecker attributes (groups); use exact, eigen or lowrank for a "
                     "gaussian attribute kernel");
    }
}

// λ_n of the schedule, with messages naming the calling function.
double lambda_of(const char* fn, const Regularization& r, std::size_t n) {
    try {
        return r.lambda(n);
    } catch (const invalid_argument& e) {
        fail(fn, "regularization: ", e.what());
    }
}

// K + λn·I is solved in double precision: with the ridge below 1e-12·tr K its condition number can
// exceed 1e12 and the estimate would be rounding noise, returned as if it were a value.
constexpr double min_relative_ridge = 1e-12;
template <class Term>
void check_conditioning(const char* fn, const Term& term, double lambda) {
    const double n = static_cast<double>(term.size()), trace = detail::diagonal_sum(term);
    if (!(lambda * n >= min_relative_ridge * trace))
        fail(fn, "lambda = ", detail::format_value(lambda), " gives the ridge lambda*n = ",
             detail::format_value(lambda * n), ", below 1e-12 tr(K) = ",
             detail::format_value(min_relative_ridge * trace),
             ": K + lambda n I is too ill-conditioned to solve in double precision; use lambda >= ",
             detail::format_value(min_relative_ridge * trace / n));
}

// The spectrum of K and the weights c_k = u_kᵀ A L Aᵀ u_k of the eigen path.
struct Spectrum {
    Vector eigenvalues;  // clamped at 0 (rounding can make a PSD matrix's smallest ones negative)
    Vector weights;
};

template <class Term>
Spectrum spectrum(const Term& term, const Matrix& a, const TargetKernel& target, int threads) {
    Spectrum s;
    Matrix c;
    {
        const detail::KernelSpectrum k = detail::kernel_spectrum("ckce", term, threads);
        s.eigenvalues = k.eigenvalues;
        c = k.eigenvectors.transpose() * a;
    }
    s.weights = target.type == TargetKernelType::gram ? Vector((c * target.gram).cwiseProduct(c).rowwise().sum())
                                  : Vector(c.rowwise().squaredNorm());
    return s;
}

// Σ_k s_k/(s_k + ridge)² c_k.
double spectral_ckce(const Spectrum& s, double ridge) {
    detail::CompensatedSum sum;
    for (Eigen::Index k = 0; k < s.eigenvalues.size(); ++k) {
        const double v = s.eigenvalues(k), t = v + ridge;
        sum.add(v / (t * t) * s.weights(k));
    }
    return sum.value();
}

// RFF in the primal; with a kronecker attribute K ∘ K_AA is block diagonal over the groups, so the
// CKCE is the sum of the groups' primal CKCEs with the same ridge λn.
double rff_ckce(const CategoricalData& data, const Matrix& a, const CkceOptions& o, double ridge, int threads,
                std::size_t& dimension) {
    const Matrix p = detail::column_major_copy(data.probabilities());  // contiguous: the feature map reads it by chunks
    const detail::RffMap map(p.cols(), o.kernel.lengthscale, o.kernel.linear, o.kernel.gaussian, o.features, o.seed);
    dimension = static_cast<std::size_t>(map.dimension());
    const auto one = [&](const Matrix& pg, const Matrix& ag) {
        const auto sums = detail::primal_sums(static_cast<std::size_t>(pg.rows()), map.dimension(), ag,
                                              [&](std::size_t i0, std::size_t i1, Matrix& f) { map.fill(pg, i0, i1, f); },
                                              threads);
        return detail::primal_ckce(sums, ridge, o.target);
    };
    if (!o.attribute) return one(p, a);
    std::map<double, std::vector<Eigen::Index>> groups;
    for (Eigen::Index i = 0; i < a.rows(); ++i) groups[o.attribute->values(i)].push_back(i);
    detail::CompensatedSum sum;
    for (const auto& [value, rows] : groups) {
        (void)value;
        Matrix pg(static_cast<Eigen::Index>(rows.size()), p.cols()), ag(pg.rows(), a.cols());
        for (std::size_t k = 0; k < rows.size(); ++k) {
            pg.row(static_cast<Eigen::Index>(k)) = p.row(rows[k]);
            ag.row(static_cast<Eigen::Index>(k)) = a.row(rows[k]);
        }
        sum.add(one(pg, ag));
    }
    return sum.value();
}

}  // namespace

void detail::check_ckce_memory(const char* function, std::size_t n, CkceMethod method) {
    if (method != CkceMethod::exact && method != CkceMethod::eigen) return;
    const double matrices = method == CkceMethod::exact ? 1 : 2;
    check_memory(function, 8 * matrices * double(n) * double(n),
                 method == CkceMethod::exact ? "the exact CKCE's n x n matrix" : "the eigen CKCE's n x n matrix and eigenvectors",
                 "use `ckce_method` lowrank (or rff), whose memory is O(n * rank)");
}

CkceResult ckce(const CategoricalData& data, const CkceOptions& options) {
    const char* fn = "ckce";
    check_options(fn, data, options);
    const std::size_t n = data.size();
    CkceResult result;
    result.method = options.method;
    result.lambda = lambda_of(fn, options.regularization, n);
    result.ridge = result.lambda * static_cast<double>(n);
    const int threads = resolve_num_threads(options.parallel.num_threads);
    const detail::SerialEigenScope serial;
    const Matrix a = detail::residuals(data);
    const Attribute* attribute = options.attribute ? &*options.attribute : nullptr;
    const detail::SimplexRows term(data.probabilities(), Matrix(), options.kernel, attribute);
    check_conditioning(fn, term, result.lambda);
    switch (options.method) {
        case CkceMethod::exact:
            result.rank = n;
            result.estimate = detail::cholesky_ckce(term, a, options.target, result.ridge, threads, [&](const Matrix& b) {
                return detail::gram_product(term, b, nullptr, ParallelOptions{threads});
            });
            break;
        case CkceMethod::eigen:
            result.rank = n;
            result.estimate = spectral_ckce(spectrum(term, a, options.target, threads), result.ridge);
            break;
        case CkceMethod::rff:
            result.estimate = rff_ckce(data, a, options, result.ridge, threads, result.rank);
            break;
        case CkceMethod::lowrank: {
            const LowRankFactor f = detail::pivoted_cholesky(term, options.tolerance, options.max_rank, threads);
            result.rank = static_cast<std::size_t>(f.factor.cols());
            result.residual_trace = f.trace > 0 ? f.residual_trace / f.trace : 0;
            if (f.factor.cols() == 0) {  // K = 0 (impossible for the simplex kernel, kept for safety)
                result.estimate = 0;
                break;
            }
            result.estimate =
                detail::primal_ckce(detail::primal_sums(f.factor, a, threads), result.ridge, options.target);
            break;
        }
    }
    return result;
}

std::vector<double> ckce_lambda_path(const CategoricalData& data, const CkceOptions& options,
                                     const std::vector<double>& lambdas) {
    const char* fn = "ckce_lambda_path";
    CkceOptions eigen = options;
    eigen.method = CkceMethod::eigen;
    check_options(fn, data, eigen);
    for (std::size_t k = 0; k < lambdas.size(); ++k)
        if (!(std::isfinite(lambdas[k]) && lambdas[k] > 0))
            fail(fn, "lambdas[", k, "] = ", detail::format_value(lambdas[k]), ", must be finite and > 0");
    const int threads = resolve_num_threads(options.parallel.num_threads);
    const detail::SerialEigenScope serial;
    const Attribute* attribute = options.attribute ? &*options.attribute : nullptr;
    const detail::SimplexRows term(data.probabilities(), Matrix(), options.kernel, attribute);
    for (const double lambda : lambdas) check_conditioning(fn, term, lambda);
    const Spectrum s = spectrum(term, detail::residuals(data), options.target, threads);
    std::vector<double> out;
    for (const double lambda : lambdas) out.push_back(spectral_ckce(s, lambda * static_cast<double>(data.size())));
    return out;
}

}  // namespace calib

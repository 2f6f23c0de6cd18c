// The conditional MMD's pair term built from a spec (calib/mmd.hpp), its checks, its median
// heuristic and its engine passes (mmd_ops.hpp).
#include "kernels/mmd_ops.hpp"

#include "core/check.hpp"
#include "core/name_table.hpp"
#include "engine/pair_selection.hpp"
#include "kernels/class_gram.hpp"
#include "kernels/median_ranks.hpp"
#include "kernels/mmd_term.hpp"

#include <calib/tool/random.hpp>

#include <cmath>

namespace calib {

using detail::fail;

namespace {

bool binary_targets(MmdNotion notion) { return notion == MmdNotion::top_label || notion == MmdNotion::class_wise; }

// The conditioning variable of one block as an embedding whose L1 or Euclidean distance (times scale)
// is the metric of k_Z.
struct Embedding {
    Matrix z;
    bool l1 = false;
    double scale = 1;
    double lengthscale = 1;
};

Matrix probabilities_copy(const CategoricalData& d) { return d.probabilities(); }  // own column-major copy

// Y* = the first class of largest probability.
std::vector<int> top_labels(const Matrix& q) {
    std::vector<int> top(static_cast<std::size_t>(q.rows()));
    for (Eigen::Index i = 0; i < q.rows(); ++i) q.row(i).maxCoeff(&top[static_cast<std::size_t>(i)]);
    return top;
}

// The blocks' embeddings; none for group and marginal.
std::vector<Embedding> conditioning_embeddings(const CategoricalData& d, const MmdSpec& s) {
    const Matrix q = probabilities_copy(d);
    const double l = s.conditioning.lengthscale;
    const Metric metric = s.conditioning.metric;
    switch (s.notion) {
        case MmdNotion::canonical:
            return {{q, metric != Metric::euclidean, metric == Metric::tv ? 0.5 : 1.0, l}};
        case MmdNotion::individual:
            return {{s.features, metric == Metric::l1, 1.0, l}};
        case MmdNotion::top_label: {
            Matrix z(q.rows(), 1);
            const std::vector<int> top = top_labels(q);
            for (Eigen::Index i = 0; i < q.rows(); ++i) z(i, 0) = q(i, top[static_cast<std::size_t>(i)]);
            return {{z, false, 1.0, l}};
        }
        case MmdNotion::class_wise: {
            std::vector<Embedding> e;
            for (Eigen::Index c = 0; c < q.cols(); ++c)
                e.push_back({q.col(c), false, 1.0,
                             s.class_lengthscales.empty() ? l : s.class_lengthscales[static_cast<std::size_t>(c)]});
            return e;
        }
        case MmdNotion::group:
        case MmdNotion::marginal:
        case MmdNotion::distribution:  // Gaussian forecasts only (refused by validate_mmd)
        case MmdNotion::quantile:
        case MmdNotion::threshold:
        case MmdNotion::decision:
        case MmdNotion::local:
            return {};
    }
    return {};
}

detail::EmbeddedPredictionKernel embedded_kernel(const Embedding& e, PredictionKernelShape shape) {
    return detail::EmbeddedPredictionKernel(e.z, Matrix(), e.l1, e.scale, PredictionKernel{shape, Metric::euclidean, e.lengthscale});
}

// K_T's weight of the residual product of a binary target: r = (b − p)(−1, 1), so
// r_iᵀ K r_j = (b_i − p_i)(b_j − p_j)(K_00 + K_11 − 2 K_01); 2 for δ.
double binary_weight(const Matrix& gram) {
    return gram.size() == 0 ? 2.0 : gram(0, 0) + gram(1, 1) - 2 * gram(0, 1);
}

detail::MmdComponent binary_component(const Embedding& e, PredictionKernelShape shape, const Vector& outcome,
                                      const Vector& forecast, double weight) {
    detail::MmdComponent c;
    c.kz = embedded_kernel(e, shape);
    c.left = outcome - forecast;
    c.right = weight * c.left;
    return c;
}

// The pair term of all blocks.
detail::MmdTerm make_mmd_term(const CategoricalData& d, const MmdSpec& s) {
    const Matrix q = probabilities_copy(d);
    const std::size_t n = d.size();
    const std::vector<Embedding> embeddings = conditioning_embeddings(d, s);
    const PredictionKernelShape shape = s.conditioning.shape;
    std::vector<detail::MmdComponent> blocks;
    if (s.notion == MmdNotion::top_label) {
        const std::vector<int> top = top_labels(q);
        Vector outcome(q.rows());
        for (std::size_t i = 0; i < n; ++i) outcome(static_cast<Eigen::Index>(i)) = d.labels()[i] == top[i] ? 1.0 : 0.0;
        blocks.push_back(binary_component(embeddings[0], shape, outcome, embeddings[0].z.col(0), binary_weight(s.target_gram)));
    } else if (s.notion == MmdNotion::class_wise) {
        for (Eigen::Index c = 0; c < q.cols(); ++c) {
            Vector outcome(q.rows());
            for (std::size_t i = 0; i < n; ++i) outcome(static_cast<Eigen::Index>(i)) = d.labels()[i] == c ? 1.0 : 0.0;
            blocks.push_back(binary_component(embeddings[static_cast<std::size_t>(c)], shape, outcome, q.col(c),
                                              binary_weight(s.target_gram)));
        }
    } else {
        // Labels: r_i = e_{y_i} − q_i and b_j = r_j K_T.
        detail::MmdComponent c;
        c.left = -q;
        for (std::size_t i = 0; i < n; ++i) c.left(static_cast<Eigen::Index>(i), d.labels()[i]) += 1;
        c.right = s.target_gram.size() ? Matrix(c.left * s.target_gram) : c.left;
        if (!embeddings.empty()) c.kz = embedded_kernel(embeddings[0], shape);
        if (s.notion == MmdNotion::group) c.groups = s.groups;
        blocks.push_back(std::move(c));
    }
    return detail::MmdTerm(n, std::move(blocks));
}


}  // namespace

std::size_t mmd_components(const CategoricalData& data, const MmdSpec& spec) {
    return spec.notion == MmdNotion::class_wise ? static_cast<std::size_t>(data.num_classes()) : 1;
}

void validate_mmd(const CategoricalData& data, const MmdSpec& spec, const char* fn) {
    const std::size_t n = data.size();
    const int m = data.num_classes();
    const MmdNotion notion = spec.notion;
    const std::string name = to_string(notion);
    const bool conditioned = notion != MmdNotion::group && notion != MmdNotion::marginal;
    if (notion == MmdNotion::distribution || notion == MmdNotion::quantile || notion == MmdNotion::threshold ||
        notion == MmdNotion::decision || notion == MmdNotion::local)
        fail(fn, "the ", name, " notion applies to Gaussian forecasts (NormalData); class predictions take canonical, "
             "top-label, class-wise, group, individual or marginal");
    if (conditioned) detail::check_mmd_lengthscale(fn, "the conditioning kernel's lengthscale", spec.conditioning.lengthscale);
    if (!spec.class_lengthscales.empty()) {
        if (notion != MmdNotion::class_wise)
            fail(fn, "class_lengthscales apply only to the class-wise notion, not ", name);
        if (spec.class_lengthscales.size() != static_cast<std::size_t>(m))
            fail(fn, "class_lengthscales has ", spec.class_lengthscales.size(), " values for m = ", m,
                 " classes; give one per class");
        for (double l : spec.class_lengthscales) detail::check_mmd_lengthscale(fn, "a class lengthscale", l);
    }
    const Metric metric = spec.conditioning.metric;
    if (notion == MmdNotion::canonical && metric == Metric::w2)
        fail(fn, "metric w2 does not apply to class predictions; the canonical notion takes tv, l1 or euclidean");
    if (notion == MmdNotion::individual && metric != Metric::l1 && metric != Metric::euclidean)
        fail(fn, "metric ", to_string(metric), " does not apply to features; the individual notion takes l1 or euclidean");
    if (spec.target_gram.size()) detail::check_class_gram(fn, spec.target_gram, binary_targets(notion) ? 2 : m);
    if (notion == MmdNotion::individual) {
        detail::check_mmd_features(fn, spec.features, n);
    } else if (spec.features.size()) {
        fail(fn, "features apply only to the individual notion, not ", name);
    }
    if (notion == MmdNotion::group) {
        if (spec.groups.size() != n)
            fail(fn, "the group notion needs n = ", n, " group ids (one per observation); got ", spec.groups.size());
    } else if (!spec.groups.empty()) {
        fail(fn, "groups apply only to the group notion, not ", name);
    }
}

std::vector<double> mmd_median_lengthscales(const CategoricalData& data, const MmdSpec& spec,
                                            const MedianOptions& options) {
    const char* fn = "mmd_median_lengthscales";
    const std::size_t n = data.size();
    if (spec.notion == MmdNotion::group || spec.notion == MmdNotion::marginal)
        fail(fn, "the ", to_string(spec.notion), " notion has no conditioning lengthscale");
    detail::check_min_size(fn, n, 2, "pairwise distances");
    if (options.subsample == 1) fail(fn, "subsample = 1, must be 0 (use all points) or >= 2");
    MmdSpec unit = spec;  // the distances do not depend on the lengthscales
    unit.conditioning.lengthscale = 1;
    unit.class_lengthscales.clear();
    validate_mmd(data, unit, fn);
    // Class-wise: one lengthscale for every class, the median of the top-label confidences' distances.
    // A class's own median collapses when most of its probabilities are near 0, as for any class a
    // many-class model rarely predicts (measured: 2e-8 for every class of an m = 100 softmax model,
    // which made the kernel a δ and the test powerless, p = 0.51 on a model it rejects at ℓ = 0.1).
    if (spec.notion == MmdNotion::class_wise) unit.notion = MmdNotion::top_label;
    std::vector<double> medians;
    for (const Embedding& e : conditioning_embeddings(data, unit))
        medians.push_back(detail::median_of_rows(fn, e.z, e.l1, e.scale, options, ""));
    if (spec.notion == MmdNotion::class_wise) medians.assign(static_cast<std::size_t>(data.num_classes()), medians[0]);
    return medians;
}

double rbf_lengthscale_from_bandwidth(double bandwidth) {
    if (!(std::isfinite(bandwidth) && bandwidth > 0))
        fail("rbf_lengthscale_from_bandwidth", "bandwidth = ", detail::format_value(bandwidth), ", must be finite and > 0");
    return std::sqrt(bandwidth / 2);
}

double rbf_bandwidth_from_lengthscale(double lengthscale) {
    detail::check_mmd_lengthscale("rbf_bandwidth_from_lengthscale", "lengthscale", lengthscale);
    return 2 * lengthscale * lengthscale;
}

namespace {
const detail::NameTable<MmdNotion> notion_names = {
    {MmdNotion::canonical, "canonical"}, {MmdNotion::top_label, "top-label"}, {MmdNotion::class_wise, "class-wise"},
    {MmdNotion::group, "group"},         {MmdNotion::individual, "individual"}, {MmdNotion::marginal, "marginal"},
    {MmdNotion::distribution, "distribution"}, {MmdNotion::quantile, "quantile"},   {MmdNotion::threshold, "threshold"},
    {MmdNotion::decision, "decision"},         {MmdNotion::local, "local"}};
const detail::NameTable<GaussianTarget> target_names = {
    {GaussianTarget::rbf, "sqexp"}, {GaussianTarget::sign, "sign"}, {GaussianTarget::moment, "moment"},
    {GaussianTarget::pit, "pit"},   {GaussianTarget::laplacian, "laplacian"}, {GaussianTarget::tanh, "tanh"},
    {GaussianTarget::min, "min"}};
const detail::NameTable<MmdMarginalisation> marginalisation_names = {
    {MmdMarginalisation::analytic, "analytic"}, {MmdMarginalisation::mc_paired, "mc-paired"},
    {MmdMarginalisation::mc_all_pairs, "mc-all-pairs"}};
}  // namespace

std::string to_string(MmdNotion notion) { return detail::name_of(notion_names, notion); }
MmdNotion parse_mmd_notion(const std::string& name) {
    return detail::value_named(notion_names, name, "parse_mmd_notion", "notion", "notions");
}

std::string to_string(GaussianTarget target) { return detail::name_of(target_names, target); }
GaussianTarget parse_gaussian_target(const std::string& name, const std::string& what) {
    return detail::value_named(target_names, name, "parse_gaussian_target", what, "target kernels of normal forecasts");
}

std::string to_string(MmdMarginalisation marginalisation) {
    return detail::name_of(marginalisation_names, marginalisation);
}
MmdMarginalisation parse_mmd_marginalisation(const std::string& name, const std::string& what) {
    return detail::value_named(marginalisation_names, name, "parse_mmd_marginalisation", what, "schemes");
}

namespace detail {

QuadraticSums MmdOps::quadratic_sums(const CategoricalData& data, const MmdSpec& spec,
                                     const ParallelOptions& parallel) {
    return detail::quadratic_sums(make_mmd_term(data, spec), parallel);
}

std::vector<double> MmdOps::part_unbiased(const CategoricalData& data, const MmdSpec& spec,
                                          const ParallelOptions& parallel) {
    return detail::part_unbiased(make_mmd_term(data, spec), parallel);
}

std::vector<PairSums> MmdOps::block_pair_sums(const CategoricalData& data, const MmdSpec& spec, std::size_t block_size,
                                              const ParallelOptions& parallel) {
    return detail::block_pair_sums(make_mmd_term(data, spec), block_size, parallel);
}

CountForms MmdOps::count_forms(const CategoricalData& data, const MmdSpec& spec, std::size_t replicates,
                               const CountSource& counts, bool cache, const ParallelOptions& parallel) {
    return detail::count_forms(make_mmd_term(data, spec), replicates, counts, cache, parallel);
}

double median_of_rows(const char* fn, const Matrix& points, bool l1, double scale, const MedianOptions& options,
                      const std::string& where) {
    const std::size_t n = static_cast<std::size_t>(points.rows());
    Matrix z = points;
    if (options.subsample != 0 && n > options.subsample) {
        Rng rng(options.seed);
        const std::vector<std::size_t> rows = sample_without_replacement(n, options.subsample, rng);
        z.resize(static_cast<Eigen::Index>(rows.size()), points.cols());
        for (std::size_t r = 0; r < rows.size(); ++r)
            z.row(static_cast<Eigen::Index>(r)) = points.row(static_cast<Eigen::Index>(rows[r]));
    }
    const auto kernel = embedded_kernel({z, l1, scale, 1.0}, PredictionKernelShape::exp);
    const auto term = function_term(
        [&](std::size_t i, std::size_t j0, std::size_t j1, double* out) { kernel.distances(i, j0, j1, out); },
        static_cast<std::size_t>(z.rows()));
    const double median = exact_median_of(term.size(), options.variant, [&](const std::vector<std::uint64_t>& r) {
        return select_pair_ranks(term, r, options.parallel);
    });
    if (!(median > 0 && std::isfinite(median)))
        fail(fn, "the median distance between the conditioning values", where, " is ", format_value(median),
             " (most of them coincide, or they are too far apart), so it cannot serve as a lengthscale; give the "
             "lengthscale explicitly");
    return median;
}

Matrix MmdOps::unbiased_gradient(const CategoricalData& data, const MmdSpec& spec, const ParallelOptions& parallel) {
    const Matrix q = probabilities_copy(data);
    const Eigen::Index n = q.rows(), m = q.cols();
    const double scale = -2.0 / (static_cast<double>(n) * static_cast<double>(n - 1));  // −2c
    const std::vector<Embedding> embeddings = conditioning_embeddings(data, spec);
    const auto kz_product = [&](const Embedding& e, const Matrix& c) {  // K_Z·C, by the engine
        const EmbeddedPredictionKernel kz = embedded_kernel(e, spec.conditioning.shape);
        const auto term = function_term([&](std::size_t i, std::size_t j0, std::size_t j1, double* out) { kz.values(i, j0, j1, out); },
                                        static_cast<std::size_t>(n));
        return gram_product(term, c, nullptr, parallel);
    };
    Matrix gradient = Matrix::Zero(n, m);
    if (spec.notion == MmdNotion::top_label || spec.notion == MmdNotion::class_wise) {
        // One binary problem per block (top-label: p = q(Y*); class-wise, class c: p = q(c)); with
        // ρ = o − p and weight w, Σ_{j≠i} k_ij w [ρ_j + ρ_i ρ_j (p_i − p_j)/ℓ²]
        // = w [(K_Z ρ)_i − ρ_i + ρ_i (p_i (K_Z ρ)_i − (K_Z (ρ ⊙ p))_i)/ℓ²], at the entry q_i(column_i).
        const std::vector<int> top = top_labels(q);
        const double w = binary_weight(spec.target_gram);
        for (std::size_t b = 0; b < embeddings.size(); ++b) {
            const Embedding& e = embeddings[b];
            const Vector p = e.z.col(0);
            const auto column = [&](Eigen::Index i) {
                return spec.notion == MmdNotion::top_label ? top[static_cast<std::size_t>(i)] : static_cast<int>(b);
            };
            Matrix rho(n, 2);
            for (Eigen::Index i = 0; i < n; ++i) {
                rho(i, 0) = (data.labels()[static_cast<std::size_t>(i)] == column(i) ? 1.0 : 0.0) - p[i];
                rho(i, 1) = rho(i, 0) * p[i];
            }
            const Matrix kr = kz_product(e, rho);
            const double inv_l2 = 1 / (e.lengthscale * e.lengthscale);
            for (Eigen::Index i = 0; i < n; ++i)
                gradient(i, column(i)) =
                    scale * w * (kr(i, 0) - rho(i, 0) + rho(i, 0) * inv_l2 * (p[i] * kr(i, 0) - kr(i, 1)));
        }
        return gradient;
    }
    // Labels: the residual term Σ_{j≠i} k_ij K r_j = (K_Z·RK)_i − (RK)_i (k_ii = 1).
    Matrix r = -q;
    for (Eigen::Index i = 0; i < n; ++i) r(i, data.labels()[static_cast<std::size_t>(i)]) += 1;
    const Matrix rk = spec.target_gram.size() ? Matrix(r * spec.target_gram) : r;
    Matrix kz_rk;
    if (spec.notion == MmdNotion::marginal) {
        kz_rk = rk.colwise().sum().replicate(n, 1);  // K_Z = 11ᵀ; a fixed order of summation
    } else if (spec.notion == MmdNotion::group) {
        const auto term = function_term(
            [&](std::size_t i, std::size_t j0, std::size_t j1, double* out) {
                for (std::size_t j = j0; j < j1; ++j) out[j - j0] = spec.groups[i] == spec.groups[j] ? 1.0 : 0.0;
            },
            static_cast<std::size_t>(n));
        kz_rk = gram_product(term, rk, nullptr, parallel);
    } else {
        kz_rk = kz_product(embeddings.front(), rk);
    }
    gradient = scale * (kz_rk - rk);
    if (spec.notion != MmdNotion::canonical) return gradient;  // Z fixed: group, individual, marginal
    // Canonical: Z = q moves too; Σ_j h_ij (q_i − q_j) = (H·1)_i q_i − (H·Q)_i (the j = i summand is 0).
    const double inv_l2 = 1 / (spec.conditioning.lengthscale * spec.conditioning.lengthscale);
    Matrix ones_q(n, m + 1);
    ones_q.col(0).setOnes();
    ones_q.rightCols(m) = q;
    const Matrix hq = gram_product(make_mmd_term(data, spec), ones_q, nullptr, parallel);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index c = 0; c < m; ++c) gradient(i, c) += scale * inv_l2 * (hq(i, 0) * q(i, c) - hq(i, 1 + c));
    return gradient;
}

// The whole term for one pair: O(n m) to bind, meant for checks.
double MmdOps::pair(const CategoricalData& data, const MmdSpec& spec, std::size_t i, std::size_t j) {
    return single_pair(make_mmd_term(data, spec), i, j);
}

}  // namespace detail

}  // namespace calib

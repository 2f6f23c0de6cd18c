// The mean NLL of the recalibration maps and its gradient by the chain rule through the stable
// log-softmax: with l = f_θ(z) and g = softmax(l) − e_y, ∂NLL_i/∂l = g (docs/recalibration.md).
// Sums run serially in observation order, so results do not depend on the thread count.
#include "recalibration/objective.hpp"

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "recalibration/map_kinds.hpp"
#include "estimators/mmd_gradient.hpp"
#include "estimators/mmd_normal_gradient.hpp"

#include <cmath>
#include <utility>

namespace calib::detail {

namespace {

constexpr double half_log_2pi = 0.91893853320467274178;

bool has_temperature(RecalibrationMethod method) {
    return method == RecalibrationMethod::temperature || method == RecalibrationMethod::temperature_bias;
}

// ln(1 + eˣ) without overflow.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

// Beta calibration's features of one column (m = 2): ln p₁ and −ln p₀ of p = softmax(z), from the
// log-odds d = z₁ − z₀ (so that logits and probabilities give the same map): ln p₁ = −softplus(−d).
std::pair<double, double> beta_features(const Eigen::Ref<const Vector>& z) {
    const double d = z[1] - z[0];
    return {-softplus(-d), softplus(d)};
}

// ln softmax(z): dirichlet's input, the log-probabilities of logits, or of probabilities renormalised.
Vector log_softmax(const Eigen::Ref<const Vector>& z) {
    const double top = z.maxCoeff();
    return z.array() - (top + std::log((z.array() - top).exp().sum()));
}

// l = f_θ(z) for one column z.
void map_column(RecalibrationMethod method, const Vector& theta, const Eigen::Ref<const Vector>& z,
                Vector& l) {
    const Eigen::Index m = z.size();
    switch (method) {
    case RecalibrationMethod::temperature: l = z * std::exp(-theta[0]); break;
    case RecalibrationMethod::temperature_bias: l = z * std::exp(-theta[0]) + theta.tail(m); break;
    case RecalibrationMethod::vector: l = theta.head(m).cwiseProduct(z) + theta.tail(m); break;
    case RecalibrationMethod::matrix:
    case RecalibrationMethod::dirichlet: {
        const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> w(theta.data(), m, m);
        if (method == RecalibrationMethod::matrix) l.noalias() = w * z;
        else l.noalias() = w * log_softmax(z);
        l += theta.tail(m);
        break;
    }
    case RecalibrationMethod::platt:  // m = 2: the log-odds z₁ − z₀ mapped, class 0's logit fixed at 0
        l.setZero(m);
        l[1] = theta[0] * (z[1] - z[0]) + theta[1];
        break;
    case RecalibrationMethod::beta: {  // m = 2: a ln p₁ − b ln p₀ + c, class 0's logit fixed at 0
        const auto [log_p1, minus_log_p0] = beta_features(z);
        l.setZero(m);
        l[1] = theta[0] * log_p1 + theta[1] * minus_log_p0 + theta[2];
        break;
    }
    case RecalibrationMethod::isotonic:
    case RecalibrationMethod::top_label_isotonic:
    case RecalibrationMethod::histogram:
    case RecalibrationMethod::venn_abers: fail("recalibration", to_string(method), " is not a parametric map");
    case RecalibrationMethod::affine:
    case RecalibrationMethod::affine_features: fail("recalibration", "affine is not a categorical map");
    }
}

// Adds the gradient of l = W x + b: ∂/∂W_kl = g_k x_l, ∂/∂b = g (x: the column z for matrix, its
// log-softmax for dirichlet).
template <class Column>
void add_matrix_gradient(const Column& x, const Vector& g, Vector& gradient) {
    const Eigen::Index m = x.size();
    for (Eigen::Index k = 0; k < m; ++k) gradient.segment(k * m, m) += g[k] * x;
    gradient.tail(m) += g;
}

// Adds ∂NLL_i/∂θ = (∂l/∂θ)ᵀ g for one observation.
void add_gradient(RecalibrationMethod method, const Vector& theta, const Eigen::Ref<const Vector>& z,
                  const Vector& l, const Vector& g, Vector& gradient) {
    const Eigen::Index m = z.size();
    switch (method) {
    case RecalibrationMethod::temperature: gradient[0] -= g.dot(l); break;  // ∂l/∂log T = −l
    case RecalibrationMethod::temperature_bias:
        gradient[0] -= std::exp(-theta[0]) * g.dot(z);
        gradient.tail(m) += g;
        break;
    case RecalibrationMethod::vector:
        gradient.head(m) += g.cwiseProduct(z);
        gradient.tail(m) += g;
        break;
    case RecalibrationMethod::matrix: add_matrix_gradient(z, g, gradient); break;
    case RecalibrationMethod::dirichlet: add_matrix_gradient(log_softmax(z), g, gradient); break;
    case RecalibrationMethod::platt:
        gradient[0] += g[1] * (z[1] - z[0]);
        gradient[1] += g[1];
        break;
    case RecalibrationMethod::beta: {
        const auto [log_p1, minus_log_p0] = beta_features(z);
        gradient[0] += g[1] * log_p1;
        gradient[1] += g[1] * minus_log_p0;
        gradient[2] += g[1];
        break;
    }
    case RecalibrationMethod::isotonic:
    case RecalibrationMethod::top_label_isotonic:
    case RecalibrationMethod::histogram:
    case RecalibrationMethod::venn_abers:
    case RecalibrationMethod::affine:
    case RecalibrationMethod::affine_features: break;
    }
}

// The softmax of one column of logits, without overflow.
template <class Column>
void softmax_in_place(Column&& l) {
    l = (l.array() - l.maxCoeff()).exp();
    l /= l.sum();
}

// softmax of each column of l, as rows (n×m).
Matrix softmax_rows(Matrix l) {
    for (Eigen::Index i = 0; i < l.cols(); ++i) softmax_in_place(l.col(i));
    return l.transpose();
}

// lambda · MMD² of the recalibrated probabilities; adds its gradient by the chain rule through the
// softmax (softmax_backward) and the map's Jacobian (add_gradient), as the NLL's.
double mmd_penalty(const CategoricalProblem& problem, const Vector& theta, Vector* gradient) {
    const Matrix l = mapped_logits(problem.method, theta, problem.z);
    const Matrix q = softmax_rows(l);
    MmdSpec spec;
    spec.notion = problem.notion;
    spec.conditioning = {PredictionKernelShape::sqexp, Metric::euclidean, problem.mmd_lengthscale};
    const MmdValueGradient mmd = mmd_block_value_gradient(q, problem.labels, spec, problem.mmd_block_size);
    if (gradient) {
        const Matrix g = problem.lambda * softmax_backward(q, mmd.gradient).transpose();  // m×n, ∂/∂l
        for (Eigen::Index i = 0; i < problem.z.cols(); ++i)
            add_gradient(problem.method, theta, problem.z.col(i), l.col(i), g.col(i), *gradient);
    }
    return problem.lambda * mmd.value;
}

}  // namespace

// Column by column into the n×m result: no m×n matrix of logits and no transpose of it, which at
// n = 2·10⁴, m = 1000 are 160 MB each.
Matrix mapped_probabilities(RecalibrationMethod method, const Vector& theta, const Matrix& z) {
    Matrix q(z.cols(), z.rows());
    Vector l;
    for (Eigen::Index i = 0; i < z.cols(); ++i) {
        map_column(method, theta, z.col(i), l);
        softmax_in_place(l);
        q.row(i) = l.transpose();
    }
    return q;
}

void check_labelled_scores(const char* function, const CategoricalScores& data) {
    const Eigen::Index n = data.scores.rows(), m = data.scores.cols();
    check_nonempty(function, "scores", n);
    if (m < 2) fail(function, "scores has ", m, " columns, must have m >= 2 (one per class)");
    check_same_rows(function, "scores", n, "labels", static_cast<long>(data.labels.size()));
    for (std::size_t i = 0; i < data.labels.size(); ++i)
        if (data.labels[i] < 0 || data.labels[i] >= m)
            fail_at(static_cast<long>(i), -1, function, "labels[", i, "] = ", data.labels[i], ", must be in [0, ", m, ")");
}

Matrix input_columns(const Matrix& scores, bool logits, double floor) {
    Matrix z = scores.transpose();
    for (Eigen::Index i = 0; i < z.cols(); ++i)
        for (Eigen::Index k = 0; k < z.rows(); ++k) {
            check_finite("fit_recalibration", "scores", i, k, z(k, i));
            if (!logits) z(k, i) = std::log(std::max(z(k, i), floor));
        }
    return z;
}

std::string map_parameter_problem(const RecalibrationMap& map) {
    if (const MapKind* kind = map_kind(map.method, map.num_classes)) return kind->problem(map);
    for (const NamedParameter& p : named_parameters(map))
        for (std::size_t k = 0; k < p.values.size(); ++k) {
            const double x = p.values[k];
            const std::string name = p.name + (p.array ? "[" + std::to_string(k) + "]" : "") + " = " + format_value(x);
            if (!std::isfinite(x)) return name + ", must be finite";
            // The transforms the map applies: z/T and exp(s); either overflowing gives no prediction.
            if (p.name == "temperature" && !(x > 0 && std::isfinite(1 / x)))
                return name + ", must be > 0 with 1/temperature finite";
            if ((p.name == "s" || p.name == "s0") && !(std::isfinite(std::exp(x)) && std::exp(x) > 0))
                return name + ", must have exp(" + p.name + ") finite and > 0 (about [-745, 709])";
        }
    return "";
}

Vector to_coordinates(RecalibrationMethod method, const Vector& parameters) {
    Vector theta = parameters;
    if (has_temperature(method)) theta[0] = std::log(parameters[0]);
    return theta;
}

Vector to_parameters(RecalibrationMethod method, const Vector& theta) {
    Vector parameters = theta;
    if (has_temperature(method)) parameters[0] = std::exp(theta[0]);
    return parameters;
}

Matrix mapped_logits(RecalibrationMethod method, const Vector& theta, const Matrix& z) {
    Matrix out(z.rows(), z.cols());
    Vector l;
    for (Eigen::Index i = 0; i < z.cols(); ++i) {
        map_column(method, theta, z.col(i), l);
        out.col(i) = l;
    }
    return out;
}

double categorical_objective(const CategoricalProblem& problem, const Vector& theta, Vector* gradient) {
    const Eigen::Index m = problem.z.rows(), n = problem.z.cols();
    if (gradient) gradient->setZero(theta.size());
    CompensatedSum nll;
    Vector l, g;
    for (Eigen::Index i = 0; i < n; ++i) {
        map_column(problem.method, theta, problem.z.col(i), l);
        const int y = problem.labels[static_cast<std::size_t>(i)];
        const double top = l.maxCoeff();
        g = (l.array() - top).exp();  // softmax(l) up to its normaliser, without overflow
        const double total = g.sum();
        nll.add(top + std::log(total) - l[y]);
        if (!gradient) continue;
        g /= total;
        g[y] -= 1;
        add_gradient(problem.method, theta, problem.z.col(i), l, g, *gradient);
    }
    double value = nll.value() / static_cast<double>(n);
    if (gradient) *gradient /= static_cast<double>(n);
    if (problem.lambda > 0) value += mmd_penalty(problem, theta, gradient);
    const bool dirichlet = problem.method == RecalibrationMethod::dirichlet;
    if (problem.method != RecalibrationMethod::matrix && !dirichlet) return value;
    // matrix: λ Σ_{k≠j} W_kj²; dirichlet (ODIR): λ/(m(m−1)) Σ_{k≠j} W_kj² + μ/m Σ_k b_k².
    const double md = static_cast<double>(m);
    const double off_diagonal = dirichlet ? problem.ridge / (md * (md - 1)) : problem.ridge;
    for (Eigen::Index k = 0; k < m; ++k)
        for (Eigen::Index j = 0; j < m; ++j) {
            if (j == k || off_diagonal == 0) continue;
            const double w = theta[k * m + j];
            value += off_diagonal * w * w;
            if (gradient) (*gradient)[k * m + j] += 2 * off_diagonal * w;
        }
    if (dirichlet && problem.intercept_ridge > 0)
        for (Eigen::Index k = 0; k < m; ++k) {
            const double b = theta[m * m + k], mu = problem.intercept_ridge / md;
            value += mu * b * b;
            if (gradient) (*gradient)[m * m + k] += 2 * mu * b;
        }
    return value;
}

namespace {

// lambda · MMD² of N(μ′, σ′²); adds its gradient: ∂μ′/∂a = μ, ∂μ′/∂b = 1, ∂log σ′/∂s(0) = 1, ∂log σ′/∂s1 = |x|.
double normal_mmd_penalty(const NormalData& data, const Vector& theta, Vector* gradient, const Vector& abs_x,
                          const NormalMmdPenalty& mmd) {
    const bool features = abs_x.size() > 0;
    const Vector mean = data.mean(), stddev = data.stddev(), y = data.targets();  // own copies
    Vector mu(mean.size()), sigma(mean.size());
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
        mu[i] = theta[0] * mean[i] + theta[1];
        sigma[i] = std::exp(features ? theta[2] + theta[3] * abs_x[i] : theta[2]) * stddev[i];
    }
    const NormalMmdValueGradient r = normal_mmd_block_value_gradient(mu, sigma, y, mmd.spec, mmd.block_size);
    if (gradient) {
        Vector g = Vector::Zero(theta.size());
        for (Eigen::Index i = 0; i < mean.size(); ++i) {  // serial, in observation order
            g[0] += r.mean[i] * mean[i];
            g[1] += r.mean[i];
            g[2] += r.log_stddev[i];
            if (features) g[3] += r.log_stddev[i] * abs_x[i];
        }
        *gradient += mmd.lambda * g;
    }
    return mmd.lambda * r.value;
}

}  // namespace

double normal_objective(const NormalData& data, const Vector& theta, Vector* gradient, const Vector& abs_x,
                        const NormalMmdPenalty* mmd) {
    const double a = theta[0], b = theta[1], s = theta[2];
    const bool features = abs_x.size() > 0;
    const auto mean = data.mean(), stddev = data.stddev(), y = data.targets();
    if (gradient) gradient->setZero(theta.size());
    CompensatedSum nll;
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
        const double sigma = std::exp(features ? s + theta[3] * abs_x[i] : s) * stddev[i];
        const double z = (y[i] - a * mean[i] - b) / sigma;  // the standardised residual
        nll.add(half_log_2pi + std::log(sigma) + 0.5 * z * z);
        if (!gradient) continue;
        (*gradient)[0] -= z / sigma * mean[i];
        (*gradient)[1] -= z / sigma;
        (*gradient)[2] += 1 - z * z;  // ∂/∂log σ′, and ∂log σ′/∂s1 = |x|
        if (features) (*gradient)[3] += (1 - z * z) * abs_x[i];
    }
    const double n = static_cast<double>(mean.size());
    if (gradient) *gradient /= n;
    double value = nll.value() / n;
    if (mmd && mmd->lambda > 0) value += normal_mmd_penalty(data, theta, gradient, abs_x, *mmd);
    return value;
}

}  // namespace calib::detail

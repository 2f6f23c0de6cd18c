// Validation and construction of the data containers (data.hpp).
#include <calib/data.hpp>

#include "core/check.hpp"
#include "data/covariance_check.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace calib {


using detail::check_finite;
using detail::check_positive;
using detail::check_same_rows;
using detail::fail;
using detail::fail_at;

namespace {

void check_matrix_finite(const char* function, const char* argument, const Matrix& x) {
    for (Eigen::Index k = 0; k < x.cols(); ++k)
        for (Eigen::Index i = 0; i < x.rows(); ++i) check_finite(function, argument, i, k, x(i, k));
}

void check_vector_finite(const char* function, const char* argument, const Vector& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i) check_finite(function, argument, i, 0, x(i));
}

void check_vector_positive(const char* function, const char* argument, const Vector& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i) check_positive(function, argument, i, 0, x(i));
}

}  // namespace

double default_simplex_tolerance(std::size_t m) {
    return std::max(1e-6, static_cast<double>(m) * 0x1p-24);
}

namespace detail {

double resolve_simplex_tolerance(const char* fn, const SimplexOptions& simplex, long m) {
    const double tolerance = simplex.tolerance.value_or(default_simplex_tolerance(static_cast<std::size_t>(m)));
    if (!(tolerance >= 0 && tolerance < 1))
        fail(fn, "simplex tolerance = ", format_value(tolerance), ", must be in [0, 1)");
    return tolerance;
}

// Checks row i of x (entries in [0, max_entry] first, in column order, then the sum), renormalises it
// when asked, and returns |Σ_k x_ik − 1| of the row as given. Entry errors report column
// column_offset + k; a sum error the whole row (column -1).
double check_simplex_row(const char* fn, const char* argument, Matrix& x, long i, double max_entry,
                         double tolerance, bool renormalize, long column_offset) {
    double sum = 0;
    for (long k = 0; k < x.cols(); ++k) {
        const double p = x(i, k);
        if (!(p >= 0 && p <= max_entry))
            fail_at(i, column_offset + k, fn, argument, "(", i, ", ", k, ") = ", format_value(p),
                    max_entry == 1 ? ", must be in [0, 1]" : ", must be finite and >= 0");
        sum += p;
    }
    const double deviation = std::abs(sum - 1);
    if (renormalize) {
        if (!(sum > 0 && std::isfinite(sum)))
            fail_at(i, -1, fn, argument, " row ", i, " sums to ", format_value(sum), ", cannot be renormalised");
        x.row(i) /= sum;
        sum = x.row(i).sum();
    }
    if (!(std::abs(sum - 1) <= tolerance))
        fail_at(i, -1, fn, argument, " row ", i, " sums to ", format_value(sum),
                ", must be on the simplex (sum 1 within ", format_value(tolerance), ")");
    return deviation;
}

}  // namespace detail

CategoricalData::CategoricalData(Matrix probabilities, std::vector<int> labels, const SimplexOptions& simplex)
    : probabilities_(std::move(probabilities)), labels_(std::move(labels)) {
    const char* fn = "CategoricalData";
    const long n = probabilities_.rows(), m = probabilities_.cols();
    detail::check_nonempty(fn, "probabilities", n);
    if (m < 2) fail(fn, "probabilities has ", m, " column(s), must have m >= 2 classes");
    check_same_rows(fn, "probabilities", n, "labels", static_cast<long>(labels_.size()));
    simplex_tolerance_ = detail::resolve_simplex_tolerance(fn, simplex, m);
    for (long i = 0; i < n; ++i) {
        max_simplex_deviation_ = std::max(
            max_simplex_deviation_, detail::check_simplex_row(fn, "probabilities", probabilities_, i, 1.0,
                                                              simplex_tolerance_, simplex.renormalize, 0));
        const int y = labels_[static_cast<std::size_t>(i)];
        if (y < 0 || y >= m)
            fail_at(i, m, fn, "labels[", i, "] = ", y, ", must be in [0, ", m - 1, "] (0-based)");
    }
}

CategoricalData CategoricalData::from_logits(const Matrix& logits, std::vector<int> labels) {
    const char* fn = "CategoricalData::from_logits";
    check_matrix_finite(fn, "logits", logits);
    // Checked here, not by the constructor: the row maxima below need at least one column.
    if (logits.cols() < 2) fail(fn, "logits has ", logits.cols(), " column(s), must have m >= 2 classes");
    // Subtracting the row maximum keeps exp() in (0, 1] and the normaliser in [1, m].
    Matrix p = (logits.colwise() - logits.rowwise().maxCoeff()).array().exp().matrix();
    p.array().colwise() /= p.rowwise().sum().array();
    return CategoricalData(std::move(p), std::move(labels));
}

CategoricalData CategoricalData::from_binary(const Vector& p, const std::vector<int>& y) {
    const char* fn = "CategoricalData::from_binary";
    check_same_rows(fn, "p", p.size(), "y", static_cast<long>(y.size()));
    Matrix probabilities(p.size(), 2);
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        if (!(p(i) >= 0 && p(i) <= 1))
            fail_at(i, 0, fn, "p[", i, "] = ", detail::format_value(p(i)), ", must be in [0, 1]");
        if (y[static_cast<std::size_t>(i)] != 0 && y[static_cast<std::size_t>(i)] != 1)
            fail_at(i, 1, fn, "y[", i, "] = ", y[static_cast<std::size_t>(i)], ", must be 0 or 1");
        probabilities(i, 0) = 1 - p(i);
        probabilities(i, 1) = p(i);
    }
    return CategoricalData(std::move(probabilities), y);
}

NormalData::NormalData(Vector mean, Vector stddev, Vector targets)
    : mean_(std::move(mean)), stddev_(std::move(stddev)), targets_(std::move(targets)) {
    const char* fn = "NormalData";
    detail::check_nonempty(fn, "mean", mean_.size());
    check_same_rows(fn, "mean", mean_.size(), "stddev", stddev_.size());
    check_same_rows(fn, "mean", mean_.size(), "targets", targets_.size());
    check_vector_finite(fn, "mean", mean_);
    check_vector_positive(fn, "stddev", stddev_);
    check_vector_finite(fn, "targets", targets_);
}

LaplaceData::LaplaceData(Vector mean, Vector scale, Vector targets)
    : mean_(std::move(mean)), scale_(std::move(scale)), targets_(std::move(targets)) {
    const char* fn = "LaplaceData";
    detail::check_nonempty(fn, "mean", mean_.size());
    check_same_rows(fn, "mean", mean_.size(), "scale", scale_.size());
    check_same_rows(fn, "mean", mean_.size(), "targets", targets_.size());
    check_vector_finite(fn, "mean", mean_);
    check_vector_positive(fn, "scale", scale_);
    check_vector_finite(fn, "targets", targets_);
}

namespace {
void check_mean_and_targets(const char* fn, const Matrix& mean, const Matrix& targets) {
    detail::check_nonempty(fn, "mean", mean.rows());
    if (mean.cols() < 1) fail(fn, "mean has 0 columns, the dimension d must be >= 1");
    check_same_rows(fn, "mean", mean.rows(), "targets", targets.rows());
    if (targets.cols() != mean.cols())
        fail(fn, "targets has ", targets.cols(), " columns but mean has ", mean.cols(),
             "; both must have d columns");
    check_matrix_finite(fn, "mean", mean);
    check_matrix_finite(fn, "targets", targets);
}
}  // namespace

MvNormalData MvNormalData::diagonal(Matrix mean, const Matrix& stddev, Matrix targets) {
    const char* fn = "MvNormalData::diagonal";
    check_mean_and_targets(fn, mean, targets);
    check_same_rows(fn, "mean", mean.rows(), "stddev", stddev.rows());
    if (stddev.cols() != mean.cols())
        fail(fn, "stddev has ", stddev.cols(), " columns but mean has ", mean.cols(),
             "; both must have d columns");
    for (Eigen::Index k = 0; k < stddev.cols(); ++k)
        for (Eigen::Index i = 0; i < stddev.rows(); ++i)
            check_positive(fn, "stddev", i, k, stddev(i, k));
    MvNormalData data;
    data.mean_ = std::move(mean);
    data.stddev_ = stddev;
    data.targets_ = std::move(targets);
    return data;
}

MvNormalData MvNormalData::full(Matrix mean, std::vector<Matrix> covariances, Matrix targets) {
    const char* fn = "MvNormalData::full";
    check_mean_and_targets(fn, mean, targets);
    check_same_rows(fn, "mean", mean.rows(), "covariances", static_cast<long>(covariances.size()));
    const long d = mean.cols();
    for (std::size_t i = 0; i < covariances.size(); ++i)
        detail::check_covariance(fn, detail::concat("covariances[", i, "]").c_str(), static_cast<long>(i),
                                 covariances[i], d);
    MvNormalData data;
    data.mean_ = std::move(mean);
    data.covariances_ = std::move(covariances);
    data.targets_ = std::move(targets);
    return data;
}

MixtureNormalData::MixtureNormalData(Matrix weights, Matrix means, Matrix stddevs, Vector targets,
                                     const SimplexOptions& simplex)
    : weights_(std::move(weights)), means_(std::move(means)), stddevs_(std::move(stddevs)),
      targets_(std::move(targets)) {
    const char* fn = "MixtureNormalData";
    const long n = targets_.size(), K = weights_.cols();
    detail::check_nonempty(fn, "targets", n);
    if (K < 1) fail(fn, "weights has 0 columns, the number of components K must be >= 1");
    check_same_rows(fn, "weights", weights_.rows(), "targets", n);
    check_same_rows(fn, "means", means_.rows(), "targets", n);
    check_same_rows(fn, "stddevs", stddevs_.rows(), "targets", n);
    if (means_.cols() != K || stddevs_.cols() != K)
        fail(fn, "weights, means and stddevs have ", K, ", ", means_.cols(), " and ", stddevs_.cols(),
             " columns; all three must have K columns (one per component)");
    simplex_tolerance_ = detail::resolve_simplex_tolerance(fn, simplex, K);
    // Row by row, so that the first error reported is the first in file order.
    for (long i = 0; i < n; ++i) {
        max_simplex_deviation_ = std::max(
            max_simplex_deviation_,
            detail::check_simplex_row(fn, "weights", weights_, i, std::numeric_limits<double>::max(),
                                      simplex_tolerance_, simplex.renormalize, 0));
        for (long k = 0; k < K; ++k)
            if (!std::isfinite(means_(i, k)))
                fail_at(i, K + k, fn, "means(", i, ", ", k, ") = ", detail::format_value(means_(i, k)),
                        ", must be finite");
        for (long k = 0; k < K; ++k)
            if (!(std::isfinite(stddevs_(i, k)) && stddevs_(i, k) > 0))
                fail_at(i, 2 * K + k, fn, "stddevs(", i, ", ", k, ") = ",
                        detail::format_value(stddevs_(i, k)), ", must be finite and > 0");
        if (!std::isfinite(targets_(i)))
            fail_at(i, 3 * K, fn, "targets(", i, ") = ", detail::format_value(targets_(i)), ", must be finite");
    }
}

MixtureNormalData MixtureNormalData::ensemble(Matrix means, Matrix stddevs, Vector targets) {
    const long K = means.cols();
    if (K < 1) fail("MixtureNormalData::ensemble", "means has 0 columns, the number of members K must be >= 1");
    Matrix weights = Matrix::Constant(means.rows(), K, 1.0 / static_cast<double>(K));
    return MixtureNormalData(std::move(weights), std::move(means), std::move(stddevs), std::move(targets));
}

namespace {

void check_indices(const std::vector<std::size_t>& indices, std::size_t n) {
    detail::check_nonempty("subset", "indices", static_cast<long>(indices.size()));
    for (std::size_t k = 0; k < indices.size(); ++k)
        if (indices[k] >= n) fail("subset", "indices[", k, "] = ", indices[k], ", must be < n = ", n);
}

template <class M>
M rows_of(const M& x, const std::vector<std::size_t>& indices) {
    M out(static_cast<Eigen::Index>(indices.size()), x.cols());
    for (std::size_t k = 0; k < indices.size(); ++k)
        out.row(static_cast<Eigen::Index>(k)) = x.row(static_cast<Eigen::Index>(indices[k]));
    return out;
}

}  // namespace

CategoricalData subset(const CategoricalData& data, const std::vector<std::size_t>& indices) {
    check_indices(indices, data.size());
    std::vector<int> labels(indices.size());
    for (std::size_t k = 0; k < indices.size(); ++k) labels[k] = data.labels()[indices[k]];
    return CategoricalData(rows_of(data.probabilities(), indices), std::move(labels),
                           SimplexOptions{data.simplex_tolerance(), false});
}

NormalData subset(const NormalData& data, const std::vector<std::size_t>& indices) {
    check_indices(indices, data.size());
    return NormalData(rows_of(data.mean(), indices), rows_of(data.stddev(), indices),
                      rows_of(data.targets(), indices));
}

LaplaceData subset(const LaplaceData& data, const std::vector<std::size_t>& indices) {
    check_indices(indices, data.size());
    return LaplaceData(rows_of(data.mean(), indices), rows_of(data.scale(), indices),
                       rows_of(data.targets(), indices));
}

MvNormalData subset(const MvNormalData& data, const std::vector<std::size_t>& indices) {
    check_indices(indices, data.size());
    if (data.is_diagonal())
        return MvNormalData::diagonal(rows_of(data.mean(), indices), rows_of(data.stddev(), indices),
                                      rows_of(data.targets(), indices));
    std::vector<Matrix> covariances;
    covariances.reserve(indices.size());
    for (std::size_t i : indices) covariances.push_back(data.covariances()[i]);
    return MvNormalData::full(rows_of(data.mean(), indices), std::move(covariances),
                              rows_of(data.targets(), indices));
}

MixtureNormalData subset(const MixtureNormalData& data, const std::vector<std::size_t>& indices) {
    check_indices(indices, data.size());
    return MixtureNormalData(rows_of(data.weights(), indices), rows_of(data.means(), indices),
                             rows_of(data.stddevs(), indices), rows_of(data.targets(), indices),
                             SimplexOptions{data.simplex_tolerance(), false});
}

}  // namespace calib

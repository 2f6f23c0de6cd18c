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

void check_matrix_finite(const char* function, const char* argument, const MatrixView& x) {
    for (Eigen::Index k = 0; k < x.cols(); ++k)
        for (Eigen::Index i = 0; i < x.rows(); ++i) check_finite(function, argument, i, k, x(i, k));
}

void check_vector_finite(const char* function, const char* argument, const VectorView& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i) check_finite(function, argument, i, 0, x(i));
}

void check_vector_positive(const char* function, const char* argument, const VectorView& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i) check_positive(function, argument, i, 0, x(i));
}

}  // namespace

MatrixView view_of(const Matrix& x) {
    return MatrixView(x.data(), x.rows(), x.cols(), Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(x.rows(), 1));
}

VectorView view_of(const Vector& x) { return VectorView(x.data(), x.size(), Eigen::InnerStride<Eigen::Dynamic>(1)); }

namespace detail {

Held<MatrixView> hold(Matrix x) {
    auto owned = std::make_shared<const Matrix>(std::move(x));
    return Held<MatrixView>(view_of(*owned), owned);
}

Held<VectorView> hold(Vector x) {
    auto owned = std::make_shared<const Vector>(std::move(x));
    return Held<VectorView>(view_of(*owned), owned);
}

}  // namespace detail

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

// Checks row i of x (entries in [0, max_entry] first, in column order, then the sum) and returns
// |Σ_k x_ik − 1|. Entry errors report column column_offset + k; a sum error the whole row (column -1).
double check_simplex_row(const char* fn, const char* argument, const MatrixView& x, long i, double max_entry,
                         double tolerance, long column_offset) {
    double sum = 0;
    for (long k = 0; k < x.cols(); ++k) {
        const double p = x(i, k);
        if (!(p >= 0 && p <= max_entry))
            fail_at(i, column_offset + k, fn, argument, "(", i, ", ", k, ") = ", format_value(p),
                    max_entry == 1 ? ", must be in [0, 1]" : ", must be finite and >= 0");
        sum += p;
    }
    if (!(std::abs(sum - 1) <= tolerance))
        fail_at(i, -1, fn, argument, " row ", i, " sums to ", format_value(sum),
                ", must be on the simplex (sum 1 within ", format_value(tolerance), ")");
    return std::abs(sum - 1);
}

// Checks the rows of x in order as check_simplex_row, each followed by after_row(i) (the checks of the
// row's other columns, so that the first error reported is the first in file order), and returns the
// largest deviation of the rows as given. With `renormalize`, each row is divided by its sum and then
// checked (x then holds the renormalised copy); its entries are checked as given.
template <class AfterRow>
double check_simplex_rows(const char* fn, const char* argument, Held<MatrixView>& x, double max_entry,
                          double tolerance, bool renormalize, long column_offset, AfterRow after_row) {
    const MatrixView given = x.view();
    double deviation = 0;
    if (!renormalize) {
        for (long i = 0; i < given.rows(); ++i) {
            deviation = std::max(deviation, check_simplex_row(fn, argument, given, i, max_entry, tolerance,
                                                              column_offset));
            after_row(i);
        }
        return deviation;
    }
    Matrix scaled = given;
    for (long i = 0; i < given.rows(); ++i) {
        double sum = 0;
        for (long k = 0; k < given.cols(); ++k) {
            const double p = given(i, k);
            if (!(p >= 0 && p <= max_entry))
                fail_at(i, column_offset + k, fn, argument, "(", i, ", ", k, ") = ", format_value(p),
                        max_entry == 1 ? ", must be in [0, 1]" : ", must be finite and >= 0");
            sum += p;
        }
        deviation = std::max(deviation, std::abs(sum - 1));
        if (!(sum > 0 && std::isfinite(sum)))
            fail_at(i, -1, fn, argument, " row ", i, " sums to ", format_value(sum), ", cannot be renormalised");
        scaled.row(i) /= sum;
        check_simplex_row(fn, argument, view_of(scaled), i, max_entry, tolerance, column_offset);
        after_row(i);
    }
    x = hold(std::move(scaled));
    return deviation;
}

}  // namespace detail

CategoricalData::CategoricalData(Matrix probabilities, std::vector<int> labels, const SimplexOptions& simplex)
    : probabilities_(detail::hold(std::move(probabilities))), labels_(std::move(labels)) {
    validate(simplex);
}

CategoricalData::CategoricalData(const MatrixView& probabilities, Owner owner, std::vector<int> labels,
                                 const SimplexOptions& simplex)
    : probabilities_(probabilities, std::move(owner)), labels_(std::move(labels)) {
    validate(simplex);
}

void CategoricalData::validate(const SimplexOptions& simplex) {
    const char* fn = "CategoricalData";
    const long n = probabilities().rows(), m = probabilities().cols();
    detail::check_nonempty(fn, "probabilities", n);
    if (m < 2) fail(fn, "probabilities has ", m, " column(s), must have m >= 2 classes");
    check_same_rows(fn, "probabilities", n, "labels", static_cast<long>(labels_.size()));
    simplex_tolerance_ = detail::resolve_simplex_tolerance(fn, simplex, m);
    max_simplex_deviation_ = detail::check_simplex_rows(
        fn, "probabilities", probabilities_, 1.0, simplex_tolerance_, simplex.renormalize, 0, [&](long i) {
            const int y = labels_[static_cast<std::size_t>(i)];
            if (y < 0 || y >= m)
                fail_at(i, m, fn, "labels[", i, "] = ", y, ", must be in [0, ", m - 1, "] (0-based)");
        });
}

CategoricalData CategoricalData::from_logits(const Matrix& logits, std::vector<int> labels) {
    const char* fn = "CategoricalData::from_logits";
    check_matrix_finite(fn, "logits", view_of(logits));
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

CategoricalData CategoricalData::top_label_event() const {
    const MatrixView& p = probabilities();
    Vector confidence(p.rows());
    std::vector<int> correct(size());
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        Eigen::Index top = 0;  // strict > keeps the first class on ties, as the top-label ECE and diagram
        for (Eigen::Index k = 1; k < p.cols(); ++k)
            if (p(i, k) > p(i, top)) top = k;
        confidence[i] = p(i, top);
        correct[static_cast<std::size_t>(i)] = labels_[static_cast<std::size_t>(i)] == top ? 1 : 0;
    }
    return from_binary(confidence, correct);
}

CategoricalData CategoricalData::class_event(int k) const {
    if (k < 0 || k >= num_classes())
        fail("CategoricalData::class_event", "class ", k, " of predictions of ", num_classes(),
             " classes; classes are 0-based, in [0, ", num_classes(), ")");
    std::vector<int> is_k(size());
    for (std::size_t i = 0; i < size(); ++i) is_k[i] = labels_[i] == k ? 1 : 0;
    return from_binary(probabilities().col(k), is_k);
}

NormalData::NormalData(Vector mean, Vector stddev, Vector targets)
    : mean_(detail::hold(std::move(mean))), stddev_(detail::hold(std::move(stddev))),
      targets_(detail::hold(std::move(targets))) {
    validate();
}

NormalData::NormalData(const VectorView& mean, const VectorView& stddev, const VectorView& targets, Owner owner)
    : mean_(mean, owner), stddev_(stddev, owner), targets_(targets, owner) {
    validate();
}

void NormalData::validate() const {
    const char* fn = "NormalData";
    detail::check_nonempty(fn, "mean", mean().size());
    check_same_rows(fn, "mean", mean().size(), "stddev", stddev().size());
    check_same_rows(fn, "mean", mean().size(), "targets", targets().size());
    check_vector_finite(fn, "mean", mean());
    check_vector_positive(fn, "stddev", stddev());
    check_vector_finite(fn, "targets", targets());
}

LaplaceData::LaplaceData(Vector mean, Vector scale, Vector targets)
    : mean_(detail::hold(std::move(mean))), scale_(detail::hold(std::move(scale))),
      targets_(detail::hold(std::move(targets))) {
    validate();
}

LaplaceData::LaplaceData(const VectorView& mean, const VectorView& scale, const VectorView& targets, Owner owner)
    : mean_(mean, owner), scale_(scale, owner), targets_(targets, owner) {
    validate();
}

void LaplaceData::validate() const {
    const char* fn = "LaplaceData";
    detail::check_nonempty(fn, "mean", mean().size());
    check_same_rows(fn, "mean", mean().size(), "scale", scale().size());
    check_same_rows(fn, "mean", mean().size(), "targets", targets().size());
    check_vector_finite(fn, "mean", mean());
    check_vector_positive(fn, "scale", scale());
    check_vector_finite(fn, "targets", targets());
}

namespace {
void check_mean_and_targets(const char* fn, const MatrixView& mean, const MatrixView& targets) {
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

MvNormalData MvNormalData::diagonal(Matrix mean, Matrix stddev, Matrix targets) {
    auto m = detail::hold(std::move(mean)), s = detail::hold(std::move(stddev)), y = detail::hold(std::move(targets));
    MvNormalData data = diagonal(m.view(), s.view(), y.view(), nullptr);
    data.mean_ = m;
    data.stddev_ = s;
    data.targets_ = y;
    return data;
}

MvNormalData MvNormalData::diagonal(const MatrixView& mean, const MatrixView& stddev, const MatrixView& targets,
                                    Owner owner) {
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
    data.mean_ = detail::Held<MatrixView>(mean, owner);
    data.stddev_ = detail::Held<MatrixView>(stddev, owner);
    data.targets_ = detail::Held<MatrixView>(targets, owner);
    return data;
}

MvNormalData MvNormalData::full(Matrix mean, std::vector<Matrix> covariances, Matrix targets) {
    auto m = detail::hold(std::move(mean)), y = detail::hold(std::move(targets));
    MvNormalData data = full(m.view(), std::move(covariances), y.view(), nullptr);
    data.mean_ = m;
    data.targets_ = y;
    return data;
}

MvNormalData MvNormalData::full(const MatrixView& mean, std::vector<Matrix> covariances, const MatrixView& targets,
                                Owner owner) {
    const char* fn = "MvNormalData::full";
    check_mean_and_targets(fn, mean, targets);
    check_same_rows(fn, "mean", mean.rows(), "covariances", static_cast<long>(covariances.size()));
    const long d = mean.cols();
    for (std::size_t i = 0; i < covariances.size(); ++i)
        detail::check_covariance(fn, detail::concat("covariances[", i, "]").c_str(), static_cast<long>(i),
                                 covariances[i], d);
    MvNormalData data;
    data.mean_ = detail::Held<MatrixView>(mean, owner);
    data.covariances_ = std::move(covariances);
    data.targets_ = detail::Held<MatrixView>(targets, owner);
    return data;
}

MixtureNormalData::MixtureNormalData(Matrix weights, Matrix means, Matrix stddevs, Vector targets,
                                     const SimplexOptions& simplex)
    : weights_(detail::hold(std::move(weights))), means_(detail::hold(std::move(means))),
      stddevs_(detail::hold(std::move(stddevs))), targets_(detail::hold(std::move(targets))) {
    validate(simplex);
}

MixtureNormalData::MixtureNormalData(const MatrixView& weights, const MatrixView& means, const MatrixView& stddevs,
                                     const VectorView& targets, Owner owner, const SimplexOptions& simplex)
    : weights_(weights, owner), means_(means, owner), stddevs_(stddevs, owner), targets_(targets, owner) {
    validate(simplex);
}

void MixtureNormalData::validate(const SimplexOptions& simplex) {
    const char* fn = "MixtureNormalData";
    const MatrixView &w = weights(), &mu = means(), &sd = stddevs();
    const VectorView& y = targets();
    const long n = y.size(), K = w.cols();
    detail::check_nonempty(fn, "targets", n);
    if (K < 1) fail(fn, "weights has 0 columns, the number of components K must be >= 1");
    check_same_rows(fn, "weights", w.rows(), "targets", n);
    check_same_rows(fn, "means", mu.rows(), "targets", n);
    check_same_rows(fn, "stddevs", sd.rows(), "targets", n);
    if (mu.cols() != K || sd.cols() != K)
        fail(fn, "weights, means and stddevs have ", K, ", ", mu.cols(), " and ", sd.cols(),
             " columns; all three must have K columns (one per component)");
    simplex_tolerance_ = detail::resolve_simplex_tolerance(fn, simplex, K);
    max_simplex_deviation_ = detail::check_simplex_rows(
        fn, "weights", weights_, std::numeric_limits<double>::max(), simplex_tolerance_, simplex.renormalize, 0,
        [&](long i) {
            for (long k = 0; k < K; ++k)
                if (!std::isfinite(mu(i, k)))
                    fail_at(i, K + k, fn, "means(", i, ", ", k, ") = ", detail::format_value(mu(i, k)),
                            ", must be finite");
            for (long k = 0; k < K; ++k)
                if (!(std::isfinite(sd(i, k)) && sd(i, k) > 0))
                    fail_at(i, 2 * K + k, fn, "stddevs(", i, ", ", k, ") = ", detail::format_value(sd(i, k)),
                            ", must be finite and > 0");
            if (!std::isfinite(y(i)))
                fail_at(i, 3 * K, fn, "targets(", i, ") = ", detail::format_value(y(i)), ", must be finite");
        });
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

Matrix rows_of(const MatrixView& x, const std::vector<std::size_t>& indices) {
    Matrix out(static_cast<Eigen::Index>(indices.size()), x.cols());
    for (std::size_t k = 0; k < indices.size(); ++k)
        out.row(static_cast<Eigen::Index>(k)) = x.row(static_cast<Eigen::Index>(indices[k]));
    return out;
}

Vector rows_of(const VectorView& x, const std::vector<std::size_t>& indices) {
    Vector out(static_cast<Eigen::Index>(indices.size()));
    for (std::size_t k = 0; k < indices.size(); ++k)
        out(static_cast<Eigen::Index>(k)) = x(static_cast<Eigen::Index>(indices[k]));
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

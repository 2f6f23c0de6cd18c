// Containers that read a caller's buffer in place (data.hpp): no copy, the owner kept alive while any
// copy of the container reads it, the same validation, and bitwise the same estimates as containers
// that own their values, for every family and layout (row-major buffers as NumPy's C order,
// strided views).
#include "data/column_major.hpp"
#include "support.hpp"

#include <calib/estimators.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

using namespace calib;
using namespace calib::test;

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Strides = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;

// x in a row-major buffer (C order) that the returned owner holds, and the view of it.
std::pair<MatrixView, Owner> row_major(const MatrixView& x) {
    auto buffer = std::make_shared<RowMajor>(x);
    return {MatrixView(buffer->data(), x.rows(), x.cols(), Strides(1, x.cols())), buffer};
}

// x as every third element of a buffer (a strided view of a vector).
std::pair<VectorView, Owner> strided(const VectorView& x) {
    auto buffer = std::make_shared<Vector>(Vector::Zero(3 * x.size()));
    for (Eigen::Index i = 0; i < x.size(); ++i) (*buffer)(3 * i + 1) = x(i);
    return {VectorView(buffer->data() + 1, x.size(), Eigen::InnerStride<Eigen::Dynamic>(3)), buffer};
}

// The SKCE unbiased and linear (B = 2) estimates of a data set, with its family's default kernel.
template <class Data>
std::pair<double, double> estimates(const Data& d) {
    const Kernel k = default_kernel(d);
    return {skce_unbiased(d, k), skce_block(d, k, 2).estimate};
}

}  // namespace

TEST_SUITE("data") {

TEST_CASE("a container reads a caller's buffer in place and keeps it alive") {
    Rng rng(3);
    const CategoricalData owned = synthetic::dirichlet_data(50, 4, 1.0, rng);
    auto [view, owner] = row_major(owned.probabilities());
    const double* buffer = view.data();
    std::optional<CategoricalData> in_place;
    in_place.emplace(view, owner, owned.labels());
    CHECK(in_place->probabilities().data() == buffer);  // not copied
    const long users = owner.use_count();
    CHECK(users > 1);
    const CategoricalData copy = *in_place;  // copies share the values
    CHECK(copy.probabilities().data() == buffer);
    in_place.reset();
    CHECK(owner.use_count() == users);  // the copy still holds the buffer
    CHECK(copy.probabilities() == owned.probabilities());

    // Renormalising changes the values: a copy, the buffer untouched.
    const RowMajor before = *std::static_pointer_cast<const RowMajor>(owner);
    const CategoricalData renormalised(view, owner, owned.labels(), SimplexOptions{std::nullopt, true});
    CHECK(renormalised.probabilities().data() != buffer);
    CHECK(*std::static_pointer_cast<const RowMajor>(owner) == before);
}

TEST_CASE("views are validated as owned values are, with the same messages and locations") {
    Matrix p(3, 2);
    p << 0.5, 0.5, 0.2, 0.9, 0.3, 0.7;
    const auto [view, owner] = row_major(view_of(p));
    std::string owned_message, view_message;
    try {
        CategoricalData(p, {0, 1, 1});
    } catch (const calib::invalid_argument& e) {
        owned_message = e.what();
    }
    try {
        CategoricalData(view, owner, {0, 1, 1});
    } catch (const calib::invalid_argument& e) {
        view_message = e.what();
        CHECK(e.row() == 1);
    }
    CHECK(owned_message.find("row 1 sums to") != std::string::npos);
    CHECK(view_message == owned_message);
    const Vector sigma = Vector::Constant(3, -1.0);
    const auto [s, so] = strided(view_of(sigma));
    CHECK_THROWS_WITH_AS(NormalData(view_of(sigma), s, view_of(sigma), so), doctest::Contains("stddev"),
                         calib::invalid_argument);
}

TEST_CASE("every family: the same estimates, bitwise, from owned values and from views of any layout") {
    Rng rng(11);
    {
        const CategoricalData owned = synthetic::dirichlet_data(120, 5, 0.5, rng);
        const auto [p, o] = row_major(owned.probabilities());
        const CategoricalData view(p, o, owned.labels());
        CHECK(estimates(view) == estimates(owned));
        CHECK(ece(view) == ece(owned));
    }
    {
        const NormalData owned = normal_data(120, rng);
        const auto [m, om] = strided(owned.mean());
        const auto [s, os] = strided(owned.stddev());
        const auto [y, oy] = strided(owned.targets());
        CHECK(estimates(NormalData(m, s, y, std::make_shared<std::vector<Owner>>(std::vector<Owner>{om, os, oy}))) ==
              estimates(owned));
    }
    {
        const LaplaceData owned = laplace_data(120, rng);
        const auto [m, om] = strided(owned.mean());
        const auto [s, os] = strided(owned.scale());
        const auto [y, oy] = strided(owned.targets());
        CHECK(estimates(LaplaceData(m, s, y, std::make_shared<std::vector<Owner>>(std::vector<Owner>{om, os, oy}))) ==
              estimates(owned));
    }
    {
        const MvNormalData owned = mvnormal_full_data(80, 3, rng);
        const auto [m, om] = row_major(owned.mean());
        const auto [y, oy] = row_major(owned.targets());
        const MvNormalData view =
            MvNormalData::full(m, owned.covariances(), y, std::make_shared<std::vector<Owner>>(std::vector<Owner>{om, oy}));
        CHECK(estimates(view) == estimates(owned));
        const Matrix sd = Matrix::Constant(80, 3, 0.5);
        const MvNormalData diagonal = MvNormalData::diagonal(owned.mean(), sd, owned.targets());
        const auto [s, os] = row_major(view_of(sd));
        CHECK(estimates(MvNormalData::diagonal(m, s, y, std::make_shared<std::vector<Owner>>(std::vector<Owner>{om, os, oy}))) ==
              estimates(diagonal));
    }
    {
        const MixtureNormalData owned = mixture_data(100, 3, rng);
        const auto [w, ow] = row_major(owned.weights());
        const auto [m, om] = row_major(owned.means());
        const auto [s, os] = row_major(owned.stddevs());
        const auto [y, oy] = strided(owned.targets());
        CHECK(estimates(MixtureNormalData(w, m, s, y, std::make_shared<std::vector<Owner>>(std::vector<Owner>{ow, om, os, oy}))) ==
              estimates(owned));
    }
}

}  // TEST_SUITE

TEST_CASE("column_major_copy: the view's values bit for bit, from rows, columns and strided storage") {
    Matrix x(37, 7);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        for (Eigen::Index k = 0; k < x.cols(); ++k) x(i, k) = std::ldexp(1.0 + 0.1 * double(i * 7 + k), int(k) - 3);
    const auto [rows, rows_owner] = row_major(view_of(x));
    CHECK(detail::column_major_copy(rows).cwiseEqual(x).all());
    CHECK(detail::column_major_copy(view_of(x)).cwiseEqual(x).all());
    // Every other column of a wider buffer, stored by rows (a sliced C-order array).
    auto wide = std::make_shared<RowMajor>(37, 14);
    for (Eigen::Index k = 0; k < 7; ++k) wide->col(2 * k) = x.col(k);
    const MatrixView sliced(wide->data(), 37, 7, Strides(2, 14));
    CHECK(detail::column_major_copy(sliced).cwiseEqual(x).all());
    CHECK(detail::column_major_copy(MatrixView(nullptr, 0, 7, Strides(1, 7))).size() == 0);
}

// UCME estimator and its deviation matrix (estimators.hpp); the n×J evaluations run row-parallel.
#include <calib/estimators.hpp>

#include "check.hpp"
#include "families.hpp"
#include "pair_terms.hpp"

#include <type_traits>

namespace calib {

using detail::fail;

namespace {

template <class Data>
void check_locations(const Data& data, const Data& locations) {
    if constexpr (std::is_same_v<Data, CategoricalData>) {
        if (locations.num_classes() != data.num_classes())
            fail("ucme", "the test locations have ", locations.num_classes(), " classes but the data has ",
                 data.num_classes(), "; they must match");
    }
    if constexpr (std::is_same_v<Data, MvNormalData>) {
        if (locations.dimension() != data.dimension())
            fail("ucme", "the test locations have dimension ", locations.dimension(), " but the data has ",
                 data.dimension(), "; they must match");
        if (locations.is_diagonal() != data.is_diagonal())
            fail("ucme", "the test locations and the data must both have diagonal or both full covariances");
    }
}

}  // namespace

template <class Data>
Matrix ucme_deviations(const Data& data, const Data& locations, const Kernel& kernel,
                       const ParallelOptions& parallel) {
    validate_kernel(data, kernel, "ucme");
    check_locations(data, locations);
    const std::size_t n = data.size(), J = locations.size();
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> z(n, J);
    detail::with_cross_term(data, locations, kernel, [&](const auto& term) {
        detail::cross_rows(term, n, J, z.data(), parallel);
    });
    if (!z.allFinite()) detail::check_result("ucme", z.sum());
    return z;
}

template <class Data>
double ucme(const Data& data, const Data& locations, const Kernel& kernel, const ParallelOptions& parallel) {
    const Matrix z = ucme_deviations(data, locations, kernel, parallel);
    detail::CompensatedSum squares;
    for (Eigen::Index j = 0; j < z.cols(); ++j) {
        detail::CompensatedSum column;
        for (Eigen::Index i = 0; i < z.rows(); ++i) column.add(z(i, j));
        const double mean = column.value() / static_cast<double>(z.rows());
        squares.add(mean * mean);
    }
    return squares.value() / static_cast<double>(z.cols());
}

#define CALIB_INSTANTIATE(Data)                                                                     \
    template Matrix ucme_deviations<Data>(const Data&, const Data&, const Kernel&, const ParallelOptions&); \
    template double ucme<Data>(const Data&, const Data&, const Kernel&, const ParallelOptions&);
CALIB_FOR_EACH_FAMILY(CALIB_INSTANTIATE)
#undef CALIB_INSTANTIATE

}  // namespace calib

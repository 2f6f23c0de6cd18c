// UCME estimator and its deviation matrix (estimators.hpp); the n×J evaluations run row-parallel.
#include <calib/estimators.hpp>

#include "core/check.hpp"
#include "data/family_list.hpp"
#include "kernels/family_ops.hpp"

namespace calib {

using detail::fail;


template <class Data>
Matrix ucme_deviations(const Data& data, const Data& locations, const Kernel& kernel,
                       const ParallelOptions& parallel) {
    validate_kernel(data, kernel, "ucme");
    const detail::RowMajorMatrix z = detail::FamilyOps<Data>::cross("ucme", data, locations, kernel, parallel);
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

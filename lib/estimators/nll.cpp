// The mean negative log-likelihood of the targets under the predicted distributions (reliability.hpp).
#include <calib/reliability.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "core/normal_distribution.hpp"
#include "data/family_list.hpp"
#include "estimators/mahalanobis.hpp"

#include <algorithm>
#include <cmath>

namespace calib {

namespace {

// The mean of term(i) over the n observations, compensated.
template <class Term>
double mean_of(std::size_t n, Term term) {
    detail::CompensatedSum sum;
    for (std::size_t i = 0; i < n; ++i) sum.add(term(static_cast<Eigen::Index>(i)));
    return sum.value() / static_cast<double>(n);
}

}  // namespace

template <class Data, class>
double mean_nll(const Data& d) {
    return mean_of(d.size(), [&](Eigen::Index i) { return d.nll(i, d.targets()(i)); });
}
#define CALIB_MEAN_NLL(Data) template double mean_nll(const Data&);
CALIB_FOR_EACH_UNIVARIATE_FAMILY(CALIB_MEAN_NLL)
#undef CALIB_MEAN_NLL

// −log p_i(y_i) of the true class: +inf when the label's probability is 0, which is the value.
double mean_nll(const CategoricalData& d, double clip) {
    if (!(clip >= 0 && clip < 0.5)) detail::fail("mean_nll", "clip = ", clip, ", must be in [0, 0.5)");
    if (clip > 0) {
        const auto clipped = [clip](double p) { return std::min(std::max(p, clip), 1 - clip); };
        return mean_of(d.size(), [&](Eigen::Index i) {
            double sum = 0;
            for (Eigen::Index k = 0; k < d.probabilities().cols(); ++k) sum += clipped(d.probabilities()(i, k));
            return std::log(sum) - std::log(clipped(d.probabilities()(i, d.labels()[static_cast<std::size_t>(i)])));
        });
    }
    for (std::size_t i = 0; i < d.size(); ++i)  // the compensated sum would turn +inf into inf − inf = NaN
        if (d.probabilities()(static_cast<Eigen::Index>(i), d.labels()[i]) == 0) return HUGE_VAL;
    return mean_of(d.size(), [&](Eigen::Index i) {
        return -std::log(d.probabilities()(i, d.labels()[static_cast<std::size_t>(i)]));
    });
}

double mean_nll(const MvNormalData& d) {
    const double dim = d.dimension();
    return mean_of(d.size(), [&](Eigen::Index i) {
        const detail::Mahalanobis m = detail::mahalanobis(d, static_cast<std::size_t>(i), "mean_nll");
        return dim * detail::half_log_two_pi + 0.5 * (m.log_det + m.squared_distance);
    });
}

}  // namespace calib

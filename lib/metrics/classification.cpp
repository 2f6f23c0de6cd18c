// The paper's metrics of class predictions: accuracy, mean entropy and the top-label ECE (metrics.hpp).
#include <calib/estimators.hpp>
#include <calib/metrics.hpp>

#include "core/compensated_sum.hpp"

#include <cmath>

namespace calib {

namespace {

// argmax_k p_ik, the first class on ties (as ece's top-label mode takes it).
int predicted_class(const CategoricalData& data, Eigen::Index i) {
    const auto& p = data.probabilities();
    Eigen::Index best = 0;
    for (Eigen::Index k = 1; k < p.cols(); ++k)
        if (p(i, k) > p(i, best)) best = k;
    return static_cast<int>(best);
}

}  // namespace

double accuracy(const CategoricalData& data) {
    std::size_t correct = 0;
    for (std::size_t i = 0; i < data.size(); ++i)
        correct += predicted_class(data, static_cast<Eigen::Index>(i)) == data.labels()[i];
    return static_cast<double>(correct) / static_cast<double>(data.size());
}

double mean_entropy(const CategoricalData& data) {
    const auto& p = data.probabilities();
    detail::CompensatedSum sum;
    for (Eigen::Index i = 0; i < p.rows(); ++i)
        for (Eigen::Index k = 0; k < p.cols(); ++k)
            if (p(i, k) > 0) sum.add(-p(i, k) * std::log(p(i, k)));  // 0·log 0 = 0, its limit
    return sum.value() / static_cast<double>(data.size());
}

double top_label_ece(const CategoricalData& data, int bins) {
    EceOptions options;
    options.binning = BinningScheme::uniform;
    options.nbins = bins;
    options.mode = EceMode::top_label;
    options.distance = EceDistance::tv;
    return ece(data, options);
}

}  // namespace calib

// Binned expected calibration error (estimators.hpp: ece) and the names of its options.
#include <calib/estimators.hpp>

#include "data/column_major.hpp"
#include "estimators/binning.hpp"
#include "core/check.hpp"

#include <cmath>

namespace calib {

using detail::fail;

std::string to_string(EceMode mode) {
    switch (mode) {
        case EceMode::canonical: return "canonical";
        case EceMode::top_label: return "top-label";
    }
    fail("to_string", "EceMode value ", static_cast<int>(mode), " is not a valid mode");
}

std::string to_string(EceDistance distance) {
    switch (distance) {
        case EceDistance::tv: return "tv";
        case EceDistance::l1: return "l1";
        case EceDistance::euclidean: return "euclidean";
        case EceDistance::sqeuclidean: return "sqeuclidean";
    }
    fail("to_string", "EceDistance value ", static_cast<int>(distance), " is not a valid distance");
}

EceMode parse_ece_mode(const std::string& name) {
    for (EceMode mode : {EceMode::canonical, EceMode::top_label})
        if (name == to_string(mode)) return mode;
    fail("parse_ece_mode", "mode = \"", name, "\", must be one of: canonical, top-label");
}

EceDistance parse_ece_distance(const std::string& name) {
    for (EceDistance d : {EceDistance::tv, EceDistance::l1, EceDistance::euclidean,
                          EceDistance::sqeuclidean})
        if (name == to_string(d)) return d;
    fail("parse_ece_distance", "distance = \"", name,
         "\", must be one of: tv, l1, euclidean, sqeuclidean");
}

namespace {

void check_options(const EceOptions& options, std::size_t n) {
    if (options.nbins < 1) fail("ece", "nbins = ", options.nbins, ", must be >= 1");
    if (options.minsize < 1) fail("ece", "minsize = ", options.minsize, ", must be >= 1");
    if (options.maxbins < 1) fail("ece", "maxbins = ", options.maxbins, ", must be >= 1");
    if (options.binning != BinningScheme::uniform &&
        options.binning != BinningScheme::median_variance)
        fail("ece", "binning = ", static_cast<int>(options.binning), " is not a valid BinningScheme");
    if (options.mode != EceMode::canonical && options.mode != EceMode::top_label)
        fail("ece", "mode = ", static_cast<int>(options.mode), " is not a valid EceMode");
    (void)to_string(options.distance);  // throws on an invalid value
    // As in the reference: with fewer points than minsize no bin could be large enough.
    if (options.binning == BinningScheme::median_variance &&
        static_cast<std::size_t>(options.minsize) > n)
        fail("ece", "minsize = ", options.minsize, " exceeds n = ", n,
             ", median-variance binning needs minsize <= n");
}

double distance(EceDistance d, const Vector& a, const Vector& b) {
    // A plain loop: Eigen's AVX-512 reductions trip a GCC 12 -Wmaybe-uninitialized false positive.
    double abs_sum = 0, square_sum = 0;
    for (Eigen::Index k = 0; k < a.size(); ++k) {
        const double diff = a(k) - b(k);
        abs_sum += std::abs(diff);
        square_sum += diff * diff;
    }
    switch (d) {
        case EceDistance::tv: return 0.5 * abs_sum;
        case EceDistance::l1: return abs_sum;
        case EceDistance::euclidean: return std::sqrt(square_sum);
        case EceDistance::sqeuclidean: return square_sum;
    }
    return 0;  // unreachable: options were checked
}

// Σ_b (n_b/n) d(mean prediction_b, label frequencies_b), compensated over bins.
double binned_error(const Eigen::Ref<const Matrix>& predictions, const std::vector<int>& labels,
                    const detail::Bins& bins, EceDistance d) {
    const double n = static_cast<double>(labels.size());
    double sum = 0, compensation = 0;
    detail::BinSummary s(predictions.cols(), static_cast<int>(predictions.cols()));
    for (const detail::Bin& bin : bins) {
        s.summarize(predictions, labels, bin);
        const double term = static_cast<double>(s.size) / n *
                            distance(d, s.mean_prediction, s.label_frequency);
        const double t = sum + term;
        compensation += std::abs(sum) >= std::abs(term) ? (sum - t) + term : (term - t) + sum;
        sum = t;
    }
    return sum + compensation;
}

detail::Bins make_bins(const Eigen::Ref<const Matrix>& x, const EceOptions& options) {
    return options.binning == BinningScheme::uniform
               ? detail::uniform_binning(x, options.nbins)
               : detail::median_variance_binning(x, options.minsize, options.maxbins);
}

}  // namespace

double ece(const CategoricalData& data, const EceOptions& options) {
    const std::size_t n = data.size();
    check_options(options, n);
    if (options.mode == EceMode::canonical) {
        const Matrix p = detail::column_major_copy(data.probabilities());  // contiguous columns for the binning
        return binned_error(p, data.labels(), make_bins(p, options), options.distance);
    }

    // Top-label: the 2-class problem ([c, 1 − c], 0 if y = argmax else 1), so the label
    // frequencies are [accuracy, 1 − accuracy]; bins are taken on c alone. The rows are read from the
    // caller's view as they lie (a copy of all m columns would cost more than the rest: 800 MB at
    // n = 10^6, m = 100); the values, and so the result, are the same whatever the layout.
    const MatrixView& p = data.probabilities();
    Matrix reduced(p.rows(), 2);
    std::vector<int> outcome(n);  // 0: the label is the predicted class, 1: it is not
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        Eigen::Index argmax = 0;  // strict > keeps the first class on ties
        for (Eigen::Index k = 1; k < p.cols(); ++k)
            if (p(i, k) > p(i, argmax)) argmax = k;
        const std::size_t row = static_cast<std::size_t>(i);
        reduced(i, 0) = p(i, argmax);
        reduced(i, 1) = 1 - p(i, argmax);
        outcome[row] = data.labels()[row] == argmax ? 0 : 1;
    }
    return binned_error(reduced, outcome, make_bins(reduced.leftCols(1), options), options.distance);
}

}  // namespace calib

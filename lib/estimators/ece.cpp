// Binned expected calibration error (estimators.hpp: ece) and the names of its options.
#include <calib/estimators.hpp>

#include "data/column_major.hpp"
#include "estimators/binning.hpp"
#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "core/name_table.hpp"

#include <calib/prediction_bins.hpp>

#include <algorithm>
#include <cmath>

namespace calib {

using detail::fail;

std::string to_string(EceMode mode) {
    switch (mode) {
        case EceMode::canonical: return "canonical";
        case EceMode::top_label: return "top-label";
        case EceMode::class_wise: return "class-wise";
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

namespace {
const detail::NameTable<EceAggregate> aggregate_names = {
    {EceAggregate::mean, "mean"}, {EceAggregate::max, "max"}, {EceAggregate::rms, "rms"}};
}  // namespace

std::string to_string(EceAggregate aggregate) {
    const std::string name = detail::name_of(aggregate_names, aggregate);
    if (name == "?") fail("to_string", "EceAggregate value ", static_cast<int>(aggregate), " is not a valid aggregate");
    return name;
}

EceMode parse_ece_mode(const std::string& name) {
    for (EceMode mode : {EceMode::canonical, EceMode::top_label, EceMode::class_wise})
        if (name == to_string(mode)) return mode;
    fail("parse_ece_mode", "mode = \"", name, "\", must be one of: canonical, top-label, class-wise");
}

EceDistance parse_ece_distance(const std::string& name) {
    for (EceDistance d : {EceDistance::tv, EceDistance::l1, EceDistance::euclidean,
                          EceDistance::sqeuclidean})
        if (name == to_string(d)) return d;
    fail("parse_ece_distance", "distance = \"", name,
         "\", must be one of: tv, l1, euclidean, sqeuclidean");
}

EceAggregate parse_ece_aggregate(const std::string& name) {
    return detail::value_named(aggregate_names, name, "parse_ece_aggregate", "aggregate", "aggregates");
}

namespace {

bool scalar_binning(BinningScheme b) { return b == BinningScheme::equal_mass || b == BinningScheme::quantile; }

void check_options(const EceOptions& options, std::size_t n) {
    if (options.nbins < 1) fail("ece", "nbins = ", options.nbins, ", must be >= 1");
    if (options.minsize < 1) fail("ece", "minsize = ", options.minsize, ", must be >= 1");
    if (options.maxbins < 1) fail("ece", "maxbins = ", options.maxbins, ", must be >= 1");
    if (options.binning != BinningScheme::uniform && options.binning != BinningScheme::median_variance &&
        options.binning != BinningScheme::equal_mass && options.binning != BinningScheme::quantile)
        fail("ece", "binning = ", static_cast<int>(options.binning), " is not a valid BinningScheme");
    (void)to_string(options.mode);  // each throws on an invalid value
    (void)to_string(options.distance);
    (void)to_string(options.aggregate);
    if (scalar_binning(options.binning) && options.mode == EceMode::canonical)
        fail("ece", "equal-mass and quantile binnings bin one number per observation; the canonical mode bins the "
                    "whole probability vector: use mode top-label or class-wise");
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

// The aggregate over cells of weight w and distance d: Σ w·d, max d or √(Σ w·d²), compensated.
class CellAggregate {
public:
    explicit CellAggregate(EceAggregate kind) : kind_(kind) {}
    void add(double weight, double d) {
        if (kind_ == EceAggregate::max) max_ = std::max(max_, d);
        else sum_.add(weight * (kind_ == EceAggregate::rms ? d * d : d));
    }
    double value() const {
        if (kind_ == EceAggregate::max) return max_;
        return kind_ == EceAggregate::rms ? std::sqrt(sum_.value()) : sum_.value();
    }

private:
    EceAggregate kind_;
    detail::CompensatedSum sum_;
    double max_ = 0;
};

// Adds each bin's (n_b/(n·parts), d(mean prediction_b, label frequencies_b)) to `cells`.
void add_bins(CellAggregate& cells, const Eigen::Ref<const Matrix>& predictions, const std::vector<int>& labels,
              const detail::Bins& bins, EceDistance d, double parts) {
    const double total = static_cast<double>(labels.size()) * parts;
    detail::BinSummary s(predictions.cols(), static_cast<int>(predictions.cols()));
    for (const detail::Bin& bin : bins) {
        s.summarize(predictions, labels, bin);
        cells.add(static_cast<double>(s.size) / total, distance(d, s.mean_prediction, s.label_frequency));
    }
}

// The non-empty bins of one column x by the edges of a prediction_bins.hpp rule, in increasing order.
detail::Bins edge_binning(const Eigen::Ref<const Matrix>& x, PredictionBinning rule, int nbins) {
    if (x.rows() == 0) return {};
    std::vector<double> values(static_cast<std::size_t>(x.rows()));
    for (Eigen::Index i = 0; i < x.rows(); ++i) values[static_cast<std::size_t>(i)] = x(i, 0);
    const std::vector<double> edges = bin_upper_edges(values, rule, static_cast<std::size_t>(nbins));
    detail::Bins bins(edges.size());
    for (std::size_t i = 0; i < values.size(); ++i) bins[bin_of(edges, values[i])].push_back(i);
    bins.erase(std::remove_if(bins.begin(), bins.end(), [](const detail::Bin& b) { return b.empty(); }), bins.end());
    return bins;
}

detail::Bins make_bins(const Eigen::Ref<const Matrix>& x, const EceOptions& options) {
    switch (options.binning) {
        case BinningScheme::uniform: return detail::uniform_binning(x, options.nbins);
        case BinningScheme::equal_mass: return edge_binning(x, PredictionBinning::equal_mass, options.nbins);
        case BinningScheme::quantile: return edge_binning(x, PredictionBinning::quantile, options.nbins);
        case BinningScheme::median_variance: break;
    }
    return detail::median_variance_binning(x, options.minsize, options.maxbins);
}

// The 2-class problem of one event per row: [q_i, 1 − q_i] against outcome 0 if the event
// happened, 1 if not, binned on q alone.
void add_event(CellAggregate& cells, const Vector& q, const std::vector<int>& outcome, const EceOptions& options,
               double parts) {
    Matrix reduced(q.size(), 2);
    reduced.col(0) = q;
    reduced.col(1) = 1 - q.array();
    add_bins(cells, reduced, outcome, make_bins(reduced.leftCols(1), options), options.distance, parts);
}

}  // namespace

double ece(const CategoricalData& data, const EceOptions& options) {
    const std::size_t n = data.size();
    check_options(options, n);
    CellAggregate cells(options.aggregate);
    if (options.mode == EceMode::canonical) {
        const Matrix p = detail::column_major_copy(data.probabilities());  // contiguous columns for the binning
        add_bins(cells, p, data.labels(), make_bins(p, options), options.distance, 1);
        return cells.value();
    }

    // The rows are read from the caller's view as they lie (a copy of all m columns would cost more
    // than the rest: 800 MB at n = 10^6, m = 100); the values, and so the result, are the same
    // whatever the layout.
    const MatrixView& p = data.probabilities();
    const std::vector<int>& labels = data.labels();
    std::vector<int> outcome(n);  // 0: the event happened, 1: it did not
    Vector q(p.rows());
    if (options.mode == EceMode::top_label) {
        // The event "the label is the predicted class", of probability the confidence c.
        for (Eigen::Index i = 0; i < p.rows(); ++i) {
            Eigen::Index argmax = 0;  // strict > keeps the first class on ties
            for (Eigen::Index k = 1; k < p.cols(); ++k)
                if (p(i, k) > p(i, argmax)) argmax = k;
            q(i) = p(i, argmax);
            outcome[static_cast<std::size_t>(i)] = labels[static_cast<std::size_t>(i)] == argmax ? 0 : 1;
        }
        add_event(cells, q, outcome, options, 1);
        return cells.value();
    }
    // Class-wise: the event "the label is k" for every class k, its cells weighted 1/m each.
    const double m = static_cast<double>(p.cols());
    for (Eigen::Index k = 0; k < p.cols(); ++k) {
        for (Eigen::Index i = 0; i < p.rows(); ++i) {
            q(i) = p(i, k);
            outcome[static_cast<std::size_t>(i)] = labels[static_cast<std::size_t>(i)] == k ? 0 : 1;
        }
        add_event(cells, q, outcome, options, m);
    }
    return cells.value();
}

}  // namespace calib

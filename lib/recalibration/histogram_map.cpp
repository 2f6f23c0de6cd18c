// The histogram-binning recalibration map (Zadrozny & Elkan 2001): per class, its probabilities cut
// into bins (prediction_bins.hpp) and each bin mapped to the frequency of the class among the rows in
// it; one-vs-rest (one_vs_rest.hpp). A bin that no row falls in (uniform bins) joins the bin above it
// (the last, the bin below), so that every value is a frequency.
#include "recalibration/histogram_map.hpp"

#include <calib/prediction_bins.hpp>

#include "core/check.hpp"
#include "recalibration/one_vs_rest.hpp"

#include <cmath>

namespace calib {

double evaluate(const BinnedCurve& curve, double p) { return curve.values[bin_of(curve.upper_edges, p)]; }

namespace detail {

namespace {

BinnedCurve bins_of(const std::vector<double>& x, const std::vector<double>& y, PredictionBinning binning,
                    std::size_t bins) {
    std::vector<double> edges = bin_upper_edges(x, binning, bins);
    std::vector<double> count, ones;
    const auto tally = [&] {
        count.assign(edges.size(), 0), ones.assign(edges.size(), 0);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const std::size_t b = bin_of(edges, x[i]);
            count[b] += 1, ones[b] += y[i];
        }
    };
    tally();
    std::vector<double> kept;  // the upper edges of the bins that have rows, the last raised to 1
    for (std::size_t b = 0; b < edges.size(); ++b)
        if (count[b] > 0) kept.push_back(edges[b]);
    kept.back() = 1.0;
    if (kept.size() != edges.size()) edges = kept, tally();
    BinnedCurve curve{edges, {}};
    for (std::size_t b = 0; b < edges.size(); ++b) curve.values.push_back(ones[b] / count[b]);
    return curve;
}

}  // namespace

std::size_t histogram_bin_count(std::size_t bins, std::size_t n) {
    if (bins > 0) return bins;
    auto b = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n))));
    while (b > 1 && (b - 1) * (b - 1) * (b - 1) >= n) --b;  // exact ⌈n^{1/3}⌉ despite rounding
    while (b * b * b < n) ++b;
    return std::max<std::size_t>(b, 1);
}

FitSummary fit_histogram(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options) {
    map.histogram_binning = options.histogram_binning;
    map.histogram_bins = histogram_bin_count(options.histogram_bins, data.labels.size());
    return fit_one_vs_rest(map, data, map.bins, [&](const std::vector<double>& x, const std::vector<double>& y) {
        return bins_of(x, y, map.histogram_binning, map.histogram_bins);
    });
}

Matrix apply_histogram(const RecalibrationMap& map, const Matrix& scores) { return apply_one_vs_rest(map, map.bins, scores); }

std::vector<NamedParameter> histogram_parameters(const RecalibrationMap& map) {
    return per_class_parameters(map.bins, map.num_classes, "edges", "values",
                                [](const BinnedCurve& f) { return f.upper_edges; }, [](const BinnedCurve& f) { return f.values; });
}

std::vector<std::string> histogram_parameter_names(int num_classes) {
    return per_class_names(num_classes, "edges", "values");
}

void set_histogram_parameters(RecalibrationMap& map, const std::vector<std::vector<double>>& lists) {
    map.bins = per_class_functions<BinnedCurve>(
        lists, [](const std::vector<double>& edges, const std::vector<double>& values) { return BinnedCurve{edges, values}; });
}

std::string bins_problem(const RecalibrationMap& map) {
    const std::vector<int> columns = one_vs_rest_columns(map.num_classes);
    if (map.bins.size() != columns.size())
        return concat("bins: ", map.bins.size(), " sets of bins, the map of m = ", map.num_classes, " classes has ",
                      columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const BinnedCurve& curve = map.bins[c];
        const std::string k = std::to_string(columns[c]);
        if (curve.upper_edges.empty() || curve.upper_edges.size() != curve.values.size())
            return concat("edges_", k, " and values_", k, " have ", curve.upper_edges.size(), " and ",
                          curve.values.size(), " values, must have the same number >= 1");
        for (std::size_t j = 0; j < curve.upper_edges.size(); ++j) {
            const double e = curve.upper_edges[j], v = curve.values[j];
            if (!(e > (j > 0 ? curve.upper_edges[j - 1] : 0.0) && e <= 1))
                return concat("edges_", k, "[", j, "] = ", format_value(e), ", must be in (",
                              j > 0 ? "edges_" + k + "[" + std::to_string(j - 1) + "]" : std::string("0"), ", 1]");
            if (!(v >= 0 && v <= 1)) return concat("values_", k, "[", j, "] = ", format_value(v), ", must be in [0, 1]");
        }
        if (curve.upper_edges.back() != 1)
            return concat("edges_", k, " ends at ", format_value(curve.upper_edges.back()), ", must end at 1");
    }
    return "";
}

}  // namespace detail

}  // namespace calib

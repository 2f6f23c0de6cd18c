// Bins of predicted probabilities by their upper edges (prediction_bins.hpp).
#include <calib/prediction_bins.hpp>

#include <algorithm>

namespace calib {

std::string to_string(PredictionBinning binning) {
    switch (binning) {
    case PredictionBinning::equal_mass: return "equal-mass";
    case PredictionBinning::uniform: return "uniform";
    case PredictionBinning::distinct: return "distinct";
    }
    return "";
}

std::vector<double> bin_upper_edges(const std::vector<double>& p, PredictionBinning binning, std::size_t bins) {
    std::vector<double> out;
    if (binning == PredictionBinning::uniform) {
        for (std::size_t i = 1; i <= bins; ++i) out.push_back(double(i) / double(bins));
        return out;
    }
    std::vector<double> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    if (binning == PredictionBinning::distinct) {
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        for (std::size_t i = 0; i + 1 < sorted.size(); ++i) out.push_back((sorted[i] + sorted[i + 1]) / 2.0);
    } else {
        // Parts of ⌈n/B⌉ observations first, then of ⌊n/B⌋; an edge halfway across each gap.
        const std::size_t n = sorted.size(), B = std::min(bins, n), small = n / B, large_parts = n % B;
        std::size_t end = 0;
        for (std::size_t b = 0; b + 1 < B; ++b) {
            end += small + (b < large_parts ? 1 : 0);
            out.push_back((sorted[end - 1] + sorted[end]) / 2.0);
        }
    }
    out.push_back(1.0);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::size_t bin_of(const std::vector<double>& upper_edges, double p) {
    const auto b = static_cast<std::size_t>(std::lower_bound(upper_edges.begin(), upper_edges.end(), p) - upper_edges.begin());
    return std::min(b, upper_edges.size() - 1);
}

}  // namespace calib

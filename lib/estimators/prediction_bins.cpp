// Bins of predicted probabilities by their upper edges (prediction_bins.hpp).
#include <calib/prediction_bins.hpp>

#include <algorithm>
#include <cmath>

namespace calib {

std::string to_string(PredictionBinning binning) {
    switch (binning) {
    case PredictionBinning::equal_mass: return "equal-mass";
    case PredictionBinning::uniform: return "uniform";
    case PredictionBinning::distinct: return "distinct";
    case PredictionBinning::quantile: return "quantile";
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
    } else if (binning == PredictionBinning::quantile) {
        // NumPy's steps: linspace's j·(1/B), ×100 and ÷100 by percentile, virtual index (n−1)·q, lerp
        // a + (b − a)·γ, or b − (b − a)·(1 − γ) for γ ≥ 0.5; the last edge is replaced by 1 below.
        const std::size_t n = sorted.size();
        const double step = 1.0 / double(bins);
        for (std::size_t j = 1; j < bins; ++j) {
            const double position = double(n - 1) * (double(j) * step * 100 / 100);
            const double below = std::floor(position), gamma = position - below;
            const std::size_t i = std::min(static_cast<std::size_t>(below), n - 1), next = std::min(i + 1, n - 1);
            const double a = sorted[i], b = sorted[next], difference = b - a;
            out.push_back(gamma >= 0.5 ? b - difference * (1 - gamma) : a + difference * gamma);
        }
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

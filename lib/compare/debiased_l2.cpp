// Kumar, Liang & Ma's binned L2 calibration error (debiased_l2.hpp; in the compare layer for its
// bootstrap intervals): each event's predictions binned once, then one pass over the bins.
#include <calib/debiased_l2.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace calib {

using detail::fail;

namespace {

// One event: its predictions and outcomes on the observations `indices` (repeats allowed).
struct Event {
    std::vector<double> p;
    std::vector<int> y;
};

struct Square {
    double value = 0;
    std::size_t bins = 0, small_bins = 0;
};

Square binned_square(const Event& e, const DebiasedL2Options& o) {
    const std::vector<double> upper = bin_upper_edges(e.p, o.binning, o.bins);
    const std::size_t nbins = upper.size();
    std::vector<detail::CompensatedSum> p_sum(nbins);
    std::vector<std::size_t> count(nbins, 0), ones(nbins, 0);
    for (std::size_t i = 0; i < e.p.size(); ++i) {
        const std::size_t b = bin_of(upper, e.p[i]);
        p_sum[b].add(e.p[i]);
        ++count[b];
        ones[b] += std::size_t(e.y[i]);
    }
    Square out;
    detail::CompensatedSum total;
    const double n = double(e.p.size());
    for (std::size_t b = 0; b < nbins; ++b) {
        if (count[b] == 0) continue;
        ++out.bins;
        const double nb = double(count[b]), gap = p_sum[b].value() / nb - double(ones[b]) / nb;
        if (count[b] == 1) {
            ++out.small_bins;
            if (o.debias) continue;
        }
        const double frequency = double(ones[b]) / nb;
        const double variance = o.debias ? frequency * (1 - frequency) / (nb - 1) : 0.0;
        total.add(nb / n * (gap * gap - variance));
    }
    out.value = total.value();
    return out;
}

// The events the mode reads: one (binary data, or the top label) or one per class.
std::vector<CategoricalData> events(const CategoricalData& data, L2Mode mode) {
    if (data.num_classes() == 2) return {data};
    if (mode == L2Mode::top_label) return {data.top_label_event()};
    std::vector<CategoricalData> out;
    for (int k = 0; k < data.num_classes(); ++k) out.push_back(data.class_event(k));
    return out;
}

Event event_at(const CategoricalData& event, const std::vector<std::size_t>& indices) {
    Event e;
    for (std::size_t i : indices) {
        e.p.push_back(event.probabilities()(Eigen::Index(i), 1));
        e.y.push_back(event.labels()[i]);
    }
    return e;
}

struct Estimate {
    double error = 0, square = 0;
    std::vector<double> class_squares;
    std::size_t bins = 0, small_bins = 0;
};

Estimate estimate(const std::vector<CategoricalData>& all, const std::vector<std::size_t>& indices,
                  const DebiasedL2Options& o) {
    Estimate out;
    detail::CompensatedSum squares, clamped;
    for (const CategoricalData& event : all) {
        const Square s = binned_square(event_at(event, indices), o);
        out.class_squares.push_back(s.value);
        out.bins += s.bins;
        out.small_bins += s.small_bins;
        squares.add(s.value);
        clamped.add(std::max(s.value, 0.0));
    }
    const double k = double(all.size());
    out.square = squares.value() / k;
    out.error = std::sqrt(clamped.value() / k);
    return out;
}

}  // namespace

std::string to_string(L2Mode mode) { return mode == L2Mode::marginal ? "marginal" : "top-label"; }

DebiasedL2 debiased_l2(const CategoricalData& data, const DebiasedL2Options& options) {
    const char* fn = "debiased_l2";
    const std::size_t n = data.size();
    detail::check_min_size(fn, n, 2);
    if (options.binning != PredictionBinning::distinct && options.bins == 0) fail(fn, "bins = 0, must be >= 1");
    validate(options.resampling, fn);
    const std::vector<CategoricalData> all = events(data, options.mode);
    std::vector<std::size_t> every(n);
    std::iota(every.begin(), every.end(), std::size_t(0));
    const Estimate e = estimate(all, every, options);
    DebiasedL2 out;
    out.n = n;
    out.error = e.error;
    out.square = e.square;
    if (all.size() > 1) out.class_squares = e.class_squares;
    out.bins = e.bins;
    out.small_bins = e.small_bins;
    out.intervals = resample_intervals(
        n, 2,
        [&](const std::vector<std::size_t>& indices) {
            const Estimate r = estimate(all, indices, options);
            return std::vector<double>{r.error, r.square};
        },
        options.resampling, options.parallel);
    if (!out.intervals.empty()) {
        // In the bootstrap world the observations are the population: its binned error is the plug-in.
        DebiasedL2Options plugin = options;
        plugin.debias = false;
        const Estimate world = estimate(all, every, plugin);
        out.intervals[0] = basic_interval(out.intervals[0], world.error, 0.0);
        out.intervals[1] = basic_interval(out.intervals[1], world.square, -std::numeric_limits<double>::infinity());
    }
    return out;
}

}  // namespace calib

// Reliability diagrams with Clopper–Pearson intervals (calib/reliability.hpp).
#include <calib/reliability.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "core/quantile.hpp"
#include "estimators/binning.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace calib {

namespace {

// One observation of a diagram: the predicted probability of the event and whether it happened.
struct Outcome {
    double probability;
    bool event;
};

void check_options(const char* fn, const ReliabilityOptions& o, std::size_t n) {
    if (o.bins < 1) detail::fail(fn, "bins = 0, must be >= 1");
    if (o.binning != ReliabilityBinning::uniform && o.binning != ReliabilityBinning::equal_mass)
        detail::fail(fn, "binning = ", static_cast<int>(o.binning), " is not a ReliabilityBinning");
    if (o.binning == ReliabilityBinning::equal_mass && o.bins > n)
        detail::fail(fn, "bins = ", o.bins, " equal-mass bins for n = ", n, " observations, must be <= n");
    // Each bin is a row of the record (a dict in Python): a bound keeps a typo (bins=10**6 for 4 points)
    // from taking gigabytes.
    if (o.binning == ReliabilityBinning::uniform && o.bins > detail::max_histogram_bins)
        detail::fail(fn, "bins = ", o.bins, ", must be <= ", detail::max_histogram_bins);
    if (!(o.level > 0 && o.level < 1)) detail::fail(fn, "level = ", detail::format_value(o.level), ", must be in (0, 1)");
    if (o.smooth_points > 100000) detail::fail(fn, "smooth_points = ", o.smooth_points, ", must be <= 100000");
}

// Counts, events, the compensated mean probability and the interval of the observations `members`.
ReliabilityBin summarize(const std::vector<Outcome>& outcomes, const std::vector<std::size_t>& members, double level) {
    ReliabilityBin bin;
    bin.count = members.size();
    if (members.empty()) {
        bin.mean_confidence = bin.frequency = bin.interval_lower = bin.interval_upper =
            std::numeric_limits<double>::quiet_NaN();
        return bin;
    }
    detail::CompensatedSum sum;
    for (const std::size_t i : members) {
        sum.add(outcomes[i].probability);
        bin.events += outcomes[i].event ? 1 : 0;
    }
    bin.mean_confidence = sum.value() / static_cast<double>(bin.count);
    bin.frequency = static_cast<double>(bin.events) / static_cast<double>(bin.count);
    const ProportionInterval ci = clopper_pearson(bin.events, bin.count, level);
    bin.interval_lower = ci.lower;
    bin.interval_upper = ci.upper;
    return bin;
}

// The smoothed curve of SmoothReliability (reliability.hpp).
SmoothReliability smooth_curve(const std::vector<Outcome>& outcomes, std::size_t points, double level) {
    constexpr double clip = 1e-6;
    const std::size_t n = outcomes.size();
    std::vector<double> z(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double p = std::clamp(outcomes[i].probability, clip, 1 - clip);
        z[i] = std::log(p / (1 - p));
    }
    std::vector<double> sorted = z;
    std::sort(sorted.begin(), sorted.end());
    detail::CompensatedSum sum, squares;
    for (const double v : z) sum.add(v);
    const double mean = sum.value() / static_cast<double>(n);
    for (const double v : z) squares.add((v - mean) * (v - mean));
    const double sd = n > 1 ? std::sqrt(squares.value() / static_cast<double>(n - 1)) : 0;
    const double iqr = detail::sorted_quantile(sorted, 0.75) - detail::sorted_quantile(sorted, 0.25);
    const double spread = sorted.front() == sorted.back() ? 0 : iqr > 0 ? std::min(sd, iqr / 1.34) : sd;
    SmoothReliability curve;
    curve.bandwidth = spread > 0 ? 0.9 * spread * std::pow(static_cast<double>(n), -0.2) : 1.0;
    const double from = detail::sorted_quantile(sorted, 0.01), to = detail::sorted_quantile(sorted, 0.99);
    const std::size_t count = to > from ? points : 1;
    const double zq = boost::math::quantile(boost::math::normal(), 1 - (1 - level) / 2), z2 = zq * zq;
    for (std::size_t j = 0; j < count; ++j) {
        const double at = count == 1 ? from : from + (to - from) * static_cast<double>(j) / static_cast<double>(count - 1);
        detail::CompensatedSum weights, weights2, events;
        for (std::size_t i = 0; i < n; ++i) {
            const double u = (z[i] - at) / curve.bandwidth, w = std::exp(-0.5 * u * u);
            weights.add(w);
            weights2.add(w * w);
            if (outcomes[i].event) events.add(w);
        }
        // A point in a gap of the predictions wider than about 38 h has no weight (exp underflows): the
        // curve skips it rather than invent a value there.
        if (!(weights.value() > 0)) continue;
        const double m = events.value() / weights.value(), effective = weights.value() * weights.value() / weights2.value();
        const double centre = (m + z2 / (2 * effective)) / (1 + z2 / effective);
        const double half = zq / (1 + z2 / effective) * std::sqrt(m * (1 - m) / effective + z2 / (4 * effective * effective));
        curve.probability.push_back(1 / (1 + std::exp(-at)));
        curve.frequency.push_back(m);
        // Wilson's interval holds m; at m = 0 or 1 its end is m in exact arithmetic, not always in rounding.
        curve.lower.push_back(std::clamp(centre - half, 0.0, m));
        curve.upper.push_back(std::clamp(centre + half, m, 1.0));
    }
    return curve;
}

ReliabilityDiagram diagram(std::string event, const std::vector<Outcome>& outcomes, const ReliabilityOptions& o) {
    const std::size_t n = outcomes.size(), B = o.bins;
    ReliabilityDiagram d{std::move(event), n, o.level, o.binning, {}, {}};
    if (o.smooth_points > 0 && n > 0) d.smooth = smooth_curve(outcomes, o.smooth_points, o.level);
    std::vector<std::vector<std::size_t>> members(B);
    if (o.binning == ReliabilityBinning::uniform) {
        for (std::size_t i = 0; i < n; ++i)
            members[static_cast<std::size_t>(detail::uniform_bin_index(outcomes[i].probability, static_cast<int>(B)) - 1)]
                .push_back(i);
        for (std::size_t b = 0; b < B; ++b) {
            d.bins.push_back(summarize(outcomes, members[b], o.level));
            d.bins.back().lower = static_cast<double>(b) / static_cast<double>(B);
            d.bins.back().upper = static_cast<double>(b + 1) / static_cast<double>(B);
        }
        return d;
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return outcomes[a].probability < outcomes[b].probability; });
    for (std::size_t b = 0; b < B; ++b) {
        // Group b holds the sorted positions [⌊bn/B⌋, ⌊(b+1)n/B⌋), computed without overflow.
        const auto cut = [&](std::size_t k) { return k / B * n + k % B * n / B; };
        const std::vector<std::size_t> group(order.begin() + static_cast<std::ptrdiff_t>(cut(b)),
                                             order.begin() + static_cast<std::ptrdiff_t>(cut(b + 1)));
        d.bins.push_back(summarize(outcomes, group, o.level));
        d.bins.back().lower = outcomes[group.front()].probability;
        d.bins.back().upper = outcomes[group.back()].probability;
    }
    return d;
}

}  // namespace

ProportionInterval clopper_pearson(std::size_t events, std::size_t trials, double level) {
    const char* fn = "clopper_pearson";
    if (trials < 1) detail::fail(fn, "trials = 0, must be >= 1");
    if (events > trials) detail::fail(fn, "events = ", events, " exceeds trials = ", trials);
    if (!(level > 0 && level < 1)) detail::fail(fn, "level = ", detail::format_value(level), ", must be in (0, 1)");
    using boost::math::binomial_distribution;
    const double tail = (1 - level) / 2, k = static_cast<double>(events), m = static_cast<double>(trials);
    return {events == 0 ? 0.0 : binomial_distribution<>::find_lower_bound_on_p(m, k, tail),
            events == trials ? 1.0 : binomial_distribution<>::find_upper_bound_on_p(m, k, tail)};
}

ReliabilityDiagram reliability_diagram(const CategoricalData& data, const ReliabilityOptions& options) {
    check_options("reliability_diagram", options, data.size());
    const MatrixView& p = data.probabilities();
    std::vector<Outcome> outcomes(data.size());
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        Eigen::Index argmax = 0;  // strict > keeps the first class on ties, as the top-label ECE
        for (Eigen::Index k = 1; k < p.cols(); ++k)
            if (p(i, k) > p(i, argmax)) argmax = k;
        outcomes[static_cast<std::size_t>(i)] = {p(i, argmax), data.labels()[static_cast<std::size_t>(i)] == argmax};
    }
    return diagram("top-label", outcomes, options);
}

ReliabilityDiagram class_reliability_diagram(const CategoricalData& data, int k, const ReliabilityOptions& options) {
    check_options("class_reliability_diagram", options, data.size());
    if (k < 0 || k >= data.num_classes())
        detail::fail("class_reliability_diagram", "k = ", k, ", must be a class in [0, ", data.num_classes() - 1, "]");
    std::vector<Outcome> outcomes(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        outcomes[i] = {data.probabilities()(static_cast<Eigen::Index>(i), k), data.labels()[i] == k};
    return diagram("class " + std::to_string(k), outcomes, options);
}

double binned_ece(const ReliabilityDiagram& diagram) {
    double sum = 0;
    for (const ReliabilityBin& b : diagram.bins)
        if (b.count > 0) sum += static_cast<double>(b.count) * std::abs(b.frequency - b.mean_confidence);
    return sum / static_cast<double>(diagram.n);
}

std::string to_string(ReliabilityBinning binning) {
    return binning == ReliabilityBinning::uniform ? "uniform" : "equal-mass";
}

}  // namespace calib

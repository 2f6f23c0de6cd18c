// The CORP reliability diagram with its consistency and confidence bands (corp.hpp).
#include <calib/corp.hpp>
#include <calib/tool/random.hpp>

#include "core/check.hpp"
#include "core/parallel.hpp"
#include "core/quantile.hpp"
#include "estimators/corp_forecasts.hpp"
#include "estimators/pav.hpp"

#include <boost/random/uniform_01.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace calib {

namespace {

constexpr const char* function = "corp_diagram";

void check_options(const CorpDiagramOptions& o) {
    if (!(o.level > 0 && o.level < 1)) detail::fail(function, "level = ", detail::format_value(o.level), ", must be in (0, 1)");
    if (o.replicates > 1'000'000) detail::fail(function, "replicates = ", o.replicates, ", must be in [0, 1000000]");
    if (o.band_points < 2 || o.band_points > 1'000'000)
        detail::fail(function, "band_points = ", o.band_points, ", must be in [2, 1000000]");
    // The refits are kept until their quantiles are taken: 2·R·points doubles, bounded at 2 GiB.
    if (2.0 * double(o.replicates) * double(o.band_points) * 8 > 2.0 * (1 << 30))
        detail::fail(function, "replicates = ", o.replicates, " and band_points = ", o.band_points,
                     " keep more than 2 GiB of refits (16 bytes per replicate and point); lower one of them");
}

// The distinct forecasts in increasing order, their counts, and (when the bands need them) each row's
// index among them.
struct DistinctForecasts {
    std::vector<double> values;
    std::vector<std::size_t> counts;
    std::vector<std::size_t> of_row;
};

// `order`: x's sorted_order. The rows' indices are random writes (a second of the 5 at n = 10^7), so only
// `with_rows`.
DistinctForecasts distinct_forecasts(const std::vector<double>& x, const std::vector<std::size_t>& order, bool with_rows) {
    DistinctForecasts out;
    if (with_rows) out.of_row.resize(x.size());
    for (const std::size_t row : order) {
        const double value = x[row];
        if (out.values.empty() || value != out.values.back()) {
            out.values.push_back(value);
            out.counts.push_back(0);
        }
        ++out.counts.back();
        if (with_rows) out.of_row[row] = out.values.size() - 1;
    }
    return out;
}

// The indices (into the distinct forecasts) of the band points: all of them, or `points` evenly spaced in rank.
std::vector<std::size_t> band_points(std::size_t distinct, std::size_t points) {
    std::vector<std::size_t> out;
    if (distinct <= points) {
        for (std::size_t j = 0; j < distinct; ++j) out.push_back(j);
        return out;
    }
    for (std::size_t k = 0; k < points; ++k)
        out.push_back(static_cast<std::size_t>(std::llround(double(k) * double(distinct - 1) / double(points - 1))));
    return out;
}

// One replicate: n forecasts drawn with replacement, outcomes y* ~ Bernoulli(probability[j]) of each
// drawn forecast j, the PAV refit evaluated at the band points (a step function, constant to the left
// of its first block).
std::vector<double> refit_at_points(const DistinctForecasts& d, const std::vector<double>& probability,
                                    const std::vector<std::size_t>& points, Rng rng) {
    const std::size_t n = d.of_row.size(), k = d.values.size();
    std::vector<double> weight(k, 0), events(k, 0);
    boost::random::uniform_01<double> uniform;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = d.of_row[uniform_index(rng, n)];
        weight[j] += 1;
        if (uniform(rng) < probability[j]) events[j] += 1;
    }
    std::vector<detail::PavPool> pools;
    for (std::size_t j = 0; j < k; ++j)
        if (weight[j] > 0)
            detail::pav_append(pools, {d.values[j], d.values[j], weight[j], events[j], static_cast<std::size_t>(weight[j])});
    std::vector<double> out(points.size());
    std::size_t block = 0;
    for (std::size_t p = 0; p < points.size(); ++p) {
        const double t = d.values[points[p]];
        while (block + 1 < pools.size() && pools[block + 1].lower <= t) ++block;
        out[p] = pools[block].value();
    }
    return out;
}

// The pointwise band of the replicates (replicate-major) at each point.
std::pair<std::vector<double>, std::vector<double>> pointwise_band(const std::vector<std::vector<double>>& refits,
                                                                   std::size_t points, double level) {
    std::vector<double> lower(points), upper(points), at(refits.size());
    for (std::size_t p = 0; p < points; ++p) {
        for (std::size_t r = 0; r < refits.size(); ++r) at[r] = refits[r][p];
        std::sort(at.begin(), at.end());
        lower[p] = detail::sorted_quantile(at, (1 - level) / 2);
        upper[p] = detail::sorted_quantile(at, (1 + level) / 2);
    }
    return {std::move(lower), std::move(upper)};
}

}  // namespace

CorpDiagram corp_diagram(const CategoricalData& binary, const CorpDiagramOptions& options) {
    check_options(options);
    const detail::BinaryForecasts f = detail::binary_forecasts(binary, function);
    const std::vector<std::size_t> order = detail::sorted_order(f.x);  // once, for the fit and the band points
    const IsotonicFit fit = detail::isotonic_fit(f.x, f.y, {}, order);
    CorpDiagram out;
    out.n = f.x.size();
    out.level = options.level;
    out.replicates = options.replicates;
    out.seed = options.seed;
    out.curve = fit.blocks;
    out.score = options.score;
    out.decomposition = detail::decompose(f, fit, options.score);

    const DistinctForecasts d = distinct_forecasts(f.x, order, options.replicates > 0);
    // Each distinct forecast's PAV value, walking the blocks beside the forecasts (both increasing).
    std::vector<double> recalibrated(d.values.size());
    for (std::size_t j = 0, block = 0; j < d.values.size(); ++j) {
        while (fit.blocks[block].upper < d.values[j]) ++block;
        recalibrated[j] = fit.blocks[block].value;
    }
    const std::vector<std::size_t> points = band_points(d.values.size(), options.band_points);
    for (const std::size_t j : points) {
        out.x.push_back(d.values[j]);
        out.recalibrated.push_back(recalibrated[j]);
        out.count.push_back(d.counts[j]);
    }
    const std::size_t R = options.replicates;
    if (R == 0) return out;
    // Replicate 2r + b: b = 0 the consistency band's (outcomes from the forecasts), b = 1 the confidence band's.
    std::vector<std::vector<double>> refits(2 * R);
    detail::parallel_for(
        2 * R, options.parallel,
        [&](std::size_t t) {
            refits[t] = refit_at_points(d, t % 2 == 0 ? d.values : recalibrated, points, make_stream(options.seed, t));
        },
        "CORP band replicates");
    std::vector<std::vector<double>> consistency, confidence;
    for (std::size_t t = 0; t < 2 * R; ++t) (t % 2 == 0 ? consistency : confidence).push_back(std::move(refits[t]));
    std::tie(out.consistency_lower, out.consistency_upper) = pointwise_band(consistency, points.size(), options.level);
    std::tie(out.confidence_lower, out.confidence_upper) = pointwise_band(confidence, points.size(), options.level);
    return out;
}

Record CorpDiagram::record() const {
    std::vector<double> lower, upper, value;
    std::vector<std::uint64_t> counts;
    for (const IsotonicBlock& b : curve) {
        lower.push_back(b.lower);
        upper.push_back(b.upper);
        value.push_back(b.value);
        counts.push_back(b.count);
    }
    return {{"n", std::uint64_t{n}},
            {"level", level},
            {"replicates", std::uint64_t{replicates}},
            {"seed", seed},
            {"curve", Record{{"lower", lower}, {"upper", upper}, {"value", value}, {"count", counts}}},
            {"points", Record{{"x", x},
                              {"recalibrated", recalibrated},
                              {"count", std::vector<std::uint64_t>(count.begin(), count.end())},
                              {"consistency_lower", consistency_lower},
                              {"consistency_upper", consistency_upper},
                              {"confidence_lower", confidence_lower},
                              {"confidence_upper", confidence_upper}}},
            {"score", to_string(score)},
            {"mean_score", decomposition.mean_score},
            {"recalibrated_score", decomposition.recalibrated_score},
            {"mcb", decomposition.mcb},
            {"dsc", decomposition.dsc},
            {"unc", decomposition.unc}};
}

}  // namespace calib

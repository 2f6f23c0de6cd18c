// T-Cal (hypothesis.hpp): the debiased plug-in estimate of the binned squared ℓ2 calibration error at one
// bin count or a dyadic grid of them, against its Monte-Carlo null. The predictions are sorted once; a
// bin of sorted positions is a run of equal bin indices, and a bin of one position adds 0 unless a
// resample copies it, so each bin count keeps its runs of several positions only, and a draw of the null
// is one pass over the positions plus one over each bin count's runs.
#include <calib/hypothesis.hpp>
#include <calib/tool/random.hpp>

#include "core/check.hpp"
#include "core/parallel.hpp"
#include "estimators/binning.hpp"
#include "hypothesis/event_probabilities.hpp"
#include "hypothesis/p_values.hpp"

#include <boost/random/uniform_01.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace calib {

namespace {

struct Run {
    std::size_t begin, end;  // sorted positions [begin, end)
};

// Per sorted position: the sums of r = p − y and r² over its copies, and the number of copies (1, or a
// resample's multiplicity). With copies, `alone` holds each position's term as a bin of its own,
// (sum² − sum_squares)/copies (0 for one copy), and `alone_total` their sum; empty with one copy each.
struct Residuals {
    std::vector<double> sum, sum_squares, copies, alone;
    double alone_total = 0;
    explicit Residuals(std::size_t n) : sum(n), sum_squares(n), copies(n, 1.0) {}
};

// DPE = (1/n) Σ_bins [(Σ r)² − Σ r²] / copies over the bins of at least two copies: the runs (bins of
// several positions), and the other positions each alone, their terms `alone_total` less the runs' own.
double dpe(const std::vector<Run>& runs, const Residuals& r, double n) {
    double total = r.alone_total;
    for (const Run& run : runs) {
        double s = 0, s2 = 0, c = 0, alone = 0;
        for (std::size_t j = run.begin; j < run.end; ++j) {
            s += r.sum[j];
            s2 += r.sum_squares[j];
            c += r.copies[j];
            if (!r.alone.empty()) alone += r.alone[j];
        }
        if (c >= 2) total += (s * s - s2) / c;  // a resample may hold fewer copies
        total -= alone;
    }
    return total / n;
}

// The runs of at least two equal bin indices among the sorted predictions, with m bins.
std::vector<Run> bin_runs(const std::vector<double>& sorted, std::uint64_t m) {
    std::vector<Run> runs;
    std::size_t begin = 0;
    for (std::size_t j = 1; j <= sorted.size(); ++j) {
        if (j < sorted.size() &&
            detail::uniform_bin_index(sorted[j], m) == detail::uniform_bin_index(sorted[begin], m))
            continue;
        if (j - begin >= 2) runs.push_back({begin, j});
        begin = j;
    }
    return runs;
}

// One draw of the null into `r`: labels y* ~ Bernoulli(p) for the predictions kept (conditional), or for
// a resample of them with replacement (consistency), in sorted order.
void draw_null(const std::vector<double>& p, TCalNull null, Rng& rng, Residuals& r) {
    boost::random::uniform_01<double> uniform;
    const std::size_t n = p.size();
    if (null == TCalNull::conditional) {
        for (std::size_t j = 0; j < n; ++j) {
            const double residual = p[j] - (uniform(rng) < p[j] ? 1.0 : 0.0);
            r.sum[j] = residual;
            r.sum_squares[j] = residual * residual;
        }
        return;
    }
    std::fill(r.copies.begin(), r.copies.end(), 0.0);
    r.alone.resize(n);
    r.alone_total = 0;
    for (std::size_t i = 0; i < n; ++i) r.copies[uniform_index(rng, n)] += 1;
    for (std::size_t j = 0; j < n; ++j) {
        double events = 0;
        for (double c = 0; c < r.copies[j]; ++c) events += uniform(rng) < p[j] ? 1.0 : 0.0;
        const double copies = r.copies[j];
        r.sum[j] = copies * p[j] - events;
        r.sum_squares[j] = events * (1 - p[j]) * (1 - p[j]) + (copies - events) * p[j] * p[j];
        r.alone[j] = copies >= 2 ? (r.sum[j] * r.sum[j] - r.sum_squares[j]) / copies : 0.0;
        r.alone_total += r.alone[j];
    }
}

}  // namespace

std::vector<std::uint64_t> t_cal_bin_counts(std::size_t n, std::uint64_t bins) {
    if (bins > 0) return {bins};
    detail::check_min_size("t_cal_bin_counts", n, 2);
    const double nn = static_cast<double>(n);
    const int largest = std::min(53, static_cast<int>(std::floor(2 * std::log2(nn / std::sqrt(std::log(nn))))));
    std::vector<std::uint64_t> counts;
    for (int b = 1; b <= largest; ++b) counts.push_back(std::uint64_t(1) << b);
    return counts;
}

void validate(const TCalOptions& options, std::size_t n) {
    const char* fn = "t_cal_test";
    detail::check_min_size(fn, n, 2);
    detail::check_replicates(fn, options.replicates);
    if (options.bins > max_t_cal_bins) detail::fail(fn, "bins = ", options.bins, ", must be at most 2^53");
}

TestResult t_cal_test(const CategoricalData& data, const TCalOptions& options) {
    const char* fn = "t_cal_test";
    const Vector probabilities = detail::event_probabilities(fn, data);
    const std::size_t n = data.size();
    validate(options, n);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return probabilities(static_cast<Eigen::Index>(a)) < probabilities(static_cast<Eigen::Index>(b));
    });
    std::vector<double> p(n);
    Residuals observed(n);
    for (std::size_t j = 0; j < n; ++j) {
        p[j] = probabilities(static_cast<Eigen::Index>(order[j]));
        observed.sum[j] = p[j] - data.labels()[order[j]];
        observed.sum_squares[j] = observed.sum[j] * observed.sum[j];
    }

    TCalDetails details;
    details.bin_counts = t_cal_bin_counts(n, options.bins);
    details.replicates = options.replicates;
    details.seed = options.seed;
    details.null = options.null;
    const std::size_t levels = details.bin_counts.size();
    std::vector<std::vector<Run>> runs(levels);
    for (std::size_t l = 0; l < levels; ++l) {
        runs[l] = bin_runs(p, details.bin_counts[l]);
        details.statistics.push_back(dpe(runs[l], observed, double(n)));
        detail::check_result(fn, details.statistics.back());
    }

    // Draws in at most 4096 chunks, each with its own buffers and exceedance counts (integers: their sum
    // does not depend on the order of the chunks).
    const std::size_t chunk = std::max<std::size_t>(64, (options.replicates + 4095) / 4096);
    const std::size_t chunks = (options.replicates + chunk - 1) / chunk;
    std::vector<std::vector<std::size_t>> exceed(chunks, std::vector<std::size_t>(levels, 0));
    detail::parallel_for(chunks, options.parallel, [&](std::size_t c) {
        Residuals drawn(n);
        for (std::size_t rep = c * chunk; rep < std::min(options.replicates, (c + 1) * chunk); ++rep) {
            Rng rng = make_stream(options.seed, rep);
            draw_null(p, options.null, rng, drawn);
            for (std::size_t l = 0; l < levels; ++l)
                if (dpe(runs[l], drawn, double(n)) >= details.statistics[l]) ++exceed[c][l];
        }
    }, "replicates");

    std::size_t smallest = 0;
    for (std::size_t l = 0; l < levels; ++l) {
        std::size_t count = 0;
        for (const auto& e : exceed) count += e[l];
        details.p_values.push_back((1.0 + double(count)) / (1.0 + double(options.replicates)));
        if (details.p_values[l] < details.p_values[smallest]) smallest = l;
    }
    details.selected_bins = details.bin_counts[smallest];

    TestResult result;
    result.method = "t-cal";
    const std::string null = to_string(options.null) + "-resampling";
    result.null_approximation = options.bins > 0 ? null : "bonferroni:" + null;
    result.estimator = "dpe";
    result.estimate = details.statistics[smallest];
    result.statistic = -std::log10(details.p_values[smallest]);
    result.p_value = std::min(1.0, double(levels) * details.p_values[smallest]);
    result.n = n;
    result.details = std::move(details);
    return detail::checked_test_result(fn, std::move(result));
}

std::string to_string(TCalNull null) { return null == TCalNull::conditional ? "conditional" : "consistency"; }

}  // namespace calib

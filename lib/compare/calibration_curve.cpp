// The flexible calibration curve (calibration_curve.hpp; in the compare layer for its bootstrap
// intervals): loess fits at the vertices of R's k-d tree (or at each distinct prediction), in parallel
// over them (each fit serial, so results do not depend on the thread count), and the ICI family of
// summaries of |curve − p|.
#include <calib/calibration_curve.hpp>

#include "core/check.hpp"
#include "core/parallel.hpp"
#include "core/quantile.hpp"
#include "hypothesis/event_probabilities.hpp"
#include "hypothesis/p_values.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>

namespace calib {

using detail::fail;

namespace {

std::size_t neighbours(double span, std::size_t n) {
    return std::min(n, static_cast<std::size_t>(std::floor(double(n) * span + 1e-5)));
}

// The observations sorted by x (ties in their order), as the local fits use them.
struct Sorted {
    std::vector<double> x, y;
};

// The local polynomial at x0: its value and slope there.
struct LocalFit {
    double value = 0, slope = 0;
};

LocalFit local_fit(const Sorted& data, double x0, std::size_t q, int degree) {
    const std::vector<double>& xs = data.x;
    const std::size_t n = xs.size();
    // The window [l, l + q) of the q nearest: the first l whose next point on the right is no nearer than
    // its leftmost (that comparison is true up to some l and false after it).
    std::size_t lo = 0, hi = n - q;
    while (lo < hi) {
        const std::size_t l = lo + (hi - lo) / 2;
        if (xs[l + q] - x0 < x0 - xs[l])
            lo = l + 1;
        else
            hi = l;
    }
    const std::size_t l = lo;
    const double h = std::max(x0 - xs[l], xs[l + q - 1] - x0);
    // The mean outcome of the observations whose x is the window's first or last value (slope 0): where
    // h = 0 (more than q observations tied at x0, both values x0: the limit h → 0), or where every
    // neighbour lies on the boundary (all at distance h, as seen from beside tied predictions).
    const auto mean_of_window_ends = [&] {
        double sum = 0;
        std::size_t count = 0;
        for (const double v : {xs[l], xs[l + q - 1]}) {
            const auto run = std::equal_range(xs.begin(), xs.end(), v);
            for (auto i = run.first; i != run.second; ++i) sum += data.y[std::size_t(i - xs.begin())], ++count;
            if (xs[l] == xs[l + q - 1]) break;
        }
        return LocalFit{sum / double(count), 0.0};
    };
    if (!(h > 0)) return mean_of_window_ends();
    // Weighted moments of u = (x − x0)/h ∈ (−1, 1): S_k = Σ w u^k, T_k = Σ w u^k y.
    double s[5] = {0, 0, 0, 0, 0}, t[3] = {0, 0, 0};
    std::size_t distinct = 0;
    double last = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = l; i < l + q; ++i) {
        const double u = (xs[i] - x0) / h, a = std::abs(u);
        if (!(a < 1)) continue;
        const double c = 1 - a * a * a, w = c * c * c;
        if (!(w > 0)) continue;
        if (xs[i] != last) ++distinct, last = xs[i];
        const double wy = w * data.y[i];
        s[0] += w, s[1] += w * u, s[2] += w * u * u, s[3] += w * u * u * u, s[4] += w * u * u * u * u;
        t[0] += wy, t[1] += wy * u, t[2] += wy * u * u;
    }
    if (distinct == 0) return mean_of_window_ends();
    const int d = std::min<int>(degree, int(distinct) - 1);
    if (d == 0) return {t[0] / s[0], 0.0};
    if (d == 1) {
        const double det = s[0] * s[2] - s[1] * s[1];
        return {(s[2] * t[0] - s[1] * t[1]) / det, (s[0] * t[1] - s[1] * t[0]) / det / h};
    }
    Eigen::Matrix3d a;
    a << s[0], s[1], s[2], s[1], s[2], s[3], s[2], s[3], s[4];
    const Eigen::Vector3d beta = a.ldlt().solve(Eigen::Vector3d(t[0], t[1], t[2]));
    return {beta[0], beta[1] / h};
}

// R's loess surface "interpolate" in one dimension: the vertices of its k-d tree, each cell of more
// than fc = ⌊n·span·cell⌋ observations (cell = 0.2, R's default) split at the median of its sorted
// positions (moved to the nearest position, alternately above and below, whose value differs from the
// next one), within the data's range widened by 0.5 % on each side. Returns the sorted vertices.
std::vector<double> vertices(const std::vector<double>& xs, double span) {
    const std::size_t n = xs.size();
    const std::size_t fc = static_cast<std::size_t>(std::floor(double(n) * span * 0.2));
    const double lo = xs.front(), hi = xs.back();
    const double margin = 0.005 * std::max(hi - lo, 1e-10 * std::max(std::abs(lo), std::abs(hi)) + 1e-30);
    std::vector<double> out{lo - margin, hi + margin};
    struct Cell {
        std::size_t first, last;  // sorted positions, inclusive
        double lower, upper;      // its vertices
    };
    std::vector<Cell> cells{{0, n - 1, out[0], out[1]}};
    while (!cells.empty()) {
        const Cell c = cells.back();
        cells.pop_back();
        if (c.last - c.first + 1 <= fc) continue;
        std::size_t m = (c.first + c.last) / 2;
        // Offsets 0, 1, −1, 2, −2, … while m + offset stays in [first, last): the first whose value
        // differs from the next is the split (else m).
        for (std::ptrdiff_t offset = 0;;) {
            const std::ptrdiff_t k = std::ptrdiff_t(m) + offset;
            if (k < std::ptrdiff_t(c.first) || k >= std::ptrdiff_t(c.last)) break;
            if (xs[std::size_t(k)] != xs[std::size_t(k) + 1]) {
                m = std::size_t(k);
                break;
            }
            offset = offset > 0 ? -offset : -offset + 1;
        }
        const double split = xs[m];
        if (split == c.lower || split == c.upper) continue;
        out.push_back(split);
        cells.push_back({c.first, m, c.lower, split});
        cells.push_back({m + 1, c.last, split, c.upper});
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The observations x[indices], y[indices] (an index repeated counts repeatedly) sorted by x.
Sorted sorted_by_x(const Vector& x, const Vector& y, const std::vector<std::size_t>& indices) {
    std::vector<std::size_t> order(indices);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return x[Eigen::Index(a)] < x[Eigen::Index(b)]; });
    Sorted data;
    for (const std::size_t i : order) {
        data.x.push_back(x[Eigen::Index(i)]);
        data.y.push_back(y[Eigen::Index(i)]);
    }
    return data;
}

// The loess of the sorted data at each z (NaN outside the k-d tree's range with surface interpolate).
std::vector<double> evaluate(const Sorted& data, const std::vector<double>& z, const LoessOptions& options,
                             const ParallelOptions& parallel) {
    const std::size_t q = neighbours(options.span, data.x.size());
    // The points to fit at: each distinct z (direct) or the tree's vertices (interpolate).
    std::vector<double> at;
    if (options.surface == LoessSurface::direct) {
        at = z;
        std::sort(at.begin(), at.end());
        at.erase(std::unique(at.begin(), at.end()), at.end());
    } else {
        at = vertices(data.x, options.span);
    }
    std::vector<LocalFit> fits(at.size());
    detail::parallel_for(at.size(), parallel,
                         [&](std::size_t k) { fits[k] = local_fit(data, at[k], q, options.degree); });
    std::vector<double> out(z.size());
    for (std::size_t i = 0; i < z.size(); ++i) {
        if (options.surface == LoessSurface::direct) {
            out[i] = fits[std::size_t(std::lower_bound(at.begin(), at.end(), z[i]) - at.begin())].value;
            continue;
        }
        if (!(z[i] >= at.front() && z[i] <= at.back())) {
            out[i] = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        // Cubic Hermite between the vertices at[k] ≤ z < at[k + 1] (z = the last: k + 1 = the last) with
        // the fits' values and slopes; exact at a vertex.
        const std::size_t k = std::min<std::size_t>(
            at.size() - 2, std::size_t(std::upper_bound(at.begin(), at.end(), z[i]) - at.begin()) - 1);
        const double width = at[k + 1] - at[k], t = (z[i] - at[k]) / width;
        const LocalFit &a = fits[k], &b = fits[k + 1];
        out[i] = (1 - t) * (1 - t) * (1 + 2 * t) * a.value + t * t * (3 - 2 * t) * b.value +
                 (t * (1 - t) * (1 - t) * a.slope + t * t * (t - 1) * b.slope) * width;
    }
    return out;
}

// ICI, E50, E90 and Emax of the curve at the predictions p (type-7 quantiles, as R's median and quantile).
std::vector<double> summaries(const std::vector<double>& curve, const std::vector<double>& p) {
    std::vector<double> error(p.size());
    double sum = 0;
    for (std::size_t i = 0; i < p.size(); ++i) sum += error[i] = std::abs(curve[i] - p[i]);
    std::sort(error.begin(), error.end());
    return {sum / double(error.size()), detail::sorted_quantile(error, 0.5), detail::sorted_quantile(error, 0.9),
            error.back()};
}

}  // namespace

std::string to_string(LoessSurface surface) {
    return surface == LoessSurface::interpolate ? "interpolate" : "direct";
}

void validate(const LoessOptions& options, std::size_t n) {
    if (!(options.span > 0 && options.span <= 1)) fail("loess", "span = ", options.span, ", must be in (0, 1]");
    if (options.degree != 1 && options.degree != 2) fail("loess", "degree = ", options.degree, ", must be 1 or 2");
    const std::size_t q = neighbours(options.span, n);
    if (q < std::size_t(options.degree) + 1)
        fail("loess", "span = ", options.span, " with n = ", n, " gives local fits of q = ", q,
             " observations; a polynomial of degree ", options.degree, " needs at least ", options.degree + 1,
             " (raise `span`, or use more data)");
}

Vector loess(const Vector& x, const Vector& y, const Vector& at, const LoessOptions& options,
             const ParallelOptions& parallel) {
    if (x.size() != y.size()) fail("loess", "x has ", x.size(), " values and y ", y.size());
    validate(options, std::size_t(x.size()));
    if (!x.allFinite() || !y.allFinite() || !at.allFinite()) fail("loess", "x, y and the points `at` must be finite");
    std::vector<std::size_t> all(static_cast<std::size_t>(x.size()));
    std::iota(all.begin(), all.end(), std::size_t(0));
    const std::vector<double> fitted =
        evaluate(sorted_by_x(x, y, all), std::vector<double>(at.data(), at.data() + at.size()), options, parallel);
    return Eigen::Map<const Vector>(fitted.data(), Eigen::Index(fitted.size()));
}

FlexibleCalibration flexible_calibration(const CategoricalData& data, const FlexibleCalibrationOptions& options) {
    const char* fn = "flexible_calibration";
    const Vector p = detail::event_probabilities(fn, data);
    const std::size_t n = data.size();
    validate(options.loess, n);
    validate(options.resampling, fn);

    Vector y(p.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = data.labels()[std::size_t(i)];
    FlexibleCalibration out;
    out.n = n;
    out.neighbours = neighbours(options.loess.span, n);
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), std::size_t(0));
    const std::vector<double> pv(p.data(), p.data() + p.size());
    const std::vector<double> curve = evaluate(sorted_by_x(p, y, all), pv, options.loess, options.parallel);
    out.curve = Eigen::Map<const Vector>(curve.data(), Eigen::Index(n));
    const std::vector<double> s = summaries(curve, pv);
    out.ici = s[0], out.e50 = s[1], out.e90 = s[2], out.emax = s[3];
    // Each replicate: the resample's own curve and summaries (its fits serial inside the parallel loop;
    // the full data's fit is repeated once, as the intervals' estimate).
    out.intervals = resample_intervals(
        n, 4,
        [&](const std::vector<std::size_t>& indices) {
            std::vector<double> resampled(n);
            for (std::size_t i = 0; i < n; ++i) resampled[i] = pv[indices[i]];
            return summaries(evaluate(sorted_by_x(p, y, indices), resampled, options.loess, ParallelOptions{1}),
                             resampled);
        },
        options.resampling, options.parallel);
    return out;
}

}  // namespace calib

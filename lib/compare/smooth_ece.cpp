// The smooth ECE (smooth_ece.hpp; in the compare layer for its bootstrap intervals): exact reflected
// kernel sums at the nodes of a uniform grid, |·| integrated on their cubic Hermite interpolant, and
// the automatic bandwidth by TOMS 748. Each evaluation is serial (the bootstrap runs its replicates in
// parallel), so results do not depend on the thread count.
#include <calib/smooth_ece.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "hypothesis/event_probabilities.hpp"

#include <boost/math/tools/toms748_solve.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace calib {

using detail::fail;

namespace {

constexpr double window = 10;      // kernel images and nodes within 10σ: the rest is below e^−50
constexpr double nodes_per_sigma = 16;
constexpr std::size_t min_intervals = 64;

// The kernel sums Σ_i w_i K_σ(t_j, x_i) (value), their t-derivative (slope) and, on request, Σ_i
// K_σ(t_j, x_i) (mass) and Σ_i v_i K_σ(t_j, x_i) (second, v the other weights), unnormalised (without 1/(√(2π)σ)), at the
// nodes t_j = j/N, j = 0 … N.
struct GridSums {
    double sigma = 0;
    std::size_t intervals = 0;  // N
    std::vector<double> value, slope, mass, second;
};

// N: spacing at most σ/16, at least 64 intervals, a multiple of `multiple_of` (so that a mesh of that
// many intervals falls on nodes).
std::size_t grid_intervals(double sigma, std::size_t multiple_of) {
    const std::size_t wanted = std::max(min_intervals, std::size_t(std::ceil(nodes_per_sigma / sigma)));
    return (wanted + multiple_of - 1) / multiple_of * multiple_of;
}

GridSums grid_sums(const std::vector<double>& x, const std::vector<double>& w, double sigma,
                   const std::vector<double>* other_weights = nullptr, std::size_t multiple_of = 1) {
    const bool with_mass = other_weights != nullptr;
    GridSums g;
    g.sigma = sigma;
    g.intervals = grid_intervals(sigma, multiple_of);
    const std::size_t N = g.intervals;
    const double h = 1.0 / double(N), reach = window * sigma, s2 = sigma * sigma, c = h * h / (2 * s2);
    const double q = std::exp(-2 * c);
    g.value.assign(N + 1, 0.0);
    g.slope.assign(N + 1, 0.0);
    if (with_mass) g.mass.assign(N + 1, 0.0), g.second.assign(N + 1, 0.0);
    const auto add_image = [&](double z, double weight, double other) {
        const double lo_t = std::max(0.0, std::ceil((z - reach) * double(N))), hi_t = std::floor((z + reach) * double(N));
        if (hi_t < 0 || lo_t > double(N) || lo_t > hi_t) return;
        const std::size_t lo = std::size_t(lo_t), hi = std::min(N, std::size_t(hi_t));
        const std::size_t j0 = std::clamp(std::size_t(std::max(0.0, std::round(z * double(N)))), lo, hi);
        // e_j = exp(−d_j²/(2σ²)) with d_j = t_j − z, by the ratios of neighbouring nodes:
        // e_{j+1} = e_j u_j, u_j = exp(−d_j h/σ² − c), u_{j+1} = u_j q; e_{j−1} = e_j v_j, v_j = exp(d_j h/σ² − c).
        const auto put = [&](std::size_t j, double e) {
            const double d = double(j) * h - z;
            g.value[j] += weight * e;
            g.slope[j] -= weight * e * d / s2;
            if (with_mass) g.mass[j] += e, g.second[j] += other * e;
        };
        const double d0 = double(j0) * h - z, e0 = std::exp(-d0 * d0 / (2 * s2));
        put(j0, e0);
        double e = e0, u = std::exp(-d0 * h / s2 - c);
        for (std::size_t j = j0; j < hi; ++j, u *= q) put(j + 1, e *= u);
        e = e0;
        double v = std::exp(d0 * h / s2 - c);
        for (std::size_t j = j0; j > lo; --j, v *= q) put(j - 1, e *= v);
    };
    const long k_lo = long(std::floor((-reach - 1) / 2)), k_hi = long(std::ceil((1 + reach + 1) / 2));
    for (std::size_t i = 0; i < x.size(); ++i)
        for (long k = k_lo; k <= k_hi; ++k) {
            add_image(x[i] + 2.0 * double(k), w[i], with_mass ? (*other_weights)[i] : 0.0);
            add_image(-x[i] + 2.0 * double(k), w[i], with_mass ? (*other_weights)[i] : 0.0);
        }
    return g;
}

// ∫₀¹ |c(s)| ds of the cubic c(s) = a + b s + c2 s² + d s³.
double abs_cubic_integral(double a, double b, double c2, double d) {
    const auto at = [&](double s) { return a + s * (b + s * (c2 + s * d)); };
    const auto primitive = [&](double s) { return s * (a + s * (b / 2 + s * (c2 / 3 + s * d / 4))); };
    std::array<double, 6> cuts{0.0};
    std::size_t m = 1;
    // The critical points (zeros of b + 2 c2 s + 3 d s²) split [0, 1] into monotone pieces.
    const auto critical = [&](double s) {
        if (s > 0 && s < 1) cuts[m++] = s;
    };
    if (d == 0) {
        if (c2 != 0) critical(-b / (2 * c2));
    } else {
        const double disc = c2 * c2 - 3 * d * b;
        if (disc >= 0) {
            const double r = -(c2 + std::copysign(std::sqrt(disc), c2));  // stable: no cancellation
            if (r != 0) {
                critical(r / (3 * d));
                critical(b / r);
            } else {
                critical(0.0);
            }
        }
    }
    if (m == 3 && cuts[1] > cuts[2]) std::swap(cuts[1], cuts[2]);
    cuts[m++] = 1.0;
    // A zero inside a monotone piece, by bisection, splits it again.
    std::array<double, 6> pieces{};
    std::size_t k = 0;
    for (std::size_t i = 0; i + 1 < m; ++i) {
        pieces[k++] = cuts[i];
        double lo = cuts[i], hi = cuts[i + 1];
        const double f_lo = at(lo), f_hi = at(hi);
        if ((f_lo < 0 && f_hi > 0) || (f_lo > 0 && f_hi < 0)) {
            for (int it = 0; it < 60 && hi - lo > 0; ++it) {
                const double mid = (lo + hi) / 2;
                ((at(mid) < 0) == (f_lo < 0) ? lo : hi) = mid;
            }
            pieces[k++] = (lo + hi) / 2;
        }
    }
    pieces[k++] = 1.0;
    double total = 0;
    for (std::size_t i = 0; i + 1 < k; ++i) total += std::abs(primitive(pieces[i + 1]) - primitive(pieces[i]));
    return total;
}

// ∫₀¹ |Σ_i w_i K_σ(t, x_i)| dt (unnormalised sums) from the nodes' values and slopes.
double abs_integral(const GridSums& g) {
    const double h = 1.0 / double(g.intervals);
    detail::CompensatedSum total;
    for (std::size_t j = 0; j < g.intervals; ++j) {
        const double g0 = g.value[j], g1 = g.value[j + 1], s0 = h * g.slope[j], s1 = h * g.slope[j + 1];
        total.add(abs_cubic_integral(g0, s0, 3 * (g1 - g0) - 2 * s0 - s1, 2 * (g0 - g1) + s0 + s1));
    }
    return total.value() * h;
}

const double inv_sqrt_2pi = 0.3989422804014327;

double smooth_ece_of_residuals(const std::vector<double>& p, const std::vector<double>& r, double sigma) {
    return abs_integral(grid_sums(p, r, sigma)) * inv_sqrt_2pi / (sigma * double(p.size()));
}

// σ* with smECE_σ* = σ* in [smooth_ece_min_bandwidth, 1] (its ends when smECE_σ − σ keeps one sign).
// smECE_σ decreases in σ, so σ* lies between any σ and smECE_σ: two evaluations (σ = 0.1, then
// smECE_0.1) bracket it closely, and TOMS 748 ends within it.
double automatic_bandwidth(const std::vector<double>& p, const std::vector<double>& r) {
    const double lo = smooth_ece_min_bandwidth, hi = 1.0;
    const auto excess = [&](double s) { return smooth_ece_of_residuals(p, r, s) - s; };
    const double a = 0.1, f_a = excess(a);
    if (f_a == 0) return a;
    const double b = std::clamp(a + f_a, lo, hi), f_b = excess(b);
    if (f_b == 0) return b;
    const auto close = [](double x, double y) { return std::abs(y - x) <= 1e-12 * std::abs(x); };
    std::uintmax_t evaluations = 100;
    const auto solve = [&](double x, double y, double f_x, double f_y) {
        const auto root = boost::math::tools::toms748_solve(excess, x, y, f_x, f_y, close, evaluations);
        return (root.first + root.second) / 2;
    };
    if ((f_a < 0) != (f_b < 0)) return a < b ? solve(a, b, f_a, f_b) : solve(b, a, f_b, f_a);
    // The same sign: σ* beyond a clamped end, or smECE_σ not quite monotone in rounding: the whole range.
    if ((b == lo && f_b < 0) || (b == hi && f_b > 0)) return b;
    const double f_lo = excess(lo), f_hi = excess(hi);
    if (f_lo <= 0) return lo;
    if (f_hi >= 0) return hi;
    return solve(lo, hi, f_lo, f_hi);
}

void check_bandwidth(const char* fn, double sigma) {
    if (!(sigma >= smooth_ece_min_bandwidth && sigma <= 1))
        fail(fn, "bandwidth = ", detail::format_value(sigma), ", must be in [", smooth_ece_min_bandwidth, ", 1]");
}

std::vector<double> residuals(const std::vector<double>& p, const std::vector<int>& y) {
    std::vector<double> r(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) r[i] = p[i] - double(y[i]);
    return r;
}

}  // namespace

double smooth_ece_at(const std::vector<double>& p, const std::vector<int>& y, double bandwidth) {
    const char* fn = "smooth_ece_at";
    if (p.size() != y.size()) fail(fn, "p has ", p.size(), " values and y ", y.size());
    detail::check_min_size(fn, p.size(), 1);
    check_bandwidth(fn, bandwidth);
    for (std::size_t i = 0; i < p.size(); ++i)
        if (!(p[i] >= 0 && p[i] <= 1) || (y[i] != 0 && y[i] != 1))
            fail(fn, "observation ", i, " has p = ", detail::format_value(p[i]), " and y = ", y[i],
                 "; needs p in [0, 1] and y in {0, 1}");
    return smooth_ece_of_residuals(p, residuals(p, y), bandwidth);
}

SmoothEce smooth_ece(const CategoricalData& data, const SmoothEceOptions& options) {
    const char* fn = "smooth_ece";
    const Vector pv = detail::event_probabilities(fn, data);
    if (options.bandwidth) check_bandwidth(fn, *options.bandwidth);
    if (options.curve_points == 1) fail(fn, "curve_points = 1, must be 0 (no curve) or at least 2");
    validate(options.resampling, fn);
    const std::size_t n = data.size();
    const std::vector<double> p(pv.data(), pv.data() + n);
    const std::vector<double> r = residuals(p, data.labels());

    SmoothEce out;
    out.n = n;
    out.bandwidth = options.bandwidth ? *options.bandwidth : automatic_bandwidth(p, r);
    out.value = smooth_ece_of_residuals(p, r, out.bandwidth);
    // The curve on its own grid (with nodes on the mesh), where some prediction lies within 10σ
    // (elsewhere the kernel sums are 0 and r̂ undefined).
    const std::size_t mesh = options.curve_points > 0 ? options.curve_points - 1 : 1;
    std::vector<double> outcomes(n);
    for (std::size_t i = 0; i < n; ++i) outcomes[i] = double(data.labels()[i]);
    const GridSums g = options.curve_points > 0 ? grid_sums(p, r, out.bandwidth, &outcomes, mesh) : GridSums{};
    for (std::size_t j = 0; j < options.curve_points; ++j) {
        const std::size_t node = j * (g.intervals / mesh);
        if (g.mass[node] == 0) continue;
        const double t = double(j) / double(mesh);
        out.mesh.push_back(t);
        out.frequency.push_back(g.second[node] / g.mass[node]);
        out.residual.push_back(g.value[node] / g.mass[node]);
        out.density.push_back(g.mass[node] * inv_sqrt_2pi / (out.bandwidth * double(n)));
    }
    out.intervals = resample_intervals(
        n, 1,
        [&](const std::vector<std::size_t>& indices) {
            std::vector<double> ps(indices.size()), rs(indices.size());
            for (std::size_t i = 0; i < indices.size(); ++i) ps[i] = p[indices[i]], rs[i] = r[indices[i]];
            const double sigma = options.bandwidth ? *options.bandwidth : automatic_bandwidth(ps, rs);
            return std::vector<double>{smooth_ece_of_residuals(ps, rs, sigma)};
        },
        options.resampling, options.parallel);
    // smECE is its own plug-in: the basic interval around the estimate, as relplot's.
    for (BootstrapInterval& i : out.intervals) i = basic_interval(i, out.value, 0.0);
    return out;
}

}  // namespace calib

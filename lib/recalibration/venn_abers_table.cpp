// The inductive Venn–Abers predictor's table (venn_abers_table.hpp) in O(G log² G) for G distinct
// calibration scores, O(G) memory — the role of Vovk, Petej & Fedorova's (2015, §2) fast algorithm, by
// another route.
//
// Cumulative sums: P_0 = (0, 0) and P_g = (W_g, C_g), the counts of calibration points and of ones among
// the first g groups of tied scores. A new point of label y goes in after the groups 1..c and before
// d..G: between s_c and s_{c+1} (c = d) or tied with s_d (c = d − 1, pooled with group d). The isotonic
// fit at it is the slope of the greatest convex minorant of the cumulative sums over its piece, and
// with the new point there those are L = {P_0, …, P_c} and R = {P_d + (1, y), …, P_G + (1, y)}: the
// minorant crosses the gap between them by one edge, their lower common tangent (the bridge). So the
// value is max over a ∈ hull(L) of min over b ∈ hull(R) of slope(a, b). hull(L) is the lower hull of a
// prefix, kept as a stack while c increases; hull(R) that of a suffix, and every suffix's hull is a path
// to the root in one tree built right to left (each P_d's parent is the next vertex of its suffix's
// hull), searched by jump pointers (Myers 1983) in O(log G). The outer maximum is found by bisection
// on hull(L): it lies at or after a vertex exactly when the next vertex is below the line from it to its
// own tangent point on hull(R).
//
// Coordinates are counts, so the orientation tests are exact in 64-bit integers and each value is one
// rounding of a ratio of integers.
#include "recalibration/venn_abers_table.hpp"

#include "core/check.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace calib::detail {

namespace {

struct Point {
    std::int64_t x, y;
};

// > 0 when o → a → b turns left (counter-clockwise). Exact: the coordinates are counts in [0, n + 1] with
// n < 2^31 (venn_abers_table's bound), so each product is below 2^62.
std::int64_t cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Every suffix's lower hull as a path in one tree: node d is P_d, parent[d] the next vertex of the hull of
// {P_d, …, P_G} (none for the root G), with Myers's jump pointers for searches toward the root.
class SuffixHulls {
public:
    explicit SuffixHulls(const std::vector<Point>& points) : points_(points) {
        const std::size_t size = points.size();
        parent_.assign(size, none), jump_.assign(size, none), depth_.assign(size, 0);
        std::vector<std::size_t> stack;
        for (std::size_t d = size; d-- > 0;) {
            while (stack.size() >= 2 && cross(points[d], points[stack.back()], points[stack[stack.size() - 2]]) <= 0)
                stack.pop_back();
            if (!stack.empty()) link(d, stack.back());
            else jump_[d] = d;
            stack.push_back(d);
        }
    }

    // The vertex of the hull of {P_d, …} shifted by `shift` that a line from q (left of them all) touches:
    // the first vertex v on the path whose successor is not strictly below the line from q to v.
    std::size_t tangent(Point q, std::size_t d, Point shift) const {
        const auto advances = [&](std::size_t v) {
            return parent_[v] != none && cross(q, moved(v, shift), moved(parent_[v], shift)) < 0;
        };
        std::size_t v = d;
        while (advances(v)) v = advances(jump_[v]) ? jump_[v] : parent_[v];
        return v;
    }

private:
    static constexpr std::size_t none = static_cast<std::size_t>(-1);

    Point moved(std::size_t v, Point shift) const { return {points_[v].x + shift.x, points_[v].y + shift.y}; }

    void link(std::size_t child, std::size_t parent) {
        parent_[child] = parent;
        depth_[child] = depth_[parent] + 1;
        const std::size_t j = jump_[parent], jj = jump_[j];
        jump_[child] = depth_[parent] - depth_[j] == depth_[j] - depth_[jj] ? jj : parent;
    }

    const std::vector<Point>& points_;
    std::vector<std::size_t> parent_, jump_, depth_;
};

double slope(Point a, Point b) { return static_cast<double>(b.y - a.y) / static_cast<double>(b.x - a.x); }

}  // namespace

VennAbersTable venn_abers_table(const std::vector<double>& scores, const std::vector<int>& labels) {
    if (scores.size() >= max_venn_abers_rows)
        fail("fit_recalibration", "venn-abers takes fewer than 2^31 calibration rows, not ", scores.size());
    std::vector<std::size_t> order(scores.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
    VennAbersTable table;
    std::vector<Point> sums{{0, 0}};  // P_0 … P_G
    for (const std::size_t i : order) {
        if (table.scores.empty() || scores[i] != table.scores.back()) {
            table.scores.push_back(scores[i]);
            sums.push_back(sums.back());
        }
        sums.back().x += 1;
        sums.back().y += labels[i] == 1 ? 1 : 0;
    }
    const std::size_t groups = table.scores.size();
    table.p0_between.resize(groups + 1), table.p1_between.resize(groups + 1);
    table.p0_at.resize(groups), table.p1_at.resize(groups);
    const SuffixHulls suffixes(sums);
    std::vector<Point> prefix;  // the lower hull of P_0 … P_c
    // The fit at a new point of label y after the groups 1..c, before d..G (the header's bridge).
    const auto fitted = [&](std::size_t d, std::int64_t y) {
        const Point shift{1, y};
        const auto tangent_point = [&](std::size_t a) {
            const std::size_t b = suffixes.tangent(prefix[a], d, shift);
            return Point{sums[b].x + shift.x, sums[b].y + shift.y};
        };
        std::size_t lo = 0, hi = prefix.size() - 1;  // the bridge's left end is in [lo, hi]
        while (lo < hi) {
            const std::size_t a = lo + (hi - lo) / 2;
            if (cross(prefix[a], tangent_point(a), prefix[a + 1]) < 0) lo = a + 1;
            else hi = a;
        }
        return slope(prefix[lo], tangent_point(lo));
    };
    for (std::size_t c = 0; c <= groups; ++c) {
        while (prefix.size() >= 2 && cross(prefix[prefix.size() - 2], prefix.back(), sums[c]) <= 0) prefix.pop_back();
        prefix.push_back(sums[c]);
        table.p0_between[c] = fitted(c, 0), table.p1_between[c] = fitted(c, 1);
        if (c < groups) table.p0_at[c] = fitted(c + 1, 0), table.p1_at[c] = fitted(c + 1, 1);
    }
    return table;
}

}  // namespace calib::detail

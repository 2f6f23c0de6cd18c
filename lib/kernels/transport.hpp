// Exact discrete optimal transport on small problems, for the mixture Wasserstein distance MW2
// [widmann-2021 App. D.3, eq. D.2; Delon & Desolneux 2020]:
//   MW2(p, p')² = min_{w ∈ Π(π, π')} Σ_{k,l} w_kl c_kl,   c_kl = W2²(p_k, p'_l),
//   Π(π, π') = {w ≥ 0 : Σ_l w_kl = π_k, Σ_k w_kl = π'_l}.
//
// TransportSolver   the general case: the transportation simplex (network simplex on the complete
//                   bipartite graph) from a row-minimum basis, Dantzig's entering rule, and Bland's
//                   rule (which cannot cycle) after a run of degenerate pivots. It stops when every
//                   reduced cost c_kl − u_k − v_l ≥ −1e-13·max c: the duals then certify optimality.
//                   O(m·n) per pivot; about m + n pivots (12 at m = n = 10, 35 at 20).
// AssignmentSolver  equal weights 1/K on both sides: the transport polytope is then 1/K times the
//                   doubly stochastic matrices, whose vertices are permutations (Birkhoff), so
//                   MW2² = (1/K) min_σ Σ_k c_{k,σ(k)}: the Hungarian method with potentials and
//                   shortest augmenting paths (Kuhn 1955, Munkres 1957), started from Jonker &
//                   Volgenant's column reduction, O(K³).
// Both keep their workspace between calls: construct once per row chunk, call once per pair.
// Internal header (calib::detail); no allocation once the workspace has grown to the problem size.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace calib::detail {

class TransportSolver {
public:
    // min Σ w_kl c_kl over couplings of a (m entries ≥ 0) and b (n entries ≥ 0); each side is first
    // divided by its sum, so both have mass 1. cost is row-major m×n (c_kl = cost[k·n + l]).
    // Returns the optimal cost; quiet NaN if the pivot limit is hit (never observed: Bland's rule
    // terminates), see failed(). The accessors below read `cost`, which must outlive them.
    double solve(const double* a, int m, const double* b, int n, const double* cost) {
        m_ = m, n_ = n, cost_ = cost;
        failed_ = false;
        pivots_ = 0;
        // Zero-mass rows and columns carry no flow: solve on the others (less degeneracy).
        rows_.clear(), cols_.clear(), a_.clear(), b_.clear();
        double sa = 0, sb = 0;
        for (int k = 0; k < m; ++k) sa += a[k];
        for (int l = 0; l < n; ++l) sb += b[l];
        for (int k = 0; k < m; ++k)
            if (a[k] > 0) rows_.push_back(k), a_.push_back(a[k] / sa);
        for (int l = 0; l < n; ++l)
            if (b[l] > 0) cols_.push_back(l), b_.push_back(b[l] / sb);
        p_ = int(rows_.size()), q_ = int(cols_.size());
        c_.resize(std::size_t(p_) * std::size_t(q_));
        double scale = 0;
        for (int r = 0; r < p_; ++r)
            for (int s = 0; s < q_; ++s) {
                const double c = cost[std::size_t(rows_[std::size_t(r)]) * std::size_t(n) + std::size_t(cols_[std::size_t(s)])];
                c_[std::size_t(r) * std::size_t(q_) + std::size_t(s)] = c;
                scale = std::max(scale, std::abs(c));
            }
        tolerance_ = 1e-13 * scale;
        initial_basis();
        const double value = optimise();
        return value;
    }

    // After solve(): the optimal coupling, the dual potentials (u_k + v_l ≤ c_kl, with equality on
    // the cells that carry flow), the number of pivots, and whether the pivot limit was hit or
    // Bland's rule was needed. The accessors recompute the full m×n flows and duals (for tests).
    double flow(int k, int l) const {
        for (std::size_t e = 0; e < brow_.size(); ++e)
            if (rows_[std::size_t(brow_[e])] == k && cols_[std::size_t(bcol_[e])] == l) return x_[e];
        return 0;
    }
    double row_potential(int k) const {
        for (int r = 0; r < p_; ++r)
            if (rows_[std::size_t(r)] == k) return potential_[std::size_t(r)];
        // A zero-mass row: the largest potential with u_k + v_l ≤ c_kl for every column.
        double u = std::numeric_limits<double>::infinity();
        for (int l = 0; l < n_; ++l) u = std::min(u, cost_[std::size_t(k) * std::size_t(n_) + std::size_t(l)] - column_potential(l));
        return u;
    }
    double column_potential(int l) const {
        for (int s = 0; s < q_; ++s)
            if (cols_[std::size_t(s)] == l) return potential_[std::size_t(p_ + s)];
        double v = std::numeric_limits<double>::infinity();  // a zero-mass column: against the active rows
        for (int r = 0; r < p_; ++r)
            v = std::min(v, cost_[std::size_t(rows_[std::size_t(r)]) * std::size_t(n_) + std::size_t(l)] - potential_[std::size_t(r)]);
        return v;
    }
    int pivots() const { return pivots_; }
    // Bland's rule replaces Dantzig's after this many consecutive degenerate pivots (default
    // m + n + 1; 0: from the start, for tests).
    void set_bland_threshold(int degenerate_pivots) { bland_threshold_ = degenerate_pivots; }
    bool failed() const { return failed_; }
    bool used_bland() const { return bland_; }

private:
    // A basis of p + q − 1 cells (a spanning tree of the bipartite graph) by the row-minimum rule:
    // the first open row ships to its cheapest open column; each step closes exactly one line (the
    // row if its supply is used up first, else the column; never the last open row or column), so
    // the cells form a spanning tree, with zero flows where a row and a column run out together.
    void initial_basis() {
        const int p = p_, q = q_;
        brow_.clear(), bcol_.clear(), x_.clear();
        is_basic_.assign(std::size_t(p) * std::size_t(q), 0);
        ra_.assign(a_.begin(), a_.end());
        rb_.assign(b_.begin(), b_.end());
        open_col_.assign(std::size_t(q), 1);
        int open_cols = q, r = 0;
        for (;;) {
            const double* cr = c_.data() + std::size_t(r) * std::size_t(q);
            int s = -1;
            for (int t = 0; t < q; ++t)
                if (open_col_[std::size_t(t)] && (s < 0 || cr[t] < cr[s])) s = t;
            const double x = std::min(ra_[std::size_t(r)], rb_[std::size_t(s)]);
            add_basic(r, s, x);
            ra_[std::size_t(r)] -= x, rb_[std::size_t(s)] -= x;
            const bool last_row = r == p - 1;
            if (last_row && open_cols == 1) break;
            if (!last_row && (ra_[std::size_t(r)] <= rb_[std::size_t(s)] || open_cols == 1))
                ++r;
            else
                open_col_[std::size_t(s)] = 0, --open_cols;
        }
    }

    void add_basic(int r, int s, double x) {
        brow_.push_back(r), bcol_.push_back(s), x_.push_back(x);
        is_basic_[std::size_t(r) * std::size_t(q_) + std::size_t(s)] = 1;
    }

    // Potentials of the basis tree: u_r + v_s = c_rs on every basic cell, u_0 = 0, with the tree's
    // parent links and depths for the pivot cycles. Nodes: rows 0 … p−1, columns p … p+q−1.
    void tree() {
        const int p = p_, nodes = p_ + q_;
        const std::size_t edges = brow_.size();
        start_.assign(std::size_t(nodes) + 1, 0);
        for (std::size_t e = 0; e < edges; ++e) ++start_[std::size_t(brow_[e]) + 1], ++start_[std::size_t(p + bcol_[e]) + 1];
        for (int v = 0; v < nodes; ++v) start_[std::size_t(v) + 1] += start_[std::size_t(v)];
        adjacent_.resize(2 * edges);
        fill_.assign(start_.begin(), start_.end() - 1);
        for (std::size_t e = 0; e < edges; ++e) {
            adjacent_[std::size_t(fill_[std::size_t(brow_[e])]++)] = int(e);
            adjacent_[std::size_t(fill_[std::size_t(p + bcol_[e])]++)] = int(e);
        }
        potential_.resize(std::size_t(nodes));
        parent_edge_.resize(std::size_t(nodes));
        depth_.assign(std::size_t(nodes), -1);
        queue_.resize(std::size_t(nodes));
        potential_[0] = 0, depth_[0] = 0, parent_edge_[0] = -1, queue_[0] = 0;
        std::size_t tail = 1;
        for (std::size_t head = 0; head < tail; ++head) {
            const int v = queue_[head];
            for (int t = start_[std::size_t(v)]; t < start_[std::size_t(v) + 1]; ++t) {
                const int e = adjacent_[std::size_t(t)];
                const int w = other_end(e, v);
                if (depth_[std::size_t(w)] >= 0) continue;
                depth_[std::size_t(w)] = depth_[std::size_t(v)] + 1;
                parent_edge_[std::size_t(w)] = e;
                potential_[std::size_t(w)] = cost_of(e) - potential_[std::size_t(v)];
                queue_[tail++] = w;
            }
        }
    }

    int other_end(int e, int v) const { return v < p_ ? p_ + bcol_[std::size_t(e)] : brow_[std::size_t(e)]; }
    double cost_of(int e) const {
        return c_[std::size_t(brow_[std::size_t(e)]) * std::size_t(q_) + std::size_t(bcol_[std::size_t(e)])];
    }

    double optimise() {
        const int p = p_, q = q_;
        const int limit = 100 * (p + q) * (p + q) + 1000;
        const int threshold = bland_threshold_ >= 0 ? bland_threshold_ : p + q + 1;
        int degenerate_run = 0;
        bland_ = threshold == 0;
        for (;;) {
            tree();
            // Entering cell: a non-basic cell with reduced cost c − u − v < −tolerance.
            int enter_r = -1, enter_s = -1;
            double best = -tolerance_;
            for (int r = 0; r < p && !(bland_ && enter_r >= 0); ++r) {
                const double* cr = c_.data() + std::size_t(r) * std::size_t(q);
                const char* basic = is_basic_.data() + std::size_t(r) * std::size_t(q);
                const double* v = potential_.data() + p;
                const double ur = potential_[std::size_t(r)];
                for (int s = 0; s < q; ++s) {
                    const double reduced = cr[s] - ur - v[s];
                    if (reduced < best && !basic[s]) {
                        enter_r = r, enter_s = s;
                        if (bland_) break;  // Bland: the first eligible cell in index order
                        best = reduced;     // Dantzig: the most negative
                    }
                }
            }
            if (enter_r < 0) break;
            if (pivots_ >= limit) {
                failed_ = true;
                return std::numeric_limits<double>::quiet_NaN();
            }
            ++pivots_;
            const bool degenerate = pivot(enter_r, enter_s);
            degenerate_run = degenerate ? degenerate_run + 1 : 0;
            if (degenerate_run >= threshold) bland_ = true;
        }
        double value = 0;
        for (std::size_t e = 0; e < x_.size(); ++e) value += x_[e] * cost_of(int(e));
        return std::max(value, 0.0);
    }

    // Adds the entering cell (r, s) to the tree: the cycle it closes is the tree path from column s
    // to row r, whose cells alternately lose and gain θ (starting with a loss at column s); θ is the
    // smallest flow among the losing cells, and the losing cell with that flow and the smallest
    // index r·q + s leaves (Bland's tie rule). The entering cell takes the leaving cell's slot.
    // Returns whether the pivot was degenerate (θ = 0).
    bool pivot(int r, int s) {
        // Path edges from column node p + s up to the common ancestor, then from row node r up to it.
        up_.clear(), down_.clear();
        int v = p_ + s, w = r;
        while (depth_[std::size_t(v)] > depth_[std::size_t(w)]) {
            const int e = parent_edge_[std::size_t(v)];
            up_.push_back(e), v = other_end(e, v);
        }
        while (depth_[std::size_t(w)] > depth_[std::size_t(v)]) {
            const int e = parent_edge_[std::size_t(w)];
            down_.push_back(e), w = other_end(e, w);
        }
        while (v != w) {
            const int ev = parent_edge_[std::size_t(v)], ew = parent_edge_[std::size_t(w)];
            up_.push_back(ev), v = other_end(ev, v);
            down_.push_back(ew), w = other_end(ew, w);
        }
        up_.insert(up_.end(), down_.rbegin(), down_.rend());
        const std::vector<int>& path = up_;
        const auto index = [&](int e) { return brow_[std::size_t(e)] * q_ + bcol_[std::size_t(e)]; };
        double theta = std::numeric_limits<double>::infinity();
        int leave = -1;
        for (std::size_t t = 0; t < path.size(); t += 2) {  // the losing cells: every other one from the first
            const int e = path[t];
            const double x = x_[std::size_t(e)];
            if (x < theta || (x == theta && index(e) < index(leave))) theta = x, leave = e;
        }
        for (std::size_t t = 0; t < path.size(); ++t) {
            double& x = x_[std::size_t(path[t])];
            x = t % 2 == 0 ? x - theta : x + theta;
        }
        is_basic_[std::size_t(index(leave))] = 0;
        brow_[std::size_t(leave)] = r, bcol_[std::size_t(leave)] = s, x_[std::size_t(leave)] = theta;
        is_basic_[std::size_t(r) * std::size_t(q_) + std::size_t(s)] = 1;
        return theta == 0;
    }

    int m_ = 0, n_ = 0, p_ = 0, q_ = 0, pivots_ = 0, bland_threshold_ = -1;
    bool failed_ = false, bland_ = false;
    double tolerance_ = 0;
    const double* cost_ = nullptr;
    std::vector<double> a_, b_, ra_, rb_, c_, x_, potential_;
    std::vector<int> rows_, cols_, brow_, bcol_, start_, fill_, adjacent_, parent_edge_, depth_, queue_, up_, down_;
    std::vector<char> is_basic_, open_col_;
};

class AssignmentSolver {
public:
    // min over permutations σ of Σ_k c_{k,σ(k)} for a row-major n×n cost matrix (n ≥ 1).
    //
    // Column potentials v keep every reduced cost c_ks − u_k − v_s ≥ 0 and the matched cells tight
    // (u_k = c_{k,x_k} − v_{x_k}, so u is implicit). Start (Jonker & Volgenant 1987): v_s = min_k c_ks
    // and each column goes to its cheapest row while that row is free. Then each free row f is
    // matched by a Dijkstra search in reduced costs for the nearest free column (distances d over the
    // columns, via the rows matched to the columns already reached), after which the columns reached
    // get v_s += d_s − d_free and the path is flipped. O(n²) per free row.
    double solve(int n, const double* cost) {
        const auto size = std::size_t(n);
        const auto c = [&](int k, int s) { return cost[std::size_t(k) * size + std::size_t(s)]; };
        v_.resize(size), d_.resize(size), column_of_.assign(size, -1), row_of_.assign(size, -1);
        pred_.resize(size), todo_.resize(size), reached_.resize(size);
        for (int s = n - 1; s >= 0; --s) {
            int best = 0;
            for (int k = 1; k < n; ++k)
                if (c(k, s) < c(best, s)) best = k;
            v_[std::size_t(s)] = c(best, s);
            if (column_of_[std::size_t(best)] < 0) column_of_[std::size_t(best)] = s, row_of_[std::size_t(s)] = best;
        }
        for (int f = 0; f < n; ++f) {
            if (column_of_[std::size_t(f)] >= 0) continue;
            for (int s = 0; s < n; ++s) {
                d_[std::size_t(s)] = c(f, s) - v_[std::size_t(s)];
                pred_[std::size_t(s)] = f;
                todo_[std::size_t(s)] = s;
            }
            int open = n, reached = 0, free_column = -1;
            double mu = 0;
            for (;;) {
                int at = 0;  // the open column nearest to f
                for (int t = 1; t < open; ++t)
                    if (d_[std::size_t(todo_[std::size_t(t)])] < d_[std::size_t(todo_[std::size_t(at)])]) at = t;
                const int s = todo_[std::size_t(at)];
                mu = d_[std::size_t(s)];
                todo_[std::size_t(at)] = todo_[std::size_t(--open)];
                reached_[std::size_t(reached++)] = s;
                if (row_of_[std::size_t(s)] < 0) {
                    free_column = s;
                    break;
                }
                // Through the row matched to s (tight: reduced cost 0) to the open columns.
                const int k = row_of_[std::size_t(s)];
                const double offset = c(k, s) - v_[std::size_t(s)] - mu;
                for (int t = 0; t < open; ++t) {
                    const int l = todo_[std::size_t(t)];
                    const double through = c(k, l) - v_[std::size_t(l)] - offset;
                    if (through < d_[std::size_t(l)]) d_[std::size_t(l)] = through, pred_[std::size_t(l)] = k;
                }
            }
            for (int t = 0; t < reached; ++t) {
                const int s = reached_[std::size_t(t)];
                v_[std::size_t(s)] += d_[std::size_t(s)] - mu;
            }
            for (int s = free_column;;) {  // flip the alternating path back to f
                const int k = pred_[std::size_t(s)];
                row_of_[std::size_t(s)] = k;
                const int previous = column_of_[std::size_t(k)];
                column_of_[std::size_t(k)] = s;
                if (k == f) break;
                s = previous;
            }
        }
        double total = 0;
        for (int k = 0; k < n; ++k) total += c(k, column_of_[std::size_t(k)]);
        return total;
    }

    // After solve(): the column assigned to row k (0-based).
    int assigned_column(int k) const { return column_of_[std::size_t(k)]; }

private:
    std::vector<double> v_, d_;
    std::vector<int> column_of_, row_of_, pred_, todo_, reached_;
};

}  // namespace calib::detail

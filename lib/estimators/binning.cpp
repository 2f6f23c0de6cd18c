// Uniform and median-variance binning (binning.hpp).
#include "estimators/binning.hpp"

#include "core/check.hpp"
#include "core/compensated_sum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>

namespace calib::detail {

namespace {

// Groups the observations sorted by `less` into bins of equal `same` keys, in sorted order.
template <class Less, class Same>
Bins group_sorted(std::size_t n, Less less, Same same) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Ties broken by index, so each bin keeps its indices ascending.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(a, b) || (!less(b, a) && a < b); });
    Bins bins;
    for (std::size_t start = 0; start < n;) {
        std::size_t end = start + 1;
        while (end < n && same(order[start], order[end])) ++end;
        bins.emplace_back(order.begin() + static_cast<long>(start), order.begin() + static_cast<long>(end));
        start = end;
    }
    return bins;
}

// Whether nbins^d cells can be numbered in 64 bits.
bool cells_fit_in_64_bits(int nbins, std::size_t d) {
    double bits = 0;
    for (std::size_t k = 0; k < d; ++k) bits += std::log2(static_cast<double>(nbins));
    return bits < 63;
}

}  // namespace

Bins uniform_binning(const Eigen::Ref<const Matrix>& x, int nbins) {
    const std::size_t n = static_cast<std::size_t>(x.rows()), d = static_cast<std::size_t>(x.cols());
    const auto index = [&](std::size_t i, std::size_t k) {
        return uniform_bin_index(x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)), nbins);
    };
    if (cells_fit_in_64_bits(nbins, d)) {
        // (cell, index) with the cell's number in base nbins, first coordinate most significant:
        // numeric order is the lexicographic order of the tuples, then the index.
        std::vector<std::pair<std::uint64_t, std::size_t>> cell(n);
        for (std::size_t i = 0; i < n; ++i) cell[i] = {0, i};
        for (std::size_t k = 0; k < d; ++k)
            for (std::size_t i = 0; i < n; ++i)
                cell[i].first = cell[i].first * static_cast<std::uint64_t>(nbins) + static_cast<std::uint64_t>(index(i, k) - 1);
        double cells = 1;
        for (std::size_t k = 0; k < d; ++k) cells *= nbins;
        if (cells <= std::max<double>(double(n), 65536)) {
            // Few cells (the top-label confidences' nbins², a low-dimensional grid): a counting sort,
            // stable in the index, gives the same order in O(n + cells) instead of O(n log n).
            std::vector<std::size_t> start(static_cast<std::size_t>(cells) + 1, 0);
            for (const auto& [c, i] : cell) ++start[c + 1];
            std::partial_sum(start.begin(), start.end(), start.begin());
            std::vector<std::pair<std::uint64_t, std::size_t>> sorted(n);
            for (const auto& entry : cell) sorted[start[entry.first]++] = entry;
            cell.swap(sorted);
        } else {
            std::sort(cell.begin(), cell.end());
        }
        Bins bins;
        for (std::size_t start = 0; start < n;) {
            std::size_t end = start + 1;
            while (end < n && cell[end].first == cell[start].first) ++end;
            Bin& bin = bins.emplace_back();
            for (std::size_t j = start; j < end; ++j) bin.push_back(cell[j].second);
            start = end;
        }
        return bins;
    }
    // Row-major tuples, compared lexicographically.
    std::vector<int> keys(n * d);
    for (std::size_t k = 0; k < d; ++k)
        for (std::size_t i = 0; i < n; ++i) keys[i * d + k] = index(i, k);
    const auto key = [&](std::size_t i) { return keys.begin() + static_cast<long>(i * d); };
    return group_sorted(
        n,
        [&](std::size_t a, std::size_t b) {
            return std::lexicographical_compare(key(a), key(a) + static_cast<long>(d), key(b), key(b) + static_cast<long>(d));
        },
        [&](std::size_t a, std::size_t b) { return std::equal(key(a), key(a) + static_cast<long>(d), key(b)); });
}

namespace {

// Unbiased sample variance of column `dim` over `idx` (k ≥ 2), two-pass: the centred second
// pass avoids the cancellation of Σx² − k·mean² and, unlike Welford, divides only twice.
double sample_variance(const Eigen::Ref<const Matrix>& x, const Bin& idx, Eigen::Index dim) {
    double sum = 0;
    for (std::size_t i : idx) sum += x(static_cast<Eigen::Index>(i), dim);
    const double mean = sum / static_cast<double>(idx.size());
    double squares = 0;
    for (std::size_t i : idx) {
        const double deviation = x(static_cast<Eigen::Index>(i), dim) - mean;
        squares += deviation * deviation;
    }
    return squares / static_cast<double>(idx.size() - 1);
}

// A set waiting to be split: its indices, largest coordinate variance, that coordinate, and its
// queue sequence number (the tie-break that makes the order deterministic).
struct PendingSet {
    Bin idx;
    double variance = 0;
    Eigen::Index dim = 0;
    std::size_t sequence = 0;
};

PendingSet make_pending(const Eigen::Ref<const Matrix>& x, Bin idx, std::size_t sequence) {
    // Relative tolerance: coordinates whose variances differ only by rounding count as tied.
    constexpr double tie_tolerance = 1e-9;
    PendingSet set{std::move(idx), 0, 0, sequence};
    set.variance = sample_variance(x, set.idx, 0);
    for (Eigen::Index k = 1; k < x.cols(); ++k) {
        const double v = sample_variance(x, set.idx, k);
        if (v > set.variance * (1 + tie_tolerance)) {
            set.variance = v;
            set.dim = k;
        }
    }
    return set;
}

// Max-heap order: larger variance first, then the earlier queued set.
bool lower_priority(const PendingSet& a, const PendingSet& b) {
    if (a.variance != b.variance) return a.variance < b.variance;
    return a.sequence > b.sequence;
}

// Splits idx at v = the (⌊k/2⌋+1)-th smallest value of column dim: below = {x < v}, above = rest.
// Both keep idx's (ascending) order.
std::pair<Bin, Bin> median_split(const Eigen::Ref<const Matrix>& x, const Bin& idx,
                                 Eigen::Index dim) {
    std::vector<double> values(idx.size());
    for (std::size_t j = 0; j < idx.size(); ++j) values[j] = x(static_cast<Eigen::Index>(idx[j]), dim);
    const auto nth = values.begin() + static_cast<long>(idx.size() / 2);
    std::nth_element(values.begin(), nth, values.end());
    const double v = *nth;
    std::pair<Bin, Bin> parts;
    for (std::size_t i : idx)
        (x(static_cast<Eigen::Index>(i), dim) < v ? parts.first : parts.second).push_back(i);
    return parts;
}

}  // namespace

Bins median_variance_binning(const Eigen::Ref<const Matrix>& x, int minsize, int maxbins) {
    const std::size_t n = static_cast<std::size_t>(x.rows());
    const std::size_t min_size = static_cast<std::size_t>(minsize);
    const std::size_t min_split = 2 * min_size;
    Bin all(n);
    std::iota(all.begin(), all.end(), std::size_t{0});
    if (n < min_split || maxbins == 1) return {std::move(all)};

    Bins bins;
    std::vector<PendingSet> queue;  // a heap under lower_priority
    std::size_t sequence = 0;
    const auto enqueue = [&](Bin idx) {
        queue.push_back(make_pending(x, std::move(idx), sequence++));
        std::push_heap(queue.begin(), queue.end(), lower_priority);
    };
    const auto dequeue = [&] {
        std::pop_heap(queue.begin(), queue.end(), lower_priority);
        PendingSet set = std::move(queue.back());
        queue.pop_back();
        return set;
    };

    enqueue(std::move(all));
    // Bins made plus sets queued; a successful split adds one, a refused split none.
    int count = 1;
    while (count < maxbins && !queue.empty()) {
        PendingSet set = dequeue();
        auto [below, above] = median_split(x, set.idx, set.dim);
        // Many values equal to v can leave one side too small: keep the set whole.
        if (below.size() < min_size || above.size() < min_size) {
            bins.push_back(std::move(set.idx));
            continue;
        }
        for (Bin* part : {&below, &above}) {
            if (part->size() < min_split)
                bins.push_back(std::move(*part));
            else
                enqueue(std::move(*part));
        }
        ++count;
    }
    while (!queue.empty()) bins.push_back(dequeue().idx);
    return bins;
}

BinSummary::BinSummary(Eigen::Index dimension, int num_classes)
    : mean_prediction(dimension), label_frequency(num_classes), sums_(static_cast<std::size_t>(dimension)) {}

void BinSummary::summarize(const Eigen::Ref<const Matrix>& predictions, const std::vector<int>& labels,
                           const Bin& bin) {
    std::fill(sums_.begin(), sums_.end(), CompensatedSum());
    label_frequency.setZero();
    for (std::size_t i : bin) {
        const auto row = static_cast<Eigen::Index>(i);
        for (std::size_t k = 0; k < sums_.size(); ++k) sums_[k].add(predictions(row, static_cast<Eigen::Index>(k)));
        label_frequency(labels[i]) += 1;
    }
    size = bin.size();
    const double count = static_cast<double>(size);
    for (std::size_t k = 0; k < sums_.size(); ++k) mean_prediction(static_cast<Eigen::Index>(k)) = sums_[k].value() / count;
    label_frequency /= count;
}

}  // namespace calib::detail

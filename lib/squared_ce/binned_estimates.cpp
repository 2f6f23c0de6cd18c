// h_bin (23), the plug-in (TCE₂^bin)² (10) and Kumar et al.'s debiased variant on a scalar problem
// (squared_ce.hpp; digest §6.1).
#include "core/compensated_sum.hpp"
#include "estimators/binning.hpp"
#include "squared_ce/checks.hpp"

#include <calib/squared_ce.hpp>

#include <algorithm>
#include <cmath>

namespace calib {

namespace {

void check_scalar(const char* function, const CeProblem& p) {
    detail::check_problem(function, "train", p, 1);
    if (p.inputs.cols() != 1 || p.residuals.cols() != 1)
        detail::fail(function, "train has ", p.inputs.cols(), " input and ", p.residuals.cols(),
                     " residual columns, must have 1 of each (a top-label or class-wise problem)");
    for (Eigen::Index i = 0; i < p.inputs.rows(); ++i)
        if (!(p.inputs(i, 0) >= 0 && p.inputs(i, 0) <= 1))
            detail::fail_at(i, 0, function, "inputs(", i, ", 0) = ", detail::format_value(p.inputs(i, 0)),
                            ", must be in [0, 1]");
}

void check_bins(const char* function, int bins) {
    if (bins < 1) detail::fail(function, "bins = ", bins, ", must be >= 1");
}

}  // namespace

BinCeFunction::BinCeFunction(const CeProblem& train, int bins, CeBinning scheme) : scheme_(scheme), bins_(bins) {
    check_bins("BinCeFunction", bins);
    check_scalar("BinCeFunction", train);
    const auto n = static_cast<std::size_t>(train.inputs.rows());
    const auto m = static_cast<std::size_t>(bins);
    if (scheme == CeBinning::equal_mass) {
        std::vector<double> sorted(train.inputs.data(), train.inputs.data() + n);
        std::sort(sorted.begin(), sorted.end());
        edges_.resize(bins - 1);
        for (std::size_t k = 1; k < m; ++k)  // the value of rank ⌈kn/M⌉
            edges_(static_cast<Eigen::Index>(k - 1)) = sorted[(k * n + m - 1) / m - 1];
    }
    std::vector<detail::CompensatedSum> sums(m);
    detail::CompensatedSum total;
    counts_.assign(m, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const double r = train.residuals(static_cast<Eigen::Index>(i), 0);
        const std::size_t b = bin_of(train.inputs(static_cast<Eigen::Index>(i), 0));
        sums[b].add(r);
        total.add(r);
        ++counts_[b];
    }
    // conf(B) − acc(B) = mean residual; an empty bin falls back to the global conf − acc.
    const double fallback = total.value() / static_cast<double>(n);
    values_.resize(bins);
    for (std::size_t b = 0; b < m; ++b)
        values_(static_cast<Eigen::Index>(b)) =
            counts_[b] ? sums[b].value() / static_cast<double>(counts_[b]) : fallback;
}

std::size_t BinCeFunction::bin_of(double z) const {
    if (scheme_ == CeBinning::equal_width)
        return static_cast<std::size_t>(detail::uniform_bin_index(z, bins_) - 1);
    // The number of cuts below z: bin k is (cut_k, cut_{k+1}].
    return static_cast<std::size_t>(std::lower_bound(edges_.data(), edges_.data() + edges_.size(), z) - edges_.data());
}

Matrix BinCeFunction::factor(const Matrix& inputs) const {
    if (inputs.cols() != 1) detail::fail("BinCeFunction::factor", "inputs has ", inputs.cols(), " columns, must have 1");
    Matrix u(inputs.rows(), 1);
    for (Eigen::Index a = 0; a < inputs.rows(); ++a) {
        const double z = inputs(a, 0);
        if (!(z >= 0 && z <= 1))
            detail::fail_at(a, 0, "BinCeFunction::factor", "inputs(", a, ", 0) = ", detail::format_value(z),
                            ", must be in [0, 1]");
        u(a, 0) = values_(static_cast<Eigen::Index>(bin_of(z)));
    }
    return u;
}

Vector BinCeFunction::diagonal(const Matrix& inputs) const { return factor(inputs).col(0).array().square(); }

double binned_squared_ce(const CeProblem& problem, int bins, CeBinning scheme) {
    check_bins("binned_squared_ce", bins);
    check_scalar("binned_squared_ce", problem);
    // (10): Σ_m |B_m|/n (conf − acc)², from the bin values and counts of h_bin on the same data.
    const BinCeFunction h(problem, bins, scheme);
    detail::CompensatedSum s;
    for (std::size_t b = 0; b < h.counts().size(); ++b) {
        const double v = h.values()(static_cast<Eigen::Index>(b));
        s.add(static_cast<double>(h.counts()[b]) * v * v);
    }
    return s.value() / static_cast<double>(problem.inputs.rows());
}

double debiased_binned_squared_ce(const CeProblem& problem, int bins, CeBinning scheme) {
    check_bins("debiased_binned_squared_ce", bins);
    check_scalar("debiased_binned_squared_ce", problem);
    const BinCeFunction h(problem, bins, scheme);
    std::vector<detail::CompensatedSum> labels(h.counts().size());  // Σ b over each bin, b = z − r
    for (Eigen::Index i = 0; i < problem.inputs.rows(); ++i)
        labels[h.bin_of(problem.inputs(i, 0))].add(problem.inputs(i, 0) - problem.residuals(i, 0));
    detail::CompensatedSum s;
    for (std::size_t b = 0; b < h.counts().size(); ++b) {
        const double count = static_cast<double>(h.counts()[b]);
        if (count < 2) continue;
        const double v = h.values()(static_cast<Eigen::Index>(b)), acc = labels[b].value() / count;
        s.add(count * (v * v - acc * (1 - acc) / (count - 1)));
    }
    return s.value() / static_cast<double>(problem.inputs.rows());
}

}  // namespace calib

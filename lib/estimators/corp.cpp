// The CORP score decomposition (corp.hpp).
#include <calib/corp.hpp>
#include <calib/isotonic.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "core/name_table.hpp"

#include <cmath>
#include <vector>

namespace calib {

namespace {

const detail::NameTable<CorpScore> score_names = {{CorpScore::brier, "brier"}, {CorpScore::log, "log"}};

double score_of(CorpScore score, double x, double y) {
    if (score == CorpScore::brier) return (x - y) * (x - y);
    return y == 1 ? -std::log(x) : -std::log1p(-x);  // −log 0 = +∞
}

double mean_score(CorpScore score, const std::vector<double>& x, const std::vector<double>& y) {
    detail::CompensatedSum sum;
    for (std::size_t i = 0; i < x.size(); ++i) sum.add(score_of(score, x[i], y[i]));
    return sum.value() / static_cast<double>(x.size());
}

}  // namespace

std::string to_string(CorpScore score) { return detail::name_of(score_names, score); }
CorpScore parse_corp_score(const std::string& name) {
    return detail::value_named(score_names, name, "parse_corp_score", "score", "scores");
}

CorpDecomposition corp_decomposition(const CategoricalData& binary, CorpScore score) {
    if (binary.num_classes() != 2)
        detail::fail("corp_decomposition", "the data have ", binary.num_classes(),
                     " classes; the CORP decomposition reads binary predictions (two classes)");
    const std::size_t n = binary.size();
    std::vector<double> x(n), y(n);
    detail::CompensatedSum events;
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = binary.probabilities()(static_cast<Eigen::Index>(i), 1);
        y[i] = binary.labels()[i] == 1 ? 1.0 : 0.0;
        events.add(y[i]);
    }
    const IsotonicFit fit = isotonic_regression(x, y);
    const std::vector<double> climatology(n, events.value() / static_cast<double>(n));
    CorpDecomposition out;
    out.n = n;
    out.blocks = fit.blocks.size();
    out.mean_score = mean_score(score, x, y);
    for (std::size_t i = 0; i < n; ++i)
        if (std::isinf(score_of(score, x[i], y[i])) && out.contradicted++ == 0) out.first_contradicted = i;
    out.recalibrated_score = mean_score(score, fit.fitted, y);
    out.unc = mean_score(score, climatology, y);
    out.mcb = out.mean_score - out.recalibrated_score;
    out.dsc = out.unc - out.recalibrated_score;
    return out;
}

}  // namespace calib

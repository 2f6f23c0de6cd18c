// The CORP score decomposition (corp.hpp).
#include <calib/corp.hpp>
#include <calib/isotonic.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"
#include "core/name_table.hpp"
#include "estimators/corp_forecasts.hpp"

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

// Of the constant forecast c (the base rate), without a vector of n copies of it.
double mean_score(CorpScore score, double c, const std::vector<double>& y) {
    detail::CompensatedSum sum;
    for (const double outcome : y) sum.add(score_of(score, c, outcome));
    return sum.value() / static_cast<double>(y.size());
}

}  // namespace

std::string to_string(CorpScore score) { return detail::name_of(score_names, score); }
CorpScore parse_corp_score(const std::string& name) {
    return detail::value_named(score_names, name, "parse_corp_score", "score", "scores");
}

namespace detail {

BinaryForecasts binary_forecasts(const CategoricalData& binary, const char* function) {
    if (binary.num_classes() != 2)
        fail(function, "the data have ", binary.num_classes(),
             " classes; CORP reads binary predictions (two classes)");
    const std::size_t n = binary.size();
    BinaryForecasts out{std::vector<double>(n), std::vector<double>(n)};
    for (std::size_t i = 0; i < n; ++i) {
        out.x[i] = binary.probabilities()(static_cast<Eigen::Index>(i), 1);
        out.y[i] = binary.labels()[i] == 1 ? 1.0 : 0.0;
    }
    return out;
}

CorpDecomposition decompose(const BinaryForecasts& f, const IsotonicFit& fit, CorpScore score) {
    const std::size_t n = f.x.size();
    CompensatedSum events;
    for (const double y : f.y) events.add(y);
    const double base_rate = events.value() / static_cast<double>(n);
    CorpDecomposition out;
    out.n = n;
    out.blocks = fit.blocks.size();
    out.mean_score = mean_score(score, f.x, f.y);
    for (std::size_t i = 0; i < n; ++i)
        if (std::isinf(score_of(score, f.x[i], f.y[i])) && out.contradicted++ == 0) out.first_contradicted = i;
    out.recalibrated_score = mean_score(score, fit.fitted, f.y);
    out.unc = mean_score(score, base_rate, f.y);
    out.mcb = out.mean_score - out.recalibrated_score;
    out.dsc = out.unc - out.recalibrated_score;
    return out;
}

}  // namespace detail

CorpDecomposition corp_decomposition(const CategoricalData& binary, CorpScore score) {
    const detail::BinaryForecasts f = detail::binary_forecasts(binary, "corp_decomposition");
    return detail::decompose(f, isotonic_regression(f.x, f.y), score);
}

}  // namespace calib

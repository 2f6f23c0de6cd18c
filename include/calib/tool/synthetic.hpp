// The synthetic class predictions of calib's tests, benchmarks and reproduction apps, in one place
// (not part of the library's API): Dirichlet rows as normalised Gamma draws (the authors' sampler)
// and labels drawn from predictions. Every draw comes from the caller's stream, in a documented
// order, so that a seed gives the same data everywhere.
#pragma once

#include <calib/data.hpp>
#include <calib/recalibration.hpp>
#include <calib/tool/random.hpp>

#include <Eigen/Core>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace calib::synthetic {

// Fills `row` with Dir(α·1) probabilities from `gamma` (Gamma(α) draws, one per entry in order), each
// draw raised to at least `floor` (1e-300 keeps every log finite; 0 keeps the raw draws), the row
// normalised; a row whose draws all underflow to 0 is drawn again.
inline void dirichlet_row(boost::random::gamma_distribution<double>& gamma,
                          Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row, Rng& rng, double floor = 0) {
    double sum = 0;
    while (!(sum > 0)) {
        sum = 0;
        for (Eigen::Index k = 0; k < row.size(); ++k) sum += (row(k) = std::max(gamma(rng), floor));
    }
    row /= sum;
}

// A class drawn from the probabilities p (one uniform draw, inverse CDF; the last class takes any
// rounding slack).
inline int draw_label(const Eigen::Ref<const Eigen::RowVectorXd>& p, Rng& rng) {
    const double u = boost::random::uniform_01<double>()(rng);
    double cumulative = 0;
    for (Eigen::Index k = 0; k + 1 < p.size(); ++k)
        if (u < (cumulative += p(k))) return static_cast<int>(k);
    return static_cast<int>(p.size() - 1);
}

// n rows ~ Dir(α·1_m), row by row.
inline Matrix dirichlet(std::size_t n, int m, double alpha, Rng& rng, double floor = 0) {
    boost::random::gamma_distribution<double> gamma(alpha);
    Matrix p(static_cast<Eigen::Index>(n), m);
    for (Eigen::Index i = 0; i < p.rows(); ++i) dirichlet_row(gamma, p.row(i), rng, floor);
    return p;
}

// One label per row of p, drawn from it.
inline std::vector<int> draw_labels(const Matrix& p, Rng& rng) {
    std::vector<int> y(static_cast<std::size_t>(p.rows()));
    for (Eigen::Index i = 0; i < p.rows(); ++i) y[static_cast<std::size_t>(i)] = draw_label(p.row(i), rng);
    return y;
}

// n predictions ~ Dir(α·1_m) with labels drawn from them (a calibrated model) or, when
// `uniform_labels`, uniformly over the classes (miscalibrated): row i, then its label, in turn.
inline CategoricalData dirichlet_data(std::size_t n, int m, double alpha, Rng& rng, bool uniform_labels = false) {
    boost::random::gamma_distribution<double> gamma(alpha);
    Matrix p(static_cast<Eigen::Index>(n), m);
    std::vector<int> y(n);
    const Eigen::RowVectorXd uniform = Eigen::RowVectorXd::Constant(m, 1.0 / m);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        dirichlet_row(gamma, p.row(r), rng);
        y[i] = draw_label(uniform_labels ? uniform : Eigen::RowVectorXd(p.row(r)), rng);
    }
    return CategoricalData(std::move(p), std::move(y));
}

// n×m logits z with N(0, scale²) entries and labels drawn from softmax(z / t0): a model that temperature
// scaling with T = t0 calibrates (t0 > 1: overconfident). Row i's logits, then its label, in turn.
inline CategoricalScores tempered_logits(std::size_t n, int m, double scale, double t0, Rng& rng) {
    boost::random::normal_distribution<double> normal(0, scale);
    CategoricalScores out{Matrix(static_cast<Eigen::Index>(n), m), std::vector<int>(n), true};
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        for (Eigen::Index k = 0; k < m; ++k) out.scores(r, k) = normal(rng);
        const Eigen::RowVectorXd l = out.scores.row(r) / t0;
        const Eigen::RowVectorXd p = (l.array() - l.maxCoeff()).exp();
        out.labels[i] = draw_label(p / p.sum(), rng);
    }
    return out;
}

}  // namespace calib::synthetic

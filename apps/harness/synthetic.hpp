// Draws shared by the reproduction apps' categorical models (the 2019 design and calib's validity
// study): a row of Dirichlet predictions as normalised Gamma draws (the authors' sampler) and a label
// drawn from a prediction. Each app keeps its own loop, so that its random stream is consumed in
// the documented order.
#pragma once

#include <calib/tool/random.hpp>

#include <Eigen/Core>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/uniform_01.hpp>

namespace repro {

// Fills `row` with Dir(α·1) probabilities from `gamma` (Gamma(α) draws), redrawing the rare row whose
// draws all underflow to 0.
inline void draw_dirichlet(boost::random::gamma_distribution<double>& gamma,
                           Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row,
                           calib::Rng& rng) {
    double sum = 0;
    while (!(sum > 0)) {
        sum = 0;
        for (Eigen::Index k = 0; k < row.size(); ++k) sum += (row(k) = gamma(rng));
    }
    row /= sum;
}

// A class drawn from the probabilities p (one uniform draw, inverse CDF).
inline int draw_label(const Eigen::Ref<const Eigen::RowVectorXd>& p, calib::Rng& rng) {
    const double u = boost::random::uniform_01<double>()(rng);
    double cumulative = 0;
    for (Eigen::Index k = 0; k + 1 < p.size(); ++k)
        if (u < (cumulative += p(k))) return static_cast<int>(k);
    return static_cast<int>(p.size() - 1);
}

}  // namespace repro

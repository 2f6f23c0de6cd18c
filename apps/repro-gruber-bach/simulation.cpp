#include "simulation.hpp"

#include <calib/tool/synthetic.hpp>

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace gruber_bach {

Sample draw(std::size_t n, calib::Rng& rng) {
    boost::random::gamma_distribution<double> gamma(dirichlet_alpha + 1);
    boost::random::uniform_01<double> uniform;
    const auto rows = static_cast<Eigen::Index>(n);
    calib::Matrix truth(rows, classes), logits(rows, classes);
    std::vector<int> labels(n);
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (int k = 0; k < classes; ++k)
            logits(i, k) = std::log(gamma(rng)) + std::log1p(-uniform(rng)) / dirichlet_alpha;  // 1 − U ∈ (0, 1]
        const double top = logits.row(i).maxCoeff();
        truth.row(i) = (logits.row(i).array() - top).exp();
        truth.row(i) /= truth.row(i).sum();
        labels[static_cast<std::size_t>(i)] = calib::synthetic::draw_label(truth.row(i), rng);
    }
    logits *= temperature;  // log f = 0.3 log P up to a constant per row
    return {truth, calib::CategoricalData::from_logits(logits, labels)};
}

double estimate(const calib::CategoricalData& data, const EstimatorCase& c, std::uint64_t seed, double& chosen) {
    const std::string name = c.name;
    if (name == "bins-15") {
        chosen = 15;
        return calib::binned_squared_ce(calib::ce_problems(data, c.notion)[0], 15);
    }
    const calib::CeEstimator estimator = name == "ce-bins" ? calib::CeEstimator::bins
                                         : name == "ce-kde" ? calib::CeEstimator::kde
                                         : name == "ce-kkr" ? calib::CeEstimator::kkr
                                                            : calib::CeEstimator::ukkr;
    calib::SquaredCeOptions o;
    o.notion = c.notion;
    o.seed = seed;
    o.parallel = calib::ParallelOptions{1};  // the harness parallelises over replicates
    const calib::SquaredCeResult r = calib::squared_ce(data, estimator, o);
    chosen = r.grid[r.problems[0].chosen];
    return r.estimate;
}

}  // namespace gruber_bach

// The paper's three calibration errors of one model (experiments.hpp).
#include "experiments.hpp"

#include <calib/ckce.hpp>
#include <calib/estimators.hpp>

namespace repro {

Scores paper_scores(const calib::CategoricalData& data) {
    Scores s;
    calib::MedianOptions median;
    median.parallel.num_threads = 1;  // replicates run in parallel; the library serially inside
    calib::CkceOptions o;
    o.kernel.lengthscale = s.bandwidth = calib::simplex_median_lengthscale(data.probabilities(), median).value;
    o.parallel.num_threads = 1;
    s.ckce = calib::ckce(data, o).estimate;
    s.jkce = calib::jkce_unbiased(data, o.kernel, {}, {1});
    s.ece = calib::ece(data, calib::ckce_paper_ece_options());
    return s;
}

}  // namespace repro

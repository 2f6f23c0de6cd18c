// The squared Mahalanobis distance of a target from a multivariate normal prediction and the log
// determinant of its covariance, from one Cholesky factor: shared by mahalanobis_pit and mean_nll.
#pragma once

#include "core/check.hpp"

#include <calib/data.hpp>
#include <calib/errors.hpp>

#include <Eigen/Cholesky>

#include <cmath>
#include <cstddef>

namespace calib::detail {

struct Mahalanobis {
    double squared_distance = 0;  // ‖L⁻¹(y − μ)‖²
    double log_det = 0;           // log det Σ = 2 Σ_k log L_kk
};

// Observation i of the data; throws numerical_error if its covariance is not positive definite in
// floating point (construction checks it, so this is a numerical failure).
inline Mahalanobis mahalanobis(const MvNormalData& data, std::size_t i, const char* function) {
    const auto r = static_cast<Eigen::Index>(i);
    const Eigen::VectorXd residual = (data.targets().row(r) - data.mean().row(r)).transpose();
    Mahalanobis m;
    if (data.is_diagonal()) {
        for (Eigen::Index k = 0; k < residual.size(); ++k) {
            const double s = data.stddev()(r, k);
            m.squared_distance += (residual(k) / s) * (residual(k) / s);
            m.log_det += 2 * std::log(s);
        }
        return m;
    }
    const Eigen::LLT<Eigen::MatrixXd> llt(data.covariances()[i]);
    if (llt.info() != Eigen::Success)
        throw numerical_error(concat("calib::", function, ": the covariance of observation ", i,
                                     " is not positive definite in floating point (Cholesky failed)"));
    m.squared_distance = llt.matrixL().solve(residual).squaredNorm();
    for (Eigen::Index k = 0; k < residual.size(); ++k) m.log_det += 2 * std::log(llt.matrixL()(k, k));
    return m;
}

}  // namespace calib::detail

// The simulation family h_sim of Gruber & Bach §5.1 (digest §6.6, ambiguity 18).
#include "squared_ce/checks.hpp"

#include <cmath>
#include <limits>

namespace calib {

Matrix power_ce_factor(const Matrix& probabilities, double exponent) {
    const char* function = "power_ce_factor";
    if (!(std::isfinite(exponent) && exponent > 0))
        detail::fail(function, "exponent = ", detail::format_value(exponent), ", must be finite and > 0");
    Matrix u(probabilities.rows(), probabilities.cols());
    for (Eigen::Index a = 0; a < probabilities.rows(); ++a) {
        const auto p = probabilities.row(a);
        for (Eigen::Index k = 0; k < p.size(); ++k)
            if (!(std::isfinite(p(k)) && p(k) >= 0))
                detail::fail_at(a, k, function, "probabilities(", a, ", ", k, ") = ", detail::format_value(p(k)),
                                ", must be finite and >= 0");
        const double top = p.maxCoeff();
        if (!(top > 0)) detail::fail_at(a, -1, function, "probabilities row ", a, " is all zero");
        // p^a / Σ p^a as exp(a (log p_k − log max p)): no overflow, and p_k = 0 gives exp(−∞) = 0
        // exactly, so log 0 never reaches a product (digest ambiguity 18).
        const double log_top = std::log(top);
        double total = 0;
        for (Eigen::Index k = 0; k < p.size(); ++k) {
            u(a, k) = p(k) > 0 ? std::exp(exponent * (std::log(p(k)) - log_top)) : 0.0;
            total += u(a, k);
        }
        u.row(a) = p - u.row(a) / total;
    }
    return u;
}

}  // namespace calib

// The pair term of the paper's JKCE baseline: the SKCE's h with the CKCE's simplex kernel on the
// predictions and its label kernel on the residuals (ckce.hpp: jkce_unbiased; compare.hpp).
#pragma once

#include "ckce/detail.hpp"
#include "kernels/terms.hpp"
#include "ckce/simplex_rows.hpp"

namespace calib::detail {

// Checks the kernels (messages start with `function`) and calls visit(term).
template <class Visit>
decltype(auto) with_jkce_term(const char* function, const CategoricalData& data, const SimplexKernel& kernel,
                              const TargetKernel& target, Visit&& visit) {
    check_simplex_kernel(function, kernel);
    check_ckce_target(function, target, data.num_classes());
    const TensorTerm term(data.size(), SimplexRows(data.probabilities(), Matrix(), kernel), ClassTarget(data, target));
    return visit(term);
}

}  // namespace calib::detail

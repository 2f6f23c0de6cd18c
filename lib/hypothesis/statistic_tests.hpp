// The quadratic and block tests from the engine's results on any pair term h, shared by the SKCE's
// tests (quadratic.cpp, block.cpp) and the conditional MMD's (mmd_tests.cpp): the callers bind h and
// run the engine pass; these turn its sums into the TestResult. `estimator` names the statistic in
// the result ("skce-unbiased", "mmd-unbiased", …).
#pragma once

#include "engine/count_forms.hpp"
#include "engine/quadratic_sums.hpp"

#include <calib/estimators.hpp>
#include <calib/hypothesis.hpp>

#include <functional>
#include <string>

namespace calib::detail {

// forms(replicates, counts, cache): the bootstrap's count forms over h (FamilyOps::count_forms).
using CountFormsPass = std::function<CountForms(std::size_t replicates, const CountSource& counts, bool cache)>;
TestResult bootstrap_from(std::size_t n, const BootstrapOptions& options, const CountFormsPass& forms,
                          const std::string& estimator);
// The Gamma test from one pass's sums; `estimator` is the biased statistic's name.
TestResult gamma_from(const QuadraticSums& sums, const std::string& estimator);
// The block z-test from the block estimates (validate(options, n) done by the caller).
TestResult block_from(std::size_t n, const BlockSkce& block, const BlockTestOptions& options, const std::string& estimator);

}  // namespace calib::detail

// Internal: `recalibrate fit --method auto` (registry.hpp, MethodSelection): the categorical method of
// best mean held-out proper score over K seeded folds.
#pragma once

#include <calib/registry.hpp>

#include <string>
#include <vector>

namespace calib::detail {

// The categorical methods that apply to m classes, simplest first (the choice on a tie), in the order
// of recalibration_methods().
std::vector<RecalibrationMethod> selection_candidates(int num_classes);

struct SelectedMethod {
    RecalibrationMethod method = RecalibrationMethod::temperature;
    Record record;  // folds, cv_seed, score, candidates (method: mean held-out score), chosen
    std::vector<std::string> warnings;  // a candidate that failed on a fold, left out
};

// Each row's fold: a seeded permutation of the rows dealt into K folds in turn (sizes ⌊n/K⌋ or ⌈n/K⌉);
// every candidate is fitted on the other folds (with `options`) and scored on each fold's rows by
// −log max(q_y, probability_floor) (log) or Σ_k (q_k − 1{y = k})² (brier); the mean over all n rows
// decides. Throws invalid_argument when every candidate fails.
SelectedMethod select_method(const CategoricalScores& data, const RecalibrationOptions& options,
                             const MethodSelection& selection);

}  // namespace calib::detail

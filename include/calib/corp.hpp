// The CORP score decomposition of Dimitriadis, Gneiting & Jordan (PNAS 2021, "Stable reliability
// diagrams for probabilistic classifiers"): for binary predictions x_i = P(Y_i = 1) and a proper score
// S, the mean score S̄ = (1/n) Σ S(x_i, y_i) splits as
//   S̄ = MCB − DSC + UNC,  MCB = S̄ − S̄_C,  DSC = S̄_R − S̄_C,  UNC = S̄_R,
// with S̄_C the mean score of the PAV-recalibrated forecasts x̂_i (isotonic.hpp: the isotonic
// regression of y on x, ties pooled first, "Consistent, Optimal, Reproducible, PAV-based") and S̄_R
// that of the constant forecast ȳ. MCB (miscalibration) and DSC (discrimination) are ≥ 0 up to
// rounding: x̂ has the smallest mean score of every nondecreasing function of x for every proper
// score, x itself and ȳ among them.
#pragma once

#include <calib/data.hpp>

#include <cstddef>
#include <string>

namespace calib {

// brier: S(x, y) = (x − y)²; log: S(x, y) = −log x for y = 1, −log(1 − x) for y = 0 (the negative
// log-likelihood; +∞ for a forecast of 0 or 1 that the outcome contradicts).
enum class CorpScore { brier, log };
std::string to_string(CorpScore score);  // "brier", "log"
CorpScore parse_corp_score(const std::string& name);  // throws calib::invalid_argument for another name

struct CorpDecomposition {
    double mean_score = 0;          // S̄ of the forecasts (+∞ with the log score when one is contradicted)
    double recalibrated_score = 0;  // S̄_C, always finite: a PAV value of 0 or 1 has only outcomes it agrees with
    double mcb = 0, dsc = 0, unc = 0;
    std::size_t n = 0;
    std::size_t blocks = 0;         // the PAV fit's constant pieces
    // log: the rows whose forecast is 0 or 1 against the outcome (each makes S̄ and MCB +∞), and the first.
    std::size_t contradicted = 0, first_contradicted = 0;
};

// On binary predictions (two classes: x = the probability of class 1). Throws calib::invalid_argument
// for data of another number of classes.
CorpDecomposition corp_decomposition(const CategoricalData& binary, CorpScore score = CorpScore::brier);

}  // namespace calib

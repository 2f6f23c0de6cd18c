// The seeded CV/test split and the unshuffled folds of the pipeline (squared_ce.hpp; digest §5.1).
#include "core/check.hpp"

#include <calib/squared_ce.hpp>
#include <calib/tool/random.hpp>

#include <cmath>
#include <numeric>

namespace calib {

CeSplit ce_split(std::size_t n, std::size_t folds, double test_fraction, std::uint64_t seed) {
    if (folds < 2) detail::fail("ce_split", "folds = ", folds, ", must be >= 2");
    if (!(test_fraction > 0 && test_fraction < 1))
        detail::fail("ce_split", "test_fraction = ", detail::format_value(test_fraction), ", must be in (0, 1)");
    // ⌊(1 − F)·n⌋ as the reference code's int(0.8·N).
    const auto cv = static_cast<std::size_t>(std::floor((1 - test_fraction) * static_cast<double>(n)));
    if (cv == n || cv < 2 * folds)
        detail::fail("ce_split", "n = ", n, " is too small for folds = ", folds, " and test_fraction = ",
                     detail::format_value(test_fraction), ": the CV part has ", cv, " and the test part ", n - cv,
                     " observations, must have >= 2 * folds = ", 2 * folds, " and >= 1");
    // Fisher–Yates on one seeded stream: the same permutation for every estimator (paired comparisons).
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    Rng rng = make_stream(seed, 0);
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[uniform_index(rng, i)]);

    CeSplit split;
    split.test.assign(order.begin() + static_cast<long>(cv), order.end());
    // Consecutive folds of the CV part; the first cv mod K folds have one more observation.
    std::size_t start = 0;
    for (std::size_t k = 0; k < folds; ++k) {
        const std::size_t size = cv / folds + (k < cv % folds ? 1 : 0);
        split.validation.emplace_back(order.begin() + static_cast<long>(start), order.begin() + static_cast<long>(start + size));
        std::vector<std::size_t>& train = split.train.emplace_back(order.begin(), order.begin() + static_cast<long>(start));
        train.insert(train.end(), order.begin() + static_cast<long>(start + size), order.begin() + static_cast<long>(cv));
        start += size;
    }
    return split;
}

}  // namespace calib

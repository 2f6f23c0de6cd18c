// What a test's result says in words (registry.hpp: test_in_words, low_power_note), one overload per
// details type of TestDetails (hypothesis.hpp): a test with a new details type does not compile until
// it says what its settings and statistic are; tests without a low-power case need no overload.
#include <calib/hypothesis.hpp>
#include <calib/registry.hpp>

#include <algorithm>
#include <cstdio>

namespace calib {

namespace {

const std::string higher = "; larger values speak against calibration";
const std::string stronger = "`method` bootstrap has the most power (O(n^2) per replicate)";

// A number for a sentence: up to 4 significant digits.
std::string words_number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", x);
    return text;
}

std::string replicates_words(std::size_t replicates, std::uint64_t seed, PValueRule rule, const char* what) {
    return std::to_string(replicates) + " " + what + ", seed " + std::to_string(seed) +
           (rule == PValueRule::plus_one ? ", p = (1 + count)/(1 + R)" : "");
}

// ---- low power: the tests whose power is low by construction ----------------------------------------

template <class Details>
std::string low_power(const TestResult&, const Details&) {
    return "";
}

std::string low_power(const TestResult& r, const BlockTestDetails& d) {
    const std::size_t root = sqrt_block_size(r.n);
    if (d.block_size >= root) return "";
    const auto pairs = [](std::size_t m) { return std::to_string(m * (m - 1) / 2); };
    return "the block test with B = " + std::to_string(d.block_size) + " uses " +
           std::to_string(d.num_blocks * (d.block_size * (d.block_size - 1) / 2)) + " of the " + pairs(r.n) +
           " pairs of the n = " + std::to_string(r.n) + " observations and has little power; `block_size` sqrt (B = " +
           std::to_string(root) + ") has more, " + stronger;
}

std::string low_power(const TestResult&, const DistributionFreeDetails&) {
    return "a distribution-free bound holds for every distribution at every n, and is so conservative that "
           "miscalibrated models often get p-values near 1; " + stronger + ", the block test with `block_size` "
           "sqrt is the fast alternative";
}

std::string low_power(const TestResult&, const CmeDetails& d) {
    if (d.num_locations >= 10) return "";
    return "the CME test looks at J = " + std::to_string(d.num_locations) +
           " test locations only (the 2021 experiments used 10) and misses a miscalibration away from them; " + stronger;
}

// ---- settings and statistic: every details type ---------------------------------------------------------

TestInWords words(const TestResult& r, const ClassWiseDetails& d) {
    const std::size_t m = d.p_values.size();
    return {std::to_string(m) + " classes, each against the rest; the smallest p-value " +
                words_number(d.p_values[d.smallest]) + " (class " + std::to_string(d.smallest) + "), times " +
                std::to_string(m) + " (Bonferroni)",
            "-log10 of the smallest of the classes' p-values of " + r.method + higher};
}

TestInWords words(const TestResult& r, const BlockTestDetails& d) {
    return {std::to_string(d.num_blocks) + " blocks of B = " + std::to_string(d.block_size) + " observations" +
                (d.block_size == sqrt_block_size(r.n) && d.block_size > 2 ? " (B = floor(sqrt(n)))" : "") +
                (d.null_variance ? ", standard error under calibration" : ""),
            "z = the block estimate divided by its standard error, compared with the standard normal; z <= 0 is "
            "no evidence against calibration" + higher};
}

TestInWords words(const TestResult&, const BootstrapDetails& d) {
    return {replicates_words(d.replicates, d.seed, d.pvalue_rule, "bootstrap replicates"),
            "n/(n-1) SKCE_uq - SKCE_b, which subtracts the terms of each observation with itself (their mean "
            "over n), so it is usually negative, for a miscalibrated model too; it is compared with bootstrap "
            "replicates of the same form, and the p-value is the share of replicates at least as large"};
}

TestInWords words(const TestResult&, const GammaDetails& d) {
    return {d.degenerate ? std::string("degenerate null (every pair term is 0)")
                         : "Gamma null of shape " + words_number(d.shape) + " and scale " + words_number(d.scale) +
                               " (the null's mean and variance)",
            "n SKCE_b (>= 0), compared with a Gamma distribution fitted to its mean and variance under "
            "calibration" + higher};
}

TestInWords words(const TestResult&, const SpectralDetails& d) {
    return {replicates_words(d.replicates, d.seed, d.pvalue_rule, "draws of the spectral null"),
            "n SKCE_uq, compared with draws of its limit under calibration (from the Gram matrix's eigenvalues)" +
                higher};
}

TestInWords words(const TestResult&, const DistributionFreeDetails& d) {
    return {"bound " + words_number(d.bound) + " on the kernel's terms" +
                (d.hoeffding_count > 0 ? ", " + words_number(d.hoeffding_count) + " independent terms" : "") +
                (d.block_size ? ", blocks of B = " + std::to_string(d.block_size) : ""),
            "the estimate itself; the p-value is an upper bound that holds for every distribution "
            "(McDiarmid's or Hoeffding's inequality), 1 for a small or negative estimate" + higher};
}

TestInWords words(const TestResult&, const ConsistencyDetails& d) {
    return {replicates_words(d.replicates, d.seed, d.pvalue_rule, "consistency resamples"),
            "the estimate, compared with its values on resamples whose labels are drawn from the predictions "
            "(calibrated by construction)" + higher};
}

TestInWords words(const TestResult&, const CmeDetails& d) {
    return {"J = " + std::to_string(d.num_locations) + " test locations, " +
                (d.reference == CmeReference::f ? "F" : "chi-squared") + " null",
            "Hotelling's Q of the mean deviations at the test locations (>= 0)" + higher};
}

// Spiegelhalter's z (the Brier score) and calibration-in-the-large.
TestInWords words(const TestResult& r, const BinaryZDetails& d) {
    const bool brier = r.method == "spiegelhalter";
    const std::string what = brier ? "the Brier score" : "the mean outcome minus the mean prediction";
    const std::string expected = std::string(brier ? "Brier score " : "mean outcome ") + words_number(d.expected);
    const std::string larger = brier ? "a larger Brier score than calibration gives" : "more events than predicted";
    const std::string null = "expected under calibration: " + expected + ", standard error " + words_number(d.std_error);
    return {d.degenerate ? std::string("degenerate: every outcome is certain under the predictions") : null,
            "|z|, z = (" + what + (brier ? " - its expectation" : "") +
                ") / its standard error under calibration, compared with the standard normal on both sides; z > "
                "0 means " + larger + higher};
}

TestInWords words(const TestResult&, const CoxDetails& d) {
    const auto interval = [](double lower, double upper) {
        return "[" + words_number(lower) + ", " + words_number(upper) + "]";
    };
    return {"calibration slope " + words_number(d.slope) + " " + interval(d.slope_lr_lower, d.slope_lr_upper) +
                " (p = " + words_number(d.slope_p_value) + " for slope 1), calibration-in-the-large intercept " +
                words_number(d.citl_intercept) + " " + interval(d.citl_lr_lower, d.citl_lr_upper) + " (p = " +
                words_number(d.citl_p_value) + " for 0); " + words_number(100 * d.level) +
                "% likelihood-ratio intervals" +
                (d.clip > 0 ? "; " + std::to_string(d.clipped) + " predictions clipped into [" + words_number(d.clip) +
                                  ", 1 - " + words_number(d.clip) + "]"
                            : ""),
            "twice the log-likelihood gained by refitting logit P(Y = 1) = a + b logit p over a = 0, b = 1, "
            "compared with chi-squared on 2 degrees of freedom; a slope below 1 means over-confident "
            "predictions" + higher};
}

// The Kolmogorov-Smirnov and Kuiper tests of the cumulative differences.
TestInWords words(const TestResult& r, const CumulativeDetails& d) {
    const bool ks = r.method == "ks";
    return {d.degenerate ? std::string("degenerate: every outcome is certain under the predictions")
                         : "standard deviation under calibration " + words_number(d.std_error) +
                               ", largest cumulative difference at p = " + words_number(d.largest_at),
            std::string(ks ? "the largest |running sum| of y - p, the predictions in increasing order,"
                           : "the range (largest minus smallest) of the running sum of y - p, the predictions "
                             "in increasing order,") +
                " over its standard deviation under calibration, compared with the " +
                (ks ? "largest |B|" : "range") + " of Brownian motion on [0, 1]" + higher};
}

TestInWords words(const TestResult&, const TCalDetails& d) {
    const std::size_t levels = d.bin_counts.size();
    const std::string draws = std::to_string(d.replicates) + " draws of the " + to_string(d.null) + " null, seed " +
                              std::to_string(d.seed) + ", p = (1 + count)/(1 + R)";
    return {levels == 1 ? std::to_string(d.bin_counts[0]) + " bins; " + draws
                        : std::to_string(levels) + " bin counts 2 to " + std::to_string(d.bin_counts.back()) +
                              "; the smallest p-value " +
                              words_number(*std::min_element(d.p_values.begin(), d.p_values.end())) + " (" +
                              std::to_string(d.selected_bins) + " bins), times " + std::to_string(levels) +
                              " (Bonferroni; these draws give p >= " +
                              words_number(double(levels) / double(d.replicates + 1)) + "); " + draws,
            "-log10 of the smallest p-value of the debiased binned squared ECE (mean 0 under calibration) "
            "against its draws under calibration" + higher};
}

TestInWords words(const TestResult&, const HosmerLemeshowDetails& d) {
    return {std::to_string(d.groups) + " groups " +
                (d.grouping == HosmerLemeshowGrouping::quantiles         ? "by rank"
                 : d.grouping == HosmerLemeshowGrouping::quantile_breaks ? "between sample quantiles"
                                                                          : "between fixed cut points") +
                ", chi-squared with " + words_number(d.df) + " degrees of freedom (" + to_string(d.df_rule) +
                " data); smallest expected count " + words_number(d.smallest_expected),
            "the sum over the groups of (observed - expected events)^2 / (expected events x (1 - expected "
            "share)), compared with the chi-squared" + higher};
}

}  // namespace

std::string low_power_note(const TestResult& r) {
    return std::visit([&](const auto& d) { return low_power(r, d); }, r.details);
}

TestInWords test_in_words(const TestResult& r) {
    return std::visit([&](const auto& d) { return words(r, d); }, r.details);
}

}  // namespace calib

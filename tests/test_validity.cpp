// Statistical validity of the calibration tests: under a calibrated model the false-rejection rate
// at α lies inside a 99% binomial band around α (distribution-free tests: at most α); under a
// clearly miscalibrated model the asymptotic tests reject. The suite "validity" is sized for
// `make test`; "validity slow" (`make test-slow`) repeats it with more data sets, sizes and levels.
#include <calib/hypothesis.hpp>

#include "support.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <string>

using namespace calib;

namespace {

// The 99% two-sided acceptance band of the number of rejections among `trials` under level α.
std::pair<double, double> binomial_band(std::size_t trials, double alpha) {
    const boost::math::binomial_distribution<double> b(double(trials), alpha);
    return {boost::math::quantile(b, 0.005), boost::math::quantile(boost::math::complement(b, 0.005))};
}

// A kernel for each data set: fixed, or chosen from the data (the 2019 median heuristic).
template <class Data>
using KernelRule = std::function<Kernel(const Data&)>;

template <class Data>
struct Suite {
    std::map<std::string, std::function<TestResult(const Data&, const Kernel&, std::uint64_t)>> tests;
    // Names of the tests checked only against the upper end of the band: the distribution-free
    // bounds (valid but very conservative by design) and the block test with B = √n, which is
    // conservative at moderate n (widmann-2021's own runs: type-I error 0.020–0.038 at α = 0.05 for
    // n ≥ 64, julia-reference §3.3; docs/tests.md).
    std::vector<std::string> conservative;
};

template <class Data>
Suite<Data> all_tests(std::size_t replicates, bool with_spectral = true) {
    Suite<Data> s;
    const ParallelOptions serial{1};
    s.tests["block B=2"] = [=](const Data& d, const Kernel& k, std::uint64_t) {
        BlockTestOptions o;
        o.parallel = serial;
        return block_test(d, k, o);
    };
    s.tests["block B=sqrt(n)"] = [=](const Data& d, const Kernel& k, std::uint64_t) {
        BlockTestOptions o;
        o.block_size = sqrt_block_size(d.size());
        o.parallel = serial;
        return block_test(d, k, o);
    };
    s.tests["bootstrap"] = [=](const Data& d, const Kernel& k, std::uint64_t seed) {
        BootstrapOptions o;
        o.replicates = replicates;
        o.seed = seed;
        o.parallel = serial;
        return bootstrap_test(d, k, o);
    };
    s.tests["gamma"] = [=](const Data& d, const Kernel& k, std::uint64_t) { return gamma_test(d, k, serial); };
    if (with_spectral)
        s.tests["spectral"] = [=](const Data& d, const Kernel& k, std::uint64_t seed) {
            SpectralOptions o;
            o.replicates = replicates;
            o.seed = seed;
            o.parallel = serial;
            return spectral_test(d, k, o);
        };
    s.tests["cme J=2"] = [=](const Data& d, const Kernel& k, std::uint64_t seed) {
        CmeOptions o;
        o.parallel = serial;
        return cme_test(d, 2, seed, k, o);
    };
    s.tests["dfree biased"] = [=](const Data& d, const Kernel& k, std::uint64_t) { return dfree_biased_test(d, k, {0, serial}); };
    s.tests["dfree unbiased"] = [=](const Data& d, const Kernel& k, std::uint64_t) { return dfree_unbiased_test(d, k, {0, serial}); };
    s.tests["dfree block B=2"] = [=](const Data& d, const Kernel& k, std::uint64_t) { return dfree_block_test(d, k, 2, {0, serial}); };
    s.conservative = {"dfree biased", "dfree unbiased", "dfree block B=2", "block B=sqrt(n)"};
    return s;
}

// Runs every test on `trials` data sets from `make(rng)` (data set t from stream t of the seed)
// and returns the rejections (p < α) at each α.
template <class Data, class Make>
std::map<std::string, std::vector<std::size_t>> rejections(const Suite<Data>& suite, Make make, const KernelRule<Data>& kernel,
                                                           std::size_t trials, const std::vector<double>& alphas,
                                                           std::uint64_t seed) {
    std::map<std::string, std::vector<std::size_t>> counts;
    for (const auto& [name, f] : suite.tests) counts[name].assign(alphas.size(), 0);
    std::vector<std::map<std::string, double>> p(trials);
#pragma omp parallel for schedule(dynamic)
    for (std::size_t t = 0; t < trials; ++t) {
        Rng rng = make_stream(seed, t);
        const Data data = make(rng);
        const Kernel k = kernel(data);
        for (const auto& [name, f] : suite.tests) p[t][name] = f(data, k, seed + 7919 * t).p_value;
    }
    for (std::size_t t = 0; t < trials; ++t)
        for (const auto& [name, value] : p[t])
            for (std::size_t a = 0; a < alphas.size(); ++a) counts[name][a] += value < alphas[a];
    return counts;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// strict: the rejection count lies in the 99% band around α·trials (upper end only for the
// conservative tests; at most α for the distribution-free bounds). Otherwise (the slow study over
// several n and α, where finite-sample effects show): every test is valid up to Monte Carlo error
// (at most the upper end of the band), except the two heuristic nulls — the Gamma approximation
// and the χ² approximation of the CME test at small n — which may exceed α but stay below 2α; the
// rates are printed as a table.
template <class Data, class Make>
void check_level(const Suite<Data>& suite, Make make, const KernelRule<Data>& kernel, std::size_t trials,
                 const std::vector<double>& alphas, std::uint64_t seed, bool strict = true) {
    const auto counts = rejections(suite, make, kernel, trials, alphas, seed);
    for (std::size_t a = 0; a < alphas.size(); ++a) {
        const auto [lo, hi] = binomial_band(trials, alphas[a]);
        for (const auto& [name, c] : counts) {
            CAPTURE(name);
            CAPTURE(alphas[a]);
            CAPTURE(c[a]);
            CAPTURE(trials);
            if (!strict) std::printf("  %-16s alpha %.2f  type-I error %.4f\n", name.c_str(), alphas[a], double(c[a]) / double(trials));
            if (name.rfind("dfree", 0) == 0) {
                CHECK(double(c[a]) <= alphas[a] * double(trials));
            } else if (!strict && (name == "gamma" || name.rfind("cme", 0) == 0)) {
                CHECK(double(c[a]) <= binomial_band(trials, 2 * alphas[a]).second);
            } else {
                if (strict && !contains(suite.conservative, name)) CHECK(double(c[a]) >= lo);
                CHECK(double(c[a]) <= hi);
            }
        }
    }
}

template <class Data, class Make>
void check_power(const Suite<Data>& suite, Make make, const KernelRule<Data>& kernel, std::size_t trials, std::uint64_t seed) {
    const auto counts = rejections(suite, make, kernel, trials, {0.05}, seed);
    for (const auto& [name, c] : counts) {
        if (name.rfind("dfree", 0) == 0) continue;
        CAPTURE(name);
        CHECK(c[0] == trials);
    }
}

// The 2019 design: m = 10 classes, Dir(0.1) predictions, labels drawn from the predictions
// (calibrated, model M1) or always class 0 (miscalibrated); kernel exp(−TV/ν) ⊗ δ with ν the
// median over the full distance matrix of each data set.
auto categorical(std::size_t n, bool calibrated) {
    return [=](Rng& rng) {
        const CategoricalData d = synthetic::dirichlet_data(n, 10, 0.1, rng);
        return calibrated ? d : CategoricalData(d.probabilities(), std::vector<int>(n, 0));
    };
}
const KernelRule<CategoricalData> median_tv = [](const CategoricalData& d) {
    Kernel k = default_kernel<CategoricalData>();
    k.prediction.lengthscale = median_distance(d, Metric::tv, test::median_options(MedianVariant::full));
    return k;
};
// Normal predictions N(μ, σ²), μ ∼ N(0,1), σ ∼ U(0.1, 1.1); targets drawn from them, shifted by
// `shift` when miscalibrated; the ICLR 2021 kernel exp(−W2) ⊗ exp(−(y−y')²/2).
auto normal(std::size_t n, double shift) {
    return [=](Rng& rng) { return test::normal_data(n, rng, shift); };
}
const KernelRule<NormalData> unit_w2 = [](const NormalData&) { return default_kernel<NormalData>(); };

}  // namespace

TEST_SUITE("validity") {

TEST_CASE("calibrated categorical model (2019 design, n = 500): false-rejection rate at alpha = 0.05") {
    check_level(all_tests<CategoricalData>(500), categorical(500, true), median_tv, 600, {0.05}, 101);
}

TEST_CASE("calibrated normal model (n = 250): false-rejection rate at alpha = 0.05") {
    check_level(all_tests<NormalData>(500), normal(250, 0), unit_w2, 600, {0.05}, 202);
}

TEST_CASE("clearly miscalibrated models: every asymptotic test rejects") {
    check_power(all_tests<CategoricalData>(500), categorical(250, false), median_tv, 40, 303);
    check_power(all_tests<NormalData>(500), normal(250, 1.0), unit_w2, 40, 404);
}

}  // TEST_SUITE

TEST_SUITE("validity slow") {

TEST_CASE("calibrated models: several n and alpha, 2000 data sets each") {
    for (std::size_t n : {250, 1000}) {
        CAPTURE(n);
        std::printf("calibrated categorical model (m = 10, Dir(0.1)), n = %zu, 2000 data sets\n", n);
        check_level(all_tests<CategoricalData>(1000, n <= 500), categorical(n, true), median_tv, 2000,
                    {0.01, 0.05, 0.1}, 505 + n, false);
    }
    for (std::size_t n : {64, 256, 1024}) {
        CAPTURE(n);
        std::printf("calibrated normal model, n = %zu, 2000 data sets\n", n);
        check_level(all_tests<NormalData>(1000, n <= 500), normal(n, 0), unit_w2, 2000, {0.01, 0.05, 0.1}, 606 + n, false);
    }
}

}  // TEST_SUITE

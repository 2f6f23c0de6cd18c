// The smooth ECE: an identity, an independent quadrature of the definition, the fixed point of the
// automatic bandwidth, the smooth reliability curve, the bootstrap (docs/math.md §11).
#include <calib/smooth_ece.hpp>

#include "support.hpp"

#include <boost/random/uniform_01.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace calib;

namespace {

struct Sample {
    std::vector<double> p;
    std::vector<int> y;
    CategoricalData data() const {
        return CategoricalData::from_binary(Eigen::Map<const Vector>(p.data(), Eigen::Index(p.size())), y);
    }
};

// p from `draw`, y ~ Bernoulli(truth(p)).
template <class Draw, class Truth>
Sample sample(std::size_t n, test::Rng& rng, Draw draw, Truth truth) {
    boost::random::uniform_01<double> u;
    Sample s;
    for (std::size_t i = 0; i < n; ++i) {
        s.p.push_back(draw(u(rng)));
        s.y.push_back(u(rng) < truth(s.p.back()) ? 1 : 0);
    }
    return s;
}

// The definition by brute force, independently of the library's grid: g(t) = (1/n) Σ r_i K_σ(t, p_i)
// with the images k = −3 … 3 (the rest below e^−25 of the sum), and ∫₀¹ |g| by composite Simpson on
// `m` intervals, each interval with a sign change of g split at its zero (bisection on g itself).
double reference_smooth_ece(const Sample& s, double sigma, std::size_t m = 4000) {
    const double pi = 3.14159265358979323846;
    const auto g = [&](double t) {
        double sum = 0;
        for (std::size_t i = 0; i < s.p.size(); ++i)
            for (int k = -3; k <= 3; ++k)
                for (const double z : {s.p[i] + 2.0 * k, -s.p[i] + 2.0 * k})
                    sum += (s.p[i] - s.y[i]) * std::exp(-(t - z) * (t - z) / (2 * sigma * sigma));
        return sum / (std::sqrt(2 * pi) * sigma * double(s.p.size()));
    };
    const auto simpson = [&](double a, double b) {
        return (b - a) / 6 * (std::abs(g(a)) + 4 * std::abs(g((a + b) / 2)) + std::abs(g(b)));
    };
    double total = 0;
    for (std::size_t j = 0; j < m; ++j) {
        const double a = double(j) / double(m), b = double(j + 1) / double(m);
        const double ga = g(a), gb = g(b);
        if ((ga < 0) != (gb < 0) && ga != 0 && gb != 0) {
            double lo = a, hi = b;
            for (int it = 0; it < 60; ++it) ((g((lo + hi) / 2) < 0) == (ga < 0) ? lo : hi) = (lo + hi) / 2;
            total += simpson(a, lo) + simpson(lo, b);
        } else {
            total += simpson(a, b);
        }
    }
    return total;
}

}  // namespace

TEST_CASE("smooth_ece_at: residuals of one sign give the mean residual at every bandwidth") {
    // ∫₀¹ K_σ(t, x) dt = 1, so with every r_i ≥ 0 the integral of |g| is the integral of g: mean r.
    test::Rng rng(1);
    const Sample s = sample(200, rng, [](double u) { return u; }, [](double) { return 0.0; });
    double mean = 0;
    for (const double p : s.p) mean += p / 200;
    for (const double sigma : {1e-4, 0.003, 0.05, 0.3, 1.0})
        CHECK(smooth_ece_at(s.p, s.y, sigma) == doctest::Approx(mean).epsilon(1e-9));
}

TEST_CASE("smooth_ece_at: the definition by an independent quadrature") {
    test::Rng rng(2);
    // Calibrated, over-confident (predictions near 0 and 1, where the reflection matters) and a small n.
    const Sample calibrated = sample(60, rng, [](double u) { return u; }, [](double p) { return p; });
    const Sample confident =
        sample(60, rng, [](double u) { return u * u * (3 - 2 * u) * 0.998 + 0.001; },
               [](double p) { return 0.5 + 0.6 * (p - 0.5); });
    const Sample small = sample(5, rng, [](double u) { return 0.2 + 0.5 * u; }, [](double p) { return p * p; });
    for (const Sample* s : {&calibrated, &confident, &small})
        for (const double sigma : {0.01, 0.05, 0.2, 0.7}) {
            CAPTURE(sigma);
            CHECK(smooth_ece_at(s->p, s->y, sigma) == doctest::Approx(reference_smooth_ece(*s, sigma)).epsilon(1e-8));
        }
}

TEST_CASE("smooth_ece: the automatic bandwidth is the fixed point") {
    // The fixed point, and smECE_σ decreasing in σ around it.
    test::Rng rng(3);
    // Over-confident: the residual changes sign at 0.5, so smECE_σ decreases strictly.
    const Sample s = sample(500, rng, [](double u) { return u; }, [](double p) { return 0.5 + 0.6 * (p - 0.5); });
    const SmoothEce e = smooth_ece(s.data());
    CHECK(e.value == doctest::Approx(e.bandwidth).epsilon(1e-10));
    CHECK(smooth_ece_at(s.p, s.y, e.bandwidth * 0.9) > e.value);
    CHECK(smooth_ece_at(s.p, s.y, e.bandwidth * 1.1) < e.value);
    SmoothEceOptions fixed;
    fixed.bandwidth = 0.1;
    CHECK(smooth_ece(s.data(), fixed).value == smooth_ece_at(s.p, s.y, 0.1));
    CHECK(smooth_ece(s.data(), fixed).bandwidth == 0.1);
    // Perfect predictions: every residual 0, smECE_σ = 0 for every σ, σ at the floor.
    Vector certain(4);
    certain << 0, 0, 1, 1;
    const SmoothEce perfect = smooth_ece(CategoricalData::from_binary(certain, {0, 0, 1, 1}));
    CHECK(perfect.value == 0);
    CHECK(perfect.bandwidth == smooth_ece_min_bandwidth);
}

TEST_CASE("smooth_ece: the smooth reliability curve and its density") {
    test::Rng rng(4);
    const Sample s = sample(300, rng, [](double u) { return 0.1 + 0.8 * u; }, [](double p) { return p * p; });
    SmoothEceOptions o;
    o.bandwidth = 0.05;
    o.curve_points = 11;
    const SmoothEce e = smooth_ece(s.data(), o);
    REQUIRE(e.mesh.size() == 11);
    const double pi = 3.14159265358979323846, sigma = 0.05;
    for (std::size_t j = 0; j < 11; ++j) {
        const double t = double(j) / 10;
        CHECK(e.mesh[j] == t);
        double residual = 0, outcome = 0, mass = 0;  // every image within reach: k = −1, 0, 1
        for (std::size_t i = 0; i < s.p.size(); ++i)
            for (int k = -1; k <= 1; ++k)
                for (const double z : {s.p[i] + 2.0 * k, -s.p[i] + 2.0 * k}) {
                    const double w = std::exp(-(t - z) * (t - z) / (2 * sigma * sigma));
                    residual += w * (s.p[i] - s.y[i]), outcome += w * s.y[i], mass += w;
                }
        CHECK(e.residual[j] == doctest::Approx(residual / mass).epsilon(1e-12));
        CHECK(e.frequency[j] == doctest::Approx(outcome / mass).epsilon(1e-12));
        CHECK(e.density[j] == doctest::Approx(mass / (std::sqrt(2 * pi) * sigma * 300)).epsilon(1e-12));
    }
    CHECK(e.value == smooth_ece_at(s.p, s.y, 0.05));  // the curve does not change the value
    // Farther than 10σ from every prediction the curve is left out: predictions in [0.42, 0.47] with
    // σ = 0.001 leave only the mesh point 0.45 (at most 0.02 from them).
    const Sample narrow = sample(50, rng, [](double u) { return 0.42 + 0.05 * u; }, [](double p) { return p; });
    o.bandwidth = 0.001;
    o.curve_points = 21;
    const SmoothEce gaps = smooth_ece(narrow.data(), o);
    CHECK(gaps.mesh.size() <= 1);
    for (const double t : gaps.mesh) CHECK(t == doctest::Approx(0.45));
}

TEST_CASE("smooth_ece: bootstrap intervals, the same for any thread count; argument checks") {
    test::Rng rng(5);
    const Sample s = sample(200, rng, [](double u) { return u; }, [](double p) { return 0.1 + 0.8 * p; });
    SmoothEceOptions o;
    o.resampling.replicates = 30;
    o.parallel.num_threads = 1;
    const SmoothEce one = smooth_ece(s.data(), o);
    o.parallel.num_threads = 2;
    const SmoothEce two = smooth_ece(s.data(), o);
    REQUIRE(one.intervals.size() == 1);
    CHECK(one.intervals[0].replicates == two.intervals[0].replicates);
    CHECK(one.intervals[0].estimate == one.value);
    CHECK(one.intervals[0].lower < one.intervals[0].upper);

    const CategoricalData three(Matrix::Constant(3, 3, 1.0 / 3), {0, 1, 2});
    CHECK_THROWS_WITH_AS(smooth_ece(three), doctest::Contains("binary predictions"), invalid_argument);
    o.bandwidth = 2.0;
    CHECK_THROWS_AS(smooth_ece(s.data(), o), invalid_argument);
    o.bandwidth = 0.1;
    o.curve_points = 1;
    CHECK_THROWS_AS(smooth_ece(s.data(), o), invalid_argument);
    CHECK_THROWS_AS(smooth_ece_at({0.5, 1.5}, {0, 1}, 0.1), invalid_argument);
    CHECK_THROWS_AS(smooth_ece_at({0.5}, {0, 1}, 0.1), invalid_argument);
}

// Tests of the closed-form target-kernel expectations (lib/closed_forms.hpp) and of their public,
// validating wrappers (calib/kernels.hpp).
//
// References used below, all independent of the closed forms under test:
//   quadrature  the defining integrals, by Boost.Math quadrature (Gauss–Kronrod on finite pieces,
//               exp-sinh on half-lines), split at every kink of the integrand; pair expectations
//               as nested integrals E_{Z'}[E_Z k(Z, Z')].
//   textbook50  the case formulas of the digest's table (widmann-2019-2021.md §8.4, from
//               widmann-2021 App. D.2) evaluated in 50-digit arithmetic, so that their
//               cancellation near the singularities (≤ 27 digits here) leaves ≥ 20 digits.
//   Monte Carlo seeded boost::random::mt19937_64 + normal_distribution, checked within 4
//               standard errors.
#include <calib/errors.hpp>
#include <calib/kernels.hpp>

#include "kernels/closed_forms.hpp"
#include "quadrature.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>
#include <doctest/doctest.h>

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using calib::testing::integrate_line;
using mp50 = boost::multiprecision::cpp_bin_float_50;

constexpr double pi = 3.14159265358979323846;

double rel_err(double value, double reference) {
    return std::abs(value - reference) / std::abs(reference);
}

double squared_distance(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    double sum = 0;  // a plain loop: Eigen's AVX-512 reductions trip a GCC 12 false warning
    for (Eigen::Index i = 0; i < a.size(); ++i) sum += (a(i) - b(i)) * (a(i) - b(i));
    return sum;
}

double laplace_pdf(double x, double mean, double beta) {
    return std::exp(-std::abs(x - mean) / beta) / (2 * beta);
}

double normal_pdf(double x, double mean, double var) {
    return std::exp(-(x - mean) * (x - mean) / (2 * var)) / std::sqrt(2 * pi * var);
}

// E_{Z∼L(mean,beta)} exp(−γ|Z − y|) by quadrature (kinks at mean and y).
double laplace_single_quad(double mean, double beta, double y, double gamma) {
    return integrate_line(
        [&](double x) { return laplace_pdf(x, mean, beta) * std::exp(-gamma * std::abs(x - y)); },
        {mean, y});
}

// E exp(−γ|Z − Z'|) as the nested integral ∫ p2(t) E_{Z∼p1} exp(−γ|Z − t|) dt; the outer integrand
// has kinks at mean2 (density) and mean1 (the inner expectation).
double laplace_pair_quad(double mean1, double beta1, double mean2, double beta2, double gamma) {
    return integrate_line(
        [&](double t) {
            return laplace_pdf(t, mean2, beta2) * laplace_single_quad(mean1, beta1, t, gamma);
        },
        {mean1, mean2});
}

double normal_single_quad(double mean, double var, double y, double gamma) {
    return integrate_line(
        [&](double x) { return normal_pdf(x, mean, var) * std::exp(-gamma * (x - y) * (x - y)); },
        {mean, y});
}

double normal_pair_quad(double mean1, double var1, double mean2, double var2, double gamma) {
    return integrate_line(
        [&](double t) {
            return normal_pdf(t, mean2, var2) * normal_single_quad(mean1, var1, t, gamma);
        },
        {mean1, mean2});
}

// The digest's table (widmann-2019-2021.md §8.4) in 50 digits; `which` selects the row.
enum class Row { general, both_unit, equal, first_unit, second_unit };

double textbook50_single(double mean, double beta, double y, double gamma, bool unit) {
    const mp50 g = gamma, b = beta, z = abs(mp50(mean) - mp50(y));
    if (unit) return static_cast<double>((1 + g * z) * exp(-g * z) / 2);
    const mp50 a = b * g;
    return static_cast<double>((a * exp(-z / b) - exp(-g * z)) / (a * a - 1));
}

double textbook50_pair(double mean1, double beta1, double mean2, double beta2, double gamma,
                       Row row) {
    const mp50 g = gamma, b1 = beta1, b2 = beta2, z = abs(mp50(mean1) - mp50(mean2));
    const mp50 c1 = b1 * b1 * g * g - 1, c2 = b2 * b2 * g * g - 1;
    mp50 v;
    switch (row) {
        case Row::general:
            v = g * b1 * b1 * b1 / (c1 * (b1 * b1 - b2 * b2)) * exp(-z / b1) +
                g * b2 * b2 * b2 / (c2 * (b2 * b2 - b1 * b1)) * exp(-z / b2) +
                exp(-g * z) / (c1 * c2);
            break;
        case Row::both_unit: v = (3 + 3 * g * z + g * g * z * z) * exp(-g * z) / 8; break;
        case Row::equal:
            v = exp(-g * z) / (c1 * c1) +
                (g * (b1 + z) / (2 * c1) - b1 * g / (c1 * c1)) * exp(-z / b1);
            break;
        case Row::first_unit:
            v = pow(b2 * g, 3) / (c2 * c2) * exp(-z / b2) -
                ((1 + g * z) / (2 * c2) + b2 * b2 * g * g / (c2 * c2)) * exp(-g * z);
            break;
        case Row::second_unit:
            v = pow(b1 * g, 3) / (c1 * c1) * exp(-z / b1) -
                ((1 + g * z) / (2 * c1) + b1 * b1 * g * g / (c1 * c1)) * exp(-g * z);
            break;
    }
    return static_cast<double>(v);
}

}  // namespace

TEST_SUITE("closed_forms") {

// Provenance: quadrature of the defining integrals (1-d Gaussian, sqexp kernel).
TEST_CASE("sqexp normal: single and pair against quadrature") {
    struct P { double m1, v1, m2, v2, gamma; };
    const std::vector<P> points = {{0.0, 1.0, 0.0, 1.0, 0.5},   {0.3, 0.25, -1.2, 2.0, 0.5},
                                   {2.0, 0.01, -1.0, 0.5, 3.0}, {-0.7, 4.0, 0.4, 0.09, 0.1},
                                   {1.0, 1.0, 4.0, 1.0, 1.0},   {0.0, 100.0, 5.0, 0.5, 0.02}};
    for (const P& p : points) {
        CAPTURE(p.m1); CAPTURE(p.v1); CAPTURE(p.m2); CAPTURE(p.v2); CAPTURE(p.gamma);
        const double single = calib::detail::sqexp_normal_single(p.m1, p.v1, p.m2, p.gamma);
        CHECK(rel_err(single, normal_single_quad(p.m1, p.v1, p.m2, p.gamma)) <= 1e-10);
        const double pair = calib::detail::sqexp_normal_pair(p.m1, p.v1, p.m2, p.v2, p.gamma);
        CHECK(rel_err(pair, normal_pair_quad(p.m1, p.v1, p.m2, p.v2, p.gamma)) <= 1e-10);
    }
}

// Provenance: quadrature of the defining integral, and the digest's two single-expectation
// formulas in 50 digits.
TEST_CASE("exp laplace single: against quadrature and the textbook formula") {
    struct P { double mean, beta, y, gamma; bool unit; };  // unit: βγ = 1 exactly
    const std::vector<P> points = {
        {0.0, 1.0, 0.0, 1.0, true},    {0.0, 1.0, 2.0, 1.0, true},   {0.5, 0.3, -1.0, 1.3, false},
        {-2.0, 4.0, 1.0, 0.7, false},  {1.0, 0.05, 1.2, 2.0, false}, {0.0, 10.0, 3.0, 0.1, false},
        {3.0, 2.2, 0.0, 0.5, false},   {0.0, 1e-3, 0.5, 1.0, false}, {0.0, 50.0, 1.0, 1.0, false}};
    for (const P& p : points) {
        CAPTURE(p.mean); CAPTURE(p.beta); CAPTURE(p.y); CAPTURE(p.gamma);
        const double v = calib::detail::exp_laplace_single(p.mean, p.beta, p.y, p.gamma);
        CHECK(rel_err(v, laplace_single_quad(p.mean, p.beta, p.y, p.gamma)) <= 1e-10);
        CHECK(rel_err(v, textbook50_single(p.mean, p.beta, p.y, p.gamma, p.unit)) <= 1e-14);
    }
    // βγ = 1 exactly (β = 0.5, γ = 2 and β = 1, γ = 1 are exact in binary): the digest's second row.
    for (double z : {0.0, 0.1, 1.0, 3.7}) {
        CAPTURE(z);
        const double v = calib::detail::exp_laplace_single(0.0, 0.5, z, 2.0);
        CHECK(rel_err(v, textbook50_single(0.0, 0.5, z, 2.0, true)) <= 1e-14);
        CHECK(rel_err(v, laplace_single_quad(0.0, 0.5, z, 2.0)) <= 1e-10);
    }
}

// Provenance: the five rows of the digest's table (50 digits) and nested quadrature.
TEST_CASE("exp laplace pair: the five cases of the table") {
    const double gamma = 1.3, unit = 1.0 / 1.3;  // unit·γ = 1 up to one rounding (|Δ| ≤ 1e-16)
    struct P { double b1, b2; Row row; };
    // For the rows with βγ = 1 the 50-digit reference uses the exact row at β = fl(1/γ), whose
    // distance to the singularity (≤ 1.1e-16 relative) changes the value by ≤ 1e-15 relative.
    const std::vector<P> points = {{0.4, 2.1, Row::general},     {unit, unit, Row::both_unit},
                                   {0.6, 0.6, Row::equal},       {3.0, 3.0, Row::equal},
                                   {unit, 0.35, Row::first_unit}, {unit, 4.0, Row::first_unit},
                                   {1.7, unit, Row::second_unit}, {0.2, unit, Row::second_unit}};
    for (const P& p : points)
        for (double z : {0.0, 0.45, 2.5}) {
            CAPTURE(p.b1); CAPTURE(p.b2); CAPTURE(z);
            const double v = calib::detail::exp_laplace_pair(0.2 + z, p.b1, 0.2, p.b2, gamma);
            CHECK(rel_err(v, textbook50_pair(0.2 + z, p.b1, 0.2, p.b2, gamma, p.row)) <= 1e-13);
            CHECK(rel_err(v, laplace_pair_quad(0.2 + z, p.b1, 0.2, p.b2, gamma)) <= 1e-10);
        }
}

// Provenance: nested quadrature and the general row of the table in 50 digits, at relative
// distances 1e-9, 1e-7, 1e-5 on both sides of each singular set (βγ = 1 in the single form; β1γ = 1,
// β2γ = 1, β1 = β2, and β1 = β2 = 1/γ in the pair form). The quadrature bound is the requirement
// (≤ 1e-11); the 50-digit bound shows the closed form itself is accurate to a few ulps.
TEST_CASE("exp laplace: accuracy near the removable singularities") {
    const double gamma = 0.8, unit = 1.25;  // unit·γ = 1 exactly
    double worst_quad = 0.0, worst_50 = 0.0;
    for (double delta : {1e-9, 1e-7, 1e-5})
        for (double side : {-1.0, 1.0})
            for (double z : {0.0, 0.3, 2.0}) {
                const double d = side * delta;
                CAPTURE(d); CAPTURE(z);
                // single, βγ ≈ 1
                const double s = calib::detail::exp_laplace_single(z, unit * (1 + d), 0.0, gamma);
                const double s_quad = laplace_single_quad(z, unit * (1 + d), 0.0, gamma);
                const double s_50 = textbook50_single(z, unit * (1 + d), 0.0, gamma, false);
                CHECK(rel_err(s, s_quad) <= 1e-11);
                CHECK(rel_err(s, s_50) <= 1e-14);
                worst_quad = std::max(worst_quad, rel_err(s, s_quad));
                worst_50 = std::max(worst_50, rel_err(s, s_50));
                // pair: (β1, β2) near each singular set
                // (β1, β2, the row of the table that is defined there)
                struct B { double b1, b2; Row row; };
                const std::vector<B> betas = {
                    {unit * (1 + d), 0.5, Row::general},                 // β1γ ≈ 1
                    {2.0, unit * (1 - d), Row::general},                 // β2γ ≈ 1
                    {0.7, 0.7 * (1 + d), Row::general},                  // β1 ≈ β2 ≠ 1/γ
                    {unit * (1 + d), unit * (1 + 2 * d), Row::general},  // β1 ≈ β2 ≈ 1/γ
                    {unit * (1 - d), unit * (1 + d), Row::general},      // β1 ≈ β2 ≈ 1/γ
                    {unit, unit * (1 + d), Row::first_unit}};            // β1γ = 1, β2 ≈ β1
                for (const B& b : betas) {
                    CAPTURE(b.b1); CAPTURE(b.b2);
                    const double v = calib::detail::exp_laplace_pair(z, b.b1, 0.0, b.b2, gamma);
                    const double v_quad = laplace_pair_quad(z, b.b1, 0.0, b.b2, gamma);
                    const double v_50 = textbook50_pair(z, b.b1, 0.0, b.b2, gamma, b.row);
                    CHECK(rel_err(v, v_quad) <= 1e-11);
                    CHECK(rel_err(v, v_50) <= 1e-13);
                    worst_quad = std::max(worst_quad, rel_err(v, v_quad));
                    worst_50 = std::max(worst_50, rel_err(v, v_50));
                }
            }
    CHECK(worst_quad <= 1e-11);
    CHECK(worst_50 <= 1e-13);
}

// Provenance: continuity of the expectation in β (dominated convergence, digest §8.4): the value
// at each singular point and 1e-9 (relative) away differ by O(1e-9) — the derivative of log E with
// respect to log β is bounded by 1 + γz here.
TEST_CASE("exp laplace: continuous across the singularities") {
    const double gamma = 2.0, unit = 0.5;  // exact
    for (double z : {0.0, 0.4, 1.5}) {
        CAPTURE(z);
        const double tol = 1e-9 * (1 + gamma * z) * 1.5;
        for (double d : {-1e-9, 1e-9}) {
            const double s0 = calib::detail::exp_laplace_single(z, unit, 0.0, gamma);
            CHECK(rel_err(calib::detail::exp_laplace_single(z, unit * (1 + d), 0.0, gamma), s0) <= tol);
            const double both = calib::detail::exp_laplace_pair(z, unit, 0.0, unit, gamma);
            CHECK(rel_err(calib::detail::exp_laplace_pair(z, unit * (1 + d), 0.0, unit, gamma), both) <= tol);
            CHECK(rel_err(calib::detail::exp_laplace_pair(z, unit, 0.0, unit * (1 + d), gamma), both) <= tol);
            const double eq = calib::detail::exp_laplace_pair(z, 0.3, 0.0, 0.3, gamma);
            CHECK(rel_err(calib::detail::exp_laplace_pair(z, 0.3, 0.0, 0.3 * (1 + d), gamma), eq) <= tol);
            const double first = calib::detail::exp_laplace_pair(z, unit, 0.0, 1.1, gamma);
            CHECK(rel_err(calib::detail::exp_laplace_pair(z, unit * (1 + d), 0.0, 1.1, gamma), first) <= tol);
        }
    }
}

// Provenance: the general row in 50 digits over a random sample of (z, β1, β2, γ), including
// points close to the singular sets; plus the symmetries of the expectation (exchange of Z and
// Z', translation, and the single form as the limit β2 → 0 of the pair).
TEST_CASE("exp laplace pair: random sample and symmetries") {
    boost::random::mt19937_64 rng(20240611);
    auto uniform = [&](double lo, double hi) {
        return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1.0p-53;
    };
    for (int k = 0; k < 2000; ++k) {
        const double gamma = std::pow(10.0, uniform(-1, 1));
        double a1 = std::pow(10.0, uniform(-2, 2)), a2 = std::pow(10.0, uniform(-2, 2));
        const double d = std::pow(10.0, uniform(-12, -1)) * (uniform(0, 1) < 0.5 ? -1 : 1);
        if (k % 4 == 1) a1 = 1 + d;
        if (k % 4 == 2) a2 = a1 * (1 + d);
        if (k % 4 == 3) { a1 = 1 + d; a2 = 1 - 0.5 * d; }
        const double z = std::pow(10.0, uniform(-6, 1.3)) / gamma;
        const double b1 = a1 / gamma, b2 = a2 / gamma;
        CAPTURE(z); CAPTURE(b1); CAPTURE(b2); CAPTURE(gamma);
        const double v = calib::detail::exp_laplace_pair(1.0 + z, b1, 1.0, b2, gamma);
        CHECK(rel_err(v, textbook50_pair(1.0 + z, b1, 1.0, b2, gamma, Row::general)) <=
              1e-15 * (20 + 4 * gamma * z));
        CHECK(rel_err(calib::detail::exp_laplace_pair(1.0, b2, 1.0 + z, b1, gamma), v) <= 1e-14 * (1 + gamma * z));
    }
    // A point mass as Z': the pair form tends to the single form, with error O(β2).
    for (double z : {0.0, 0.7, 3.0}) {
        const double single = calib::detail::exp_laplace_single(z, 0.9, 0.0, 1.1);
        CHECK(rel_err(calib::detail::exp_laplace_pair(z, 0.9, 0.0, 1e-12, 1.1), single) <= 1e-11);
    }
}

// Provenance: the extreme inputs stay finite and follow the limits (a point mass: the kernel itself;
// a very wide prediction: E ≈ 1/(βγ) for the single form).
TEST_CASE("exp laplace: extreme scales and distances give finite values") {
    using calib::detail::exp_laplace_pair_normalized;
    using calib::detail::exp_laplace_single_normalized;
    CHECK(rel_err(exp_laplace_single_normalized(1.0, 1e-300), std::exp(-1.0)) <= 1e-15);
    CHECK(rel_err(exp_laplace_pair_normalized(1.0, 1e-300, 1e-310), std::exp(-1.0)) <= 1e-15);
    CHECK(rel_err(exp_laplace_single_normalized(2.0, 1e300), 1e-300) <= 1e-15);
    CHECK(rel_err(exp_laplace_pair_normalized(0.0, 1.0, 1.0), 0.375) <= 1e-15);
    CHECK(exp_laplace_single_normalized(1e308, 1e-300) == 0.0);
    CHECK(exp_laplace_pair_normalized(INFINITY, 1.0, 1e-300) == 0.0);
    CHECK(std::isfinite(exp_laplace_pair_normalized(1e250, 1e-300, 1e200)));
}

// Provenance: Monte Carlo with seeded draws, 4 standard errors (d = 2 and 3, single and pair).
TEST_CASE("sqexp mvnormal: full covariance against Monte Carlo") {
    boost::random::mt19937_64 rng(12345);
    boost::random::normal_distribution<double> normal;
    auto draw = [&](const Eigen::VectorXd& mean, const Eigen::MatrixXd& l) {
        Eigen::VectorXd xi(mean.size());
        for (Eigen::Index i = 0; i < xi.size(); ++i) xi(i) = normal(rng);
        return Eigen::VectorXd(mean + l * xi);
    };
    const int n = 200000;
    for (int d : {2, 3}) {
        CAPTURE(d);
        Eigen::MatrixXd c1(d, d), c2(d, d);
        Eigen::VectorXd m1(d), m2(d), y(d);
        if (d == 2) {
            c1 << 1.0, 0.6, 0.6, 0.8;
            c2 << 0.5, -0.2, -0.2, 1.5;
            m1 << 0.3, -0.4;
            m2 << -0.5, 0.6;
            y << 1.0, 0.2;
        } else {
            c1 << 1.0, 0.3, -0.2, 0.3, 0.7, 0.1, -0.2, 0.1, 1.4;
            c2 << 0.4, 0.1, 0.0, 0.1, 0.9, -0.3, 0.0, -0.3, 0.6;
            m1 << 0.2, -0.1, 0.5;
            m2 << -0.3, 0.4, 0.0;
            y << 0.6, 0.0, -0.4;
        }
        const double gamma = 0.5;
        const Eigen::MatrixXd l1 = c1.llt().matrixL(), l2 = c2.llt().matrixL();  // for the sampler
        double sum1 = 0, sq1 = 0, sum2 = 0, sq2 = 0;
        for (int k = 0; k < n; ++k) {
            const Eigen::VectorXd z = draw(m1, l1);
            const double f1 = std::exp(-gamma * squared_distance(z, y));
            const double f2 = std::exp(-gamma * squared_distance(z, draw(m2, l2)));
            sum1 += f1; sq1 += f1 * f1; sum2 += f2; sq2 += f2 * f2;
        }
        const double mc1 = sum1 / n, se1 = std::sqrt((sq1 / n - mc1 * mc1) / n);
        const double mc2 = sum2 / n, se2 = std::sqrt((sq2 / n - mc2 * mc2) / n);
        const double single = calib::detail::sqexp_mvnormal_single(m1, c1, y, gamma);
        const double pair = calib::detail::sqexp_mvnormal_pair(m1, c1, m2, c2, gamma);
        CAPTURE(single); CAPTURE(mc1); CAPTURE(pair); CAPTURE(mc2);
        CHECK(std::abs(single - mc1) <= 4 * se1);
        CHECK(std::abs(pair - mc2) <= 4 * se2);
    }
}

// Provenance: algebraic identities — a diagonal covariance factorises the expectation into 1-d
// forms (digest §8.3, diagonal case); d = 1 is the 1-d form.
TEST_CASE("sqexp mvnormal: diagonal covariance and d = 1 reduce to the 1-d forms") {
    Eigen::VectorXd m1(3), m2(3), v1(3), v2(3);
    m1 << 0.5, -1.0, 2.0;
    m2 << 0.0, 0.3, 1.1;
    v1 << 0.2, 1.5, 0.7;
    v2 << 2.0, 0.1, 0.4;
    const double gamma = 0.35;
    double single = 1, pair = 1;
    for (int i = 0; i < 3; ++i) {
        single *= calib::detail::sqexp_normal_single(m1(i), v1(i), m2(i), gamma);
        pair *= calib::detail::sqexp_normal_pair(m1(i), v1(i), m2(i), v2(i), gamma);
    }
    const Eigen::MatrixXd c1 = v1.asDiagonal(), c2 = v2.asDiagonal();
    CHECK(rel_err(calib::detail::sqexp_mvnormal_single(m1, c1, m2, gamma), single) <= 1e-14);
    CHECK(rel_err(calib::detail::sqexp_mvnormal_pair(m1, c1, m2, c2, gamma), pair) <= 1e-14);

    const Eigen::VectorXd a = Eigen::VectorXd::Constant(1, 0.4), b = Eigen::VectorXd::Constant(1, -1.3);
    const Eigen::MatrixXd s = Eigen::MatrixXd::Constant(1, 1, 0.6), t = Eigen::MatrixXd::Constant(1, 1, 1.9);
    CHECK(rel_err(calib::detail::sqexp_mvnormal_single(a, s, b, 0.8),
                  calib::detail::sqexp_normal_single(0.4, 0.6, -1.3, 0.8)) <= 1e-15);
    CHECK(rel_err(calib::detail::sqexp_mvnormal_pair(a, s, b, t, 0.8),
                  calib::detail::sqexp_normal_pair(0.4, 0.6, -1.3, 1.9, 0.8)) <= 1e-15);
}

// Provenance: the wrappers return the detail values and enforce the documented rules
// (calib/kernels.hpp; errors named as in DESIGN.md "Errors").
TEST_CASE("public wrappers: values and argument validation") {
    using calib::invalid_argument;
    const double nan = std::nan(""), inf = INFINITY;

    CHECK(calib::expected_sqexp_normal(0.1, 2.0, -0.3, 0.5) ==
          calib::detail::sqexp_normal_single(0.1, 4.0, -0.3, 0.5));
    CHECK(calib::expected_sqexp_normal_pair(0.1, 2.0, -0.3, 0.5, 0.5) ==
          calib::detail::sqexp_normal_pair(0.1, 4.0, -0.3, 0.25, 0.5));
    CHECK(calib::expected_exp_laplace(0.1, 2.0, -0.3, 0.5) ==
          calib::detail::exp_laplace_single(0.1, 2.0, -0.3, 0.5));
    CHECK(calib::expected_exp_laplace_pair(0.1, 2.0, -0.3, 0.5, 0.5) ==
          calib::detail::exp_laplace_pair(0.1, 2.0, -0.3, 0.5, 0.5));

    // scalar rules: finite means/targets, positive finite scales and γ
    CHECK_THROWS_AS(calib::expected_sqexp_normal(nan, 1, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal(0, 0, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal(0, -1, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal(0, inf, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal(0, 1, inf, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal(0, 1, 0, 0), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal_pair(0, 1, nan, 1, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal_pair(0, nan, 0, 1, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal_pair(0, 1, 0, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_normal_pair(0, 1, 0, 1, -2), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace(inf, 1, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace(0, 0, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace(0, 1, nan, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace(0, 1, 0, inf), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace_pair(0, -1, 0, 1, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace_pair(0, 1, 0, 0, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace_pair(nan, 1, 0, 1, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_exp_laplace_pair(0, 1, 0, 1, 0), invalid_argument);

    // the message names the function, the argument, the value and the rule
    try {
        calib::expected_exp_laplace_pair(0.0, 1.0, 0.0, -0.5, 1.0);
        FAIL("no exception");
    } catch (const invalid_argument& e) {
        const std::string msg = e.what();
        CHECK(msg == "calib::expected_exp_laplace_pair: scale2 = -0.5, must be finite and > 0");
    }

    // vector rules: non-empty, matching dimensions, finite entries, symmetric positive definite
    Eigen::VectorXd m(2), y(2), y3(3), empty(0), bad(2);
    m << 0.1, 0.2;
    y << 0.0, 1.0;
    y3 << 0.0, 1.0, 2.0;
    bad << 0.0, nan;
    Eigen::MatrixXd spd(2, 2), asym(2, 2), indefinite(2, 2), wrong(3, 3), nonfinite(2, 2);
    spd << 1.0, 0.3, 0.3, 2.0;
    asym << 1.0, 0.3, 0.2, 2.0;
    indefinite << 1.0, 2.0, 2.0, 1.0;
    wrong.setIdentity();
    nonfinite << 1.0, 0.0, 0.0, inf;
    CHECK(calib::expected_sqexp_mvnormal(m, spd, y, 0.5) ==
          calib::detail::sqexp_mvnormal_single(m, spd, y, 0.5));
    CHECK(calib::expected_sqexp_mvnormal_pair(m, spd, y, spd, 0.5) ==
          calib::detail::sqexp_mvnormal_pair(m, spd, y, spd, 0.5));
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(empty, Eigen::MatrixXd(0, 0), empty, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(m, spd, y3, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(m, wrong, y, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(bad, spd, y, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(m, spd, bad, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(m, nonfinite, y, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(m, asym, y, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(m, indefinite, y, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal(m, spd, y, 0), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(empty, Eigen::MatrixXd(0, 0), empty, Eigen::MatrixXd(0, 0), 1),
                    invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(m, spd, y3, spd, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(m, wrong, y, spd, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(m, spd, y, wrong, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(m, spd, y, asym, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(m, indefinite, y, spd, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(bad, spd, y, spd, 1), invalid_argument);
    CHECK_THROWS_AS(calib::expected_sqexp_mvnormal_pair(m, spd, y, spd, inf), invalid_argument);
    try {
        calib::expected_sqexp_mvnormal(m, spd, y3, 1.0);
        FAIL("no exception");
    } catch (const invalid_argument& e) {
        CHECK(std::string(e.what()) ==
              "calib::expected_sqexp_mvnormal: y has 3 entries but mean has 2; they must match");
    }
}

}  // TEST_SUITE

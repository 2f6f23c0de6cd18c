// Reliability diagrams: Clopper–Pearson bounds against Boost's Beta quantiles and closed forms, their
// exact coverage, bin counts and events that add up, the top-label diagram's identity with the
// top-label ECE, equal-mass groups, and the errors.
#include <calib/estimators.hpp>
#include <calib/reliability.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/binomial.hpp>

#include <cmath>

using namespace calib;

TEST_CASE("Clopper-Pearson bounds are the Beta quantiles, with the closed forms at 0 and m events") {
    for (const double level : {0.9, 0.95, 0.99})
        for (const std::size_t m : {1, 2, 7, 40, 1000})
            for (std::size_t k = 0; k <= m; k += (m > 10 ? m / 7 : 1)) {
                const ProportionInterval ci = clopper_pearson(k, m, level);
                const double a = (1 - level) / 2;
                const double lower = k == 0 ? 0 : quantile(boost::math::beta_distribution<>(double(k), double(m - k + 1)), a);
                const double upper =
                    k == m ? 1 : quantile(boost::math::beta_distribution<>(double(k + 1), double(m - k)), 1 - a);
                CHECK(ci.lower == doctest::Approx(lower).epsilon(1e-12));
                CHECK(ci.upper == doctest::Approx(upper).epsilon(1e-12));
                // Closed forms: P(X = 0 | p_upper) = a at k = 0, P(X = m | p_lower) = a at k = m.
                if (k == 0) CHECK(ci.upper == doctest::Approx(1 - std::pow(a, 1.0 / double(m))).epsilon(1e-12));
                if (k == m) CHECK(ci.lower == doctest::Approx(std::pow(a, 1.0 / double(m))).epsilon(1e-12));
            }
    // A published value: 0 of 10 at 95 %: [0, 0.3084971] (1 − 0.025^(1/10)).
    CHECK(clopper_pearson(0, 10).upper == doctest::Approx(0.30849710).epsilon(1e-7));
}

TEST_CASE("Clopper-Pearson intervals cover at least their level, exactly summed over the binomial") {
    for (const std::size_t m : {5, 20, 100})
        for (const double p : {0.02, 0.3, 0.5, 0.93}) {
            const boost::math::binomial_distribution<> binomial(double(m), p);
            double coverage = 0;
            for (std::size_t k = 0; k <= m; ++k) {
                const ProportionInterval ci = clopper_pearson(k, m, 0.95);
                if (ci.lower <= p && p <= ci.upper) coverage += pdf(binomial, double(k));
            }
            CHECK(coverage >= 0.95 - 1e-12);
        }
}

TEST_CASE("top-label diagram: counts and events add up, and its weighted gaps are the top-label ECE") {
    test::Rng rng(11);
    const CategoricalData data = synthetic::dirichlet_data(700, 4, 0.5, rng);
    for (const std::size_t B : {1, 5, 10, 15}) {
        const ReliabilityDiagram d = reliability_diagram(data, {ReliabilityBinning::uniform, B, 0.9});
        REQUIRE(d.bins.size() == B);
        std::size_t count = 0, events = 0;
        double gaps = 0;
        for (const ReliabilityBin& b : d.bins) {
            count += b.count;
            events += b.events;
            if (b.count == 0) {
                CHECK(std::isnan(b.frequency));
                continue;
            }
            CHECK(b.mean_confidence >= b.lower);
            CHECK(b.mean_confidence <= b.upper);
            CHECK(b.interval_lower <= b.frequency);
            CHECK(b.frequency <= b.interval_upper);
            gaps += double(b.count) / 700 * std::abs(b.frequency - b.mean_confidence);
        }
        CHECK(count == 700);
        std::size_t correct = 0;  // an independent count of right top-label predictions
        for (std::size_t i = 0; i < 700; ++i) {
            Eigen::Index argmax = 0;
            data.probabilities().row(Eigen::Index(i)).maxCoeff(&argmax);
            correct += data.labels()[i] == argmax;
        }
        CHECK(events == correct);
        EceOptions ece;
        ece.mode = EceMode::top_label;
        ece.nbins = int(B);
        CHECK(gaps == doctest::Approx(calib::ece(data, ece)).epsilon(1e-12));
        CHECK(d.event == "top-label");
    }
}

TEST_CASE("equal-mass and class diagrams") {
    test::Rng rng(12);
    const CategoricalData data = synthetic::dirichlet_data(103, 3, 1.0, rng);
    const ReliabilityDiagram d = reliability_diagram(data, {ReliabilityBinning::equal_mass, 10, 0.95});
    std::size_t count = 0;
    for (std::size_t b = 0; b < d.bins.size(); ++b) {
        CHECK((d.bins[b].count == 10 || d.bins[b].count == 11));
        CHECK(d.bins[b].lower <= d.bins[b].upper);
        if (b > 0) CHECK(d.bins[b - 1].upper <= d.bins[b].lower);
        count += d.bins[b].count;
    }
    CHECK(count == 103);
    // Class 2: events are the labels equal to 2, means the p_i2 of each group.
    const ReliabilityDiagram c = class_reliability_diagram(data, 2, {ReliabilityBinning::equal_mass, 103, 0.95});
    std::size_t events = 0, twos = 0;
    for (const ReliabilityBin& b : c.bins) {
        CHECK(b.count == 1);
        CHECK(b.lower == b.mean_confidence);
        events += b.events;
    }
    for (const int y : data.labels()) twos += y == 2;
    CHECK(events == twos);
    CHECK(c.event == "class 2");
    // Binary predictions: class 1 is the diagram of P(Y = 1); one observation is enough.
    const CategoricalData one = CategoricalData::from_binary((Vector(1) << 0.3).finished(), {1});
    const ReliabilityDiagram b = class_reliability_diagram(one, 1, {ReliabilityBinning::uniform, 4, 0.95});
    CHECK(b.bins[1].count == 1);
    CHECK(b.bins[1].mean_confidence == 0.3);
    CHECK(b.bins[1].frequency == 1);
    CHECK(b.bins[1].interval_lower == doctest::Approx(0.025));
}

TEST_CASE("reliability diagrams refuse bad options") {
    test::Rng rng(13);
    const CategoricalData data = synthetic::dirichlet_data(20, 3, 1.0, rng);
    CHECK_THROWS_WITH_AS(reliability_diagram(data, {ReliabilityBinning::uniform, 0, 0.95}),
                         doctest::Contains("bins = 0"), invalid_argument);
    CHECK_THROWS_WITH_AS(reliability_diagram(data, {ReliabilityBinning::equal_mass, 21, 0.95}),
                         doctest::Contains("must be <= n"), invalid_argument);
    CHECK_THROWS_WITH_AS(reliability_diagram(data, {ReliabilityBinning::uniform, 10, 1.0}),
                         doctest::Contains("level = 1"), invalid_argument);
    CHECK_THROWS_WITH_AS(class_reliability_diagram(data, 3), doctest::Contains("k = 3"), invalid_argument);
    CHECK_THROWS_AS(clopper_pearson(3, 2), invalid_argument);
    CHECK_THROWS_AS(clopper_pearson(0, 0), invalid_argument);
}

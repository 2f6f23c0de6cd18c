// docs/api.md's snippets as one program: data from arrays and logits, kernels, estimators, a test,
// and a model comparison; every call of the page in the order of its sections.
//   c++ -std=c++17 tour.cpp $(pkg-config --cflags --libs calib) -o tour && ./tour
#include <calib/calib.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
    // Data: 300 three-class predictions from logits, labels drawn from them with a fixed generator.
    const std::size_t n = 300;
    calib::Rng rng = calib::make_stream(7, 0);
    calib::Matrix logits(n, 3);
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        for (Eigen::Index k = 0; k < 3; ++k) logits(Eigen::Index(i), k) = 2.0 * std::sin(double(i * (k + 1)));
        y[i] = int(calib::uniform_index(rng, 3));
    }
    const calib::CategoricalData model = calib::CategoricalData::from_logits(logits, y);
    const calib::CategoricalData confident = calib::CategoricalData::from_logits(2 * logits, y);

    calib::Vector mu(n), sigma(n), target(n);
    for (Eigen::Index i = 0; i < mu.size(); ++i) {
        mu(i) = std::cos(double(i));
        sigma(i) = 0.5 + 0.25 * std::sin(double(i));
        target(i) = mu(i) + sigma(i) * std::sin(3.0 * double(i));
    }
    const calib::NormalData regression(mu, sigma, target);

    // Kernels: the median heuristic for the lengthscale.
    calib::Kernel k = calib::default_kernel_categorical();
    k.prediction.lengthscale = calib::median_distance(model, calib::Metric::tv);

    // Estimates and a test.
    const double u = calib::skce_unbiased(model, k);
    const double b = calib::skce_biased(model, k, {1});
    const calib::BlockSkce lin = calib::skce_block(model, k, 2);
    const double e = calib::ece(model, {});
    calib::BootstrapOptions o;
    o.replicates = 500;
    o.seed = 7;
    const calib::TestResult t = calib::bootstrap_test(model, k, o);
    const double w = calib::skce_unbiased(regression, calib::default_kernel_normal());
    std::printf("skce_unbiased %.10g  skce_biased %.10g  skce_block %.10g  ece %.10g\n", u, b, lin.estimate, e);
    std::printf("bootstrap p-value %.10g  normal-model skce %.10g\n", t.p_value, w);

    // Comparing models: the paired bootstrap of calib rank.
    calib::ComparisonOptions c;
    c.replicates = 50;
    for (const calib::CategoricalData* d : {&model, &confident}) {
        calib::CkceOptions ckce;
        ckce.kernel.bandwidth = calib::simplex_median_bandwidth(d->probabilities()).value;
        c.ckce.push_back(ckce);
    }
    const calib::ModelComparison r = calib::compare_models({model, confident}, c);
    std::printf("compared 2 models on n = %zu with %zu estimators\n", r.n, r.results.size());
}

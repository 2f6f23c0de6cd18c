// docs/api.md's snippets as one program, section by section: data from arrays, logits and binary
// scores, the regression families, reading files, kernels, estimators, a test, and a model
// comparison, reliability diagrams. The data directory is the first argument (default examples/data).
//   c++ -std=c++17 tour.cpp $(pkg-config --cflags --libs calib) -o tour && ./tour examples/data
#include <calib/calib.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : "examples/data";
    try {
        // Data: 300 three-class predictions from logits, labels from a fixed pseudo-random sequence.
        const std::size_t n = 300;
        unsigned long long state = 7;  // a 64-bit linear congruential generator (Knuth's MMIX constants)
        const auto next = [&state](unsigned long long range) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return int((state >> 33) % range);
        };
        calib::Matrix logits(n, 3);
        std::vector<int> y(n), y01(n);
        calib::Vector p1(n);
        for (std::size_t i = 0; i < n; ++i) {
            for (Eigen::Index k = 0; k < 3; ++k) logits(Eigen::Index(i), k) = 2.0 * std::sin(double(i * (k + 1)));
            y[i] = next(3);
            p1(Eigen::Index(i)) = 0.5 + 0.4 * std::sin(double(i));
            y01[i] = next(2);
        }
        const calib::CategoricalData model = calib::CategoricalData::from_logits(logits, y);
        const calib::CategoricalData confident = calib::CategoricalData::from_logits(2 * logits, y);
        const calib::CategoricalData binary = calib::CategoricalData::from_binary(p1, y01);  // [1 − p, p]

        calib::Vector mu(n), sigma(n), target(n);
        calib::Matrix mean(n, 2), targets(n, 2), means(n, 2), stddevs(n, 2);
        std::vector<calib::Matrix> covariances;
        for (Eigen::Index i = 0; i < mu.size(); ++i) {
            mu(i) = std::cos(double(i));
            sigma(i) = 0.5 + 0.25 * std::sin(double(i));
            target(i) = mu(i) + sigma(i) * std::sin(3.0 * double(i));
            mean.row(i) << mu(i), -mu(i);
            targets.row(i) << target(i), -target(i) + 0.1;
            calib::Matrix c(2, 2);
            c << sigma(i) * sigma(i), 0.1, 0.1, 1.0;
            covariances.push_back(c);
            means.row(i) << mu(i) - 0.5, mu(i) + 0.5;
            stddevs.row(i) << sigma(i), 2 * sigma(i);
        }
        const calib::NormalData regression(mu, sigma, target);
        const calib::MvNormalData mv = calib::MvNormalData::full(mean, covariances, targets);
        const calib::MixtureNormalData ensemble = calib::MixtureNormalData::ensemble(means, stddevs, target);

        // Reading files: predictions and labels in two .npy files, as PyTorch/NumPy write them.
        calib::ReadOptions read;
        read.labels = dir + "/labels.npy";
        std::vector<calib::FileSummary> files;
        const calib::CategoricalData data = calib::read_categorical(dir + "/preds.npy", read, &files);
        const calib::NpyArray array = calib::read_npy(dir + "/preds.npy");
        std::printf("read %zu observations (%s, %s), %zu x %zu\n", data.size(), files[0].format.c_str(),
                    array.dtype.c_str(), array.rows(), array.columns());

        // Kernels: the median heuristic; a class Gram matrix as target kernel.
        calib::Kernel k = calib::default_kernel(model);
        k.prediction.lengthscale = calib::median_distance(model, calib::Metric::tv);
        calib::Kernel with_gram = k;
        with_gram.target.type = calib::TargetKernelType::gram;
        with_gram.target.gram = calib::Matrix(3, 3);  // any symmetric PSD class similarity
        with_gram.target.gram << 1, 0.3, 0, 0.3, 1, 0.1, 0, 0.1, 0.8;
        const double min_eigenvalue = calib::gram_min_eigenvalue(ensemble, calib::default_kernel(ensemble).prediction);

        // Estimates and a test.
        const double u = calib::skce_unbiased(model, k);
        const double b = calib::skce_biased(model, k, {1});
        const calib::BlockSkce lin = calib::skce_block(model, k, 2);
        const double e = calib::ece(model, {});
        calib::BootstrapOptions o;
        o.replicates = 500;
        o.seed = 7;
        const calib::TestResult t = calib::bootstrap_test(model, k, o);
        std::printf("skce_unbiased %.10g  skce_biased %.10g  skce_block %.10g  ece %.10g\n", u, b, lin.estimate, e);
        std::printf("with a class Gram matrix %.10g  binary %.10g\n", calib::skce_unbiased(model, with_gram),
                    calib::skce_unbiased(binary, calib::default_kernel(binary)));
        std::printf("normal %.10g  mvnormal %.10g  ensemble %.10g (Gram matrix's smallest eigenvalue %.3g)\n",
                    calib::skce_unbiased(regression, calib::default_kernel(regression)),
                    calib::skce_unbiased(mv, calib::default_kernel(mv)),
                    calib::skce_unbiased(ensemble, calib::default_kernel(ensemble)), min_eigenvalue);
        std::printf("bootstrap p-value %.10g\n", t.p_value);

        // Comparing models: the paired bootstrap of calib rank.
        calib::ComparisonOptions c;
        c.replicates = 50;
        for (const calib::CategoricalData* d : {&model, &confident}) {
            calib::CkceOptions ckce;
            ckce.kernel.lengthscale = calib::simplex_median_lengthscale(d->probabilities()).value;
            c.ckce.push_back(ckce);
        }
        const calib::ModelComparison r = calib::compare_models({model, confident}, c);
        std::printf("compared 2 models on n = %zu with %zu estimators\n", r.n, r.results.size());

        // Reliability diagrams: confidence against accuracy per bin, with Clopper–Pearson intervals.
        const calib::ReliabilityDiagram top = calib::reliability_diagram(confident);
        calib::ReliabilityOptions equal_mass;
        equal_mass.binning = calib::ReliabilityBinning::equal_mass;
        equal_mass.bins = 5;
        const calib::ReliabilityDiagram class0 = calib::class_reliability_diagram(model, 0, equal_mass);
        for (const calib::ReliabilityBin& bin : top.bins)
            if (bin.count > 0)
                std::printf("confidence %.3f  accuracy %.3f [%.3f, %.3f]  n = %zu\n", bin.mean_confidence, bin.frequency,
                            bin.interval_lower, bin.interval_upper, bin.count);
        std::printf("class 0: %zu equal-mass bins\n", class0.bins.size());
    } catch (const std::exception& error) {
        std::fprintf(stderr, "tour: %s\n", error.what());
        return 2;
    }
}

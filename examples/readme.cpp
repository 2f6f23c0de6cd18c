// The README's C++ example as a complete program: the SKCE and the binned ECE of a categorical model
// read from a file (by default the bundled apps/demo/calibrated.csv).
//   c++ -std=c++17 readme.cpp $(pkg-config --cflags --libs calib) -o readme && ./readme FILE.csv
#include <calib/calib.hpp>
#include <calib/io.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "apps/demo/calibrated.csv";
    try {
        const calib::CategoricalData data = calib::read_categorical(path);  // n×m probabilities, labels
        calib::Kernel kernel = calib::default_kernel(data);         // exp(−TV/ℓ) ⊗ δ
        kernel.prediction.lengthscale = calib::median_distance(data, calib::Metric::tv);

        const double skce = calib::skce_unbiased(data, kernel);             // O(n²), all cores
        const calib::BlockSkce linear = calib::skce_block(data, kernel, 2);  // O(n)
        const double ece = calib::ece(data, {});                            // 10 uniform bins per class, TV
        std::printf("n = %zu, lengthscale = %.10g\n", data.size(), kernel.prediction.lengthscale);
        std::printf("skce_unbiased = %.10g, skce_block(2) = %.10g, ece = %.10g\n", skce, linear.estimate, ece);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "readme: %s\n", e.what());
        return 2;
    }
}

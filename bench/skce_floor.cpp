// skce-floor: the unbiased SKCE of the default kernel, exp(−TV/ℓ) ⊗ δ (m = 10, ℓ = 1), by the plainest
// tiled pair loop a compiler vectorises, beside calib's skce_unbiased on the same data in the same process,
// one thread each. The plain loop is the floor that calib's pair loop (lib/kernels/terms.hpp,
// CategoricalTerm) is measured against: if calib were much slower, its engine would be the cost, not the
// arithmetic. `make bench` builds it for AVX2 (x86-64-v3) and, on CPUs with AVX-512, for x86-64-v4
// (docs/performance.md, "Side by side with the programs users would run instead").
//
//   build/bin/skce-floor-x86-64-v3 [--quick]   (--quick: n = 4 000 instead of 20 000, 2 runs each, not 5)
//
// Exit status 1 when the two values differ by more than 1e-12 relative: the ratio is only worth
// printing if both loops compute the same number.
#include <calib/calib.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include "core/exp_nonpositive.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#ifndef CALIB_LIB_ARCH
#define CALIB_LIB_ARCH "unknown"
#endif

namespace {

constexpr int classes = 10;
constexpr double lengthscale = 1.0;
constexpr double tolerance = 1e-12;
// A tile of rows against a chunk of columns: the chunk's predictions and residuals (2 × 10 × 512 doubles,
// 80 KiB) stay in L2 while the 64 rows pass over it, instead of streaming all n columns from L3 per row.
constexpr std::size_t row_tile = 64, column_chunk = 512;

// The unbiased estimate (n choose 2)⁻¹ Σ_{i<j} exp(−½‖p_i − p_j‖₁ / ℓ) · r_iᵀ r_j with r = e_y − p,
// from class-major arrays (p[k·n + j]: class k's column, contiguous over the observations j).
// The inner loop over j is the one the compiler vectorises: the 10 classes unrolled, the L1 distance
// and the residual product in registers, then the library's vectorised exp (≤ 1 ulp, the same one
// calib uses, so that the floor measures the loop rather than a slower exp).
double floor_skce(const std::vector<double>& p, const std::vector<double>& r, std::size_t n) {
    const double exponent_scale = -0.5 / lengthscale;  // TV = ½ L1
    double total = 0;
    for (std::size_t i0 = 0; i0 < n; i0 += row_tile) {
        const std::size_t i1 = std::min(n, i0 + row_tile);
        for (std::size_t j0 = i0 + 1; j0 < n; j0 += column_chunk) {
            const std::size_t j1 = std::min(n, j0 + column_chunk);
            for (std::size_t i = i0; i < i1; ++i) {
                double pi[classes], ri[classes];
                for (int k = 0; k < classes; ++k) pi[k] = p[k * n + i], ri[k] = r[k * n + i];
                double sum = 0;
#pragma omp simd reduction(+ : sum)
                for (std::size_t j = std::max(j0, i + 1); j < j1; ++j) {
                    double l1 = 0, dot = 0;
                    for (int k = 0; k < classes; ++k) {
                        l1 += std::abs(pi[k] - p[k * n + j]);
                        dot += ri[k] * r[k * n + j];
                    }
                    sum += calib::detail::exp_nonpositive(exponent_scale * l1) * dot;
                }
                total += sum;
            }
        }
    }
    return total / (0.5 * static_cast<double>(n) * static_cast<double>(n - 1));
}

double seconds(const std::function<void()>& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The "model name" and whether the "flags" line lists `flag`, from /proc/cpuinfo's first processor.
std::string cpu_field(const std::string& field) {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.compare(0, field.size(), field) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}
bool cpu_has(const std::string& flag) {
    return (" " + cpu_field("flags") + " ").find(" " + flag + " ") != std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    const std::size_t n = quick ? 4000 : 20000;
    const int repetitions = quick ? 2 : 5;
    // calib-bench's SKCE case: dirichlet_data(20000, 10, 0.1, seed 1), labels drawn from the predictions.
    calib::Rng rng(1);
    const calib::CategoricalData data = calib::synthetic::dirichlet_data(n, classes, 0.1, rng);
    std::vector<double> p(n * classes), r(n * classes);
    for (std::size_t j = 0; j < n; ++j)
        for (int k = 0; k < classes; ++k) {
            p[k * n + j] = data.probabilities()(static_cast<Eigen::Index>(j), k);
            r[k * n + j] = (data.labels()[j] == k ? 1.0 : 0.0) - p[k * n + j];
        }
#if defined(__AVX512F__)
    const char* isa = "AVX-512";
#elif defined(__AVX2__)
    const char* isa = "AVX2";
#else
    const char* isa = "SSE2";
#endif
    std::printf("skce-floor: unbiased SKCE, exp(-TV/l) x white, l = 1, n = %zu, m = %d, Dirichlet(0.1) predictions "
                "with labels drawn from them (seed 1, calib-bench's case), 1 thread, best of %d alternated runs\n",
                n, classes, repetitions);
    std::printf("  CPU %s (avx2 %s, avx512f %s); floor compiled for %s, libcalib for ARCH=%s\n",
                cpu_field("model name").c_str(), cpu_has("avx2") ? "yes" : "no", cpu_has("avx512f") ? "yes" : "no",
                isa, CALIB_LIB_ARCH);
    const double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
    const calib::Kernel kernel = calib::default_kernel<calib::CategoricalData>();
    double floor_value = 0, calib_value = 0, floor_time = 1e300, calib_time = 1e300;
    // Alternated, so that a slow spell of the machine (a virtual machine's speed drifts by up to 1.5×)
    // falls on both rather than on one.
    for (int rep = 0; rep < repetitions; ++rep) {
        floor_time = std::min(floor_time, seconds([&] { floor_value = floor_skce(p, r, n); }));
        calib_time = std::min(calib_time, seconds([&] { calib_value = calib::skce_unbiased(data, kernel, {1}); }));
    }
    std::printf("  floor  %8.4f s  %.3e pairs/s  value %.17g\n", floor_time, pairs / floor_time, floor_value);
    std::printf("  calib  %8.4f s  %.3e pairs/s  value %.17g\n", calib_time, pairs / calib_time, calib_value);
    const double difference = std::abs(calib_value - floor_value) / std::abs(floor_value);
    std::printf("  calib / floor time %.2f; values differ by %.1e relative (tolerance %.0e)\n", calib_time / floor_time,
                difference, tolerance);
    if (!(difference <= tolerance)) {
        std::printf("skce-floor: FAILED: the floor and calib disagree\n");
        return 1;
    }
    return 0;
}

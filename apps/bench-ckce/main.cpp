// calib-bench-ckce: time, peak memory and accuracy of the CKCE paths for docs/performance.md
// (`make bench`). Each case runs in a child process (fork), so that its peak resident set size
// (wait4) is its own; times are the minimum over the repetitions.
//   exact (Cholesky) at n = 5 000, m = 10; RFF (D = 100) at n = 10⁶, m = 10; and the error of
//   RFF and low rank against exact at n = 5 000.
#include <calib/calib.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/synthetic.hpp>

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_01.hpp>

#include <sys/resource.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

using namespace calib;

namespace {

// Dirichlet(α·1) predictions with labels drawn from them (a calibrated model), or from the
// predictions sharpened with temperature ½ (labels from p, predictions p² / Σ p²: overconfident).
CategoricalData dirichlet_data(std::size_t n, int m, double alpha, std::uint64_t seed, bool overconfident) {
    Rng rng(seed);
    boost::random::gamma_distribution<double> gamma(alpha);
    Matrix p(static_cast<Eigen::Index>(n), m);
    std::vector<int> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        synthetic::dirichlet_row(gamma, p.row(r), rng, 1e-300);
        y[i] = synthetic::draw_label(p.row(r), rng);
        if (overconfident) {
            p.row(r) = p.row(r).array().square().matrix();
            p.row(r) /= p.row(r).sum();
        }
    }
    return CategoricalData(p, y);
}

double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The minimum wall time over the repetitions; `cpu` receives the minimum CPU time (all threads),
// which is the steadier number on a shared machine.
double seconds(const std::function<void()>& f, int reps, double* cpu = nullptr) {
    double best = 1e300, best_cpu = 1e300;
    for (int r = 0; r < reps; ++r) {
        const double c0 = process_cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        best_cpu = std::min(best_cpu, process_cpu_seconds() - c0);
    }
    if (cpu) *cpu = best_cpu;
    return best;
}

// Runs `body` in a child process and prints its line followed by the child's peak memory.
void in_child(const std::function<void()>& body) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        body();
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    std::printf("    peak memory %.0f MiB%s\n", usage.ru_maxrss / 1024.0,
                WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "  (child failed)");
    std::fflush(stdout);
}

// γ by the median heuristic: exact up to n = 5 000, on a subsample of 5 000 observations beyond (the
// exact median of n = 10⁶ selects among 5·10¹¹ pairs, far longer than the CKCE it would parameterise).
CkceOptions options(const CategoricalData& d, CkceMethod method, int threads) {
    CkceOptions o;
    MedianOptions median;
    median.subsample = d.size() > 5000 ? 5000 : 0;
    o.kernel.lengthscale = simplex_median_lengthscale(d.probabilities(), median).value;
    o.method = method;
    o.parallel.num_threads = threads;
    return o;
}

}  // namespace

int main() {
    std::printf("calib %s CKCE benchmark (m = 10, Dir(0.1) predictions, lambda = n^(-1/4))\n", version);
    for (int t : {1, 2})
        in_child([t] {
            const CategoricalData d = dirichlet_data(5000, 10, 0.1, 1, false);
            const CkceOptions o = options(d, CkceMethod::exact, t);
            double v = 0, cpu = 0;
            const double s = seconds([&] { v = ckce(d, o).estimate; }, 2, &cpu);
            std::printf("ckce exact    n=5000    threads=%d  %8.3f s (cpu %.3f s)  value=%.10g\n", t, s, cpu, v);
        });
    in_child([] {
        const CategoricalData d = dirichlet_data(2000, 10, 0.1, 4, false);
        CkceOptions o = options(d, CkceMethod::exact, 2);
        double v = 0, cpu = 0;
        const double exact = seconds([&] { v = ckce(d, o).estimate; }, 2, &cpu);
        std::printf("ckce exact    n=2000    threads=2  %8.3f s (cpu %.3f s)  value=%.10g\n", exact, cpu, v);
        const std::vector<double> lambdas = {1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1, 3, 10, 30};
        std::vector<double> path;
        const double s = seconds([&] { path = ckce_lambda_path(d, o, lambdas); }, 1, &cpu);
        std::printf("ckce_lambda_path n=2000, 10 lambdas   %8.3f s (cpu %.3f s)  (eigendecomposition; value at 0.1: %.10g)\n",
                    s, cpu, path[4]);
    });
    for (int t : {1, 2})
        in_child([t] {
            const CategoricalData d = dirichlet_data(5000, 10, 0.1, 1, false);
            const SimplexKernel k{simplex_median_lengthscale(d.probabilities()).value, true, true};
            double v = 0, cpu = 0;
            const double s = seconds([&] { v = jkce_unbiased(d, k, {}, {t}); }, 2, &cpu);
            std::printf("jkce_unbiased n=5000    threads=%d  %8.3f s (cpu %.3f s)  value=%.10g\n", t, s, cpu, v);
        });
    for (int t : {1, 2})
        in_child([t] {
            const CategoricalData d = dirichlet_data(1000000, 10, 0.1, 2, false);
            const CkceOptions o = options(d, CkceMethod::rff, t);
            double v = 0, cpu = 0;
            const double s = seconds([&] { v = ckce(d, o).estimate; }, 2, &cpu);
            std::printf("ckce rff D=100 n=1e6    threads=%d  %8.3f s (cpu %.3f s)  value=%.10g  (data: 76 MiB)\n", t, s,
                        cpu, v);
        });
    // Accuracy against exact at n = 5 000, for a calibrated and an overconfident model.
    for (const bool over : {false, true})
        in_child([over] {
            const CategoricalData d = dirichlet_data(5000, 10, 0.1, 3, over);
            CkceOptions o = options(d, CkceMethod::exact, 2);
            const double exact = ckce(d, o).estimate;
            std::printf("accuracy at n=5000, %s model: exact CKCE = %.6g\n", over ? "overconfident" : "calibrated", exact);
            for (const std::size_t features : {100, 300, 1000}) {
                o.method = CkceMethod::rff;
                o.features = features;
                double error = 0, time = 0;
                for (std::uint64_t seed = 1; seed <= 5; ++seed) {
                    o.seed = seed;
                    double v = 0;
                    time += seconds([&] { v = ckce(d, o).estimate; }, 1) / 5;
                    error += std::abs(v / exact - 1) / 5;
                }
                std::printf("  rff D=%-5zu  mean |rel. error| over 5 seeds %.2e   %7.3f s\n", features, error, time);
            }
            o.method = CkceMethod::lowrank;
            for (const double tol : {1e-2, 1e-3, 1e-4, 1e-5, 1e-6}) {
                o.tolerance = tol;
                CkceResult r;
                const double s = seconds([&] { r = ckce(d, o); }, 1);
                std::printf("  lowrank tol=%-6g rank=%-5zu |rel. error| %.2e   %7.3f s\n", tol, r.rank,
                            std::abs(r.estimate / exact - 1), s);
            }
        });
}

// repro-ckce: the synthetic experiments of Moskvichev & Sejdinovic, "All models are miscalibrated,
// but some less so: comparing calibration with conditional mean operators" (App. A, Fig. 1,
// Fig. 2, Fig. 4(a)). docs/reproduction.md compares the results with the paper's claims.
//   repro-ckce [--reps N] [--quick] [--out DIR] [--threads N] [--resume] [--seed S] [--only LIST]
// Exit codes: 0 success, 2 bad command line, 1 failure (e.g. an output that cannot be written).
#include "experiments.hpp"

#include <calib/errors.hpp>
#include <calib/random.hpp>
#include <calib/version.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

const char* const usage = R"(repro-ckce - the synthetic experiments of the CKCE paper (Moskvichev & Sejdinovic)

Usage: repro-ckce [options]

  --only LIST   comma-separated experiments (default all): toy (App. A), reliability (Fig. 1),
                comparison (Fig. 2), shift (Fig. 4(a))
  --reps N      replicates per cell for every experiment (defaults: toy 20, comparison 100,
                shift 5; reliability is one sample)
  --quick       small grids and few replicates (seconds; used by make test)
  --out DIR     output directory (default results/ckce; created if missing)
  --threads N   OpenMP threads across replicates (default: OMP_NUM_THREADS or all cores); the
                outputs do not depend on it
  --resume      keep the replicates an interrupted run finished (same options required)
  --seed S      master seed (default 1234); replicate r of cell c of experiment e draws from
                calib::make_stream(S, e << 48 | c << 24 | r)
  --help        this text

Outputs per experiment E: E.csv (summary, long format), E-raw.csv (every replicate), E.json
(parameters, seed, calib version, git revision, compiler, threads, wall time); a progress bar on
stderr when it is a terminal.
)";

[[noreturn]] void bad(const std::string& message) {
    std::cerr << "repro-ckce: " << message << " (see repro-ckce --help)\n";
    std::exit(2);
}

long integer(const std::string& option, const std::string& text, long min) {
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || errno || v < min) bad("option " + option + " = '" + text + "', must be an integer >= " + std::to_string(min));
    return v;
}

void make_directories(const std::string& path) {
    std::string partial;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/') {
            if (!partial.empty() && mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
                throw std::runtime_error("cannot create " + partial + ": " + std::strerror(errno));
        }
        if (i < path.size()) partial += path[i];
    }
}

}  // namespace

int main(int argc, char** argv) {
    repro::RunContext ctx;
    ctx.seed = calib::default_seed;
    std::vector<std::string> only = {"toy", "reliability", "comparison", "shift"};
    const std::vector<std::string> args(argv + 1, argv + argc);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) bad("option " + a + " needs a value");
            return args[++i];
        };
        if (a == "--help" || a == "-h") {
            std::cout << usage;
            return 0;
        } else if (a == "--reps") {
            ctx.reps = static_cast<int>(integer(a, value(), 1));
        } else if (a == "--quick") {
            ctx.quick = true;
        } else if (a == "--out") {
            ctx.out = value();
        } else if (a == "--threads") {
            ctx.threads = static_cast<int>(integer(a, value(), 0));
        } else if (a == "--resume") {
            ctx.resume = true;
        } else if (a == "--seed") {
            const std::string text = value();
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
                bad("option --seed = '" + text + "', must be a non-negative integer below 10^19");
            ctx.seed = std::strtoull(text.c_str(), nullptr, 10);
        } else if (a == "--only") {
            only.clear();
            const std::string list = value();
            for (std::size_t s = 0;;) {
                const std::size_t c = list.find(',', s);
                const std::string name = list.substr(s, c == std::string::npos ? c : c - s);
                if (name != "toy" && name != "reliability" && name != "comparison" && name != "shift")
                    bad("unknown experiment '" + name + "' in --only (toy, reliability, comparison, shift)");
                only.push_back(name);
                if (c == std::string::npos) break;
                s = c + 1;
            }
        } else {
            bad("unknown argument '" + a + "'");
        }
    }
    ctx.progress = isatty(STDERR_FILENO);
    try {
        make_directories(ctx.out);
        for (const std::string& name : only) {
            if (name == "toy") repro::run_toy(ctx);
            if (name == "reliability") repro::run_reliability(ctx);
            if (name == "comparison") repro::run_comparison(ctx);
            if (name == "shift") repro::run_shift(ctx);
        }
    } catch (const std::exception& e) {
        std::cerr << "repro-ckce: " << e.what() << '\n';
        return 1;
    }
    return 0;
}

// repro-ckce: the synthetic experiments of Moskvichev & Sejdinovic, "All models are miscalibrated,
// but some less so: comparing calibration with conditional mean operators" (App. A, Fig. 1,
// Fig. 2, Fig. 4(a)). docs/reproduction.md compares the results with the paper's claims. The
// options, exit codes, sidecars and resumable task grids are the harness's (apps/harness), plus
// --only LIST.
#include "experiments.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>

namespace {

const repro::AppInfo info{
    "repro-ckce",
    "The synthetic experiments of the CKCE paper (Moskvichev & Sejdinovic).",
    "Moskvichev & Sejdinovic, All models are miscalibrated, but some less so: comparing calibration with "
    "conditional mean operators (synthetic experiments)",
    0,
    0,
    calib::default_seed,
    "Experiments (--only NAME; outputs ckce-NAME*; stream id e): toy (App. A; 1), reliability (Fig. 1; 2),\n"
    "comparison (Fig. 2; 3), shift (Fig. 4(a); 4).\n"
    "Default replicates per cell: toy 20, comparison 100, shift 5 (with --quick 3, 10, 1); reliability is\n"
    "one sample whatever --reps says. Replicate r of cell c draws from calib::make_stream(S, e << 48 |\n"
    "c << 24 | r), so the outputs do not depend on --threads. --resume also keeps the replicates an\n"
    "interrupted run finished (ckce-NAME-raw.journal; the same options are required).\n\n"
    "Outputs: ckce-NAME.csv (summary, long format) and ckce-NAME-raw.csv (every replicate), plus\n"
    "ckce-reliability-scores.csv and ckce-shift-setup.csv; each CSV with a .meta.json sidecar.\n",
    {{"--only", "LIST", "toy,reliability,comparison,shift",
      "the experiments to run, comma-separated"}}};

struct Experiment {
    const char* name;
    void (*run)(const repro::Output&);
    std::size_t paper_reps, quick_reps;
    bool one_sample;  // the paper's figure shows one sample: --reps does not apply
};
const Experiment experiments[] = {{"toy", repro::run_toy, 20, 3, false},
                                  {"reliability", repro::run_reliability, 1, 1, true},
                                  {"comparison", repro::run_comparison, 100, 10, false},
                                  {"shift", repro::run_shift, 5, 1, false}};

std::vector<const Experiment*> selected(const std::string& list) {
    std::vector<const Experiment*> out;
    std::istringstream names(list);
    for (std::string name; std::getline(names, name, ',');) {
        const auto* e = std::find_if(std::begin(experiments), std::end(experiments),
                                     [&](const Experiment& x) { return name == x.name; });
        if (e == std::end(experiments))
            throw repro::UsageError("--only: unknown experiment '" + name + "' (toy, reliability, comparison, shift)");
        out.push_back(e);
    }
    if (out.empty()) throw repro::UsageError("--only: no experiment named");
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    return repro::run_app(argc, argv, info, [](const repro::Options& options) {
        for (const Experiment* e : selected(options.app_options.at("--only"))) {
            repro::Options own = options;
            own.reps = e->one_sample           ? 1
                       : options.reps_given ? options.reps
                       : options.quick      ? e->quick_reps
                                            : e->paper_reps;
            e->run(repro::Output(own, info));
        }
    });
}

"""Which squared-CE estimator to trust on network-like outputs: bias and spread of every Gruber &
Bach estimator (ce-bins, ce-kde, ce-kkr, ce-ukkr) and of the 15-bin plug-in, for the top-label,
class-wise and canonical errors, against the population values of the generating model
(docs/squared_ce.md, "Which estimator to trust").

The model: a latent class c uniform on m classes, logits z = mu e_c + sigma N(0, I), the true class
probabilities q = softmax(z) (Y ~ q), and the network's output P = softmax(beta z): beta > 1 is
over-confident, as trained networks are; beta = 1 is calibrated. P -> q is one-to-one
(q = softmax(log P / beta)), so E[Y | P] = q and CCE2^2 = E||P - q||^2 exactly. The top-label and
class-wise errors condition on one number (max P, or P_k), so their population values come from one
large sample: the mean of the residual over equal-mass bins of that number, less each bin mean's
noise (docs/squared_ce.md); tests/python/test_squared_ce_study.py checks that binning against m = 2,
where every notion is a closed form in E(P_1 - q_1)^2.

    PYTHONPATH=build/python /usr/bin/python3 apps/study-squared-ce/run.py --out results/study-squared-ce
    ... --summary        # print the tables of the results recorded so far

Every replicate is one line of results.jsonl (seed, parameters, calib version and commit, estimate,
warnings, seconds); a line already there is not recomputed.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import warnings

import numpy as np

import calib

# name: (classes m, mu, sigma, beta) and what it looks like (accuracy, mean confidence).
SETTINGS = {
    "m10-strong": (10, 6.0, 1.2, 1.6),   # accuracy 0.93, confidence 0.98 (CIFAR-10 DenseNet-like)
    "m10-weak": (10, 4.0, 1.0, 1.5),     # accuracy 0.76, confidence 0.89
    "m10-calibrated": (10, 6.0, 1.2, 1.0),  # accuracy 0.93, calibrated: every error is 0
    "m100-strong": (100, 9.0, 1.5, 1.5),  # accuracy 0.92, confidence 0.99
}

NOTIONS = ("top-label", "class-wise", "canonical")
ESTIMATORS = ("bins-15", "ce-bins", "ce-kde", "ce-kkr", "ce-ukkr")


def applies(estimator, notion):
    if estimator == "bins-15":
        return notion == "top-label"
    return not (estimator == "ce-bins" and notion == "canonical")


def softmax(a):
    a = a - a.max(axis=1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=1, keepdims=True)


def draw(rng, n, setting):
    """n rows of the model: the outputs P, the true class probabilities q and labels Y ~ q."""
    m, mu, sigma, beta = SETTINGS[setting] if isinstance(setting, str) else setting
    c = rng.integers(0, m, n)
    z = sigma * rng.standard_normal((n, m))
    z[np.arange(n), c] += mu
    q = softmax(z)
    labels = (q.cumsum(axis=1) > rng.random((n, 1))).argmax(axis=1)
    return softmax(beta * z), q, labels


def conditional_square(x, residual, bins):
    """E(E[residual | x])^2 from a sample: equal-mass bins of x, each bin's squared mean residual less
    the noise of that mean (its variance over the bin size)."""
    order = np.argsort(x, kind="stable")
    total = 0.0
    for part in np.array_split(residual[order], bins):
        k = len(part)
        total += k * (part.mean() ** 2 - part.var(ddof=1) / k)
    return total / len(x)


def population(setting, size, seed, bins):
    """The population values of the three notions (class-wise: the sum over classes), from `size`
    draws; the classes are exchangeable, so the class-wise value is m times the pooled one."""
    rng = np.random.default_rng(seed)
    probs, q, _ = draw(rng, size, setting)
    m = probs.shape[1]
    rows = np.arange(size)
    top = probs.argmax(axis=1)
    conf = probs[rows, top]
    values = {"canonical": float(((probs - q) ** 2).sum(axis=1).mean()),
              "top-label": conditional_square(conf, conf - q[rows, top], bins),
              "class-wise": m * conditional_square(probs.ravel(), (probs - q).ravel(), bins * m)}
    return values, {"accuracy": float(q[rows, top].mean()), "confidence": float(conf.mean())}


def estimate(estimator, notion, probs, labels):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        if estimator == "bins-15":
            # The top-label ECE compares the 2-vectors (c, 1 - c) and (acc, 1 - acc): its squared
            # Euclidean distance is 2 (c - acc)^2, twice the scalar convention of TCE2^2.
            value = float(calib.estimate(probs, labels, estimator="ece", mode="top-label",
                                         distance="sqeuclidean", binning="uniform:15")) / 2
        else:
            value = float(calib.estimate(probs, labels, estimator=estimator, notion=notion))
        seconds = time.perf_counter() - start
    return value, seconds, [str(w.message) for w in caught if issubclass(w.category, calib.CalibWarning)]


def plan(quick):
    """(setting, n, replicates, notions) cells. Class-wise ce-kde costs m KDE pipelines, so the
    largest n runs top-label and canonical only."""
    if quick:
        return [("m10-strong", 300, 1, NOTIONS), ("m100-strong", 300, 1, NOTIONS)]
    return [("m10-strong", 2000, 10, NOTIONS), ("m10-weak", 2000, 10, NOTIONS),
            ("m10-calibrated", 2000, 10, NOTIONS), ("m100-strong", 2000, 10, NOTIONS),
            ("m10-strong", 10000, 8, NOTIONS), ("m10-weak", 10000, 5, NOTIONS),
            ("m10-calibrated", 10000, 3, NOTIONS), ("m100-strong", 10000, 3, ("top-label", "canonical")),
            ("m10-strong", 20000, 3, ("top-label", "canonical")), ("m10-weak", 20000, 2, ("top-label", "canonical"))]


def revision():
    """The checkout's commit (with -dirty for local changes), or "unknown" outside a git checkout."""
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=os.path.dirname(os.path.abspath(__file__)),
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run(out, quick):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "results.jsonl")
    done = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                done.add((r["setting"], r["n"], r["replicate"], r["notion"], r["estimator"]))
    truth_path = os.path.join(out, "population.json")
    truths = json.load(open(truth_path)) if os.path.exists(truth_path) else {}
    commit = revision()
    for setting, n, replicates, notions in plan(quick):
        if setting not in truths:
            size = 20000 if quick else 2_000_000 // (SETTINGS[setting][0] // 10)
            values, shape = population(setting, size, seed=99, bins=int(np.sqrt(size)))
            coarse, _ = population(setting, size, seed=99, bins=int(np.sqrt(size)) // 4)
            truths[setting] = {"values": values, "with_a_quarter_of_the_bins": coarse, "draws": size,
                               "seed": 99, **shape, "model": dict(zip(("m", "mu", "sigma", "beta"), SETTINGS[setting]))}
            with open(truth_path, "w") as f:
                json.dump(truths, f, indent=1)
            print(setting, truths[setting], flush=True)
        for replicate in range(replicates):
            seed = [1000 * n + replicate, list(SETTINGS).index(setting)]
            probs, _, labels = draw(np.random.default_rng(seed), n, setting)
            for notion in notions:
                for estimator in ESTIMATORS:
                    key = (setting, n, replicate, notion, estimator)
                    if not applies(estimator, notion) or key in done:
                        continue
                    value, seconds, said = estimate(estimator, notion, probs, labels)
                    record = dict(zip(("setting", "n", "replicate", "notion", "estimator"), key),
                                  seed=seed, estimate=value,
                                  truth=truths[setting]["values"][notion], seconds=seconds, warnings=said,
                                  calib=calib.__version__, revision=commit, python=platform.python_version(),
                                  threads=os.environ.get("OMP_NUM_THREADS", "all cores"))
                    with open(path, "a") as f:
                        f.write(json.dumps(record) + "\n")
                    print(f"{setting} n={n} #{replicate} {notion} {estimator}: {value:.5f} "
                          f"(truth {record['truth']:.5f}) {seconds:.1f}s", flush=True)
    return path


# The search's warnings by kind (docs/squared_ce.md, "The search and its warnings"), found by their words.
WARNING_KINDS = {"edge": ("value of the grid", "that its fits resolve"), "unsettled": ("do not settle",),
                 "negative diagonal": ("h(p, p) < 0",), "below top-label": ("is below the top-label estimate",)}


def kinds(said):
    return {kind for kind, words in WARNING_KINDS.items() for w in said if any(x in w for x in words)}


def summary(out):
    """Two Markdown tables: each cell's mean ± sd and relative bias; the warnings' frequency and whether
    the warned runs were further from the truth. A canonical run is counted as below its top-label bound
    when its estimate is below the same estimator's top-label estimate of the same replicate (the same
    split and computation as the warning's)."""
    truths = json.load(open(os.path.join(out, "population.json")))
    rows = [json.loads(line) for line in open(os.path.join(out, "results.jsonl"))]
    by_run = {(r["setting"], r["n"], r["replicate"], r["notion"], r["estimator"]): r for r in rows}
    cells = {}
    for r in rows:
        said = kinds(r["warnings"])
        bound = by_run.get((r["setting"], r["n"], r["replicate"], "top-label", r["estimator"]))
        if r["notion"] == "canonical" and bound and r["estimate"] < bound["estimate"]:
            said.add("below top-label")
        cells.setdefault((r["setting"], r["n"], r["notion"], r["estimator"]), []).append((r["estimate"], said))
    keys = sorted({k[:3] for k in cells}, key=lambda k: (list(SETTINGS).index(k[0]), k[1], NOTIONS.index(k[2])))
    print("| model | n | notion | truth | " + " | ".join(ESTIMATORS) + " |")
    print("|---|---|---|---|" + "---|" * len(ESTIMATORS))
    for setting, n, notion in keys:
        truth = truths[setting]["values"][notion]
        entries = []
        for estimator in ESTIMATORS:
            runs = cells.get((setting, n, notion, estimator))
            if not runs:
                entries.append("")
                continue
            x = np.array([e for e, _ in runs])
            sd = f"{x.std(ddof=1):.4f}" if len(x) > 1 else "–"
            bias = f" ({100 * (x.mean() - truth) / truth:+.0f} %)" if truth > 0 else ""
            entries.append(f"{x.mean():.4f} ± {sd}{bias}")
        count = max(len(cells.get((setting, n, notion, e), ())) for e in ESTIMATORS)
        print(f"| {setting} | {n} ({count}) | {notion} | {truth:.4f} | " + " | ".join(entries) + " |")
    print()
    print("| notion | estimator | runs | " + " | ".join(f"{k}: warned" for k in WARNING_KINDS) +
          " | relative error, warned / not warned |")
    print("|---|---|---|" + "---|" * len(WARNING_KINDS) + "---|")
    for notion in NOTIONS:
        for estimator in ESTIMATORS:
            runs = [(setting, e, said) for (setting, n, nt, est), rs in cells.items() if nt == notion and est == estimator
                    and truths[setting]["values"][notion] > 0 for e, said in rs]
            if not runs:
                continue
            counts = [sum(1 for *_, said in runs if kind in said) for kind in WARNING_KINDS]
            errors = {True: [], False: []}
            for setting, e, said in runs:
                truth = truths[setting]["values"][notion]
                errors[bool(said)].append(abs(e - truth) / truth)
            median = lambda v: f"{np.median(v):.2f} ({len(v)})" if v else "–"
            print(f"| {notion} | {estimator} | {len(runs)} | " + " | ".join(map(str, counts)) +
                  f" | {median(errors[True])} / {median(errors[False])} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="results/study-squared-ce")
    parser.add_argument("--quick", action="store_true", help="two small cells (the test's run)")
    parser.add_argument("--summary", action="store_true", help="print the tables and stop")
    args = parser.parse_args()
    if not args.summary:
        run(args.out, args.quick)
    summary(args.out)


if __name__ == "__main__":
    sys.exit(main())

"""Tests of `calib report` (make test):
    python3 tests/report/run.py build/bin/calib

- The numbers: the JSON form's tests and estimates equal `calib test` / `calib estimate` on the same
  file (bitwise), the bins' counts add up to n, every interval holds its frequency; the bootstrap
  intervals are seeded, stated, the same for any thread count, and their resamples are those of
  `calib rank` (bitwise equal standard errors); the ranking of several models is `calib rank`'s,
  bitwise; the mean NLL is its closed form; the mvnormal PIT and ellipsoid coverage add up.
- A real browser: each demo report (a calibrated and an overconfident classifier, binary scores, a
  normal, a Laplace, a mixture and two multivariate normal regression models, and two classifiers
  in one report) is loaded in headless Chromium with a measuring script added to a copy:
  no script error or console error, every figure has a non-zero size, the verdict is on the page;
  a screenshot of each is kept in build/report/ for a person to look at.
- Errors: a bad input gives the one-line error of `calib estimate` (exit 2); an unwritable output is
  a clear error; a failed run leaves an existing report as it was, and a new report replaces it
  whole.
Prints one line per failure and "report: N passed, M failed"; exit 1 if any failed.
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.abspath(sys.argv[1])
OUT = os.path.join(ROOT, "build", "report")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
passed, failed = 0, 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (name, ": " + detail if detail else ""))


def calib(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, OMP_NUM_THREADS="2"))


def calib_json(*args):
    r = calib(*args, "--quiet")
    if r.returncode != 0:
        raise RuntimeError("calib %s: %s" % (" ".join(args), r.stderr))
    return json.loads(r.stdout)


def confident_network(path, n, m, seed):
    """Outputs shaped like a good network's (a CIFAR-10 DenseNet's: accuracy about 0.93, most confidences
    above 0.99, overconfident), headerless, the label last: the case of the logit-scale diagrams."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        for _ in range(n):
            label = rng.randrange(m)
            guess = label if rng.random() < 0.93 else rng.randrange(m)
            logits = [rng.gauss(0, 1) for _ in range(m)]
            logits[guess] += 9
            top = max(logits)
            e = [math.exp(z - top) for z in logits]
            total = sum(e)
            f.write(",".join("%.9g" % (x / total) for x in e) + ",%d\n" % label)


GENERATED = tempfile.mkdtemp()
confident_network(os.path.join(GENERATED, "confident10.csv"), 2000, 10, 1)
confident_network(os.path.join(GENERATED, "confident100.csv"), 2000, 100, 2)

# name, family, input arguments (several files after --input: one report of several models)
CASES = [
    ("confident-10", "categorical", ["--input", os.path.join(GENERATED, "confident10.csv")]),
    ("confident-100", "categorical", ["--input", os.path.join(GENERATED, "confident100.csv")]),
    ("calibrated", "categorical", ["--input", "apps/demo/calibrated.csv"]),
    ("overconfident", "categorical", ["--input", "apps/demo/overconfident.csv"]),
    ("preds", "categorical", ["--input", "examples/data/preds.npy", "--labels", "examples/data/labels.npy"]),
    ("binary", "binary", ["--input", "examples/data/scores.csv"]),
    ("normal", "normal", ["--input", "examples/data/gauss.csv"]),
    ("laplace", "laplace", ["--input", "examples/data/lap.csv"]),
    ("mixture", "mixture-normal", ["--input", "examples/data/ensemble.csv"]),
    ("mvnormal", "mvnormal", ["--input", "examples/data/mv.csv"]),
    ("mvnormal-diag", "mvnormal-diag", ["--input", "examples/data/mvd.csv"]),
    ("two-models", "categorical", ["--input", "apps/demo/calibrated.csv", "apps/demo/overconfident.csv"]),
]

MEASURE = """<script>
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
const __error = console.error;
console.error = function () { window.__errors.push(Array.from(arguments).join(" ")); __error.apply(console, arguments); };
window.addEventListener("load", function () {
  const figures = Array.from(document.querySelectorAll("svg")).map(function (s) {
    const r = s.getBoundingClientRect(); return [r.width, r.height]; });
  const verdict = document.querySelector(".verdict");
  document.body.setAttribute("data-check", JSON.stringify({figures: figures,
    verdict: verdict ? verdict.innerText : "", errors: window.__errors}));
});
</script>"""


def browser(html_path, name):
    """Loads a copy of the report with MEASURE added; returns the measurements and Chromium's console."""
    probe = os.path.join(OUT, name + ".probe.html")
    page = open(html_path, encoding="utf-8").read()
    with open(probe, "w", encoding="utf-8") as f:
        f.write(page.replace("<head>", "<head>" + MEASURE, 1))
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
             "--virtual-time-budget=3000"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", "file://" + probe], capture_output=True, text=True, timeout=120)
    subprocess.run([CHROMIUM, *flags, "--window-size=1100,1800", "--screenshot=" + os.path.join(OUT, name + ".png"),
                    "file://" + os.path.abspath(html_path)], capture_output=True, text=True, timeout=120)
    os.remove(probe)
    marker = 'data-check="'
    start = dom.stdout.find(marker)
    if start < 0:
        return None, dom.stderr
    raw = dom.stdout[start + len(marker):dom.stdout.index('"', start + len(marker))]
    import html
    return json.loads(html.unescape(raw)), dom.stderr


os.makedirs(OUT, exist_ok=True)
for name, family, inputs in CASES:
    html_path = os.path.join(OUT, name + ".html")
    r = calib("report", "--family", family, *inputs, "--output", html_path, "--quiet", "--name", name)
    check(name + ": exit 0", r.returncode == 0, r.stderr.strip())
    check(name + ": one line on stderr naming the file", r.stderr.count("\n") == 1 and html_path in r.stderr, r.stderr)
    page = open(html_path, encoding="utf-8").read()
    check(name + ": self-contained", "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
          and "https://" not in page and "<link" not in page)
    # The page carries its own words: a terms section, each statistic explained, no pointer to files the
    # reader of a report does not have.
    check(name + ": readable alone", 'id="terms"' in page and "The statistics." in page and "docs/" not in page
          and "_rule" not in page)

    j = calib_json("report", "--family", family, *inputs, "--format", "json")
    labels = inputs[inputs.index("--labels"):] if "--labels" in inputs else []
    files = inputs[1:len(inputs) - len(labels)]
    check(name + ": one entry per model, named by its file", [m["name"] for m in j["models"]] == files, str(j["models"]))
    check(name + ": the files read", [f["path"] for f in j["files"]][:len(files)] == files[:1] or
          [f["path"] for f in j["files"]][::1 + len(labels) // 2] == files, str(j["files"]))
    check(name + ": the intervals stated", j["intervals"] == {"method": "percentile bootstrap", "replicates": 200,
                                                              "level": 0.95, "seed": 1234}, str(j["intervals"]))
    for model, m in zip(files, j["models"]):
        one = ["--input", model, *labels]
        check(name + ": verdict in the JSON", m["verdict"] in ("not calibrated", "consistent with calibration"))
        binary = family == "binary"
        for t in m["tests"]:
            extra = ["--block-size", "sqrt"] if t["method"] == "block" else []
            if t["method"] == "t-cal" and not binary:
                extra = ["--event", "top-label"]
            ref = calib_json("test", "--family", family, *one, "--method", t["method"], *extra)
            check("%s: %s p-value as calib test" % (name, t["method"]),
                  (t["p_value"], t["statistic"], t["estimate"]) == (ref["p_value"], ref["statistic"], ref["estimate"]),
                  "%r vs %r" % (t["p_value"], ref["p_value"]))
        squared_ce = "TCE₂² (top-label, two-step kernel ridge regression)"
        smooth = "smooth ECE" + ("" if binary else " (top-label)")
        l2 = "L2 calibration error (debiased, 15 equal-mass bins" + (")" if binary else ", each class)")
        reference = {smooth: ["--estimator", "smooth-ece"] + ([] if binary else ["--event", "top-label"]),
                     l2: ["--estimator", "debiased-l2"],"SKCE (unbiased)": ["--estimator", "skce-unbiased"], "CKCE": ["--estimator", "ckce"],
                     "ECE (top-label, 10 equal-width bins)": ["--estimator", "ece"],
                     "ECE (canonical, 10 equal-width bins per class, TV distance)": ["--estimator", "ece", "--mode", "canonical"],
                     squared_ce: ["--estimator", "ce-ukkr"], "ICI (loess calibration curve)": ["--estimator", "ici"]}
        for e in m["estimates"]:
            if e["name"] in reference:
                ref = calib_json("estimate", "--family", family, *one, *reference[e["name"]])
                check("%s: %s as calib estimate" % (name, e["name"]), e["value"] == ref["estimate"],
                      "%r vs %r" % (e["value"], ref["estimate"]))
            if e["name"] == smooth:  # no interval
                check("%s: %s states no interval" % (name, e["name"]), "lower" not in e, str(e))
                continue
            if e["name"] == squared_ce:  # a cross-validated fit: no interval; calib estimate's warnings
                said = calib("estimate", "--family", family, *one, *reference[squared_ce]).stderr.splitlines()
                check("%s: %s warns as calib estimate, states no interval" % (name, e["name"]),
                      [w.removeprefix("calib: warning: ") for w in said] == e.get("warnings", []) and "lower" not in e,
                      "%r vs %r" % (said, e))
                continue
            check("%s: %s has an ordered interval" % (name, e["name"]),
                  e["lower"] <= e["upper"] and e["std_error"] > 0, str(e))
            if e["name"].startswith("SKCE") or "overconfident" in model:
                check("%s: %s interval holds the estimate" % (name, e["name"]), e["lower"] <= e["value"] <= e["upper"],
                      str(e))
        univariate = family in ("normal", "laplace", "mixture-normal", "mvnormal", "mvnormal-diag")
        check(name + ": calib estimate's ECE shown for class predictions, under its full name",
              (not univariate) == any(e["name"] == "ECE (canonical, 10 equal-width bins per class, TV distance)"
                                      for e in m["estimates"]), str([e["name"] for e in m["estimates"]]))
        check(name + ": the NLL for predictive distributions only", ("nll" in m) == univariate)
        check(name + ": the clinical tests and the ICI for binary predictions only",
              ({"spiegelhalter", "citl", "cox", "hosmer-lemeshow", "ks", "kuiper"} <= {t["method"] for t in m["tests"]})
              == binary and
              any(e["name"] == "ICI (loess calibration curve)" for e in m["estimates"]) == binary,
              str([t["method"] for t in m["tests"]]))
        check(name + ": T-Cal, the debiased L2 error and the smooth ECE for class predictions",
              (not univariate) == ("t-cal" in {t["method"] for t in m["tests"]}) ==
              any(e["name"] == smooth for e in m["estimates"]) == any(e["name"] == l2 for e in m["estimates"]))
        check(name + ": the squared top-label error for class predictions up to n = 20 000",
              any(e["name"] == squared_ce for e in m["estimates"]) == (not univariate and 13 <= j["n"] <= 20000))
    if family == "normal":  # the closed form, from the file: ½log 2π + log σ + ½z²
        rows = [list(map(float, line.split(","))) for line in open(os.path.join(ROOT, files[0])).read().split()[1:]]
        nll = sum(0.5 * math.log(2 * math.pi) + math.log(s) + 0.5 * ((y - mu) / s) ** 2 for mu, s, y in rows) / len(rows)
        check(name + ": the NLL is its closed form", abs(j["models"][0]["nll"] - nll) < 1e-12 * abs(nll),
              "%r vs %r" % (j["models"][0]["nll"], nll))
    # A confident network's crowded predictions: equal-count bins on the logit scale (the equal-width
    # top-label diagram stays linear); the others' diagrams on the usual scale.
    scales = [(f["title"], f["binning"], f["scale"]) for f in j["reliability_diagrams"]]
    if name.startswith("confident"):
        check(name + ": crowded diagrams on the logit scale", scales[0][2] == "linear" and
              all(s == "logit" and b == "equal-mass" for _, b, s in scales[1:]) and "logit scale" in page, str(scales))
    elif name in ("calibrated", "overconfident", "two-models"):
        check(name + ": diagrams on the usual scale", all(s == "linear" for _, _, s in scales), str(scales))
    check(name + ": the smooth ECE's curves drawn on the diagrams of the usual scale",
          ('class="smooth-ece"' in page) == any(s == "linear" for _, _, s in scales))
    for figure in j["reliability_diagrams"]:
        for d in figure["models"]:
            c = d.get("smooth")
            check("%s: %s has its smoothed curve" % (name, figure["title"]), c is not None and len(c["probability"]) > 0
                  and c["bandwidth"] > 0 and all(0 <= lo <= f <= hi <= 1 for lo, f, hi in
                                                 zip(c["lower"], c["frequency"], c["upper"])), str(c)[:200])
        # The smooth ECE's curve on the usual scale: calib estimate --estimator smooth-ece's, bitwise.
        event = "top-label" if figure["event"] == "top-label" else "class:" + figure["event"].split()[-1]
        if figure["scale"] == "logit":
            check("%s: %s (logit scale) has no smooth ECE curve" % (name, figure["title"]), "smooth_ece" not in figure)
        else:
            check("%s: %s has a smooth ECE curve per model" % (name, figure["title"]),
                  len(figure.get("smooth_ece", [])) == len(figure["models"]))
        for model, e in zip(files, figure.get("smooth_ece", [])):
            ref = calib_json("estimate", "--family", family, "--input", model, *labels, "--estimator", "smooth-ece",
                             "--event", event, "--curve-points", "101")
            check("%s: %s smooth ECE curve as calib estimate (event %s)" % (name, figure["title"], event),
                  (e.get("estimate"), e.get("bandwidth_used"), e.get("t"), e.get("frequency"), e.get("density")) ==
                  (ref["estimate"], ref["bandwidth_used"], ref["curve"]["t"], ref["curve"]["frequency"],
                   ref["curve"]["density"]), "%r vs %r" % (e.get("estimate"), ref["estimate"]))
        for bins in (d["bins"] for d in figure["models"]):
            check("%s: %s counts add up to n" % (name, figure["title"]), sum(b["count"] for b in bins) == j["n"])
            check("%s: %s intervals hold the frequencies" % (name, figure["title"]),
                  all(b["interval_lower"] <= b["frequency"] <= b["interval_upper"] for b in bins if b["count"]))
    # The CORP diagram: calib diagram's with the report's replicates, level and seed (bitwise), and the
    # log score's decomposition calib estimate's; the page draws it.
    check(name + ": the CORP diagram for class predictions only", ("corp_diagram" in j) == (family in ("categorical", "binary")))
    if "corp_diagram" in j:
        event = [] if family == "binary" else ["--event", "top-label"]
        intervals = j["intervals"]
        for model, d in zip(files, j["corp_diagram"]["models"]):
            ref = calib_json("diagram", "--family", family, "--input", model, *labels, *event, "--replicates",
                             str(intervals["replicates"]), "--level", str(intervals["level"]), "--seed", str(intervals["seed"]))
            check("%s: CORP diagram as calib diagram" % name,
                  all(d[k] == ref[k] for k in ("curve", "points", "mcb", "dsc", "unc", "mean_score", "replicates")),
                  "%r vs %r" % (d["mcb"], ref["mcb"]))
            log = calib("estimate", "--family", family, "--input", model, *labels, "--estimator", "corp", "--score", "log",
                        *event, "--quiet")
            if d["log_score"]["contradicted"] == 0:
                ref = json.loads(log.stdout)
                check("%s: CORP log score decomposition as calib estimate" % name,
                      (d["log_score"]["mcb"], d["log_score"]["dsc"], d["log_score"]["unc"]) ==
                      (ref["estimate"], ref["dsc"], ref["unc"]), "%r vs %r" % (d["log_score"], ref["estimate"]))
            else:  # calib estimate refuses an infinite MCB; the report shows it as infinite
                check("%s: an infinite CORP log score refused by calib estimate" % name,
                      log.returncode == 2 and d["log_score"]["mcb"] is None, log.stderr)
        check(name + ": the CORP diagram drawn", "CORP: " in page and "Reliability without bins" in page)
        check(name + ": the CORP diagram's scale is the binned diagrams' (crowded predictions: logit)",
              j["corp_diagram"]["scale"] == ("logit" if name.startswith("confident") else "linear")
              or not name.startswith(("confident", "calibrated", "overconfident", "two-models")), j["corp_diagram"]["scale"])
    check(name + ": diagrams for class predictions only",
          (len(j["reliability_diagrams"]) > 0) == (family in ("categorical", "binary")))
    pit, coverage = ("mahalanobis_pit_histogram", "ellipsoid_coverage") if family.startswith("mvnormal") else \
        ("pit_histogram", "interval_coverage")
    predictive = family not in ("categorical", "binary")
    check(name + ": the PIT for predictive distributions only", (pit in j) == predictive)
    if predictive:
        h, c = j[pit], j[coverage]
        check(name + ": PIT counts add up to n", sum(h["counts"]) == j["n"])
        check(name + ": PIT band around n/B", h["band_lower"] <= j["n"] / len(h["counts"]) <= h["band_upper"])
        check(name + ": coverage intervals hold the observed coverage",
              all(lo <= o <= hi for lo, o, hi in zip(c["lower"], c["observed"], c["upper"])))
    if len(files) > 1:  # the ranking is calib rank's, bitwise
        rank = calib_json("rank", "--family", family, *inputs)
        for key in ("n", "models", "estimators", "replicates", "seed", "level", "results", "kernel", "ece"):
            check("%s: ranking %s as calib rank" % (name, key), j["ranking"][key] == rank[key],
                  "%r vs %r" % (j["ranking"][key], rank[key]))

    measured, console = browser(html_path, name)
    check(name + ": the page loads and is measured", measured is not None, console[-500:])
    if measured:
        check(name + ": no script or console error", not measured["errors"], str(measured["errors"]))
        check(name + ": every figure has a size", all(w > 0 and h > 0 for w, h in measured["figures"]),
              str(measured["figures"]))
        check(name + ": figures present", len(measured["figures"]) > 0)
        check(name + ": the verdict is on the page",
              "Not calibrated" in measured["verdict"] or "Consistent with calibration" in measured["verdict"],
              measured["verdict"])
    bad_console = [line for line in console.splitlines() if "CONSOLE" in line or "Failed to load" in line]
    check(name + ": nothing in Chromium's console", not bad_console, "\n".join(bad_console))
    check(name + ": a screenshot", os.path.getsize(os.path.join(OUT, name + ".png")) > 10000)

# Errors.
with tempfile.TemporaryDirectory() as work:
    missing = os.path.join(work, "missing.csv")
    r = calib("report", "--family", "categorical", "--input", missing, "--output", os.path.join(work, "r.html"))
    e = calib("estimate", "--family", "categorical", "--input", missing, "--estimator", "skce-unbiased")
    check("a bad input: the error of calib estimate", r.returncode == 2 and r.stderr == e.stderr and
          r.stderr.count("\n") == 1, r.stderr + " vs " + e.stderr)
    r = calib("report", "--family", "categorical", "--input", "apps/demo/calibrated.csv", "--output",
              os.path.join(work, "no", "such", "dir", "r.html"), "--quiet")
    check("an unwritable output: exit 2 with a clear line",
          r.returncode == 2 and "r.html: cannot be written" in r.stderr and "does not exist" in r.stderr
          and r.stderr.count("\n") == 1, r.stderr)
    existing = os.path.join(work, "existing.html")
    with open(existing, "w") as f:
        f.write("an earlier report")
    r = calib("report", "--family", "categorical", "--input", "apps/demo/bad-name.csv", "--output", existing, "--quiet")
    check("a failed run leaves the existing report as it was",
          r.returncode == 2 and open(existing).read() == "an earlier report")
    r = calib("report", "--family", "categorical", "--input", "apps/demo/calibrated.csv", "--output", existing, "--quiet")
    check("a new report replaces the existing file whole",
          r.returncode == 0 and open(existing).read().endswith("</html>\n") and os.listdir(work) == ["existing.html"],
          str(os.listdir(work)))
    tiny = os.path.join(work, "tiny.csv")
    with open(tiny, "w") as f:
        f.write("".join(open(os.path.join(ROOT, "apps/demo/calibrated.csv")).readlines()[:6]))
    r = calib("report", "--family", "categorical", "--input", tiny, "--output", os.path.join(work, "tiny.html"), "--quiet")
    check("n = 5: a report (at most one equal-count bin per observation)", r.returncode == 0, r.stderr)
    j = json.loads(calib("report", "--family", "categorical", "--input", tiny, "--format", "json", "--quiet").stdout)
    why = j["models"][0]["why"]
    check("n = 5: the verdict says it is below the validity study's sizes", "Caution: n = 5" in why, why)
    os.remove(os.path.join(work, "tiny.html"))
    os.remove(tiny)
    r = calib("report", "--family", "categorical", "--input", "apps/demo/calibrated.csv", "--bins", "0")
    check("--bins 0: exit 2", r.returncode == 2 and "--bins" in r.stderr, r.stderr)
    r = calib("report", "--family", "categorical", "--input", "apps/demo/calibrated.csv", "--replicates", "0")
    check("--replicates 0: exit 2 naming the option", r.returncode == 2 and "--replicates" in r.stderr, r.stderr)
    r = calib("report", "--family", "categorical", "--input", "apps/demo/calibrated.csv", "--method", "block")
    check("an option of another command: exit 2", r.returncode == 2 and "--method" in r.stderr, r.stderr)

# The intervals: seeded, the same for any thread count, on the resamples of calib rank.
demo = ["--family", "categorical", "--input", "apps/demo/overconfident.csv"]
one, two = (calib_json("report", *demo, "--format", "json", "--threads", t) for t in ("1", "2"))
check("intervals: the same for 1 and 2 threads", one["models"] == two["models"])
seeded = calib_json("report", *demo, "--format", "json", "--seed", "7", "--replicates", "50", "--level", "0.9")
check("intervals: --seed, --replicates and --level stated",
      seeded["intervals"] == {"method": "percentile bootstrap", "replicates": 50, "level": 0.9, "seed": 7},
      str(seeded["intervals"]))
check("intervals: another seed, other intervals", seeded["models"][0]["estimates"] != one["models"][0]["estimates"])
estimates = {e["name"]: e for e in seeded["models"][0]["estimates"]}
same = ["--input", "apps/demo/overconfident.csv", "apps/demo/overconfident.csv", "--seed", "7", "--replicates", "50"]
rank = calib_json("rank", "--family", "categorical", *same, "--estimators", "ckce")
check("intervals: the CKCE's resamples are calib rank's (estimate and s.e. bitwise)",
      (estimates["CKCE"]["value"], estimates["CKCE"]["std_error"]) ==
      (rank["results"]["ckce"]["estimates"][0], rank["results"]["ckce"]["std_errors"][0]), str(estimates["CKCE"]))
rank = calib_json("rank", "--family", "categorical", *same, "--estimators", "ece", "--binning", "uniform:10",
                  "--distance", "tv", "--mode", "top-label")
ece = estimates["ECE (top-label, 10 equal-width bins)"]
check("intervals: the ECE's resamples are calib rank's (estimate and s.e. bitwise)",
      (ece["value"], ece["std_error"]) == (rank["results"]["ece"]["estimates"][0], rank["results"]["ece"]["std_errors"][0]),
      str(ece))
rank = calib_json("rank", "--family", "categorical", *same, "--estimators", "ece", "--mode", "canonical")
ece = estimates["ECE (canonical, 10 equal-width bins per class, TV distance)"]
check("intervals: the canonical ECE, resampled as calib rank's ece --mode canonical (bitwise)",
      (ece["value"], ece["std_error"]) == (rank["results"]["ece"]["estimates"][0], rank["results"]["ece"]["std_errors"][0]),
      str(ece))
# Several models: the ranking follows --seed, --replicates and --level as calib rank does.
models = ["--family", "categorical", "--input", "apps/demo/calibrated.csv", "apps/demo/overconfident.csv",
          "--seed", "7", "--replicates", "60", "--level", "0.9"]
j, rank = calib_json("report", *models, "--format", "json"), calib_json("rank", *models)
check("several models: the ranking with --seed, --replicates, --level is calib rank's",
      j["ranking"]["results"] == rank["results"] and j["ranking"]["replicates"] == 60)
r = calib("report", "--family", "normal", "--input", "examples/data/gauss.csv", "examples/data/gauss.csv")
check("several models of a regression family: exit 2 naming the families",
      r.returncode == 2 and "categorical or binary" in r.stderr and r.stderr.count("\n") == 1, r.stderr)
with tempfile.TemporaryDirectory() as work:
    lines = open(os.path.join(ROOT, "apps/demo/calibrated.csv")).read().splitlines()
    lines[3] = lines[3][:-1] + str((int(lines[3][-1]) + 1) % 3)
    relabelled = os.path.join(work, "relabelled.csv")
    open(relabelled, "w").write("\n".join(lines) + "\n")
    r = calib("report", "--family", "categorical", "--input", "apps/demo/calibrated.csv", relabelled, "--format", "json")
    check("several models with other labels: exit 2 naming the file and the observation",
          r.returncode == 2 and "relabelled.csv: observation 3 has label" in r.stderr and r.stderr.count("\n") == 1,
          r.stderr)

# The report's policy at large n (the thresholds of include/calib/report.hpp), with few replicates: above
# n = 10 000 the verdict is the block test's and the CKCE the low-rank method's; above 20 000 the SKCE is
# the block estimate and the squared CE is left out; above 50 000 the Gamma test is left out.
with tempfile.TemporaryDirectory() as work:
    rng = random.Random(5)
    for n, tests, skce, squared_ce in ((10001, ["block", "gamma", "t-cal"], "SKCE (unbiased)", True),
                                       (50001, ["block", "t-cal"], "SKCE (block, B = sqrt(n))", False)):
        path = os.path.join(work, "n%d.csv" % n)
        with open(path, "w") as f:
            for _ in range(n):
                e = [rng.expovariate(1) for _ in range(3)]
                p = [x / sum(e) for x in e]
                f.write("%.9g,%.9g,%.9g,%d\n" % (*p, rng.choices(range(3), weights=p)[0]))
        m = calib_json("report", "--family", "categorical", "--input", path, "--replicates", "2", "--format", "json")["models"][0]
        names = [e["name"] for e in m["estimates"]]
        check("n = %d: the tests %s" % (n, tests), [t["method"] for t in m["tests"]] == tests, str(m["tests"]))
        check("n = %d: %s, the squared CE %s" % (n, skce, "in" if squared_ce else "left out"),
              skce in names and any(x.startswith("TCE") for x in names) == squared_ce, str(names))
        check("n = %d: the verdict's reason names the block test" % n, "block test" in m["why"], m["why"])

print("report: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

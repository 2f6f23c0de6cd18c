#!/usr/bin/env bash
# make test's check of repro-ckce: runs it with --quick on 1 and 2 threads and once more with
# --resume, and checks that the outputs are well-formed (every CSV file has its columns and
# numbers in range, every .meta.json sidecar its fields), identical for both thread counts and
# after a resume, and that the App. A closed forms hold on the exact-frequency samples. Then it
# fakes an interrupted run (a task journal holding part of the tasks, one of them altered, and a
# task cut short) and checks that --resume keeps the journal's tasks and reruns the others.
#   bash tests/repro/check_ckce.sh build/bin/repro-ckce
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: bash tests/repro/check_ckce.sh BINARY (an executable repro-ckce)" >&2
    exit 2
fi
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --quick --threads 1 --out "$tmp/one" 2>"$tmp/err1" || { echo "FAIL: repro-ckce --quick: $(head -c 300 "$tmp/err1")"; exit 1; }
"$bin" --quick --threads 2 --out "$tmp/two" 2>"$tmp/err2" || { echo "FAIL: repro-ckce --quick --threads 2"; exit 1; }
cp -r "$tmp/two" "$tmp/resumed"
"$bin" --quick --threads 2 --out "$tmp/resumed" --resume 2>"$tmp/err3" || { echo "FAIL: repro-ckce --resume"; exit 1; }
failed=0
for f in "$tmp"/one/*.csv; do
    name=$(basename "$f")
    cmp -s "$f" "$tmp/two/$name" || { echo "FAIL: $name differs between 1 and 2 threads"; failed=1; }
    cmp -s "$f" "$tmp/resumed/$name" || { echo "FAIL: $name differs after --resume"; failed=1; }
done
[ -s "$tmp/err1" ] && { echo "FAIL: stderr not empty when it is not a terminal: $(head -c 200 "$tmp/err1")"; failed=1; }
ls "$tmp"/one/*.journal >/dev/null 2>&1 && { echo "FAIL: a task journal remains after a complete run"; failed=1; }
python3 - "$tmp/one" <<'PY' || failed=1
import csv, json, math, sys
d = sys.argv[1]
bad = []
def rows(name, columns):
    with open("%s/%s" % (d, name)) as f:
        r = list(csv.DictReader(f))
    if not r or list(r[0].keys()) != columns:
        bad.append("%s: columns %s" % (name, list(r[0].keys()) if r else "none"))
        return []
    return r
def number(x, allow_nan=False):
    v = float(x)
    assert math.isfinite(v) or (allow_nan and math.isnan(v)), x
    return v
try:
    for r in rows("ckce-comparison.csv", ["n", "calibrated", "miscalibrated", "metric", "wins", "ties", "trials",
                                          "proportion", "wilson_lower", "wilson_upper"]):
        p, lo, hi = number(r["proportion"]), number(r["wilson_lower"]), number(r["wilson_upper"])
        assert 0 <= lo <= p <= hi <= 1, r
        assert number(r["wins"]) + number(r["ties"]) <= number(r["trials"]), r
    toy = rows("ckce-toy.csv", ["p", "metric", "closed_form", "mean", "sd", "reps", "exact_frequency"])
    assert len(toy) == 15, "toy rows"
    for r in toy:
        c, e = number(r["closed_form"]), number(r["exact_frequency"])
        if r["metric"] in ("jkce_biased", "ece"):
            assert abs(c - e) < 1e-12, r
        if r["metric"] == "ckce_small_lambda":
            assert abs(c - e) < 1e-4, r
        if r["metric"] == "ckce_paper_lambda":
            assert 0 < e < c, r
    shift = rows("ckce-shift.csv", ["alpha", "metric", "mean", "sd", "reps"])
    assert len(shift) == 15 and all(number(r["mean"]) > -1 for r in shift), "shift rows"
    setup = rows("ckce-shift-setup.csv", ["x", "p_true", "q_model", "density_alpha_-0.5", "density_alpha_0", "density_alpha_0.5"])
    assert len(setup) == 201, "setup rows"
    rel = rows("ckce-reliability.csv", ["model", "bin", "lower", "upper", "count", "confidence", "accuracy"])
    assert len(rel) == 30 and all(number(r["count"]) >= 0 for r in rel), "reliability rows"
    for m in ("true", "under", "over"):
        assert sum(number(r["count"]) for r in rel if r["model"] == m) == 1000, m
    scores = rows("ckce-reliability-scores.csv", ["model", "ckce", "jkce", "ece"])
    assert [r["model"] for r in scores] == ["true", "under", "over"], "scores"
    assert all(number(r["ckce"]) >= 0 for r in scores), "ckce >= 0"
    reps = {"toy": 3, "reliability": 1, "comparison": 10, "shift": 1}
    for name in ("ckce-toy", "ckce-toy-raw", "ckce-reliability", "ckce-reliability-scores", "ckce-reliability-raw",
                 "ckce-comparison", "ckce-comparison-raw", "ckce-shift", "ckce-shift-setup", "ckce-shift-raw"):
        j = json.load(open("%s/%s.meta.json" % (d, name)))
        need = ["app", "experiment", "cell", "parameters", "seed", "reps", "quick", "calib_version", "git_revision",
                "compiler", "threads", "wall_time_seconds", "rows", "fingerprint"]
        missing = [k for k in need if k not in j]
        assert not missing and j["app"] == "repro-ckce" and j["cell"] == name, (name, missing)
        assert j["quick"] is True and j["seed"] == 1234 and j["reps"] == reps[name.split("-")[1]], name
        assert j["threads"] == 1 and j["wall_time_seconds"] >= 0, name
except (AssertionError, ValueError, KeyError, OSError) as err:
    bad.append(repr(err))
for b in bad:
    print("FAIL: repro-ckce output: " + b)
sys.exit(1 if bad else 0)
PY
# An interrupted run: the journal keeps replicates 0-4 of every cell (the first value altered to
# 12345, which must survive), the rows of replicate 5 without their "done" lines, and a cut line.
mkdir "$tmp/journal"
python3 - "$tmp/one" "$tmp/journal/ckce-comparison-raw.journal" <<'PY' || failed=1
import csv, json, sys
d, journal = sys.argv[1], sys.argv[2]
meta = json.load(open(d + "/ckce-comparison-raw.meta.json"))
with open(d + "/ckce-comparison-raw.csv") as f:
    rows = list(csv.reader(f))[1:]
with open(journal, "w") as out:
    out.write("fingerprint: " + meta["fingerprint"] + "\n")
    task = None
    for i, r in enumerate(rows):
        if int(r[1]) > 5:
            continue
        if task is not None and task != r[:2] and int(task[1]) < 5:
            out.write("done %s,%s\n" % tuple(task))
        task = r[:2]
        out.write(",".join(r[:-1] + ["12345" if i == 0 else r[-1]]) + "\n")
    out.write("done 2,")
PY
"$bin" --quick --threads 2 --only comparison --resume --out "$tmp/journal" 2>"$tmp/err4" || { echo "FAIL: repro-ckce --resume after an interruption: $(head -c 300 "$tmp/err4")"; failed=1; }
python3 - "$tmp/one/ckce-comparison-raw.csv" "$tmp/journal/ckce-comparison-raw.csv" <<'PY' || { echo "FAIL: --resume did not keep the journal's tasks, or reran the others differently"; failed=1; }
import sys
a, b = (open(p).read().splitlines() for p in sys.argv[1:])
assert len(a) == len(b) and b[1].endswith(",12345") and a[2:] == b[2:]
PY
[ -e "$tmp/journal/ckce-comparison-raw.journal" ] && { echo "FAIL: the journal remains after the resumed run"; failed=1; }
printf 'fingerprint: other\n' > "$tmp/journal/ckce-shift-raw.journal"
"$bin" --quick --only shift --resume --out "$tmp/journal" 2>/dev/null
[ $? -eq 1 ] || { echo "FAIL: --resume with a journal of other parameters must exit 1"; failed=1; }
if [ $failed -eq 0 ]; then echo "repro-ckce --quick: outputs well-formed, thread-invariant and resumable (also per task)"; fi
exit $failed

#!/usr/bin/env bash
# make test's check of repro-ckce: runs it with --quick on 1 and 2 threads and once more with
# --resume, and checks that the outputs are well-formed (every CSV file has its columns and
# numbers in range, every JSON sidecar its fields), identical for both thread counts and after a
# resume, and that the App. A closed forms hold on the exact-frequency samples.
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
    for e in ("ckce-toy", "ckce-reliability", "ckce-comparison", "ckce-shift"):
        j = json.load(open("%s/%s.json" % (d, e)))
        need = ["experiment", "paper", "parameters", "seed", "reps", "quick", "outputs", "calib_version", "git_revision",
                "compiler", "threads", "wall_time_seconds"]
        missing = [k for k in need if k not in j]
        assert not missing and j["experiment"] == e and j["quick"] is True and j["seed"] == 1234, (e, missing)
        assert j["threads"] == 1 and j["wall_time_seconds"] >= 0, e
except (AssertionError, ValueError, KeyError, OSError) as err:
    bad.append(repr(err))
for b in bad:
    print("FAIL: repro-ckce output: " + b)
sys.exit(1 if bad else 0)
PY
if [ $failed -eq 0 ]; then echo "repro-ckce --quick: outputs well-formed, thread-invariant and resumable"; fi
exit $failed

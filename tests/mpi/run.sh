#!/usr/bin/env bash
# make test's check of the MPI builds (make mpi, docs/scaling.md):
#   bash tests/mpi/run.sh build/mpi/bin build/bin
# Every reproduction app runs with --quick under `mpirun -np P --oversubscribe` (P = 1, 2, 3 for
# the quick ones; the slower three with 2 replicates and P = 3 only, to keep this under a minute)
# and its CSVs (timing files excepted) must be byte-identical to the plain build's. Then --resume
# across process counts: cells of a run with P = 2 deleted and recomputed with P = 3; a task journal
# of an interrupted run (part of the tasks, one value altered, a task cut short) resumed with P = 3
# keeps its tasks and reruns the others. Usage errors under mpirun: one line, exit 2. Then calib
# estimate / calib test under mpirun -np 1, 2, 3 against the plain calib (JSON without its timings).
# Ends with "N passed, M failed" and fails if M > 0.
set -u
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
    echo "usage: bash tests/mpi/run.sh MPI_BINDIR PLAIN_BINDIR (from the top of the repository)" >&2
    exit 2
fi
mpi=$(cd "$1" && pwd)
plain=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# mpirun refuses to run as root without these; -q keeps its own messages out of stderr (an app's
# error stays its one line); the apps run one task at a time per rank.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
run() { local np=$1; shift; mpirun -q --oversubscribe -np "$np" "$@"; }

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

# same_csvs A B: every CSV of directory A (timing files excepted) is in B with the same bytes, and B
# has no other CSV.
same_csvs() {
    local differ="" f name
    for f in "$1"/*.csv; do
        name=$(basename "$f")
        case "$name" in *_times.csv) continue ;; esac
        cmp -s "$f" "$2/$name" || differ="$differ $name"
    done
    for f in "$2"/*.csv; do [ -e "$1/$(basename "$f")" ] || differ="$differ +$(basename "$f")"; done
    [ -z "$differ" ] && return 0
    echo "$differ"
    return 1
}

# app, options, process counts
cases=("repro-iclr2021-synthetic|--quick|1 2 3"
       "repro-iclr2021-ols|--quick|2 3"
       "repro-iclr2021-friedman|--quick|2 3"
       "repro-ckce|--quick|2 3"
       "repro-neurips2019|--quick --reps 2|3"
       "repro-validity|--quick --reps 2|3"
       "repro-gruber-bach|--quick --reps 2|3"
       "repro-marx|--quick|2 3"
       "repro-arena|--quick --reps 2|3")
for c in "${cases[@]}"; do
    IFS='|' read -r app options counts <<<"$c"
    ref="$tmp/$app.plain"
    "$plain/$app" $options --quiet --threads 1 --out "$ref" 2>"$tmp/err" || { bad "$app (plain) failed: $(head -c 300 "$tmp/err")"; continue; }
    for np in $counts; do
        out="$tmp/$app.np$np"
        if ! run "$np" "$mpi/$app" $options --quiet --out "$out" >"$tmp/stdout" 2>"$tmp/err"; then
            bad "mpirun -np $np $app $options failed: $(head -c 300 "$tmp/err")"
            continue
        fi
        [ -s "$tmp/err" ] && bad "mpirun -np $np $app: stderr not empty: $(head -c 200 "$tmp/err")" || ok
        if differ=$(same_csvs "$ref" "$out"); then ok; else bad "mpirun -np $np $app $options: CSVs differ from one process:$differ"; fi
        grep -q "\"ranks\": $np," "$out"/*.meta.json && ok || bad "$app -np $np: the sidecars do not record $np ranks"
    done
done

# --resume across process counts: a run with P = 2, half of its cells deleted (an interrupted run),
# resumed with P = 3: the kept cells are skipped untouched, the others recomputed, all as one process.
app=repro-iclr2021-synthetic
out="$tmp/resume"
run 2 "$mpi/$app" --quick --quiet --out "$out" 2>/dev/null || bad "$app -np 2 failed"
cells=$(ls "$out"/*.csv | grep -v _times.csv | sort)
deleted=$(echo "$cells" | awk 'NR % 2 == 0')
kept=$(echo "$cells" | awk 'NR % 2 == 1' | head -1)
before=$(cat "$kept" "${kept%.csv}.meta.json" | cksum)
for f in $deleted; do rm -f "$f" "${f%.csv}.meta.json" "${f%.csv}_times.csv" "${f%.csv}_times.meta.json"; done
run 3 "$mpi/$app" --quick --quiet --resume --out "$out" 2>"$tmp/resume.err" || bad "$app -np 3 --resume failed: $(head -c 300 "$tmp/resume.err")"
grep -q "resume: $(basename "${kept%.csv}") is done, skipped" "$tmp/resume.err" && ok || bad "$app -np 3 --resume did not skip $(basename "$kept")"
[ "$(grep -c skipped "$tmp/resume.err")" -ge 1 ] && [ "$(sort "$tmp/resume.err" | uniq -d | wc -l)" -eq 0 ] && ok ||
    bad "$app -np 3 --resume: each note once, from rank 0: $(head -c 300 "$tmp/resume.err")"
[ "$before" = "$(cat "$kept" "${kept%.csv}.meta.json" | cksum)" ] && ok || bad "$app -np 3 --resume rewrote $(basename "$kept")"
if differ=$(same_csvs "$tmp/$app.plain" "$out"); then ok; else bad "$app resumed with another P: CSVs differ:$differ"; fi

# A task journal of an interrupted repro-ckce run: replicates 0-4 of every cell (the first value
# altered to 12345, which must survive), replicate 5 without its "done" line, and a cut line; resumed
# with P = 3, the rest must be as one process computed it.
app=repro-ckce
mkdir "$tmp/journal"
python3 - "$tmp/$app.plain" "$tmp/journal/ckce-comparison-raw.journal" <<'PY' || bad "could not write the journal"
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
run 3 "$mpi/$app" --quick --quiet --only comparison --resume --out "$tmp/journal" 2>"$tmp/journal.err" ||
    bad "$app -np 3 --resume after an interruption: $(head -c 300 "$tmp/journal.err")"
python3 - "$tmp/$app.plain/ckce-comparison-raw.csv" "$tmp/journal/ckce-comparison-raw.csv" <<'PY' && ok || bad "$app -np 3 --resume did not keep the journal's tasks, or reran the others differently"
import sys
a, b = (open(p).read().splitlines() for p in sys.argv[1:])
assert len(a) == len(b) and b[1].endswith(",12345") and a[2:] == b[2:]
PY
[ -e "$tmp/journal/ckce-comparison-raw.journal" ] && bad "$app: the journal remains after the resumed run" || ok

# Errors under mpirun: one line from rank 0, exit 2; --help once, exit 0.
for args in "--reps 0" "--frobnicate"; do
    run 3 "$mpi/repro-iclr2021-ols" $args >/dev/null 2>"$tmp/usage.err"
    code=$?
    [ $code -eq 2 ] && [ "$(wc -l <"$tmp/usage.err")" -eq 1 ] && ok || bad "mpirun -np 3 repro-iclr2021-ols $args: exit $code, stderr: $(head -c 400 "$tmp/usage.err")"
done
run 3 "$mpi/repro-iclr2021-ols" --help >"$tmp/help" 2>"$tmp/help.err"
code=$?
[ $code -eq 0 ] && [ "$(grep -c '^usage:' "$tmp/help")" -eq 1 ] && [ ! -s "$tmp/help.err" ] && ok || bad "mpirun -np 3 --help: exit $code, $(grep -c '^usage:' "$tmp/help") usage lines"

# calib estimate / calib test: the engine's pairwise sums split over the ranks; the JSON must be the
# plain build's, bytes and all, but for the timing fields. preds.csv: n = 800 (13 strips of 64
# rows), gauss.csv: n = 1500. The bootstrap with a fixed memory budget (auto follows the free
# memory), once with its Gram matrix cached and once recomputing tiles over 3 passes of replicates.
strip_times() { python3 -c 'import json, sys
for line in sys.stdin:
    o = json.loads(line); o.pop("compute_seconds", None); o.pop("wall_time_seconds", None); print(json.dumps(o))'; }
cat_data="--family categorical --input examples/data/preds.csv"
calls=("estimate $cat_data --estimator skce-unbiased"
       "estimate $cat_data --estimator skce-biased"
       "estimate $cat_data --estimator skce-block --block-size 2"
       "estimate $cat_data --estimator skce-block --block-size 100"
       "estimate --family normal --input examples/data/gauss.csv --estimator skce-unbiased"
       "test $cat_data --method gamma"
       "test $cat_data --method block"
       "test $cat_data --method spectral --replicates 200 --seed 3"
       "test $cat_data --method bootstrap --replicates 200 --seed 3 --memory-budget 1G"
       "test $cat_data --method bootstrap --replicates 600 --seed 3 --memory-budget 4M"
       "test --family normal --input examples/data/gauss.csv --method gamma"
       "estimate $cat_data --estimator mmd --notion class-wise"
       "test $cat_data --method bootstrap --estimator mmd --notion top-label --replicates 200 --seed 3 --memory-budget 1G"
       "estimate $cat_data --estimator ce-ukkr --folds 3")
for call in "${calls[@]}"; do
    "$plain/calib" $call 2>"$tmp/err" | strip_times >"$tmp/calib.plain" || { bad "calib $call (plain) failed: $(head -c 300 "$tmp/err")"; continue; }
    for np in 1 2 3; do
        if run "$np" "$mpi/calib" $call 2>"$tmp/err" | strip_times >"$tmp/calib.np$np"; then
            cmp -s "$tmp/calib.plain" "$tmp/calib.np$np" && ok || bad "mpirun -np $np calib $call differs: $(diff "$tmp/calib.plain" "$tmp/calib.np$np" | head -c 400)"
        else
            bad "mpirun -np $np calib $call failed: $(head -c 300 "$tmp/err")"
        fi
    done
done
# The input through stdin, which reaches rank 0 only: it reads it and sends it on.
call="test --family categorical --input - --method gamma"
"$plain/calib" $call <examples/data/preds.csv | strip_times >"$tmp/stdin.plain"
run 3 "$mpi/calib" $call <examples/data/preds.csv 2>"$tmp/err" | strip_times >"$tmp/stdin.np3"
cmp -s "$tmp/stdin.plain" "$tmp/stdin.np3" && [ -s "$tmp/stdin.plain" ] && ok || bad "mpirun -np 3 calib $call <preds.csv differs: $(head -c 300 "$tmp/err")"
# Errors: one line from rank 0, exit 2 (a missing file, a bad option).
# The commands not spread over processes refuse to run on several (each rank would write the same files).
for call in "test --family categorical --input $tmp/missing.csv --method gamma" "test --family categorical --input examples/data/preds.csv --method nonsense" \
            "report $cat_data --output $tmp/report.html" "metrics $cat_data"; do
    run 3 "$mpi/calib" $call >/dev/null 2>"$tmp/err"
    code=$?
    [ $code -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "mpirun -np 3 calib $call: exit $code, stderr: $(head -c 400 "$tmp/err")"
done

echo "mpi: $passed passed, $failed failed"
[ $failed -eq 0 ]

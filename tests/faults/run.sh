#!/usr/bin/env bash
# Fault tests of every file calib writes, run by `make test`:
#   bash tests/faults/run.sh build/bin/calib [build/bin/repro-APP]
# Each writer (the map of recalibrate fit, the predictions of recalibrate apply as CSV and .npy, the
# report as HTML and JSON, the results of a harness app) refuses to write over any of its inputs, and meets a full disk, a disk that fails at
# fsync and a kill in the middle of its write (tests/faults/inject.c, loaded with LD_PRELOAD), a
# device that refuses every byte (/dev/full), a read-only target and a missing folder. Each must give
# the previous file unchanged (or no file, if there was none) and a one-line error with exit 2, or
# after a kill leave a partial file that the next run removes; a symbolic link's target is updated
# and a FIFO written through. Ends with "N passed, M failed" and fails if M > 0.
set -u

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: bash tests/faults/run.sh BINARY [HARNESS-APP]" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
app=${2:+$(cd "$(dirname "$2")" && pwd)/$(basename "$2")}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

cc -shared -fPIC -O1 -o inject.so "$here/inject.c" -ldl || { echo "FAIL: cannot build inject.so"; exit 1; }

# 300 rows of 3-class probabilities (rows sum to 1, 6 decimals) with labels, from a fixed LCG.
awk 'BEGIN { s = 7; print "p1,p2,p3,label";
  for (i = 0; i < 300; i++) {
    for (k = 1; k <= 4; k++) { s = (s * 1103515245 + 12345) % 2147483648; u[k] = s / 2147483648 }
    a = 0.2 + u[1]; b = 0.2 + u[2]; c = 0.2 + u[3]; t = a + b + c
    p1 = sprintf("%.6f", a / t); p2 = sprintf("%.6f", b / t); p3 = sprintf("%.6f", 1 - p1 - p2)
    label = (u[4] < p1) ? 0 : (u[4] < p1 + p2) ? 1 : 2
    print p1 "," p2 "," p3 "," label } }' >preds.csv

run() { "$bin" "$@" >out.txt 2>err.txt; }
one_line_error() {  # $1: case, $2: exit code, $3: text the line must contain
    if [ "$2" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- "$3" err.txt; then ok; else
        bad "$1: exit $2, stderr: $(head -c 300 err.txt)"; fi
}
no_partials() {  # $1: case, $2: the target
    if ls "$2".calib-partial-* >/dev/null 2>&1; then bad "$1: a partial file is left: $(ls "$2".calib-partial-*)"; else ok; fi
}

# The file equals the previous run's, or for the JSON report (which records its time), is whole JSON.
same_or_valid() {
    case $1 in
    report.json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" ;;
    *) cmp -s previous "$1" ;;
    esac
}

# One writer: $1 its name, $2 the target, then the command (which writes the target).
check_writer() {
    local name=$1 target=$2
    shift 2
    rm -f "$target" "$target".calib-partial-*
    run "$@" && [ -s "$target" ] && ok || { bad "$name: the first run failed: $(head -c 300 err.txt)"; return; }
    cp "$target" previous
    for fault in CALIB_FAULT_FULL_AFTER=100 CALIB_FAULT_FSYNC=1; do
        env LD_PRELOAD="$tmp/inject.so" "$fault" "$bin" "$@" >out.txt 2>err.txt
        one_line_error "$name, $fault" $? "cannot be written"
        cmp -s previous "$target" && ok || bad "$name, $fault: the previous file changed"
        no_partials "$name, $fault" "$target"
    done
    # A new target on a full disk: no file at all.
    rm -f "$target"
    env LD_PRELOAD="$tmp/inject.so" CALIB_FAULT_FULL_AFTER=100 "$bin" "$@" >out.txt 2>err.txt
    one_line_error "$name, new file on a full disk" $? "cannot be written"
    [ -e "$target" ] && bad "$name: a truncated new file was left" || ok
    no_partials "$name, new file" "$target"
    # Killed in the middle of the write: the previous file stays; the partial file goes at the next run.
    cp previous "$target"
    { env LD_PRELOAD="$tmp/inject.so" CALIB_FAULT_KILL_AFTER=100 "$bin" "$@" >out.txt 2>err.txt; } 2>/dev/null
    code=$?  # (the braces keep bash's "Killed" off the test's output)
    [ $code -eq 137 ] && ok || bad "$name: expected a kill (137), got $code"
    cmp -s previous "$target" && ok || bad "$name, kill: the previous file changed"
    ls "$target".calib-partial-* >/dev/null 2>&1 && ok || bad "$name, kill: expected the killed run's partial file"
    run "$@" && same_or_valid "$target" && ok || bad "$name: the run after a kill did not write a whole file"
    no_partials "$name, the run after a kill" "$target"
}

check_writer "recalibrate fit" map.json \
    recalibrate fit --family categorical --input preds.csv --method temperature --out map.json
check_writer "recalibrate apply (CSV)" applied.csv \
    recalibrate apply --map map.json --input preds.csv --labelled --output applied.csv
check_writer "recalibrate apply (.npy)" applied.npy \
    recalibrate apply --map map.json --input preds.csv --labelled --output applied.npy
report=(report --family categorical --input preds.csv --replicates 20 --quiet)
# The HTML report only meets a full disk here: it is the JSON report's writer with other bytes.
check_writer "report (JSON)" report.json "${report[@]}" --format json --output report.json
run "${report[@]}" --output report.html && [ -s report.html ] && ok || bad "report (HTML): $(head -c 300 err.txt)"
cp report.html previous
env LD_PRELOAD="$tmp/inject.so" CALIB_FAULT_FULL_AFTER=100 "$bin" "${report[@]}" --output report.html >out.txt 2>err.txt
one_line_error "report (HTML), full disk" $? "cannot be written"
cmp -s previous report.html && ok || bad "report (HTML), full disk: the previous file changed"
no_partials "report (HTML)" report.html

# Devices: /dev/full refuses every byte (reached through a link, so that a mistaken rename replaces
# the link, never the device); standard output on a full device is an error too.
ln -s /dev/full full
for args in "recalibrate fit --family categorical --input preds.csv --method temperature --out full" \
    "recalibrate apply --map map.json --input preds.csv --labelled --output full" \
    "${report[*]} --output full" "${report[*]} --format json --output full"; do
    # shellcheck disable=SC2086
    run $args
    one_line_error "calib $args" $? "No space left on device"
    [ -L full ] && [ -c /dev/full ] && ok || bad "calib $args replaced the device or its link"
done
"$bin" estimate --family categorical --input preds.csv --estimator ece >/dev/full 2>err.txt
one_line_error "calib estimate >/dev/full" $? "standard output: cannot be written"

# A FIFO is written through: its reader gets the whole file and the FIFO stays.
mkfifo pipe.json
cat pipe.json >from_pipe.json &
reader=$!
run recalibrate fit --family categorical --input preds.csv --method temperature --out pipe.json
code=$?
wait $reader
[ $code -eq 0 ] && [ -p pipe.json ] && cmp -s from_pipe.json map.json && ok || bad "a FIFO as --out: exit $code, $(head -c 200 err.txt)"

# A symbolic link: its target is the file updated, the link stays.
mkdir -p real && rm -f real/map.json && echo '{}' >real/map.json && ln -s real/map.json linked.json
run recalibrate fit --family categorical --input preds.csv --method temperature --out linked.json
[ -L linked.json ] && cmp -s real/map.json map.json && ok || bad "a link as --out: $(head -c 200 err.txt)"

# Checked before the work: a read-only target or a missing folder is reported before the input is
# read (the input here does not exist), and the read-only file is unchanged.
echo '{"kept": true}' >readonly.json && chmod 444 readonly.json && cp readonly.json previous
run recalibrate fit --family categorical --input missing.csv --method temperature --out readonly.json
one_line_error "a read-only --out" $? "read-only"
cmp -s previous readonly.json && ok || bad "a read-only --out changed"
run recalibrate fit --family categorical --input missing.csv --method temperature --out no/such/map.json
one_line_error "--out in a missing folder" $? "does not exist"
run recalibrate apply --map missing.json --input missing.csv --output no/such/out.csv
one_line_error "--output in a missing folder" $? "does not exist"
run "${report[@]}" --input missing.csv --output no/such/report.html
one_line_error "report --output in a missing folder" $? "does not exist"

# No output over an input: every writer refuses a target that is the same file as any file the command
# reads (by name, through a symbolic or a hard link, or as the file redirected to standard input),
# before anything is read or written: exit 2, one line, the input byte for byte as it was.
cut -d, -f4 preds.csv >labels.csv && cut -d, -f1-3 preds.csv >probs.csv
awk -F, 'NR > 1 { print $1 }' preds.csv >x.csv
awk 'BEGIN { for (i = 0; i < 300; i++) printf "%.3f,1,%.3f\n", i / 300, i / 250 }' >normal.csv
run recalibrate fit --family normal --input normal.csv --method affine-features --features x.csv --out affine.json ||
    bad "the affine-features map: $(head -c 300 err.txt)"
ln -sf preds.csv preds_link.csv && ln -f preds.csv preds_hard.csv
never_over() {  # $1: case, $2: the input that must stay, $3: the option the message names, then the command
    local name=$1 input=$2 option=$3
    shift 3
    cp "$input" kept
    run "$@"
    one_line_error "$name" $? "is the same file as $option"
    cmp -s kept "$input" && ok || bad "$name: the input changed"
}
fit=(recalibrate fit --family categorical --method temperature)
never_over "fit --out = --input" preds.csv --input "${fit[@]}" --input preds.csv --out preds.csv
never_over "fit --out = --labels" labels.csv --labels "${fit[@]}" --input probs.csv --labels labels.csv --out labels.csv
never_over "fit --out = --targets (its other name)" labels.csv --labels "${fit[@]}" --input probs.csv --targets labels.csv --out labels.csv
never_over "fit --out through a symbolic link" preds.csv --input "${fit[@]}" --input preds.csv --out preds_link.csv
never_over "fit --out through a hard link" preds.csv --input "${fit[@]}" --input preds.csv --out preds_hard.csv
never_over "fit --out = ./--input" preds.csv --input "${fit[@]}" --input preds.csv --out ./preds.csv
never_over "fit --out = --features" x.csv --features recalibrate fit --family normal --input normal.csv \
    --method affine-features --features x.csv --out x.csv
cp preds.csv kept
"$bin" "${fit[@]}" --input - --out preds.csv <preds.csv >out.txt 2>err.txt
one_line_error "fit --out = the file on standard input" $? "is the same file as --input stdin"
cmp -s kept preds.csv && ok || bad "fit --out = standard input: the input changed"
apply=(recalibrate apply --map map.json)
never_over "apply --output = --input" probs.csv --input "${apply[@]}" --input probs.csv --output probs.csv
never_over "apply --output = --map" map.json --map "${apply[@]}" --input probs.csv --output map.json
never_over "apply --output = --features" x.csv --features recalibrate apply --map affine.json --input normal.csv --labelled \
    --features x.csv --output x.csv
report=(report --family categorical --replicates 20 --quiet)
never_over "report --output = --input" preds.csv --input "${report[@]}" --input preds.csv --output preds.csv
cp preds.csv preds_copy.csv
never_over "report --output = the second --input" preds.csv --input "${report[@]}" --input preds_copy.csv preds.csv --output preds.csv
never_over "report --output = --labels" labels.csv --labels "${report[@]}" --input probs.csv --labels labels.csv --output labels.csv
never_over "report --format json --output = --input" preds.csv --input "${report[@]}" --input preds.csv --format json --output preds.csv
cp preds.csv report.html
never_over "report's default report.html = --input" report.html --input "${report[@]}" --input report.html
rm -f report.html

# A harness app: its tables are written whole; a full disk stops it with exit 2 and one line, leaves
# the previous results as they were and no partial file.
if [ -n "$app" ]; then
    "$app" --quick --quiet --threads 2 --out results >out.txt 2>err.txt && ok || bad "$(basename "$app"): $(head -c 300 err.txt)"
    cp -r results previous_results
    env LD_PRELOAD="$tmp/inject.so" CALIB_FAULT_FULL_AFTER=100 "$app" --quick --quiet --threads 2 --out results \
        >out.txt 2>err.txt
    code=$?
    one_line_error "$(basename "$app") on a full disk" $code "cannot be written"
    diff -r previous_results results >/dev/null && ok || bad "$(basename "$app") on a full disk changed its previous results"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
